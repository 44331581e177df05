// The shootdown unit's broadcaster: hands each flush command to every target's
// agent (the next command waits until all have taken it) and completes a
// request once every target has acknowledged its `end` command, that is,
// applied every flush and drained its older accesses (docs/semantics.md,
// rules 1 and 2).
//
// Requests overlap: once a request's `end` has gone out, the next request's
// commands follow it while the first one waits for its acknowledgements, up
// to `inFlight` requests waiting. An agent acknowledges its `end` commands
// in the order it took them, so each acknowledgement belongs to the oldest
// waiting request the agent has taken the `end` of and not acknowledged.
// Requests complete in the order they started.
//
// Liveness (rule 9): a target that neither takes a command nor acknowledges
// for TIMEOUT cycles in a row, while a request waits for it, is given up
// on: the request goes on without it and completes with that target in
// FAILED. An agent given up on after it took the `end` command still owes
// that acknowledgement; it is swallowed when it comes, so that it is never
// taken for a later request's.
//
// A target given up on is dead until its agent is idle again (nothing
// queued, nothing owed): a request that starts while it is dead leaves it
// out from the start and completes at once with it in FAILED, instead of
// waiting another TIMEOUT for it. Every request after it, of every
// channel, would otherwise wait behind that one, since requests complete
// in order.
package shootdown.devices

import chisel3._
import chisel3.util._

/** @param nHarts     targets (agents)
  * @param agentQueue commands an agent buffers: bounds the acknowledgements
  *                   one agent can owe for requests that gave up on it
  * @param inFlight   requests that may wait for acknowledgements at once */
case class BroadcasterParams(nHarts: Int, agentQueue: Int, inFlight: Int = 2) {
  require(inFlight >= 1)
}

/** A request waiting for its acknowledgements. */
class WaitingRequest(p: BroadcasterParams) extends Bundle {
  val seq     = UInt(32.W)
  val live    = UInt(p.nHarts.W)  // targets not given up on
  val endPend = UInt(p.nHarts.W)  // live targets that have not taken the `end` yet
  val acked   = UInt(p.nHarts.W)
  val failed  = UInt(p.nHarts.W)  // targets given up on
  override def cloneType = new WaitingRequest(p).asInstanceOf[this.type]
}

class BroadcasterIO(p: BroadcasterParams) extends Bundle {
  /** One-cycle pulse: a request begins sending commands; `targets` and
    * `seq` hold from the next cycle until its `end` is taken. */
  val start   = Input(Bool())
  val targets = Input(UInt(p.nHarts.W))
  /** The request's number in the engine's order (echoed at completion). */
  val seq     = Input(UInt(32.W))
  /** TIMEOUT: cycles without progress from a target before it is given up
    * on (0: never). */
  val timeout = Input(UInt(32.W))
  val cmd     = Flipped(Decoupled(new FlushCmd))
  val agents  = Vec(p.nHarts, new AgentPort)

  /** This cycle's acknowledgements that count, and the request (seq) each
    * counts for. */
  val ackNow  = Output(UInt(p.nHarts.W))
  val ackSeq  = Output(Vec(p.nHarts, UInt(32.W)))
  /** Targets given up on this cycle (pulse), and targets a request left
    * out because they were dead when it started (pulse, as its `end` is
    * taken). */
  val gaveUp  = Output(UInt(p.nHarts.W))
  val skipped = Output(UInt(p.nHarts.W))
  /** The oldest waiting request (valid: there is one); its acknowledgements
    * include this cycle's. */
  val oldest  = Output(Valid(new WaitingRequest(p)))
  /** One-cycle pulse: `oldest` is complete (every target not given up on
    * has acknowledged) and leaves. */
  val complete = Output(Bool())
  override def cloneType = new BroadcasterIO(p).asInstanceOf[this.type]
}

class Broadcaster(p: BroadcasterParams) extends Module {
  val io = IO(new BroadcasterIO(p))
  private val n = p.nHarts
  private val slots = p.inFlight

  // Targets the request now sending commands has given up on, and those
  // dead when it started (`skip`: left out of it altogether).
  val failedNow = RegInit(0.U(n.W))
  val dead = RegInit(0.U(n.W))
  val skip = RegInit(0.U(n.W))
  when (io.start) {
    failedNow := 0.U
    skip := dead
  }
  val liveNow = io.targets & ~failedNow & ~skip

  // The waiting requests, oldest at `head`.
  val waits = Reg(Vec(slots, new WaitingRequest(p)))
  val valid = RegInit(VecInit(Seq.fill(slots)(false.B)))
  val head = RegInit(0.U(log2Ceil(slots max 2).W))
  val tail = RegInit(0.U(log2Ceil(slots max 2).W))
  private def next(i: UInt) = if (slots == 1) 0.U else Mux(i === (slots - 1).U, 0.U, i + 1.U)
  val full = valid(tail)

  // ---- commands: one at a time, to every live target
  val cur = Reg(new FlushCmd)
  val pend = RegInit(0.U(n.W))  // targets that have not taken `cur` yet
  val curIsEnd = RegInit(false.B)
  val takes = VecInit(io.agents.map(_.cmd.fire())).asUInt
  val remaining = pend & ~takes
  // An `end` needs a free slot to wait in.
  io.cmd.ready := remaining === 0.U && !(io.cmd.bits.end && full)
  io.agents.zipWithIndex.foreach { case (a, i) =>
    a.cmd.valid := pend(i)
    a.cmd.bits := cur
  }

