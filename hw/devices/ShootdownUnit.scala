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

  // LIST and the limits hold addresses up to just past the end of DRAM
  // (UnitChannel.clampAddr).
  private val memEnd = outer.memBase + outer.memSize
  private val addrBits = log2Ceil(memEnd) + 1

  // ------------------------------------------------------------ global state
  val ceiling = RegInit(prm.ceiling.U(prm.pageCountBits.W))
  val timeout = RegInit(prm.timeout.U(32.W))
  val ctrRequests, ctrEntries, ctrPages, ctrFallbacks, ctrErrors, ctrTimeouts, ctrForeign =
    RegInit(0.U(prm.counterBits.W))
  val agentCycles = RegInit(VecInit(Seq.fill(n)(0.U(prm.counterBits.W))))
  io.agents.zip(agentCycles).foreach { case (a, c) => when (a.busy) { c := c + 1.U } }

  // ------------------------------------------------------------ channels
  private val knobs = Knobs.switches(Knobs.unit)
  val channels = Seq.tabulate(n) { i =>
    val c = Module(new UnitChannel(UnitChannelParams(i, n, addrBits, prm, outer.memBase, memEnd)))
    c.io.access := 0.U.asTypeOf(c.io.access)
    c.io.access.own := fromOwner(i)
    c.io.access.wholeWord := wholeWord
    c.io.limits.write := 0.U.asTypeOf(c.io.limits.write)
    c.io.knobs := knobs
    irqs(i) := c.io.irq
    c
  }

  // ------------------------------------------------------------ registers
  /** A register write handed to a channel: its valid and data this cycle. */
  private def writes(w: Valid[UInt]) = RegWriteFn((valid, data) => {
    w.valid := valid
    w.bits := data
    true.B
  })
  private def channelRegs(c: UnitChannel, index: Int): Seq[(Int, Seq[RegField])] = {
    val (a, v, own) = (c.io.access, c.io.view, c.io.access.own)
    def at(r: RegDesc) = channelBase(index) + r.offset
    def field(r: RegDesc, rd: RegReadFn, wr: Option[RegWriteFn]) =
      at(r) -> Seq(RegField(r.bits, rd, wr.getOrElse(RegWriteFn((_: Bool, _: UInt) => true.B)),
        r.regFieldDesc(s"ch${index}_")))
    // The channel's state reads as itself to its hart and as 0 to anyone
    // else (the requester is on the A channel in the cycle of the read).
    def owned(r: RegDesc, value: UInt, w: Option[Valid[UInt]] = None) =
      field(r, RegReadFn(_ => (true.B, Mux(own, value.pad(r.bits), 0.U(r.bits.W)))), w.map(writes))
    def submitting(r: RegDesc, performed: Bool, answer: UInt) =
      field(r, RegReadFn(ready => { performed := ready; (true.B, answer) }), None)
    Seq(
      owned(Channel.targets, v.targets, Some(a.targets)),
      owned(Channel.list, v.list, Some(a.list)),
      owned(Channel.count, v.count, Some(a.count)),
      submitting(Channel.submit, a.submit, v.submitAnswer),
      owned(Channel.status, v.status),
      owned(Channel.error, v.errWord, Some(a.error)),
      owned(Channel.acked, v.acked),
      owned(Channel.irqEnable, v.irqEn, Some(a.irqEnable)),
      owned(Channel.irqPending, v.irqPend, Some(a.irqPending)),
      owned(Channel.failed, v.failed, Some(a.failed)),
      owned(Channel.entry, v.entry, Some(a.entry)),
      submitting(Channel.submitOne, a.submitOne, v.submitOneAnswer),
      owned(Channel.errors, v.errors, Some(a.errors)))
  }
  private def limitRegs(c: UnitChannel, index: Int): Seq[(Int, Seq[RegField])] = {
    val l = c.io.limits
    def at(r: RegDesc) = Global.limits + Global.limitStride * index + r.offset
    def desc(r: RegDesc) = r.regFieldDesc(s"ch${index}_")
    Seq(
      at(Limit.listBase)  -> Seq(RegField(64, RegReadFn(l.listBase.pad(64)), writes(l.write.listBase), desc(Limit.listBase))),
      at(Limit.listLimit) -> Seq(RegField(64, RegReadFn(l.listLimit.pad(64)), writes(l.write.listLimit), desc(Limit.listLimit))),
      at(Limit.allowed)   -> Seq(RegField(64, RegReadFn(l.allowed.pad(64)), writes(l.write.allowed), desc(Limit.allowed))))
  }
  private def at(r: RegDesc) = r.offset
  private def gdesc(r: RegDesc, reset: Option[BigInt] = None) = r.regFieldDesc("", reset.orElse(r.reset))
  private def counter(r: RegDesc, c: UInt) = at(r) -> Seq(RegField.r(prm.counterBits, c, gdesc(r)))
  private def saturate(bits: Int)(v: UInt): UInt = Mux(v(31, bits).orR, Fill(bits, 1.U(1.W)), v(bits - 1, 0))
  private def stored(r: UInt, clamp: UInt => UInt) = RegWriteFn((valid, data) => {
    when (valid) { r := clamp(data) }
    true.B
  })
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
  outer.regNode.regmap((global ++ channels.zipWithIndex.flatMap { case (c, i) => limitRegs(c, i) } ++
    channels.zipWithIndex.flatMap { case (c, i) => channelRegs(c, i) }): _*)

  // ------------------------------------------------------------ engine
  val engine = Module(new UnitEngine(UnitEngineParams(n, addrBits, prm, blockBytes)))
  engine.io.requests.zip(channels).foreach { case (r, c) => r <> c.io.requests }
  engine.io.ceiling := ceiling
  engine.io.timeout := timeout
  engine.io.knobs := knobs
  io.agents <> engine.io.agents
  io.sent := engine.io.sent

  // The list reader's plain bundles on the TileLink client port.
  tl.a.valid := engine.io.get.valid
  engine.io.get.ready := tl.a.ready
  tl.a.bits := edge.Get(engine.io.get.bits.source, engine.io.get.bits.addr.pad(edge.bundle.addressBits), lgBlock.U)._2
  tl.d.ready := true.B
  engine.io.beat.valid := tl.d.valid
  engine.io.beat.bits.source := tl.d.bits.source
  engine.io.beat.bits.data := tl.d.bits.data
  engine.io.beat.bits.bad := tl.d.bits.denied || tl.d.bits.corrupt
  tl.b.ready := true.B
  tl.c.valid := false.B
  tl.e.valid := false.B

  // ------------------------------------------------------------ completion
  private val completion = engine.io.complete
  channels.zipWithIndex.foreach { case (c, i) =>
    val e = c.io.progress
    e.started := engine.io.started.valid && engine.io.started.bits === i.U
    e.sending := engine.io.sending.valid && engine.io.sending.bits === i.U
    e.oldest := engine.io.chanAcked(i)
    e.complete := completion.valid && completion.bits.chan === i.U
    e.errCode := completion.bits.errCode
    e.listCode := completion.bits.listCode
    e.failed := completion.bits.failed
  }
  when (engine.io.entryDone) { ctrEntries := ctrEntries + 1.U }
  when (engine.io.pageSent) { ctrPages := ctrPages + 1.U }
  when (completion.valid && completion.bits.fallback && completion.bits.errCode === 0.U) { ctrFallbacks := ctrFallbacks + 1.U }
  when (completion.valid) { ctrRequests := ctrRequests + 1.U }
  ctrErrors := ctrErrors + PopCount(channels.map(_.io.submitError)) + (completion.valid && completion.bits.errCode =/= 0.U)
  ctrTimeouts := ctrTimeouts + engine.io.gaveUp + PopCount(engine.io.skipped)
  ctrForeign := ctrForeign + PopCount(channels.map(_.io.foreign))

  probes()

  /** What the co-simulation scoreboard (sim/scoreboard.cpp) watches here,
    * requests named by their place in the engine's order (`seq`): each
    * request as the engine takes it, its entries (as the expander
    * takes them, so it judges what was asked, not what was sent), each
    * agent's acknowledgement, the engine's completion, and what every
    * channel's STATUS shows. */
  private def probes(): Unit = {
    import ScoreboardEvent._
    val w = engine.io.watch
    val started = engine.io.started
    val startTicket = UnitChannel.nextTicket(VecInit(channels.map(_.io.started))(started.bits))
    ScoreboardProbe(unitStart, started.valid, started.bits, startTicket, w.startTargets, w.startSeq)
    ScoreboardProbe(unitEntry, w.entry.valid, 0.U, w.entry.bits, w.entrySeq)
    ScoreboardProbe(unitDone, completion.valid, completion.bits.chan, completion.bits.errCode, completion.bits.failed, completion.bits.seq)
    // Acknowledgements that count (not those owed to a request that gave
    // up), with the request each is for.
    (0 until n).foreach(i => ScoreboardProbe(agentAck, w.ackNow(i), i.U, w.ackSeq(i)))
    channels.zipWithIndex.foreach { case (c, i) =>
      val shown = c.io.shown
      ScoreboardProbe(chanVisible, shown =/= RegNext(shown, 0.U), i.U, shown, c.io.idle)
    }
  }
}
