// The shootdown unit's software interface: registers with their bit fields
// and access semantics, error codes, and the entry format. The RTL takes its
// offsets and register descriptions from here, and `GenShootdownHeaders`
// writes the C header, the Python module the tests import and the
// documentation table from the same description, so none of them can drift.
package shootdown.devices

import freechips.rocketchip.regmapper.{RegFieldAccessType, RegFieldDesc, RegFieldRdAction, RegFieldWrType}

/** A bit field of a register. */
case class FieldDesc(name: String, lsb: Int, bits: Int, doc: String)

/** One register: `offset` inside its page, `access` as software sees it,
  * `rdAction`/`wrType` when a read or a write does more than read or store
  * (rocket-chip's RegFieldDesc vocabulary), `reset` when it is a constant
  * (None: it depends on the build, the doc says how). */
case class RegDesc(
    name: String,
    offset: Int,
    access: RegFieldAccessType.Value,
    bits: Int,
    doc: String,
    fields: Seq[FieldDesc] = Nil,
    rdAction: Option[RegFieldRdAction.Value] = None,
    wrType: Option[RegFieldWrType.Value] = None,
    volatile: Boolean = false,
    reset: Option[BigInt] = Some(0)) {
  /** What a read or a write does beyond the value, in words (docs, headers). */
  def semantics: String = Seq(
    rdAction.collect { case RegFieldRdAction.MODIFY => "read has an effect" },
    wrType.map {
      case RegFieldWrType.ONE_TO_CLEAR => "write 1 to clear"
      case RegFieldWrType.CLEAR => "any write clears"
      case w => w.toString.toLowerCase
    }).flatten.mkString(", ")
  def accessName: String = access.toString
  /** The register as rocket-chip describes it (its JSON and object model). */
  def regFieldDesc(prefix: String, resetValue: Option[BigInt] = reset): RegFieldDesc = RegFieldDesc(
    name = prefix + name.toLowerCase,
    desc = doc,
    access = access,
    wrType = wrType,
    rdAction = rdAction,
    volatile = volatile,
    reset = resetValue)
}

/** A named constant that software needs (codes, field positions). */
case class ConstDesc(name: String, value: BigInt, doc: String)

object ShootdownMap {
  import RegFieldAccessType.{R, RW}

  val compatible = "tlb-shootdown,batched-v2"
  val version = 2

  /** Page 0 holds global registers; hart `h`'s channel is page `1 + h`. */
  val pageBytes = 0x1000
  def channelBase(hart: Int): Int = pageBytes * (1 + hart)
  /** Channels that fit in the unit's 64 KiB window. */
  val maxChannels = 15
  val windowBytes = pageBytes * (1 + maxChannels)

  /** Page 0: machine-mode registers (firmware keeps them from S-mode with PMP). */
  object Global {
    val info = RegDesc("INFO", 0x000, R, 64, "what this unit is", Seq(
      FieldDesc("VERSION", 0, 8, "interface version"),
      FieldDesc("CHANNELS", 8, 8, "channels (harts)"),
      FieldDesc("COUNTER_BITS", 16, 8, "width of the counters in bits"),
      FieldDesc("MAX_ENTRIES", 32, 32, "most entries one request may carry")), reset = None)
    val ceiling = RegDesc("CEILING", 0x008, RW, 32,
      "a request that would flush more pages than this runs as one full flush instead (a value above the most pages a request can name reads back as all ones); reset: the build's crossover", reset = None)
    // The counters are INFO.counter_bits wide and wrap; the bits above read 0.
    val requests  = RegDesc("CTR_REQUESTS", 0x010, R, 64, "requests completed", volatile = true)
    val entries   = RegDesc("CTR_ENTRIES", 0x018, R, 64, "list entries carried out (not those a fallback or an error replaced by a full flush)", volatile = true)
    val pages     = RegDesc("CTR_PAGES", 0x020, R, 64, "page flushes sent to the agents (one per page, whatever the number of targets)", volatile = true)
    val fallbacks = RegDesc("CTR_FALLBACKS", 0x028, R, 64, "requests run as a full flush because of CEILING", volatile = true)
    val errors    = RegDesc("CTR_ERRORS", 0x030, R, 64, "requests refused at submission or completed with an error", volatile = true)
    val timeout   = RegDesc("TIMEOUT", 0x038, RW, 32,
      "cycles a request waits for a target to take a command or acknowledge, then it gives up on that target (FAILED, ERR_TIMEOUT) and goes on without it; cycles a target given up on must then be idle before requests name it again; and cycles the list reader waits for an answer, then it gives the list up (ERR_LIST_TIMEOUT); 0 waits for ever; reset: the build's value", reset = None)
    val timeouts  = RegDesc("CTR_TIMEOUTS", 0x040, R, 64, "targets given up on or left out as dead (one per target and request)", volatile = true)
    val foreign   = RegDesc("CTR_FOREIGN", 0x048, R, 64, "channel writes and submits refused because another hart made them", volatile = true)
    val agentCycles = RegDesc("AGENT_CYCLES", 0x100, R, 64,
      "one register per hart, 8 bytes apart: cycles that hart's flush agent spent busy (flushing or draining)", volatile = true)
    /** Per-channel limits, `limitStride` bytes apart from `limits`. */
    val limits = 0x200
    val limitStride = 0x20
    val all = Seq(info, ceiling, requests, entries, pages, fallbacks, errors, timeout, timeouts, foreign, agentCycles)
  }

