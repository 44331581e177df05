// Writes the C header, the Python module and the documentation table of the
// shootdown unit's registers from ShootdownMap:
//   ./mill hw.runMain shootdown.devices.GenShootdownHeaders --header FILE --doc FILE --python FILE --finisher FILE
// (--finisher: the test finisher's address and commands, from hw/testing/SimDevices.scala)
// The outputs are committed; tests/system/test_generated.py fails when they
// are stale.
package shootdown.devices

import java.nio.file.{Files, Paths}
import shootdown.soc.{FinisherCommands, SimDevicesParams}

object GenShootdownHeaders {
  import ShootdownMap._

  private val defaults = ShootdownParams()
  private def hex(v: BigInt) = "0x" + v.toString(16)
  private def define(name: String, value: String, doc: String = "") = {
    val d = f"#define TLBSD_$name%-28s $value"
    if (doc.isEmpty) d else f"$d%-50s /* $doc */"
  }

  /** C macros for a register's fields: a flag for a one-bit field, an
    * accessor (and its shift) for a wider one. */
  private def fieldMacros(reg: String, fields: Seq[FieldDesc]): Seq[String] = fields.flatMap { f =>
    val name = s"${reg}_${f.name}"
    if (f.bits == 1) Seq(define(name, s"(1UL << ${f.lsb})", f.doc))
    else Seq(
      define(s"${name}_SHIFT", f.lsb.toString),
      define(s"$name(v)", s"(((v) >> ${f.lsb}) & ${hex((BigInt(1) << f.bits) - 1)}UL)", f.doc))
  }
  private def regComment(r: RegDesc): String =
    Seq(r.accessName, r.semantics).filter(_.nonEmpty).mkString(", ") + ": " + r.doc

