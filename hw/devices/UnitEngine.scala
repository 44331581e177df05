// The shootdown unit's engine: serves the channels' requests round-robin,
// reads each request's list (ListReader), turns its entries into flush
// commands (EntryExpander), hands them to every target's agent and waits for
// their acknowledgements (Broadcaster), and reports each request's
// completion, a channel's in the order it sent them. docs/shootdown-unit.md.
package shootdown.devices

import chisel3._
import chisel3.util._

/** @param nHarts    harts the unit serves (and channels it has)
  * @param addrBits  bits of a list's address
  * @param blockBytes the system's cache block (the reader's unit of reading)
  * @param inFlight  requests the engine holds at once (its list being read,
  *                  being sent, or waiting for acknowledgements); one
  *                  channel may hold all but one of them */
case class UnitEngineParams(nHarts: Int, addrBits: Int, unit: ShootdownParams, blockBytes: Int, inFlight: Int = 4) {
  require(inFlight >= 2)
  val chanBits = log2Ceil(nHarts max 2)
  def request = new ShootdownRequest(nHarts, addrBits, unit.countBits)
  def reader = ListReaderParams(addrBits, unit.countBits, unit.maxEntries, blockBytes, unit.listReads)
}

/** A request's completion (a channel's in the order it sent them). */
class UnitCompletion(p: UnitEngineParams) extends Bundle {
  val chan    = UInt(p.chanBits.W)
  /** 0: success; else the error the request ends with (TIMEOUT when a
    * target was given up on). */
  val errCode = UInt(8.W)
  /** 0, or the error its list ended with (ERR_BUS, ERR_LIST_TIMEOUT,
    * ERR_BAD_ENTRY), which errCode hides when it is TIMEOUT: the channel's
    * ERRORS records both. */
  val listCode = UInt(8.W)
  /** Targets given up on (CH_FAILED). */
  val failed  = UInt(p.nHarts.W)
  /** It ended in a full flush of its targets (above CEILING). */
  val fallback = Bool()
  /** Its place in the engine's order. */
  val seq     = UInt(32.W)
  override def cloneType = new UnitCompletion(p).asInstanceOf[this.type]
}

/** What a request's completion needs of the time it was sent, kept beside
  * its broadcaster slot while it waits for acknowledgements. */
class UnitWaiting(p: UnitEngineParams) extends Bundle {
  val errCode  = UInt(8.W)
  val fallback = Bool()
  override def cloneType = new UnitWaiting(p).asInstanceOf[this.type]
}

/** What the scoreboard watches of the engine (ScoreboardProbe's events). */
class UnitEngineWatch(p: UnitEngineParams) extends Bundle {
  /** A request entered the sending stage: its targets and place (`seq`). */
  val startTargets = UInt(p.nHarts.W)
  val startSeq     = UInt(32.W)
  /** An entry the expander took, and its request's place. */
  val entry        = Valid(UInt(64.W))
  val entrySeq     = UInt(32.W)
  /** Acknowledgements that count, and the request each is for. */
  val ackNow       = UInt(p.nHarts.W)
  val ackSeq       = Vec(p.nHarts, UInt(32.W))
  override def cloneType = new UnitEngineWatch(p).asInstanceOf[this.type]
}

class UnitEngineIO(p: UnitEngineParams) extends Bundle {
  val requests = Flipped(Vec(p.nHarts, Decoupled(p.request)))
  val ceiling  = Input(UInt(p.unit.pageCountBits.W))
  val timeout  = Input(UInt(32.W))
  /** The list reader's reads, for the unit's TileLink client port. */
  val get      = Decoupled(new ListGet(p.reader))
  val beat     = Flipped(Valid(new ListBeat(p.reader)))
  val agents   = Vec(p.nHarts, new AgentPort)
  /** For benches: the request (its place in the engine's order) whose
    * command the broadcaster takes this cycle. */
  val sent     = Output(Valid(UInt(32.W)))
  /** A request of this channel entered the sending stage. */
  val started  = Output(Valid(UInt(p.chanBits.W)))
  /** The channel whose request the sending stage holds. */
  val sending  = Output(Valid(UInt(p.chanBits.W)))
  /** Per channel: its oldest waiting request's acknowledgements so far. */
  val chanAcked = Output(Vec(p.nHarts, Valid(UInt(p.nHarts.W))))
  val complete = Output(Valid(new UnitCompletion(p)))
  /** Counters' events: an entry finished, a page's command sent, (target,
    * request) pairs given up on, targets skipped. */
  val entryDone = Output(Bool())
  val pageSent  = Output(Bool())
  val gaveUp    = Output(UInt(8.W))
  val skipped   = Output(UInt(p.nHarts.W))
  val watch     = Output(new UnitEngineWatch(p))
  val knobs     = Input(new Knobs(Knobs.unit))
  override def cloneType = new UnitEngineIO(p).asInstanceOf[this.type]
}

class UnitEngine(p: UnitEngineParams) extends Module {
  val io = IO(new UnitEngineIO(p))
  private val n = p.nHarts
  private val prm = p.unit
  private def listOf(r: ShootdownRequest) = ShootdownRequest.list(r, p.addrBits)
  private def countOf(r: ShootdownRequest) = ShootdownRequest.count(r, p.addrBits, prm.countBits)