  /** The slot the `end` in `cur` belongs to: the last one allocated. */
  val newest = Mux(tail === 0.U, (slots - 1).U, tail - 1.U)

  // ---- acknowledgements
  // Acknowledgements owed for requests that gave up on the agent.
  val owed = RegInit(VecInit(Seq.fill(n)(0.U(log2Ceil(p.agentQueue + slots + 2).W))))
  val rawAcks = VecInit(io.agents.map(_.ack)).asUInt
  val stale = VecInit(owed.map(_ =/= 0.U)).asUInt
  io.ackNow := rawAcks & ~stale
  /** Slot (in age order from head) that agent i's acknowledgement is for. */
  private def ackSlot(i: Int): (Bool, UInt) = {
    val order = (0 until slots).map(k => if (slots == 1) 0.U else (head +& k.U) % slots.U)
    // An agent may acknowledge in the cycle it takes the `end` (only a
    // broken one would, as mutant ack-before-drain does, but its early
    // acknowledgement must still land where the checks can see it).
    def tookEnd(s: UInt) = !waits(s).endPend(i) || (curIsEnd && newest === s && takes(i))
    val hits = order.map(s => valid(s) && waits(s).live(i) && !waits(s).acked(i) && tookEnd(s))
    (hits.reduce(_ || _), PriorityMux(hits, order))
  }
  val ackTo = (0 until n).map(ackSlot)
  (0 until n).foreach { i =>
    val (hit, s) = ackTo(i)
    io.ackSeq(i) := waits(s).seq
    when (io.ackNow(i)) { assert(hit, "shootdown broadcaster: an acknowledgement for no waiting request") }
  }
  // This cycle's acknowledgements, per slot.
  val ackedNow = VecInit((0 until slots).map { s =>
    VecInit((0 until n).map { i => io.ackNow(i) && ackTo(i)._1 && ackTo(i)._2 === s.U }).asUInt
  })

  // ---- the watchdog: cycles in a row in which a request waited for targets
  // and none of them moved
  val h = waits(head)
  val headWaiting = Mux(valid(head), h.live & ~h.acked & ~ackedNow(head) & ~h.endPend, 0.U)
  val waiting = pend =/= 0.U || headWaiting =/= 0.U
  val progress = takes =/= 0.U || io.ackNow =/= 0.U
  val stalled = RegInit(0.U(32.W))
  stalled := Mux(!waiting || progress, 0.U, stalled + 1.U)
  val expire = waiting && !progress && io.timeout =/= 0.U && stalled >= io.timeout - 1.U
  // Those not taking the current command, else the oldest request's silent ones.
  val giveUpCmd = Mux(expire && pend =/= 0.U, pend, 0.U)
  val giveUpAck = Mux(expire && pend === 0.U, headWaiting, 0.U)
  io.gaveUp := giveUpCmd | giveUpAck
  val endFire = io.cmd.fire() && io.cmd.bits.end
  io.skipped := Mux(endFire, io.targets & skip, 0.U)
  val idle = VecInit(io.agents.zip(owed).map { case (a, o) => !a.busy && o === 0.U }).asUInt
  dead := (dead & ~idle) | io.gaveUp
  owed.zipWithIndex.foreach { case (o, i) =>
    // Given up on after taking the `end` command: its ack will still come.
    o := o + giveUpAck(i) - (rawAcks(i) && stale(i))
  }
  pend := Mux(io.cmd.fire(), liveNow & ~giveUpCmd, remaining & ~giveUpCmd)
  when (!curIsEnd) { failedNow := failedNow | giveUpCmd }
  when (io.cmd.fire()) {
    cur := io.cmd.bits
    curIsEnd := io.cmd.bits.end
  }

  // ---- the waiting requests' state
  (0 until slots).foreach { s =>
    val w = waits(s)
    // The `end` in `cur` belongs to the newest slot; the watchdog's silent
    // acknowledgers to the oldest.
    val endNow = curIsEnd && newest === s.U
    val gaveUpHere = Mux(endNow, giveUpCmd, 0.U) | Mux(head === s.U, giveUpAck, 0.U)
    w.acked := w.acked | ackedNow(s)
    w.live := w.live & ~gaveUpHere
    w.failed := w.failed | gaveUpHere
    when (endNow) { w.endPend := w.endPend & ~takes & ~giveUpCmd }
  }
  when (endFire) {
    val w = waits(tail)
    w.seq := io.seq
    w.live := liveNow & ~giveUpCmd
    w.endPend := liveNow & ~giveUpCmd
    w.acked := 0.U
    w.failed := failedNow | giveUpCmd | io.skipped
    valid(tail) := true.B
    tail := next(tail)
  }

  val headDone = valid(head) && h.endPend === 0.U && (h.live & ~giveUpAck & ~h.acked & ~ackedNow(head)) === 0.U &&
    !(curIsEnd && newest === head && pend =/= 0.U)
  io.complete := headDone
  io.oldest.valid := valid(head)
  io.oldest.bits := h
  io.oldest.bits.acked := h.acked | ackedNow(head)
  io.oldest.bits.live := h.live & ~giveUpAck
  io.oldest.bits.failed := h.failed | giveUpAck
  when (headDone) {
    valid(head) := false.B
    head := next(head)
  }
}
