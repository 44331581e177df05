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
  *                    tells software the width) */
case class ShootdownParams(
  address: BigInt = 0x4000000,
  maxEntries: Int = 4096,
  queueDepth: Int = 4,
  ceiling: Int = 128,
  listReads: Int = 4,
  agentQueue: Int = 32,
  counterBits: Int = 40) {
  require(maxEntries >= 256, "requests must carry at least 256 entries")
  require(queueDepth >= 1 && listReads >= 1 && agentQueue >= 2)
  require(counterBits >= 32 && counterBits <= 64)
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
  /** No flush: finish the request (final ITLB flush, drain, acknowledge). */
  val end  = Bool()
  /** ShootdownMap.Entry kinds: 0 VA in ASID, 1 VA in all ASIDs, 2 ASID, 3 all. */
  val kind = UInt(2.W)
  val vpn  = UInt(FlushCmd.vpnBits.W)
  val asid = UInt(ShootdownMap.Entry.asidBits.W)
}

/** The link from the unit to one hart's agent, seen from the unit. */
class AgentPort extends Bundle {
  val cmd  = Decoupled(new FlushCmd)
  /** One-cycle pulse: the agent finished an `end` command. */
  val ack  = Input(Bool())
  /** The agent is flushing or draining (for AGENT_CYCLES). */
  val busy = Input(Bool())
}

class ShootdownRequest(nHarts: Int, addrBits: Int, countBits: Int) extends Bundle {
  val targets = UInt(nHarts.W)
  val list    = UInt(addrBits.W)
  val count   = UInt(countBits.W)
  val ticket  = UInt(32.W)
  override def cloneType = new ShootdownRequest(nHarts, addrBits, countBits).asInstanceOf[this.type]
}