  /** Page 0, at Global.limits + h * Global.limitStride: what channel h may
    * ask for. They reset closed (no list, no target: every submission is
    * refused with ERR_DENIED), and firmware opens a channel by setting them
    * before it, or S-mode, uses it. */
  object Limit {
    val listBase  = RegDesc("LIST_BASE", 0x00, RW, 64, "lowest address a list of this channel may use; reset 0 (with LIST_LIMIT 0, no list fits)")
    val listLimit = RegDesc("LIST_LIMIT", 0x08, RW, 64, "a list of this channel must end at or below this address; reset 0 (closed); all ones: up to the end of DRAM")
    val allowed   = RegDesc("ALLOWED", 0x10, RW, 64, "harts this channel may target (bit h = hart h); reset 0 (closed)")
    val all = Seq(listBase, listLimit, allowed)
  }

  /** One page per hart, written, submitted and read only by that hart:
    * another hart's writes are dropped and counted (CTR_FOREIGN), its
    * SUBMIT and SUBMIT_ONE answer -ERR_FOREIGN, and its reads of every
    * other register answer 0. */
  object Channel {
    val targets  = RegDesc("TARGETS", 0x00, RW, 64, "hart mask of the next request (bit h = hart h); a mask naming an absent hart is stored, and reads back, as 0")
    val list     = RegDesc("LIST", 0x08, RW, 64, "physical address of the next request's entry list (8-byte aligned, inside DRAM and the channel's LIST_BASE..LIST_LIMIT window); an address above the unit's width is stored, and reads back, as all ones with its low 3 bits kept")
    val count    = RegDesc("COUNT", 0x10, RW, 32, "entries in the list, 1 to INFO.max_entries; a larger value is stored, and reads back, as INFO.max_entries + 1")
    val submit   = RegDesc("SUBMIT", 0x18, R, 64,
      "a 64-bit read submits TARGETS/LIST/COUNT as one request; returns its ticket (never 0), 0 if the channel's queue is full (nothing was submitted: retry), or minus an error code (nothing was submitted); a narrower read submits nothing and answers -ERR_NARROW",
      rdAction = Some(RegFieldRdAction.MODIFY), volatile = true)
    val status   = RegDesc("STATUS", 0x20, R, 64, "progress of the channel's requests (requests of a channel complete in order)", Seq(
      FieldDesc("DONE", 0, 32, "ticket of the last completed request"),
      FieldDesc("IDLE", 32, 1, "every request this channel submitted has completed"),
      FieldDesc("ERROR", 33, 1, "ERROR holds an error (a refused submission or a request that completed with one)")), volatile = true)
    val error    = RegDesc("ERROR", 0x28, RW, 64, "last error on this channel", Seq(
      FieldDesc("TICKET", 0, 32, "the request's ticket (0 if refused at submission)"),
      FieldDesc("CODE", 32, 8, "error code")), wrType = Some(RegFieldWrType.CLEAR), volatile = true)
    val acked    = RegDesc("ACKED", 0x30, R, 64, "targets that have acknowledged the channel's oldest request in the unit, or the last one completed", volatile = true)
    val irqEnable  = RegDesc("IRQ_ENABLE", 0x38, RW, 1, "1: raise this channel's interrupt when the channel becomes IDLE")
    val irqPending = RegDesc("IRQ_PENDING", 0x40, RW, 1, "1: the channel became IDLE since last cleared",
      wrType = Some(RegFieldWrType.ONE_TO_CLEAR), volatile = true)
    val failed   = RegDesc("FAILED", 0x48, RW, 64,
      "targets this channel's requests gave up on (ERR_TIMEOUT) since software last cleared them: bits are only added until cleared",
      wrType = Some(RegFieldWrType.ONE_TO_CLEAR), volatile = true)
    val entry    = RegDesc("ENTRY", 0x50, RW, 64, "one list entry, for SUBMIT_ONE")
    val submitOne = RegDesc("SUBMIT_ONE", 0x58, R, 64,
      "a 64-bit read submits TARGETS and ENTRY as a one-entry request (no list is read); answers as SUBMIT does (a narrower read submits nothing), and refuses a reserved ENTRY with ERR_BAD_ENTRY",
      rdAction = Some(RegFieldRdAction.MODIFY), volatile = true)
    val errors   = RegDesc("ERRORS", 0x60, RW, 16,
      "sticky error summary: bit c is set when a submission on this channel was refused with code c or one of its requests completed with code c (ERR_FOREIGN and ERR_NARROW are not recorded; a request that gave up on a target sets ERR_TIMEOUT and its list's code, if it had one), and stays set until cleared; ERROR keeps only the last error",
      wrType = Some(RegFieldWrType.ONE_TO_CLEAR), volatile = true)
    val all = Seq(targets, list, count, submit, status, error, acked, irqEnable, irqPending, failed, entry, submitOne, errors)
  }

