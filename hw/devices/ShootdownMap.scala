// The shootdown unit's software interface: register offsets, status and
// error codes, and the entry format. The RTL takes its offsets from here, and
// `GenShootdownHeaders` writes the C header and the documentation table from
// the same description, so the three cannot drift apart.
package shootdown.devices

/** One register: `offset` inside its page, `access` as software sees it. */
case class RegDesc(name: String, offset: Int, access: String, bits: Int, doc: String)

/** A named constant that software needs (codes, field positions). */
case class ConstDesc(name: String, value: BigInt, doc: String)

object ShootdownMap {
  val compatible = "tlb-shootdown,batched-v1"
  val version = 1

  /** Page 0 holds global registers; hart `h`'s channel is page `1 + h`. */
  val pageBytes = 0x1000
  def channelBase(hart: Int): Int = pageBytes * (1 + hart)
  /** Channels that fit in the unit's 64 KiB window. */
  val maxChannels = 15
  val windowBytes = pageBytes * (1 + maxChannels)

  object Global {
    val info        = RegDesc("INFO", 0x000, "R", 64,
      "[7:0] interface version, [15:8] channels (harts), [23:16] width of the counters in bits, [63:32] most entries one request may carry")
    val ceiling     = RegDesc("CEILING", 0x008, "RW", 32,
      "a request that would flush more pages than this runs as one full flush instead (a value above the most pages a request can name reads back as all ones)")
    // The counters are INFO.counter_bits wide and wrap; the bits above read 0.
    val requests    = RegDesc("CTR_REQUESTS", 0x010, "R", 64, "requests completed")
    val entries     = RegDesc("CTR_ENTRIES", 0x018, "R", 64, "list entries carried out (not those a fallback or an error replaced by a full flush)")
    val pages       = RegDesc("CTR_PAGES", 0x020, "R", 64, "page flushes sent to the agents (one per page, whatever the number of targets)")
    val fallbacks   = RegDesc("CTR_FALLBACKS", 0x028, "R", 64, "requests turned into a full flush by CEILING")
    val errors      = RegDesc("CTR_ERRORS", 0x030, "R", 64, "requests refused at submission or completed with an error")
    val agentCycles = RegDesc("AGENT_CYCLES", 0x100, "R", 64,
      "one register per hart, 8 bytes apart: cycles that hart's flush agent spent busy (flushing or draining)")
    val all = Seq(info, ceiling, requests, entries, pages, fallbacks, errors, agentCycles)
  }

  object Channel {
    val targets  = RegDesc("TARGETS", 0x00, "RW", 64, "hart mask of the next request (bit h = hart h); a mask naming an absent hart is stored, and reads back, as 0")
    val list     = RegDesc("LIST", 0x08, "RW", 64, "physical address of the next request's entry list (8-byte aligned, inside DRAM); an address above the unit's width is stored, and reads back, as all ones with its low 3 bits kept")
    val count    = RegDesc("COUNT", 0x10, "RW", 32, "entries in the list, 1 to INFO.max_entries; a larger value is stored, and reads back, as INFO.max_entries + 1")
    val submit   = RegDesc("SUBMIT", 0x18, "R", 64,
      "a 64-bit read submits TARGETS/LIST/COUNT as one request; returns its ticket (> 0), 0 if the channel's queue is full (nothing was submitted: retry), or minus an error code (nothing was submitted)")
    val status   = RegDesc("STATUS", 0x20, "R", 64,
      "[31:0] ticket of the last completed request (requests of a channel complete in order), [32] IDLE: every request this channel submitted has completed")
    val error    = RegDesc("ERROR", 0x28, "RW", 64,
      "last error on this channel: [31:0] ticket (0 if refused at submission), [39:32] error code; any write clears it")
    val acked    = RegDesc("ACKED", 0x30, "R", 64,
      "targets that have acknowledged the request in progress, or the last one completed")
    val irqEnable  = RegDesc("IRQ_ENABLE", 0x38, "RW", 1, "1: raise this channel's interrupt when the channel becomes IDLE")
    val irqPending = RegDesc("IRQ_PENDING", 0x40, "RW", 1, "1: the channel became IDLE since last cleared; write 1 to clear")
    val all = Seq(targets, list, count, submit, status, error, acked, irqEnable, irqPending)
  }

  /** Error codes: SUBMIT returns `-code`, ERROR.code holds `code`. */
  object Err {
    val badTargets = ConstDesc("ERR_BAD_TARGETS", 1, "TARGETS is empty or names a hart the SoC does not have")
    val badCount   = ConstDesc("ERR_BAD_COUNT", 2, "COUNT is 0 or above INFO.max_entries")
    val badAlign   = ConstDesc("ERR_BAD_ALIGN", 3, "LIST is not 8-byte aligned")
    val badRange   = ConstDesc("ERR_BAD_RANGE", 4, "the list does not lie entirely inside DRAM")
    val badEntry   = ConstDesc("ERR_BAD_ENTRY", 5, "an entry uses a reserved encoding; the request ran as a full flush")
    val busError   = ConstDesc("ERR_BUS", 6, "reading the list returned a bus error; the request ran as a full flush")
    val all = Seq(badTargets, badCount, badAlign, badRange, badEntry, busError)
  }

  /** A 64-bit list entry, in the style of Arm's TLBI operand:
    * ASID in the top bits, the page-aligned VA in place, flags below. */
  object Entry {
    val bytes = 8
    val kindShift = 0;   val kindBits = 2
    val sizeShift = 2;   val sizeBits = 2
    val pagesShift = 4;  val pagesBits = 8   // pages - 1
    val vaShift = 12;    val vaTop = 47      // VA[47:12] in place
    val asidShift = 48;  val asidBits = 16
    val maxPages = 1 << pagesBits

    val kindVaAsid = ConstDesc("KIND_VA_ASID", 0, "pages at VA in ASID; global mappings may be kept (sfence.vma va, asid)")
    val kindVaAll  = ConstDesc("KIND_VA_ALL", 1, "pages at VA in every ASID, global ones too (sfence.vma va, x0)")
    val kindAsid   = ConstDesc("KIND_ASID", 2, "every non-global mapping of ASID (sfence.vma x0, asid)")
    val kindAll    = ConstDesc("KIND_ALL", 3, "every mapping (sfence.vma x0, x0)")
    val size4K = ConstDesc("SIZE_4K", 0, "4 KiB pages")
    val size2M = ConstDesc("SIZE_2M", 1, "2 MiB pages")
    val size1G = ConstDesc("SIZE_1G", 2, "1 GiB pages")
    val kinds = Seq(kindVaAsid, kindVaAll, kindAsid, kindAll)
    val sizes = Seq(size4K, size2M, size1G)
    /** log2 of the page size for each size code. */
    val sizeLog2 = Seq(12, 21, 30)
  }

  /** SUBMIT's "queue full" answer. */
  val submitBusy = 0
  val statusIdleBit = 32
}
