// The batched shootdown unit: takes a hart mask and a list of (ASID, VA,
// size) entries as one request, streams the list from memory, broadcasts one
// flush command per page to the targets' flush agents, and completes when
// every target has acknowledged (flushed and drained). See
// docs/shootdown-unit.md for the behaviour and ShootdownMap for the registers.
package shootdown.devices

import chisel3._
import chisel3.util._
import freechips.rocketchip.config.{Field, Parameters}
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.interrupts._
import freechips.rocketchip.regmapper._
import freechips.rocketchip.tilelink._

/** @param address     base of the 64 KiB register window
  * @param maxEntries  most entries one request may carry (INFO.max_entries)
  * @param queueDepth  requests a channel may have posted and not yet completed
  * @param ceiling     reset value of CEILING (pages): the measured crossover
  *                    (bench_ceiling.c, docs/shootdown-unit.md)
  * @param listReads   list blocks the unit may have in flight at once
  * @param agentQueue  commands each flush agent buffers (a request of up to
  *                    this many pages costs each target one burst)
  * @param counterBits width of the performance counters (they wrap; INFO
  *                    tells software the width)
  * @param timeout     reset value of TIMEOUT: cycles a request waits for a
  *                    target before it gives up on it (about 10 ms at 100 MHz) */
case class ShootdownParams(
  address: BigInt = 0x4000000,
  maxEntries: Int = 4096,
  queueDepth: Int = 4,
  ceiling: Int = 128,
  listReads: Int = 4,
  agentQueue: Int = 32,
  counterBits: Int = 40,
  timeout: Int = 1 << 20) {
  require(maxEntries >= 256, "requests must carry at least 256 entries")
  require(queueDepth >= 1 && listReads >= 1 && agentQueue >= 2)
  require(counterBits >= 32 && counterBits <= 64)
  require(timeout >= 0)
  /** Bits that hold COUNT: up to maxEntries, plus one value above it. */
  val countBits = log2Ceil(maxEntries + 2)
  /** Bits that hold CEILING and a request's page count (each entry is at
    * most ShootdownMap.Entry.maxPages pages). */
  val pageCountBits = log2Ceil(maxEntries * ShootdownMap.Entry.maxPages + 1)
}

case object ShootdownKey extends Field[Option[ShootdownParams]](None)

object FlushCmd {
  val vpnBits = ShootdownMap.Entry.vaTop + 1 - ShootdownMap.Entry.vaShift
}

/** One command from the unit to every target's agent. */
class FlushCmd extends Bundle {
  /** No DTLB or walker flush: finish the request (the ITLB flush, drain,
    * acknowledge). Its `kind` and `asid` scope the ITLB flush: kind 2 (ASID)
    * when every command of the request named that ASID, else 3 (all). */
  val end  = Bool()
  /** ShootdownMap.Entry kinds: 0 VA in ASID, 1 VA in all ASIDs, 2 ASID, 3 all. */
  val kind = UInt(2.W)
  val vpn  = UInt(FlushCmd.vpnBits.W)
  val asid = UInt(ShootdownMap.Entry.asidBits.W)
  /** Per-VA kinds: drop cached non-leaf entries too (Entry NONLEAF). */
  val nonLeaf = Bool()
}

/** The link from the unit to one hart's agent, seen from the unit. */
class AgentPort extends Bundle {
  val cmd  = Decoupled(new FlushCmd)
  /** One-cycle pulse: the agent finished an `end` command. */
  val ack  = Input(Bool())
  /** The agent is flushing or draining (for AGENT_CYCLES). */
  val busy = Input(Bool())
}

/** A request as a channel's queue and the engine hold it. It carries no
  * ticket: a channel's requests complete in the order they were submitted,
  * so the channel knows the ticket of the one that completes (its last
  * completed ticket's successor). A list request's LIST and COUNT share the
  * 64 bits that a SUBMIT_ONE request's ENTRY takes (`ShootdownRequest.list`
  * and `count` take them apart). */