  def header: String = {
    val b = new StringBuilder
    def line(s: String = "") = b ++= s + "\n"
    line("/* SPDX-License-Identifier: BSD-2-Clause */")
    line("/*")
    line(" * Batched TLB shootdown unit: registers, codes and entry format.")
    line(" * GENERATED from hw/devices/ShootdownMap.scala by GenShootdownHeaders;")
    line(" * do not edit. Registers are 64-bit wide unless noted; access SUBMIT")
    line(" * and SUBMIT_ONE with one 64-bit load, because reading them submits.")
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
    line("/* Global registers (page 0, machine mode). */")
    Global.all.foreach(r => line(define(r.name, hex(r.offset), regComment(r))))
    line(define("AGENT_CYCLES_HART(h)", s"(${hex(Global.agentCycles.offset)} + 8 * (h))"))
    Global.all.foreach(r => fieldMacros(r.name, r.fields).foreach(line(_)))
    line()
    line("/* Channel limits (page 0, offsets inside TLBSD_LIMIT(hart)). */")
    line(define("LIMIT(hart)", s"(${hex(Global.limits)} + ${hex(Global.limitStride)} * (hart))"))
    Limit.all.foreach(r => line(define(s"LIMIT_${r.name}", hex(r.offset), regComment(r))))
    line()
    line("/* Channel registers (offsets inside TLBSD_CHANNEL(hart)). */")
    Channel.all.foreach(r => line(define(s"CH_${r.name}", hex(r.offset), regComment(r))))
    Channel.all.foreach(r => fieldMacros(r.name, r.fields).foreach(line(_)))
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
    line(define("ENTRY_NONLEAF", s"(1UL << ${Entry.nonLeafBit})", Entry.fields.find(_.name == "NONLEAF").get.doc))
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

  /** The same description for the Python reference model and benches. */
  def python: String = {
    val b = new StringBuilder
    def line(s: String = "") = b ++= s + "\n"
    def const(name: String, v: BigInt, doc: String = "") =
      line(s"$name = ${if (v > 255) hex(v) else v.toString}" + (if (doc.nonEmpty) s"  # $doc" else ""))
    def regs(prefix: String, rs: Seq[RegDesc]) = rs.foreach { r =>
      const(prefix + r.name, r.offset, regComment(r))
      r.fields.foreach(f => line(s"${prefix}${r.name}_${f.name} = Field(${f.lsb}, ${f.bits})  # ${f.doc}"))
    }
    def table(name: String, prefix: String, rs: Seq[RegDesc]) = {
      line(s"$name = {")
      rs.foreach { r =>
        line(s"    ${prefix}${r.name}: Reg(${py(r.name)}, ${r.bits}, ${py(r.accessName)}, ${py(r.semantics)}, " +
          s"${r.reset.map(_.toString).getOrElse("None")}),")
      }
      line("}")
    }
    def py(s: String) = "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""
    line("\"\"\"The shootdown unit's software interface, GENERATED from")
    line("hw/devices/ShootdownMap.scala by GenShootdownHeaders; do not edit.\"\"\"")
    line("from collections import namedtuple")
    line()
    line("Field = namedtuple(\"Field\", \"lsb bits\")")
    line("Reg = namedtuple(\"Reg\", \"name bits access semantics reset\")")
    line()
    line()
    line("def get(value, field):")
    line("    return value >> field.lsb & ((1 << field.bits) - 1)")
    line()
    line()
    line(s"COMPATIBLE = ${py(compatible)}")
    const("VERSION", version)
    const("DEFAULT_BASE", defaults.address)
    const("PAGE_BYTES", pageBytes)
    const("WINDOW_BYTES", windowBytes)
    const("MAX_CHANNELS", maxChannels)
    line()
    line()
    line("def channel(hart):")
    line("    return PAGE_BYTES * (1 + hart)")
    line()
    line()
    line("def limit(hart):")
    line(s"    return ${hex(Global.limits)} + ${hex(Global.limitStride)} * hart")
    line()
    line()
    line("# Global registers (page 0)")
    regs("", Global.all)
    line("# Channel limits (page 0, inside limit(hart))")
    regs("LIMIT_", Limit.all)
    line("# Channel registers (inside channel(hart))")
    regs("CH_", Channel.all)
    const("SUBMIT_BUSY", submitBusy, "SUBMIT's answer when the queue is full")
    line("# Error codes: SUBMIT returns -code, ERROR.CODE holds code")
    Err.all.foreach(e => const(e.name, e.value, e.doc))
    line("# List entries")
    const("ENTRY_BYTES", Entry.bytes)
    Entry.fields.foreach(f => line(s"ENTRY_${f.name} = Field(${f.lsb}, ${f.bits})  # ${f.doc}"))
    const("ENTRY_MAX_PAGES", Entry.maxPages)
    Entry.kinds.foreach(k => const(k.name, k.value, k.doc))
    Entry.sizes.foreach(s => const(s.name, s.value, s.doc))
    line(s"SIZE_LOG2 = (${Entry.sizeLog2.mkString(", ")})")
    line()
    table("GLOBAL_REGS", "", Global.all)
    table("LIMIT_REGS", "LIMIT_", Limit.all)
    table("CHANNEL_REGS", "CH_", Channel.all)
    line()
    line("# Debug knobs (hw/testing/Mutants.scala, `sim +mutant=NAME`): each of")
    line("# MUTANTS breaks the rule it names, so a check must catch it; AIDS break none.")
    def knobs(name: String, m: Map[String, String]) = {
      line(s"$name = {")
      m.toSeq.sortBy(_._1).foreach { case (k, v) => line(s"    ${py(k)}: ${py(v)},") }
      line("}")
    }
    knobs("MUTANTS", Mutants.all)
    knobs("AIDS", Mutants.aids)
    b.toString
  }

  def doc: String = {
    val b = new StringBuilder
    def line(s: String = "") = b ++= s + "\n"
    def table(regs: Seq[RegDesc]) = {
      line("| offset | name | access | reset | meaning |")
      line("|---|---|---|---|---|")
      regs.foreach { r =>
        val access = Seq(r.accessName, r.semantics).filter(_.nonEmpty).mkString(", ")
        val fields = r.fields.map(f =>
          s"<br>[${if (f.bits == 1) f.lsb.toString else s"${f.lsb + f.bits - 1}:${f.lsb}"}] ${f.name}: ${f.doc}").mkString
        line(s"| ${hex(r.offset)} | ${r.name} | $access | ${r.reset.map(hex).getOrElse("see meaning")} | ${r.doc}$fields |")
      }
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
    line("For machine mode: firmware keeps page 0 from S-mode with a PMP entry.")
    line()
    table(Global.all)
    line()
    line(s"## Channel limits (page 0, at ${hex(Global.limits)} + ${hex(Global.limitStride)} * h)")
    line()
    line("What channel h may ask for. A submission outside them is refused with ERR_DENIED.")
    line("They reset closed (no list fits, no hart may be targeted): firmware opens each")
    line("channel before it, or the supervisor it hands the channel to, submits on it.")
    line()
    table(Limit.all)
    line()
    line("## Channel registers (one page per hart)")
    line()
    line("Hart h's channel takes writes and submissions only from hart h (the unit tells")
    line("harts apart by their TileLink source ids): another hart's write is dropped and")
    line("its SUBMIT or SUBMIT_ONE read answers `-ERR_FOREIGN`; both count in CTR_FOREIGN.")
    line("Another hart's read of any other register answers 0: the channel's state (its")
    line("next request, the firmware's last entry, progress and errors) is its hart's alone.")
    line("Registers are accessed whole: a write that covers part of a register changes")
    line("nothing (rocket-chip's register map), and a read of SUBMIT or SUBMIT_ONE narrower")
    line("than 64 bits submits nothing and answers its part of `-ERR_NARROW`.")
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
    Entry.fields.foreach { f =>
      line(s"| ${if (f.bits == 1) f.lsb.toString else s"${f.lsb + f.bits - 1}:${f.lsb}"} | ${f.name}: ${f.doc} |")
    }
    line()
    consts(Entry.kinds)
    line()
    consts(Entry.sizes)
    line()
    line("SIZE 3 is reserved for the per-VA kinds: a list holding such an entry runs as one full flush")
    line("and ends with ERR_BAD_ENTRY; SUBMIT_ONE refuses it. KIND_ASID and KIND_ALL ignore VA,")
    line("SIZE, PAGES and NONLEAF.")
    b.toString
  }

  /** The test finisher's address and commands (SimDevices.scala). */
  def finisherHeader: String = {
    def d(name: String, value: String, doc: String = "") = {
      val s = f"#define FINISHER_$name%-10s $value"
      if (doc.isEmpty) s else f"$s%-40s /* $doc */"
    }
    Seq(
      "/* SPDX-License-Identifier: BSD-2-Clause */",
      "/*",
      " * The test finisher (sifive,test0, at QEMU virt's address): a word written",
      " * to it ends the run. GENERATED from hw/testing/SimDevices.scala by",
      " * GenShootdownHeaders; do not edit.",
      " */",
      "#ifndef FINISHER_H",
      "#define FINISHER_H",
      "",
      d("BASE", hex(SimDevicesParams().finisherAddress) + "UL"),
      d("PASS", hex(FinisherCommands.Pass), "status 0"),
      d("FAIL", hex(FinisherCommands.Fail), "(code << 16) | FAIL: status code"),
      d("RESET", hex(FinisherCommands.Reset), "a reboot: the harness ends with 1"),
      d("SNAPSHOT", hex(FinisherCommands.Snapshot), "the harness's snapshot point"),
      "",
      "#endif",
      "").mkString("\n")
  }

  def main(args: Array[String]): Unit = {
    val opts = args.grouped(2).collect { case Array(k, v) => k -> v }.toMap
    if (args.length % 2 != 0 || (opts.keySet -- Set("--header", "--doc", "--python", "--finisher")).nonEmpty || opts.isEmpty) {
      System.err.println("usage: GenShootdownHeaders [--header FILE] [--doc FILE] [--python FILE] [--finisher FILE]")
      sys.exit(64)
    }
    opts.get("--header").foreach(f => Files.write(Paths.get(f), header.getBytes("UTF-8")))
    opts.get("--doc").foreach(f => Files.write(Paths.get(f), doc.getBytes("UTF-8")))
    opts.get("--python").foreach(f => Files.write(Paths.get(f), python.getBytes("UTF-8")))
    opts.get("--finisher").foreach(f => Files.write(Paths.get(f), finisherHeader.getBytes("UTF-8")))
  }
}