  // Channels served round-robin. The request being sent: the list reader
  // streams its entries to the expander (a SUBMIT_ONE request's entry goes
  // there directly), whose commands the broadcaster hands to every target.
  // Once its `end` has gone out it waits for acknowledgements in the
  // broadcaster, and the next request is sent meanwhile, its commands
  // queueing in the agents behind the first one's `end`. A request completes
  // when its targets have acknowledged and its channel's older requests have
  // completed, so one channel's slow target holds up no other channel's
  // requests. The engine holds up to `inFlight` requests; a channel that
  // holds one may take another only while two places are free, so a channel
  // holding none always finds one as soon as a request of another completes.
  val arb = Module(new RRArbiter(p.request, n))
  private val countBits = log2Ceil(p.inFlight + 1)
  val held = RegInit(VecInit(Seq.fill(n)(0.U(countBits.W))))
  val total = RegInit(0.U(countBits.W))
  arb.io.in.zip(io.requests).zipWithIndex.foreach { case ((in, r), c) =>
    val admit = total < p.inFlight.U && (held(c) === 0.U || total < (p.inFlight - 1).U)
    in.valid := r.valid && admit
    in.bits := r.bits
    r.ready := in.ready && admit
  }

  // Two stages: the request whose list is being read (R), and the request
  // being sent (S). A request enters R when the reader is free (a
  // SUBMIT_ONE request or one whose COUNT is above CEILING reads nothing),
  // moves to S when S is free, and its list goes on being read there if
  // need be; the reader takes the next request's list once it has finished
  // this one's, so lists come out of it one after the other.
  val inR = RegInit(false.B)
  val reqR = Reg(p.request)
  val chanR = Reg(UInt(p.chanBits.W))
  val notReadR = Reg(Bool())
  val sending = RegInit(false.B)
  val req = Reg(p.request)
  val chan = Reg(UInt(p.chanBits.W))
  val seq = RegInit(0.U(32.W))  // requests that entered S so far (mod 2^32)

  val reader = Module(new ListReader(p.reader))
  val expander = Module(new EntryExpander(EntryExpanderParams(prm.countBits, prm.pageCountBits)))
  val broadcaster = Module(new Broadcaster(BroadcasterParams(n, prm.agentQueue, p.inFlight, p.chanBits)))

  val ended = expander.io.cmd.fire() && expander.io.cmd.bits.end
  val sFree = !sending || ended
  val incoming = arb.io.out.bits
  val notReadIn = !incoming.inline && countOf(incoming) > io.ceiling
  val readsIn = !incoming.inline && !notReadIn
  // R is free, or its request moves on this cycle; a request that reads a
  // list also waits for the reader to finish the last one.
  arb.io.out.ready := (!inR || sFree) && (reader.io.done || !readsIn)
  val fire = arb.io.out.fire()
  reader.io.start := fire && readsIn
  reader.io.list := listOf(incoming)
  reader.io.timeout := io.timeout
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
  io.get <> reader.io.get
  reader.io.beat := io.beat

  send()
  report()

  /** S's entries to the expander, its commands to every target. */
  private def send(): Unit = {
    expander.io.knobs := io.knobs
    expander.io.start := start
    expander.io.count := Mux(req.inline, 1.U, countOf(req))
    expander.io.ceiling := io.ceiling
    expander.io.notRead := newNotRead
    expander.io.entries <> entries
    expander.io.readerDone := req.inline || (readDoneNow && !listLeft)
    expander.io.busError := !req.inline && listFailedNow
    expander.io.listTimeout := listToNow

    broadcaster.io.start := start
    broadcaster.io.targets := req.targets
    broadcaster.io.chan := chan
    broadcaster.io.seq := seq - 1.U
    broadcaster.io.timeout := io.timeout
    broadcaster.io.cmd <> expander.io.cmd
    io.agents <> broadcaster.io.agents
    io.sent.valid := expander.io.cmd.fire()
    io.sent.bits := seq - 1.U
  }

  /** The waiting requests' completion, and what the unit is told. */
  private def report(): Unit = {
    val info = Reg(Vec(p.inFlight, new UnitWaiting(p)))
    when (ended) {
      info(broadcaster.io.alloc).errCode := expander.io.errCode
      info(broadcaster.io.alloc).fallback := expander.io.fallback
    }
    val done = broadcaster.io.complete
    val doneInfo = info(broadcaster.io.completeSlot)
    val gaveUpOn = done.bits.failed

    // What the engine holds, per channel and in all.
    val taken = arb.io.out.fire()
    held.zipWithIndex.foreach { case (h, c) =>
      h := h + (taken && arb.io.chosen === c.U) - (done.valid && done.bits.chan === c.U)
    }
    total := total + taken - done.valid

    io.started.valid := start
    io.started.bits := newChan
    io.sending.valid := sending
    io.sending.bits := chan
    io.chanAcked.zip(broadcaster.io.chanAcked).foreach { case (o, b) => o := b }
    io.complete.valid := done.valid
    io.complete.bits.chan := done.bits.chan
    io.complete.bits.errCode := Mux(gaveUpOn =/= 0.U, ShootdownMap.Err.timeout.value.U, doneInfo.errCode)
    io.complete.bits.listCode := doneInfo.errCode
    io.complete.bits.failed := gaveUpOn
    io.complete.bits.fallback := doneInfo.fallback
    io.complete.bits.seq := done.bits.seq
    io.entryDone := expander.io.entryDone
    io.pageSent := expander.io.cmd.fire() && !expander.io.cmd.bits.end
    io.gaveUp := broadcaster.io.gaveUp
    io.skipped := broadcaster.io.skipped

    io.watch.startTargets := newS.targets
    io.watch.startSeq := seq
    io.watch.entry.valid := entries.fire()
    io.watch.entry.bits := entries.bits
    io.watch.entrySeq := seq - 1.U
    io.watch.ackNow := broadcaster.io.ackNow
    io.watch.ackSeq := broadcaster.io.ackSeq
  }
}