class ShootdownRequest(nHarts: Int, addrBits: Int, countBits: Int) extends Bundle {
  require(addrBits + countBits <= 64, s"LIST ($addrBits bits) and COUNT ($countBits bits) do not fit in 64 bits")
  val targets = UInt(nHarts.W)
  /** SUBMIT_ONE: `payload` is the request's only entry and no list is read. */
  val inline  = Bool()
  /** ENTRY (inline), else COUNT << addrBits | LIST. */
  val payload = UInt(64.W)
  override def cloneType = new ShootdownRequest(nHarts, addrBits, countBits).asInstanceOf[this.type]
}

object ShootdownRequest {
  // Functions, not members: chisel3 would take a Bundle's parameterless
  // methods that return hardware for fields.
  def pack(list: UInt, count: UInt): UInt = Cat(count, list)
  def list(r: ShootdownRequest, addrBits: Int): UInt = r.payload(addrBits - 1, 0)
  def count(r: ShootdownRequest, addrBits: Int, countBits: Int): UInt = r.payload(addrBits + countBits - 1, addrBits)
}

/** @param owner the hart whose channel a client of the register port may
  *              write and submit on (None: no channel) */
class ShootdownUnit(
    val params: ShootdownParams,
    val nHarts: Int,
    val memBase: BigInt,
    val memSize: BigInt,
    beatBytes: Int,
    val owner: TLClientParameters => Option[Int])(implicit p: Parameters) extends LazyModule {
  require(nHarts >= 1 && nHarts <= ShootdownMap.maxChannels,
    s"the shootdown unit serves 1 to ${ShootdownMap.maxChannels} harts, not $nHarts")

  // The device tree names the unit and where it is, nothing more: the
  // compatible gives the register layout (a page per channel), INFO the
  // channels and the longest list, the firmware's GET_INFO the same to S-mode.
  val device = new SimpleDevice("tlb-shootdown", Seq(ShootdownMap.compatible))

  /** The register port: where the bus's clients attach. The unit tells
    * them apart here, by client, and fragments their requests itself
    * behind this point, so that no adapter can come between the two and
    * renumber sources behind the owner check's back. An adapter in front
    * of it that merges clients leaves a tile without a client of its own
    * here, which fails elaboration. */
  val clientTap = TLIdentityNode()

  val regNode = TLRegisterNode(
    address   = Seq(AddressSet(params.address, ShootdownMap.windowBytes - 1)),
    device    = device,
    beatBytes = beatBytes)
  regNode := TLFragmenter(beatBytes, p(freechips.rocketchip.subsystem.CacheBlockBytes)) := clientTap

  /** Reads entry lists, a cache block at a time. */
  val listNode = TLClientNode(Seq(TLClientPortParameters(Seq(TLClientParameters(
    name     = "tlb-shootdown-list",
    sourceId = IdRange(0, params.listReads))))))

  /** One completion interrupt per channel. */
  val intNode = IntSourceNode(IntSourcePortSimple(num = nHarts, resources = device.int))

  lazy val module = new ShootdownUnitImp(this)
}

class ShootdownUnitImp(outer: ShootdownUnit) extends LazyModuleImp(outer) {
  import ShootdownMap._
  private val prm = outer.params
  private val n = outer.nHarts

  val io = IO(new Bundle {
    val agents = Vec(n, new AgentPort)
    /** For benches: the request (its place in the engine's order) whose
      * command the broadcaster takes this cycle; agents take it from the
      * next cycle on. */
    val sent = Output(Valid(UInt(32.W)))
  })

  val (tl, edge) = outer.listNode.out.head
  val (irqs, _) = outer.intNode.out.head
  val (regIn, regEdge) = outer.regNode.in.head

  private val beat = edge.manager.beatBytes
  require(beat == Entry.bytes, s"the list reader expects an ${Entry.bytes}-byte system bus, not $beat bytes")
  private val blockBytes = p(freechips.rocketchip.subsystem.CacheBlockBytes)
  private val lgBlock = log2Ceil(blockBytes)