class ShootdownUnit(
    val params: ShootdownParams,
    val nHarts: Int,
    val memBase: BigInt,
    val memSize: BigInt,
    beatBytes: Int)(implicit p: Parameters) extends LazyModule {
  require(nHarts >= 1 && nHarts <= ShootdownMap.maxChannels,
    s"the shootdown unit serves 1 to ${ShootdownMap.maxChannels} harts, not $nHarts")

  val device = new SimpleDevice("tlb-shootdown", Seq(ShootdownMap.compatible)) {
    override def describe(resources: ResourceBindings): Description = {
      val Description(name, mapping) = super.describe(resources)
      Description(name, mapping ++ Map(
        "tlb-shootdown,channels"       -> Seq(ResourceInt(nHarts)),
        "tlb-shootdown,channel-stride" -> Seq(ResourceInt(ShootdownMap.pageBytes)),
        "tlb-shootdown,max-entries"    -> Seq(ResourceInt(params.maxEntries))))
    }
  }

  val regNode = TLRegisterNode(
    address   = Seq(AddressSet(params.address, ShootdownMap.windowBytes - 1)),
    device    = device,
    beatBytes = beatBytes)

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

  val io = IO(new Bundle { val agents = Vec(n, new AgentPort) })

  val (tl, edge) = outer.listNode.out.head
  val (irqs, _) = outer.intNode.out.head

  private val beat = edge.manager.beatBytes
  require(beat == Entry.bytes, s"the list reader expects an ${Entry.bytes}-byte system bus, not $beat bytes")
  private val blockBytes = p(freechips.rocketchip.subsystem.CacheBlockBytes)
  private val lgBlock = log2Ceil(blockBytes)
  private val entriesPerBlock = blockBytes / Entry.bytes

  // Registers are only as wide as what they must tell apart. LIST holds
  // addresses up to just past the end of DRAM; a written value above that
  // is stored as all ones (keeping its alignment bits) so that it still
  // fails the range check, and likewise COUNT saturates at maxEntries + 1
  // and TARGETS naming an absent hart stores 0. Software reads back the
  // stored value (docs/shootdown-registers.md).
  private val memEnd = outer.memBase + outer.memSize
  private val addrBits = log2Ceil(memEnd) + 1
  private val entryAddrBits = log2Ceil(Entry.bytes)
  private def clampList(v: UInt): UInt =
    Mux(v(63, addrBits).orR, Cat(Fill(addrBits - entryAddrBits, 1.U(1.W)), v(entryAddrBits - 1, 0)), v(addrBits - 1, 0))
  private def clampCount(v: UInt): UInt =
    Mux(v > prm.maxEntries.U, (prm.maxEntries + 1).U(prm.countBits.W), v(prm.countBits - 1, 0))
  private def clampTargets(v: UInt): UInt = Mux(v(63, n).orR, 0.U(n.W), v(n - 1, 0))
  private def newRequest = new ShootdownRequest(n, addrBits, prm.countBits)
  private def clamped(r: UInt, clamp: UInt => UInt) = RegWriteFn((valid, data) => {
    when (valid) { r := clamp(data) }
    true.B
  })

  // ------------------------------------------------------------ global state
  val ceiling = RegInit(prm.ceiling.U(prm.pageCountBits.W))
  val ctrRequests, ctrEntries, ctrPages, ctrFallbacks, ctrErrors = RegInit(0.U(prm.counterBits.W))
  val agentCycles = RegInit(VecInit(Seq.fill(n)(0.U(prm.counterBits.W))))
  io.agents.zip(agentCycles).foreach { case (a, c) => when (a.busy) { c := c + 1.U } }

  // ------------------------------------------------------------ channels
  class Channel(val index: Int) {
    val targets = RegInit(0.U(n.W))
    val list    = RegInit(0.U(addrBits.W))
    val count   = RegInit(0.U(prm.countBits.W))
    val posted  = RegInit(0.U(32.W))  // last ticket handed out
    val done    = RegInit(0.U(32.W))  // last ticket completed
    val errWord = RegInit(0.U(40.W))  // code << 32 | ticket
    val acked   = RegInit(0.U(n.W))
    val irqEn   = RegInit(false.B)
    val irqPend = RegInit(false.B)
    val queue   = Module(new Queue(newRequest, prm.queueDepth))
    val submitError = WireDefault(false.B)

    val listEnd = list +& (count << entryAddrBits)
    val code = MuxCase(0.U(8.W), Seq(
      (targets === 0.U)                                    -> Err.badTargets.value.U,
      (count === 0.U || count > prm.maxEntries.U)           -> Err.badCount.value.U,
      (list(entryAddrBits - 1, 0) =/= 0.U)                  -> Err.badAlign.value.U,
      (list < outer.memBase.U || listEnd > memEnd.U)        -> Err.badRange.value.U))
    val full = !queue.io.enq.ready
    val ticket = posted + 1.U
    queue.io.enq.valid := false.B
    queue.io.enq.bits.targets := targets
    queue.io.enq.bits.list := list
    queue.io.enq.bits.count := count
    queue.io.enq.bits.ticket := ticket

    /** SUBMIT: a read that submits. Its answer is computed from the state of
      * the cycle the read is performed in, so it always tells the truth. */
    val submitAnswer = Mux(code =/= 0.U, 0.U(64.W) - code, Mux(full, submitBusy.U(64.W), ticket))
    val submit = RegReadFn(ready => {
      when (ready) {
        when (code =/= 0.U) {
          errWord := Cat(code, 0.U(32.W))
          submitError := true.B
        } .elsewhen (!full) {
          queue.io.enq.valid := true.B
          posted := ticket
        }
      }
      (true.B, submitAnswer)
    })
    /** STATUS.IDLE: every ticket handed out has completed. */
    val idle = WireDefault(posted === done)
    irqs(index) := irqEn && irqPend

    def regs: Seq[(Int, Seq[RegField])] = {
      def at(r: RegDesc) = channelBase(index) + r.offset
      def desc(r: RegDesc) = RegFieldDesc(s"ch${index}_${r.name.toLowerCase}", r.doc)
      Seq(
        at(Channel.targets) -> Seq(RegField(64, RegReadFn(targets.pad(64)), clamped(targets, clampTargets), desc(Channel.targets))),
        at(Channel.list)    -> Seq(RegField(64, RegReadFn(list.pad(64)), clamped(list, clampList), desc(Channel.list))),
        at(Channel.count)   -> Seq(RegField(32, RegReadFn(count.pad(32)), clamped(count, clampCount), desc(Channel.count))),
        at(Channel.submit)  -> Seq(RegField.r(64, submit, desc(Channel.submit))),
        at(Channel.status)  -> Seq(RegField.r(33, Cat(idle, done), desc(Channel.status))),
        at(Channel.error)   -> Seq(RegField(40, RegReadFn(errWord), RegWriteFn((valid, _) => {
          when (valid) { errWord := 0.U }
          true.B
        }), desc(Channel.error))),
        at(Channel.acked)   -> Seq(RegField.r(n, acked, desc(Channel.acked))),
        at(Channel.irqEnable)  -> Seq(RegField(1, irqEn, desc(Channel.irqEnable))),
        at(Channel.irqPending) -> Seq(RegField(1, RegReadFn(irqPend), RegWriteFn((valid, data) => {
          when (valid && data(0)) { irqPend := false.B }
          true.B
        }), desc(Channel.irqPending))))
    }
  }
  val channels = Seq.tabulate(n)(new Channel(_))

  // ------------------------------------------------------------ registers
  // Mapped before the engine so that its updates (completion, interrupt
  // pending) win over a software write in the same cycle.
  def at(r: RegDesc) = r.offset
  def gdesc(r: RegDesc) = RegFieldDesc(r.name.toLowerCase, r.doc)
  val info = Cat(prm.maxEntries.U(32.W), 0.U(8.W), prm.counterBits.U(8.W), n.U(8.W), version.U(8.W))
  val global = Seq(
    at(Global.info)      -> Seq(RegField.r(64, info, gdesc(Global.info))),
    at(Global.ceiling)   -> Seq(RegField(32, RegReadFn(ceiling.pad(32)), clamped(ceiling, v =>
      Mux(v(31, prm.pageCountBits).orR, Fill(prm.pageCountBits, 1.U(1.W)), v(prm.pageCountBits - 1, 0))), gdesc(Global.ceiling))),
    at(Global.requests)  -> Seq(RegField.r(prm.counterBits, ctrRequests, gdesc(Global.requests))),
    at(Global.entries)   -> Seq(RegField.r(prm.counterBits, ctrEntries, gdesc(Global.entries))),
    at(Global.pages)     -> Seq(RegField.r(prm.counterBits, ctrPages, gdesc(Global.pages))),
    at(Global.fallbacks) -> Seq(RegField.r(prm.counterBits, ctrFallbacks, gdesc(Global.fallbacks))),
    at(Global.errors)    -> Seq(RegField.r(prm.counterBits, ctrErrors, gdesc(Global.errors)))) ++
    agentCycles.zipWithIndex.map { case (c, i) =>
      (at(Global.agentCycles) + 8 * i) -> Seq(RegField.r(prm.counterBits, c, RegFieldDesc(s"agent_cycles_$i", Global.agentCycles.doc)))
    }
  outer.regNode.regmap((global ++ channels.flatMap(_.regs)): _*)

  // ------------------------------------------------------------ engine
  // One request at a time, channels served round-robin.
  val arb = Module(new RRArbiter(newRequest, n))
  channels.zip(arb.io.in).foreach { case (c, in) => in <> c.queue.io.deq }

  val sIdle :: sRun :: sWait :: Nil = Enum(3)
  val state = RegInit(sIdle)
  val req = Reg(newRequest)
  val chan = Reg(UInt(log2Ceil(n max 2).W))
  arb.io.out.ready := state === sIdle

  // Request-scoped flags.
  val abort    = RegInit(false.B)  // stop reading and expanding: a full flush replaces the rest
  val needAll  = RegInit(false.B)  // a full flush must still be broadcast
  val errCode  = RegInit(0.U(8.W))
  val pagesSent = Reg(UInt(prm.pageCountBits.W))
  val ackedNow = RegInit(0.U(n.W))

  // List geometry.
  val firstBlock = req.list >> lgBlock
  val listEnd = req.list +& (req.count << entryAddrBits)
  val nBlocks = ((listEnd + (blockBytes - 1).U) >> lgBlock) - firstBlock
  val issued = Reg(UInt(log2Ceil(prm.maxEntries / entriesPerBlock + 2).W))

  // ---- list reader (TileLink client)
  // Every block read has room reserved in entryQ before its Get goes out, so
  // the unit always takes its D beats at once. Holding D (or a coherence
  // manager's tracker) until an agent made progress would deadlock: the
  // agents' D$s may need that same manager to get there.
  val entryQ = Module(new Queue(UInt(64.W), prm.listReads * entriesPerBlock))
  val reserved = RegInit(0.U(log2Ceil(prm.listReads * entriesPerBlock + 1).W))  // beats promised to Gets in flight
  val room = entryQ.io.count +& reserved +& entriesPerBlock.U <= (prm.listReads * entriesPerBlock).U
  val srcBusy = RegInit(0.U(prm.listReads.W))
  val srcBlock = Reg(Vec(prm.listReads, chiselTypeOf(issued)))  // block number within the list
  val freeSrc = PriorityEncoder(~srcBusy)
  val haveSrc = !srcBusy.andR
  val block = firstBlock +& issued
  val blockAddr = block << lgBlock
  tl.a.valid := state === sRun && !abort && issued < nBlocks && haveSrc && room
  tl.a.bits := edge.Get(freeSrc, blockAddr(edge.bundle.addressBits - 1, 0), lgBlock.U)._2
  val aSet = Mux(tl.a.fire(), UIntToOH(freeSrc, prm.listReads), 0.U)
  when (tl.a.fire()) {
    srcBlock(freeSrc) := issued
    issued := issued + 1.U
  }

  val (_, dLast, _, dCount) = edge.count(tl.d)
  // Beats count in entries from the start of the list's first block.
  val beatPos = Cat(srcBlock(tl.d.bits.source), dCount(lgBlock - entryAddrBits - 1, 0))
  val firstPos = req.list(lgBlock - 1, entryAddrBits)
  val inList = beatPos >= firstPos && beatPos < firstPos +& req.count
  val dBad = tl.d.bits.denied || tl.d.bits.corrupt
  val keep = inList && !abort && !dBad
  entryQ.io.enq.valid := tl.d.valid && keep
  entryQ.io.enq.bits := tl.d.bits.data
  tl.d.ready := true.B
  assert(!(tl.d.valid && keep && !entryQ.io.enq.ready), "shootdown unit: list beat without reserved room")
  reserved := reserved + Mux(tl.a.fire(), entriesPerBlock.U, 0.U) - Mux(tl.d.fire(), 1.U, 0.U)
  val dClr = Mux(tl.d.fire() && dLast, UIntToOH(tl.d.bits.source, prm.listReads), 0.U)
  srcBusy := (srcBusy | aSet) & ~dClr
  tl.b.ready := true.B
  tl.c.valid := false.B
  tl.e.valid := false.B

  val readerDone = (abort || issued === nBlocks) && srcBusy === 0.U && !tl.a.valid

  // ---- expander: entries to per-page commands
  val e = entryQ.io.deq.bits
  val eKind  = e(Entry.kindShift + Entry.kindBits - 1, Entry.kindShift)
  val eSize  = e(Entry.sizeShift + Entry.sizeBits - 1, Entry.sizeShift)
  val ePages = e(Entry.pagesShift + Entry.pagesBits - 1, Entry.pagesShift)  // pages - 1
  val eVpn   = e(Entry.vaTop, Entry.vaShift)
  val eAsid  = e(Entry.asidShift + Entry.asidBits - 1, Entry.asidShift)
  val perVa  = eKind === Entry.kindVaAsid.value.U || eKind === Entry.kindVaAll.value.U
  val badSize = perVa && eSize >= Entry.sizes.size.U
  val pageIdx = RegInit(0.U((Entry.pagesBits + 1).W))
  val strideShift =
    Mux(Mutants("superpage-4k-stride"), 0.U,
      MuxLookup(eSize, 0.U, Entry.sizeLog2.zipWithIndex.map { case (l, i) => i.U -> (l - Entry.vaShift).U }))
  /** Entries the expander has taken from entryQ in this request. */
  val entriesTaken = Reg(UInt(prm.countBits.W))
  when (entryQ.io.deq.fire()) { entriesTaken := entriesTaken + 1.U }
  val dropThis = Mutants("drop-last-entry") && req.count > 1.U && entriesTaken === req.count - 1.U
  val overCeiling = perVa && pagesSent >= ceiling

  val out = Wire(Decoupled(new FlushCmd))
  out.valid := false.B
  out.bits.end := false.B
  out.bits.kind := eKind
  out.bits.vpn := eVpn + (pageIdx << strideShift)
  out.bits.asid := eAsid
  entryQ.io.deq.ready := false.B

  val endSent = RegInit(false.B)
  when (state === sRun) {
    when (needAll) {
      out.valid := true.B
      out.bits.kind := Entry.kindAll.value.U
      when (out.fire()) { needAll := false.B }
    } .elsewhen (abort) {
      entryQ.io.deq.ready := true.B  // discard what was already read
      out.valid := readerDone && !entryQ.io.deq.valid
      out.bits.end := true.B
    } .elsewhen (entryQ.io.deq.valid) {
      when (dropThis) {
        entryQ.io.deq.ready := true.B
      } .elsewhen (badSize) {
        errCode := Err.badEntry.value.U
        abort := true.B
        needAll := true.B
      } .elsewhen (overCeiling) {
        abort := true.B
        needAll := true.B
        ctrFallbacks := ctrFallbacks + 1.U
      } .otherwise {
        out.valid := true.B
        val lastPage = !perVa || pageIdx === ePages
        when (out.fire()) {
          when (perVa) { pagesSent := pagesSent + 1.U }
          pageIdx := Mux(lastPage, 0.U, pageIdx + 1.U)
          entryQ.io.deq.ready := lastPage
          when (lastPage) { ctrEntries := ctrEntries + 1.U }
        }
      }
    } .elsewhen (readerDone) {
      out.valid := true.B
      out.bits.end := true.B
    }
    when (tl.d.fire() && dBad && !abort) {
      errCode := Err.busError.value.U
      abort := true.B
      needAll := true.B
    }
  }
  when (out.fire() && !out.bits.end) { ctrPages := ctrPages + 1.U }

  // ---- broadcaster: each command goes to every target; the next one waits
  // until all have taken it.
  val cur = Reg(new FlushCmd)
  val pend = RegInit(0.U(n.W))
  val takes = VecInit(io.agents.map(_.cmd.fire())).asUInt
  val remaining = pend & ~takes
  out.ready := remaining === 0.U
  pend := Mux(out.fire(), req.targets, remaining)
  when (out.fire()) { cur := out.bits }
  io.agents.zipWithIndex.foreach { case (a, i) =>
    a.cmd.valid := pend(i)
    a.cmd.bits := cur
  }

  // ---- acknowledgements and completion
  val acks = VecInit(io.agents.map(_.ack)).asUInt
  ackedNow := ackedNow | acks
  when (out.fire() && out.bits.end) { state := sWait }

  val complete = state === sWait && pend === 0.U && (ackedNow | acks) === req.targets
  val completeErrors = Mux(complete && errCode =/= 0.U, 1.U, 0.U)
  ctrErrors := ctrErrors + PopCount(channels.map(_.submitError)) + completeErrors

  when (arb.io.out.fire()) {
    val r = arb.io.out.bits
    req := r
    chan := arb.io.chosen
    state := sRun
    issued := 0.U
    entriesTaken := 0.U
    pagesSent := 0.U
    pageIdx := 0.U
    ackedNow := 0.U
    errCode := 0.U
    // A list longer than the ceiling (each entry is at least one page) is
    // not even read.
    val tooLong = r.count > ceiling
    abort := tooLong
    needAll := tooLong
    when (tooLong) { ctrFallbacks := ctrFallbacks + 1.U }
  }
  when (complete) {
    state := sIdle
    ctrRequests := ctrRequests + 1.U
  }

  val syncOneEarly = Mutants("sync-one-early")
  channels.foreach { c =>
    val mine = chan === c.index.U
    when (state =/= sIdle && mine) { c.acked := ackedNow | acks }
    when (arb.io.out.fire() && arb.io.chosen === c.index.U) { c.acked := 0.U }
    when (complete && mine) {
      c.done := req.ticket
      when (errCode =/= 0.U) { c.errWord := Cat(errCode, req.ticket) }
      when (req.ticket === c.posted) { c.irqPend := true.B }
    }
    when (syncOneEarly && state =/= sIdle && mine && req.ticket === c.posted) { c.idle := true.B }
  }

  probes()

  /** What the co-simulation scoreboard (sim/scoreboard.cpp) watches here:
    * each request as the engine takes it, the list entries as read from
    * memory (before the expander, so it judges what was asked, not what
    * was sent), each agent's acknowledgement, the engine's completion, and
    * what every channel's STATUS shows. */
  private def probes(): Unit = {
    import ScoreboardEvent._
    ScoreboardProbe(unitStart, arb.io.out.fire(), arb.io.chosen, arb.io.out.bits.ticket, arb.io.out.bits.targets)
    ScoreboardProbe(unitEntry, entryQ.io.enq.fire(), 0.U, entryQ.io.enq.bits)
    ScoreboardProbe(unitDone, complete, chan, errCode)
    io.agents.zipWithIndex.foreach { case (a, i) => ScoreboardProbe(agentAck, a.ack, i.U) }
    channels.foreach { c =>
      val shown = Mux(c.idle, c.posted, c.done)
      ScoreboardProbe(chanVisible, shown =/= RegNext(shown, 0.U), c.index.U, shown, c.idle)
    }
  }
}
