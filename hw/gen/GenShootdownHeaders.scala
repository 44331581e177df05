// Writes the C header and the documentation table of the shootdown unit's
// registers from ShootdownMap:
//   ./mill hw.runMain shootdown.devices.GenShootdownHeaders --header FILE --doc FILE
// Both outputs are committed; tests/system/test_generated.py fails when they
// are stale.
package shootdown.devices

import java.nio.file.{Files, Paths}

object GenShootdownHeaders {
  import ShootdownMap._

  private val defaults = ShootdownParams()
  private def hex(v: BigInt) = "0x" + v.toString(16)
  private def define(name: String, value: String, doc: String = "") = {
    val d = f"#define TLBSD_$name%-28s $value"
    if (doc.isEmpty) d else f"$d%-50s /* $doc */"
  }

  def header: String = {
    val b = new StringBuilder
    def line(s: String = "") = b ++= s + "\n"
    line("/* SPDX-License-Identifier: BSD-2-Clause */")
    line("/*")
    line(" * Batched TLB shootdown unit: registers, codes and entry format.")
    line(" * GENERATED from hw/devices/ShootdownMap.scala by GenShootdownHeaders;")
    line(" * do not edit. Registers are 64-bit wide unless noted; access SUBMIT")
    line(" * with one 64-bit load, because reading it submits a request.")
    line(" */")
    line("#ifndef TLB_SHOOTDOWN_REGS_H")
    line("#define TLB_SHOOTDOWN_REGS_H")
    line()
    line("/* clang-format off */")
    line()
    line(define("COMPATIBLE", "\"" + compatible + "\""))
    line(define("VERSION", version.toString))
    line(define("DEFAULT_BASE", hex(defaults.address) + "UL", "where the SoC configs put it"))
    line(define("WINDOW_SIZE", hex(windowBytes)))
    line(define("MAX_CHANNELS", maxChannels.toString))
    line(define("CHANNEL(hart)", s"(${hex(pageBytes)}UL * (1 + (hart)))", "channel page offset"))
    line()
    line("/* Global registers (page 0). */")
    Global.all.foreach(r => line(define(r.name, hex(r.offset), s"${r.access}: ${r.doc}")))
    line(define("AGENT_CYCLES_HART(h)", s"(${hex(Global.agentCycles.offset)} + 8 * (h))"))
    line(define("INFO_CHANNELS(info)", "(((info) >> 8) & 0xff)"))
    line(define("INFO_COUNTER_BITS(info)", "(((info) >> 16) & 0xff)"))
    line(define("INFO_MAX_ENTRIES(info)", "((info) >> 32)"))
    line()
    line("/* Channel registers (offsets inside TLBSD_CHANNEL(hart)). */")
    Channel.all.foreach(r => line(define(s"CH_${r.name}", hex(r.offset), s"${r.access}: ${r.doc}")))
    line(define("STATUS_DONE(s)", "((uint32_t)(s))", "ticket of the last completed request"))
    line(define("STATUS_IDLE", s"(1UL << $statusIdleBit)", "all submitted requests completed"))
    line(define("ERROR_TICKET(e)", "((uint32_t)(e))"))
    line(define("ERROR_CODE(e)", "(((e) >> 32) & 0xff)"))
    line(define("SUBMIT_BUSY", submitBusy.toString, "queue full: nothing submitted, retry"))
    line()
    line("/* Error codes: SUBMIT returns -code, ERROR holds code. */")
    Err.all.foreach(e => line(define(e.name, e.value.toString, e.doc)))
    line()
    line("/* List entry: one 64-bit word, 8-byte aligned. */")
    line(define("ENTRY_BYTES", Entry.bytes.toString))
    line(define("ENTRY_KIND_SHIFT", Entry.kindShift.toString))
    line(define("ENTRY_SIZE_SHIFT", Entry.sizeShift.toString))
    line(define("ENTRY_PAGES_SHIFT", Entry.pagesShift.toString, "pages - 1"))
    line(define("ENTRY_ASID_SHIFT", Entry.asidShift.toString))
    line(define("ENTRY_VA_MASK", hex(((BigInt(1) << (Entry.vaTop + 1)) - 1) ^ ((BigInt(1) << Entry.vaShift) - 1)) + "UL", "VA[47:12], in place"))
    line(define("ENTRY_MAX_PAGES", Entry.maxPages.toString, "per entry"))
    Entry.kinds.foreach(k => line(define(k.name, k.value.toString, k.doc)))
    Entry.sizes.foreach(s => line(define(s.name, s.value.toString, s.doc)))
    line(define("ENTRY(kind, size, pages, va, asid)",
      "((uint64_t)(kind) | (uint64_t)(size) << TLBSD_ENTRY_SIZE_SHIFT | \\\n" +
      "\t(uint64_t)((pages) - 1) << TLBSD_ENTRY_PAGES_SHIFT | ((uint64_t)(va) & TLBSD_ENTRY_VA_MASK) | \\\n" +
      "\t(uint64_t)(asid) << TLBSD_ENTRY_ASID_SHIFT)"))
    line()
    line("/* clang-format on */")
    line()
    line("#endif")
    b.toString
  }