  // Who may use which channel: the register port's clients by the hart they
  // belong to, as they were at `clientTap`. The unit's own fragmenter after
  // it merges them into one client and appends bits below their source ids
  // (rocket-chip 1.2.6 TLFragmenter); those are shifted out again here. The
  // register map answers in the cycle it takes the request (concurrency 0),
  // so the requester is the source on the A channel then.
  private val (_, tapEdge) = outer.clientTap.in.head
  private val tapSources = tapEdge.client.endSourceId
  private val sourceShift = log2Ceil(regEdge.client.endSourceId / tapSources)
  require(regEdge.client.endSourceId == tapSources << sourceShift,
    s"the shootdown unit cannot tell requesters apart: ${regEdge.client.endSourceId} source ids at its registers, $tapSources at its tap")
  private val ownerRanges: Seq[Seq[IdRange]] = (0 until n).map { h =>
    tapEdge.client.clients.filter(c => outer.owner(c) == Some(h)).map(_.sourceId)
  }
  ownerRanges.zipWithIndex.foreach { case (r, h) =>
    require(r.nonEmpty, s"no client of the shootdown unit's register port belongs to hart $h " +
      s"(clients: ${tapEdge.client.clients.map(_.name).mkString(", ")})")
  }
  private val requester = regIn.a.bits.source >> sourceShift
  // A read that submits must take the whole register: rocket-chip's register
  // map calls a field's read function when the access touches any of its
  // bytes, so a 32-bit read of SUBMIT would otherwise submit and see half
  // of the answer.
  private val wholeWord = regIn.a.bits.mask.andR
  private def fromOwner(h: Int): Bool = ownerRanges(h).map(_.contains(requester)).reduce(_ || _)

  // Registers are only as wide as what they must tell apart. LIST holds
  // addresses up to just past the end of DRAM; a written value above that
  // is stored as all ones (keeping its alignment bits) so that it still
  // fails the range check, and likewise COUNT saturates at maxEntries + 1
  // and TARGETS naming an absent hart stores 0. Software reads back the
  // stored value (docs/shootdown-registers.md).
  private val memEnd = outer.memBase + outer.memSize
  private val addrBits = log2Ceil(memEnd) + 1
  private val entryAddrBits = log2Ceil(Entry.bytes)
  private def clampAddr(v: UInt): UInt =
    Mux(v(63, addrBits).orR, Cat(Fill(addrBits - entryAddrBits, 1.U(1.W)), v(entryAddrBits - 1, 0)), v(addrBits - 1, 0))
  private def clampCount(v: UInt): UInt =
    Mux(v > prm.maxEntries.U, (prm.maxEntries + 1).U(prm.countBits.W), v(prm.countBits - 1, 0))
  private def clampTargets(v: UInt): UInt = Mux(v(63, n).orR, 0.U(n.W), v(n - 1, 0))
  private def newRequest = new ShootdownRequest(n, addrBits, prm.countBits)
  private def stored(r: UInt, clamp: UInt => UInt) = RegWriteFn((valid, data) => {
    when (valid) { r := clamp(data) }
    true.B
  })

  // ------------------------------------------------------------ global state
  val ceiling = RegInit(prm.ceiling.U(prm.pageCountBits.W))
  val timeout = RegInit(prm.timeout.U(32.W))
  val ctrRequests, ctrEntries, ctrPages, ctrFallbacks, ctrErrors, ctrTimeouts, ctrForeign =
    RegInit(0.U(prm.counterBits.W))
  val agentCycles = RegInit(VecInit(Seq.fill(n)(0.U(prm.counterBits.W))))
  io.agents.zip(agentCycles).foreach { case (a, c) => when (a.busy) { c := c + 1.U } }

  /** The ticket after `t`: tickets count 1 .. 2^32 - 1 and never 0, which
    * SUBMIT uses for "queue full". */
  private def nextTicket(t: UInt): UInt = Mux(t.andR, 1.U, t + 1.U)