  /** Error codes: SUBMIT returns `-code`, ERROR.CODE holds `code`. */
  object Err {
    val badTargets = ConstDesc("ERR_BAD_TARGETS", 1, "TARGETS is empty or names a hart the SoC does not have")
    val badCount   = ConstDesc("ERR_BAD_COUNT", 2, "COUNT is 0 or above INFO.max_entries")
    val badAlign   = ConstDesc("ERR_BAD_ALIGN", 3, "LIST is not 8-byte aligned")
    val badRange   = ConstDesc("ERR_BAD_RANGE", 4, "the list does not lie entirely inside DRAM")
    val badEntry   = ConstDesc("ERR_BAD_ENTRY", 5, "an entry uses a reserved encoding: the request ran as a full flush (SUBMIT_ONE: nothing was submitted)")
    val busError   = ConstDesc("ERR_BUS", 6, "reading the list returned a bus error; the request ran as a full flush")
    val timeout    = ConstDesc("ERR_TIMEOUT", 7, "targets (FAILED) did not take a command or acknowledge within TIMEOUT cycles, or were left out at once because an earlier request gave up on them and their agents have not been idle for TIMEOUT cycles since; the request completed for the others")
    val denied     = ConstDesc("ERR_DENIED", 8, "TARGETS names a hart outside the channel's ALLOWED mask, or the list leaves its LIST_BASE..LIST_LIMIT window")
    val foreign    = ConstDesc("ERR_FOREIGN", 9, "another hart read this channel's SUBMIT or SUBMIT_ONE (not recorded in ERROR)")
    val narrow     = ConstDesc("ERR_NARROW", 10, "SUBMIT or SUBMIT_ONE was read with fewer than its 64 bits (a 32-bit read gets its half of the answer): nothing was submitted (not recorded in ERROR)")
    val listTimeout = ConstDesc("ERR_LIST_TIMEOUT", 11, "a read of the list was not answered within TIMEOUT cycles: the request ran as one full flush; the unit uses that read's slot again only once its answer comes")
    val all = Seq(badTargets, badCount, badAlign, badRange, badEntry, busError, timeout, denied, foreign, narrow, listTimeout)
    /** Bits of a channel's ERRORS summary: one per code (bit 0 unused). */
    val summaryBits = all.map(_.value).max.toInt + 1
    require(summaryBits <= Channel.errors.bits, "ERRORS has no bit for every error code")
  }

  /** A 64-bit list entry, in the style of Arm's TLBI operand:
    * ASID in the top bits, the page-aligned VA in place, flags below. */
  object Entry {
    val bytes = 8
    val kindShift = 0;   val kindBits = 2
    val sizeShift = 2;   val sizeBits = 2
    val pagesShift = 4;  val pagesBits = 7   // pages - 1
    val nonLeafBit = 11
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
    val fields = Seq(
      FieldDesc("ASID", asidShift, asidBits, "ASID"),
      FieldDesc("VA", vaShift, vaTop + 1 - vaShift, s"VA[$vaTop:$vaShift], in place"),
      FieldDesc("NONLEAF", nonLeafBit, 1, "per-VA kinds: also drop cached non-leaf entries (page-table pages) on the way to these pages; ignored by the other kinds, which always do"),
      FieldDesc("PAGES", pagesShift, pagesBits, s"pages - 1 (1 to $maxPages pages of SIZE, from VA up)"),
      FieldDesc("SIZE", sizeShift, sizeBits, "SIZE"),
      FieldDesc("KIND", kindShift, kindBits, "KIND"))
  }

  /** SUBMIT's "queue full" answer. */
  val submitBusy = 0
}