  def doc: String = {
    val b = new StringBuilder
    def line(s: String = "") = b ++= s + "\n"
    def table(regs: Seq[RegDesc]) = {
      line("| offset | name | access | bits | meaning |")
      line("|---|---|---|---|---|")
      regs.foreach(r => line(s"| ${hex(r.offset)} | ${r.name} | ${r.access} | ${r.bits} | ${r.doc} |"))
    }
    def consts(cs: Seq[ConstDesc]) = {
      line("| value | name | meaning |")
      line("|---|---|---|")
      cs.foreach(c => line(s"| ${c.value} | ${c.name} | ${c.doc} |"))
    }
    line("<!-- GENERATED from hw/devices/ShootdownMap.scala by GenShootdownHeaders; do not edit. -->")
    line("# Shootdown unit registers")
    line()
    line(s"""Device-tree `compatible = "$compatible"`, interface version $version. The unit""")
    line(s"occupies ${windowBytes / 1024} KiB (default base ${hex(defaults.address)}): page 0 holds the global")
    line(s"registers, page `1 + h` (offset `${hex(pageBytes)} * (1 + h)`) is hart h's channel.")
    line("Registers are 64-bit; use 64-bit accesses.")
    line()
    line("## Global registers (page 0)")
    line()
    table(Global.all)
    line()
    line("## Channel registers (one page per hart)")
    line()
    table(Channel.all)
    line()
    line("## Error codes")
    line()
    line("SUBMIT returns `-code`; ERROR[39:32] holds `code`.")
    line()
    consts(Err.all)
    line()
    line("## List entry (64 bits)")
    line()
    line("| bits | field |")
    line("|---|---|")
    line(s"| ${Entry.asidShift + Entry.asidBits - 1}:${Entry.asidShift} | ASID |")
    line(s"| ${Entry.vaTop}:${Entry.vaShift} | VA[${Entry.vaTop}:${Entry.vaShift}], in place |")
    line(s"| ${Entry.pagesShift + Entry.pagesBits - 1}:${Entry.pagesShift} | pages - 1 (1 to ${Entry.maxPages} pages of SIZE, from VA up) |")
    line(s"| ${Entry.sizeShift + Entry.sizeBits - 1}:${Entry.sizeShift} | SIZE |")
    line(s"| ${Entry.kindShift + Entry.kindBits - 1}:${Entry.kindShift} | KIND |")
    line()
    consts(Entry.kinds)
    line()
    consts(Entry.sizes)
    line()
    line("SIZE 3 is reserved: the request runs as a full flush and ends with ERR_BAD_ENTRY.")
    line("KIND_ASID and KIND_ALL ignore VA, SIZE and pages.")
    b.toString
  }

  def main(args: Array[String]): Unit = {
    val opts = args.grouped(2).collect { case Array(k, v) => k -> v }.toMap
    if (args.length % 2 != 0 || (opts.keySet -- Set("--header", "--doc")).nonEmpty || opts.isEmpty) {
      System.err.println("usage: GenShootdownHeaders [--header FILE] [--doc FILE]")
      sys.exit(64)
    }
    opts.get("--header").foreach(f => Files.write(Paths.get(f), header.getBytes("UTF-8")))
    opts.get("--doc").foreach(f => Files.write(Paths.get(f), doc.getBytes("UTF-8")))
  }
}