  // ------------------------------------------------------------ channels
  class Channel(val index: Int) {
    val targets = RegInit(0.U(n.W))
    val list    = RegInit(0.U(addrBits.W))
    val count   = RegInit(0.U(prm.countBits.W))
    val entry   = RegInit(0.U(64.W))
    val posted  = RegInit(0.U(32.W))  // last ticket handed out
    val done    = RegInit(0.U(32.W))  // last ticket completed
    val errWord = RegInit(0.U(40.W))  // code << 32 | ticket
    val acked   = RegInit(0.U(n.W))
    val failed  = RegInit(0.U(n.W))   // sticky until written 1s clear it
    val errors  = RegInit(0.U(Err.summaryBits.W))  // sticky: bit c = code c seen
    /** This cycle's additions to `failed` and `errors` (the engine's, or a
      * refused submission's) and the bits a write clears: a bit both set
      * and cleared in one cycle stays set. */
    val failedSet, failedClear = WireDefault(0.U(n.W))
    val errorsSet, errorsClear = WireDefault(0.U(Err.summaryBits.W))
    failed := failed & ~failedClear | failedSet
    errors := errors & ~errorsClear | errorsSet
    val irqEn   = RegInit(false.B)
    val irqPend = RegInit(false.B)
    val queue   = Module(new Queue(newRequest, prm.queueDepth))
    val submitError = WireDefault(false.B)
    val foreign = WireDefault(false.B)
    val own = fromOwner(index)

    // Limits, set by firmware on page 0: closed until it opens them.
    val listBase  = RegInit(0.U(addrBits.W))
    val listLimit = RegInit(0.U(addrBits.W))
    val allowed   = RegInit(0.U(n.W))

    val ticket = nextTicket(posted)
    /** For the scoreboard's probe and the sync-one-early knob only (so
      * synthesis removes it): the ticket of this channel's request that
      * last started sending. */
    val started = RegInit(0.U(32.W))
    val full = !queue.io.enq.ready

    val listEnd = list +& (count << entryAddrBits)
    val targetsCode = Mux(targets === 0.U, Err.badTargets.value.U, Mux((targets & ~allowed) =/= 0.U, Err.denied.value.U, 0.U))
    val listCode = MuxCase(0.U(8.W), Seq(
      (targetsCode =/= 0.U)                                 -> targetsCode,
      (count === 0.U || count > prm.maxEntries.U)           -> Err.badCount.value.U,
      (list(entryAddrBits - 1, 0) =/= 0.U)                  -> Err.badAlign.value.U,
      (list < outer.memBase.U || listEnd > memEnd.U)        -> Err.badRange.value.U,
      (list < listBase || listEnd > listLimit)              -> Err.denied.value.U))
    val entryCode = Mux(targetsCode =/= 0.U, targetsCode, Mux(EntryExpander.reserved(entry), Err.badEntry.value.U, 0.U))

    queue.io.enq.valid := false.B
    queue.io.enq.bits.targets := targets
    queue.io.enq.bits.payload := ShootdownRequest.pack(list, count)
    queue.io.enq.bits.inline := false.B

    /** SUBMIT and SUBMIT_ONE: reads that submit. The answer is computed from
      * the state of the cycle the read is performed in, so it always tells
      * the truth. Another hart's read submits nothing and leaves ERROR alone. */
    private def submitter(code: UInt, inline: Boolean) = RegReadFn(ready => {
      when (ready) {
        when (!own) {
          foreign := true.B
        } .elsewhen (!wholeWord) {
          // nothing: the answer says so
        } .elsewhen (code =/= 0.U) {
          errWord := Cat(code, 0.U(32.W))
          errorsSet := UIntToOH(code, Err.summaryBits)
          submitError := true.B
        } .elsewhen (!full) {
          queue.io.enq.valid := true.B
          queue.io.enq.bits.inline := inline.B
          if (inline) { queue.io.enq.bits.payload := entry }
          posted := ticket
        }
      }
      val answer = Mux(!own, 0.U(64.W) - Err.foreign.value.U,
        Mux(!wholeWord, 0.U(64.W) - Err.narrow.value.U,
          Mux(code =/= 0.U, 0.U(64.W) - code, Mux(full, submitBusy.U(64.W), ticket))))
      (true.B, answer)
    })
    /** STATUS.IDLE: every ticket handed out has completed. */
    val idle = WireDefault(posted === done)
    irqs(index) := irqEn && irqPend

    /** A write from another hart is dropped and counted. */
    private def ownWrite(f: (Bool, UInt) => Unit) = RegWriteFn((valid, data) => {
      when (valid) {
        when (own) { f(valid, data) } .otherwise { foreign := true.B }
      }
      true.B
    })
    private def plain(r: UInt, clamp: UInt => UInt = identity) = ownWrite((_, d) => r := clamp(d))

    def regs: Seq[(Int, Seq[RegField])] = {
      def at(r: RegDesc) = channelBase(index) + r.offset
      def field(r: RegDesc, rd: RegReadFn, wr: Option[RegWriteFn] = None) =
        at(r) -> Seq(RegField(r.bits, rd, wr.getOrElse(RegWriteFn((_: Bool, _: UInt) => true.B)), r.regFieldDesc(s"ch${index}_")))
      // The channel's state reads as itself to its hart and as 0 to anyone
      // else (the requester is on the A channel in the cycle of the read).
      def owned(r: RegDesc, v: UInt, wr: Option[RegWriteFn] = None) =
        field(r, RegReadFn(_ => (true.B, Mux(own, v.pad(r.bits), 0.U(r.bits.W)))), wr)
      Seq(
        owned(Channel.targets, targets, Some(plain(targets, clampTargets))),
        owned(Channel.list, list, Some(plain(list, clampAddr))),
        owned(Channel.count, count, Some(plain(count, clampCount))),
        field(Channel.submit, submitter(listCode, inline = false)),
        owned(Channel.status, Cat(errWord =/= 0.U, idle, done)),
        owned(Channel.error, errWord, Some(ownWrite((_, _) => errWord := 0.U))),
        owned(Channel.acked, acked),
        owned(Channel.irqEnable, irqEn, Some(plain(irqEn, _(0)))),
        owned(Channel.irqPending, irqPend, Some(ownWrite((_, d) => when (d(0)) { irqPend := false.B }))),
        owned(Channel.failed, failed, Some(ownWrite((_, d) => failedClear := d(n - 1, 0)))),
        owned(Channel.entry, entry, Some(plain(entry))),
        field(Channel.submitOne, submitter(entryCode, inline = true)),
        owned(Channel.errors, errors, Some(ownWrite((_, d) => errorsClear := d(Err.summaryBits - 1, 0)))))
    }

    def limitRegs: Seq[(Int, Seq[RegField])] = {
      def at(r: RegDesc) = Global.limits + Global.limitStride * index + r.offset
      def desc(r: RegDesc) = r.regFieldDesc(s"ch${index}_")
      Seq(
        at(Limit.listBase)  -> Seq(RegField(64, RegReadFn(listBase.pad(64)), stored(listBase, clampAddr), desc(Limit.listBase))),
        at(Limit.listLimit) -> Seq(RegField(64, RegReadFn(listLimit.pad(64)), stored(listLimit, clampAddr), desc(Limit.listLimit))),
        at(Limit.allowed)   -> Seq(RegField(64, RegReadFn(allowed.pad(64)), stored(allowed, v => v(n - 1, 0)), desc(Limit.allowed))))
    }
  }
  val channels = Seq.tabulate(n)(new Channel(_))

  // ------------------------------------------------------------ registers
  // Mapped before the engine so that its updates (completion, interrupt
  // pending) win over a software write in the same cycle.
  private def at(r: RegDesc) = r.offset
  private def gdesc(r: RegDesc, reset: Option[BigInt] = None) = r.regFieldDesc("", reset.orElse(r.reset))
  private def counter(r: RegDesc, c: UInt) = at(r) -> Seq(RegField.r(prm.counterBits, c, gdesc(r)))
  private def saturate(bits: Int)(v: UInt): UInt = Mux(v(31, bits).orR, Fill(bits, 1.U(1.W)), v(bits - 1, 0))
  private val info = BigInt(prm.maxEntries) << 32 | BigInt(prm.counterBits) << 16 | BigInt(n) << 8 | version
  val global = Seq(
    at(Global.info)    -> Seq(RegField.r(64, info.U(64.W), gdesc(Global.info, Some(info)))),
    at(Global.ceiling) -> Seq(RegField(32, RegReadFn(ceiling.pad(32)), stored(ceiling, saturate(prm.pageCountBits)),
      gdesc(Global.ceiling, Some(prm.ceiling)))),
    at(Global.timeout) -> Seq(RegField(32, timeout, gdesc(Global.timeout, Some(prm.timeout)))),
    counter(Global.requests, ctrRequests),
    counter(Global.entries, ctrEntries),
    counter(Global.pages, ctrPages),
    counter(Global.fallbacks, ctrFallbacks),
    counter(Global.errors, ctrErrors),
    counter(Global.timeouts, ctrTimeouts),
    counter(Global.foreign, ctrForeign)) ++
    agentCycles.zipWithIndex.map { case (c, i) =>
      (at(Global.agentCycles) + 8 * i) -> Seq(RegField.r(prm.counterBits, c, Global.agentCycles.regFieldDesc(s"hart${i}_")))
    }
  outer.regNode.regmap((global ++ channels.flatMap(_.limitRegs) ++ channels.flatMap(_.regs)): _*)

  // ------------------------------------------------------------ engine
  // Channels served round-robin. The request being sent: the list reader
  // streams its entries to the expander (a SUBMIT_ONE request's entry goes
  // there directly), whose commands the broadcaster hands to every target.
  // Once its `end` has gone out it waits for acknowledgements in the
  // broadcaster, and the next request is sent meanwhile, its commands
  // queueing in the agents behind the first one's `end`; up to `inFlight`
  // requests wait at once, and they complete in order.
  val inFlight = 2
  val arb = Module(new RRArbiter(newRequest, n))
  channels.zip(arb.io.in).foreach { case (c, in) => in <> c.queue.io.deq }

  // Two stages: the request whose list is being read (R), and the request
  // being sent (S). A request enters R when the reader is free (a
  // SUBMIT_ONE request or one whose COUNT is above CEILING reads nothing),
  // moves to S when S is free, and its list goes on being read there if
  // need be; the reader takes the next request's list once it has finished
  // this one's, so lists come out of it one after the other.
  val inR = RegInit(false.B)
  val reqR = Reg(newRequest)
  val chanR = Reg(UInt(log2Ceil(n max 2).W))
  val notReadR = Reg(Bool())
  val sending = RegInit(false.B)
  val req = Reg(newRequest)
  val chan = Reg(UInt(log2Ceil(n max 2).W))
  val seq = RegInit(0.U(32.W))  // requests that entered S so far (mod 2^32)

  val readerParams = ListReaderParams(addrBits, prm.countBits, prm.maxEntries, blockBytes, prm.listReads)
  val reader = Module(new ListReader(readerParams))
  val expander = Module(new EntryExpander(EntryExpanderParams(prm.countBits, prm.pageCountBits)))
  val broadcaster = Module(new Broadcaster(BroadcasterParams(n, prm.agentQueue, inFlight)))

  val ended = expander.io.cmd.fire() && expander.io.cmd.bits.end
  val sFree = !sending || ended
  val incoming = arb.io.out.bits
  val notReadIn = !incoming.inline && countOf(incoming) > ceiling
  val readsIn = !incoming.inline && !notReadIn
  // R is free, or its request moves on this cycle; a request that reads a
  // list also waits for the reader to finish the last one.
  arb.io.out.ready := (!inR || sFree) && (reader.io.done || !readsIn)
  val fire = arb.io.out.fire()
  reader.io.start := fire && readsIn
  private def listOf(r: ShootdownRequest) = ShootdownRequest.list(r, addrBits)
  private def countOf(r: ShootdownRequest) = ShootdownRequest.count(r, addrBits, prm.countBits)
  reader.io.list := listOf(incoming)
  reader.io.timeout := timeout
  reader.io.count := countOf(incoming)
  when (fire) {
    reqR := incoming
    chanR := arb.io.chosen
    notReadR := notReadIn
  }
  val readsR = !reqR.inline && !notReadR
  // To S: R's request, or the arbiter's straight away when R is empty.
  val start = sFree && (inR || fire)
  val newS = Mux(inR, reqR, incoming)
  val newChan = Mux(inR, chanR, arb.io.chosen)
  val newNotRead = Mux(inR, notReadR, notReadIn)
  val newReads = Mux(inR, readsR, readsIn)
  inR := Mux(fire, inR || !start, inR && !start)
  when (ended) { sending := false.B }
  when (start) {
    req := newS
    chan := newChan
    sending := true.B
    seq := seq + 1.U
  }

  // ---- S's entries: its part of the reader's stream (it ends where the
  // reader's count for S's list ends), or its SUBMIT_ONE entry. While the
  // reader is on S's list (`readingS`) its running count and state are S's;
  // once it has finished and moves on, S keeps the final ones.
  val readingS = RegInit(false.B)
  val limitS = RegInit(0.U(prm.countBits.W))
  val readDoneS = RegInit(true.B)
  val listFailedS = RegInit(false.B)
  val listToS = RegInit(false.B)
  when (readingS) {
    limitS := reader.io.delivered
    readDoneS := reader.io.done
    listFailedS := reader.io.failed
    listToS := reader.io.timedOut
  }
  when (reader.io.start) { readingS := false.B }
  when (start) {
    // The reader's current list is the new S request's unless that request
    // reads none, or the reader starts the next request's list right now
    // (it has finished this one's: take its final count).
    readingS := newReads && !(reader.io.start && inR)
    limitS := Mux(newReads, reader.io.delivered, 0.U)
    readDoneS := !newReads || reader.io.done
    listFailedS := newReads && reader.io.failed
    listToS := newReads && reader.io.timedOut
  }
  val limitNow = Mux(readingS, reader.io.delivered, limitS)
  val readDoneNow = Mux(readingS, reader.io.done, readDoneS)
  val listFailedNow = Mux(readingS, reader.io.failed, listFailedS)
  val listToNow = Mux(readingS, reader.io.timedOut, listToS)
  val takenS = RegInit(0.U(prm.countBits.W))
  val inlineLeft = RegInit(false.B)
  when (start) {
    takenS := 0.U
    inlineLeft := newS.inline
  }
  val entries = Wire(Decoupled(UInt(64.W)))
  val listLeft = takenS < limitNow
  entries.valid := sending && Mux(req.inline, inlineLeft, reader.io.entries.valid && listLeft)
  entries.bits := Mux(req.inline, req.payload, reader.io.entries.bits)
  reader.io.entries.ready := entries.ready && sending && !req.inline && listLeft
  when (entries.fire()) {
    takenS := takenS + 1.U
    when (req.inline) { inlineLeft := false.B }
  }

  // The reader's plain bundles on the TileLink client port.
  tl.a.valid := reader.io.get.valid
  reader.io.get.ready := tl.a.ready
  tl.a.bits := edge.Get(reader.io.get.bits.source, reader.io.get.bits.addr.pad(edge.bundle.addressBits), lgBlock.U)._2
  tl.d.ready := true.B
  reader.io.beat.valid := tl.d.valid
  reader.io.beat.bits.source := tl.d.bits.source
  reader.io.beat.bits.data := tl.d.bits.data
  reader.io.beat.bits.bad := tl.d.bits.denied || tl.d.bits.corrupt
  tl.b.ready := true.B
  tl.c.valid := false.B
  tl.e.valid := false.B

  expander.io.start := start
  private def entryCount(r: ShootdownRequest) = Mux(r.inline, 1.U, countOf(r))
  expander.io.count := entryCount(req)
  expander.io.ceiling := ceiling
  expander.io.notRead := newNotRead
  expander.io.entries <> entries
  expander.io.readerDone := req.inline || (readDoneNow && !listLeft)
  expander.io.busError := !req.inline && listFailedNow
  expander.io.listTimeout := listToNow

  broadcaster.io.start := start
  broadcaster.io.targets := req.targets
  broadcaster.io.seq := seq - 1.U
  broadcaster.io.timeout := timeout
  broadcaster.io.cmd <> expander.io.cmd
  io.agents <> broadcaster.io.agents
  io.sent.valid := expander.io.cmd.fire()
  io.sent.bits := seq - 1.U

  // What the waiting requests' completion needs, in the broadcaster's order.
  class Waiting extends Bundle {
    val chan     = UInt(log2Ceil(n max 2).W)
    val errCode  = UInt(8.W)
    val fallback = Bool()
  }
  val waiting = Module(new Queue(new Waiting, inFlight))
  waiting.io.enq.valid := ended
  waiting.io.enq.bits.chan := chan
  waiting.io.enq.bits.errCode := expander.io.errCode
  waiting.io.enq.bits.fallback := expander.io.fallback
  assert(!ended || waiting.io.enq.ready, "shootdown unit: more requests waiting than the broadcaster holds")

  val complete = broadcaster.io.complete
  val oldest = broadcaster.io.oldest.bits
  val done = waiting.io.deq.bits
  waiting.io.deq.ready := complete
  val failed = oldest.failed
  val errCode = Mux(failed =/= 0.U, Err.timeout.value.U, done.errCode)

  val foreign = channels.map(_.foreign)
  when (expander.io.entryDone) { ctrEntries := ctrEntries + 1.U }
  when (expander.io.cmd.fire() && !expander.io.cmd.bits.end) { ctrPages := ctrPages + 1.U }
  when (complete && done.fallback && errCode === 0.U) { ctrFallbacks := ctrFallbacks + 1.U }
  when (complete) { ctrRequests := ctrRequests + 1.U }
  ctrErrors := ctrErrors + PopCount(channels.map(_.submitError)) + (complete && errCode =/= 0.U)
  ctrTimeouts := ctrTimeouts + PopCount(broadcaster.io.gaveUp) + PopCount(broadcaster.io.skipped)
  ctrForeign := ctrForeign + PopCount(foreign)

  // ACKED: the acknowledgements of the channel's oldest waiting request (or
  // of the last one completed).
  val syncOneEarly = Mutants("sync-one-early")
  channels.foreach { c =>
    val oldestMine = broadcaster.io.oldest.valid && waiting.io.deq.valid && done.chan === c.index.U
    when (start && newChan === c.index.U) { c.acked := 0.U }
    when (oldestMine) { c.acked := oldest.acked }
    // The request completing is the channel's oldest, so its ticket is the
    // one after the last completed.
    val doneTicket = nextTicket(c.done)
    when (complete && oldestMine) {
      c.done := doneTicket
      when (errCode =/= 0.U) {
        c.errWord := Cat(errCode, doneTicket)
        c.errorsSet := UIntToOH(errCode, Err.summaryBits)
      }
      c.failedSet := failed
      when (doneTicket === c.posted) { c.irqPend := true.B }
    }
    when (start && newChan === c.index.U) { c.started := nextTicket(c.started) }
    when (syncOneEarly && sending && chan === c.index.U && c.started === c.posted) { c.idle := true.B }
  }

  // A test aid, not a mutant: tickets start just below the wrap.
  private val presetDone = RegInit(false.B)
  presetDone := true.B
  when (!presetDone && Mutants("tickets-near-wrap")) {
    channels.foreach { c =>
      c.posted := ((BigInt(1) << 32) - 16).U
      c.done := ((BigInt(1) << 32) - 16).U
      c.started := ((BigInt(1) << 32) - 16).U
    }
  }

  probes()

  /** What the co-simulation scoreboard (sim/scoreboard.cpp) watches here,
    * requests named by their place in the engine's order (`seq`): each
    * request as the engine takes it, its entries (as the expander
    * takes them, so it judges what was asked, not what was sent), each
    * agent's acknowledgement, the engine's completion, and what every
    * channel's STATUS shows. */
  private def probes(): Unit = {
    import ScoreboardEvent._
    val startTicket = nextTicket(VecInit(channels.map(_.started))(newChan))
    ScoreboardProbe(unitStart, start, newChan, startTicket, newS.targets, seq)
    ScoreboardProbe(unitEntry, entries.fire(), 0.U, entries.bits, seq - 1.U)
    ScoreboardProbe(unitDone, complete, done.chan, errCode, failed, oldest.seq)
    // Acknowledgements that count (not those owed to a request that gave
    // up), with the request each is for.
    (0 until n).foreach(i => ScoreboardProbe(agentAck, broadcaster.io.ackNow(i), i.U, broadcaster.io.ackSeq(i)))
    channels.foreach { c =>
      val shown = Mux(c.idle, c.posted, c.done)
      ScoreboardProbe(chanVisible, shown =/= RegNext(shown, 0.U), c.index.U, shown, c.idle)
    }
  }
}
