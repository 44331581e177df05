// The shootdown unit's broadcaster: hands each flush command to every target's
// agent (the next command waits until all have taken it) and completes a
// request once every target has acknowledged its `end` command, that is,
// applied every flush and drained its older accesses (docs/semantics.md,
// rules 1 and 2).
//
// Requests overlap: once a request's `end` has gone out, the next request's
// commands follow it while the first one waits for its acknowledgements, up
// to `inFlight` requests waiting, each in a slot of its own. An agent
// acknowledges its `end` commands in the order it took them, so each
// acknowledgement belongs to the oldest waiting request the agent has taken
// the `end` of and not acknowledged. A request completes as soon as its own
// targets have acknowledged, after the older requests of its channel only:
// a channel's requests complete in order, one channel's slow target holds up
// no other channel (issue 55, item 9; until 2026-12-08 every request waited
// behind the oldest of all).
//
// Liveness (rule 9): each target has a watchdog of its own. A target that a
// request waits for (to take a command, or to acknowledge an `end` it took)
// and that neither takes a command nor acknowledges for TIMEOUT cycles in a
// row is given up on, in every request that waits for it: they go on without
// it and complete with that target in FAILED. Another target's progress does
// not reset its watchdog (it did while there was one for all). An agent
// given up on after it took an `end` command still owes that
// acknowledgement; it is swallowed when it comes, so that it is never taken
// for a later request's.
//
// A target given up on is dead until its agent has been idle (nothing
// queued, nothing owed) for TIMEOUT cycles in a row: a request that starts
// while it is dead leaves it out from the start and completes at once with
// it in FAILED, instead of waiting another TIMEOUT for it, and a hart that
// drains slowly again and again does not stall the sending stage each time
// it is named (until 2026-12-08 it came back as soon as it was idle).
package shootdown.devices

import chisel3._
import chisel3.util._

/** @param nHarts     targets (agents)
  * @param agentQueue commands an agent buffers: bounds the acknowledgements
  *                   one agent can owe for requests that gave up on it
  * @param inFlight   requests that may wait for acknowledgements at once
  * @param chanBits   bits of a channel's number */
case class BroadcasterParams(nHarts: Int, agentQueue: Int, inFlight: Int, chanBits: Int) {
  require(inFlight >= 1)
  val slotBits = log2Ceil(inFlight max 2)
}

/** A request waiting for its acknowledgements. */
class WaitingRequest(p: BroadcasterParams) extends Bundle {
  val seq     = UInt(32.W)
  val chan    = UInt(p.chanBits.W)
  val live    = UInt(p.nHarts.W)  // targets not given up on
  val endPend = UInt(p.nHarts.W)  // live targets that have not taken the `end` yet
  val acked   = UInt(p.nHarts.W)
  val failed  = UInt(p.nHarts.W)  // targets given up on
  override def cloneType = new WaitingRequest(p).asInstanceOf[this.type]
}

class BroadcasterIO(p: BroadcasterParams) extends Bundle {
  /** One-cycle pulse: a request begins sending commands; `targets`, `chan`
    * and `seq` hold from the next cycle until its `end` is taken. */
  val start   = Input(Bool())
  val targets = Input(UInt(p.nHarts.W))
  val chan    = Input(UInt(p.chanBits.W))
  /** The request's number in the engine's order (echoed at completion). */
  val seq     = Input(UInt(32.W))
  /** TIMEOUT: cycles without progress from a target before it is given up
    * on, and idle cycles before a target given up on is served again
    * (0: never give up). */
  val timeout = Input(UInt(32.W))
  val cmd     = Flipped(Decoupled(new FlushCmd))
  val agents  = Vec(p.nHarts, new AgentPort)
  /** The slot the `end` taken this cycle (cmd fires with `end`) waits in. */
  val alloc   = Output(UInt(p.slotBits.W))

  /** This cycle's acknowledgements that count, and the request (seq) each
    * counts for. */
  val ackNow  = Output(UInt(p.nHarts.W))
  val ackSeq  = Output(Vec(p.nHarts, UInt(32.W)))
  /** (target, request) pairs given up on this cycle, and targets a request
    * left out because they were dead when it started (pulse, as its `end`
    * is taken). */
  val gaveUp  = Output(UInt(log2Ceil(p.nHarts * (p.inFlight + 1) + 1).W))
  val skipped = Output(UInt(p.nHarts.W))
  /** Each channel's oldest waiting request's acknowledgements, this
    * cycle's included (valid: it has one waiting). */
  val chanAcked = Output(Vec(1 << p.chanBits, Valid(UInt(p.nHarts.W))))
  /** A request completes (every target not given up on has acknowledged,
    * and the older requests of its channel have completed) and leaves its
    * slot: the request as it ends. */
  val complete = Output(Valid(new WaitingRequest(p)))
  val completeSlot = Output(UInt(p.slotBits.W))
  override def cloneType = new BroadcasterIO(p).asInstanceOf[this.type]
}

class Broadcaster(p: BroadcasterParams) extends Module {
  val io = IO(new BroadcasterIO(p))
  private val n = p.nHarts
  private val slots = p.inFlight

  // The request now sending commands, until its `end` goes out (`inReq`):
  // the targets it has given up on, and those dead when it started (`skip`:
  // left out of it altogether).
  val inReq = RegInit(false.B)
  val failedNow = RegInit(0.U(n.W))
  val dead = RegInit(0.U(n.W))
  val skip = RegInit(0.U(n.W))
  val liveNow = io.targets & ~failedNow & ~skip

  // The waiting requests, each in a slot; older(s) has a bit for every
  // valid slot that was allocated before s.
  val waits = Reg(Vec(slots, new WaitingRequest(p)))
  val valid = RegInit(VecInit(Seq.fill(slots)(false.B)))
  val older = RegInit(VecInit(Seq.fill(slots)(0.U(slots.W))))
  val validBits = valid.asUInt
  val full = validBits.andR
  io.alloc := PriorityEncoder(~validBits)

  // ---- commands: one at a time, to every live target
  val cur = Reg(new FlushCmd)
  val curSlot = Reg(UInt(p.slotBits.W))  // the slot of the `end` in `cur`
  val pend = RegInit(0.U(n.W))  // targets that have not taken `cur` yet
  val curIsEnd = RegInit(false.B)
  val takes = VecInit(io.agents.map(_.cmd.fire())).asUInt
  val remaining = pend & ~takes
  // An `end` needs a free slot to wait in (the engine admits no more
  // requests than there are slots, so it always finds one).
  io.cmd.ready := remaining === 0.U && !(io.cmd.bits.end && full)
  io.agents.zipWithIndex.foreach { case (a, i) =>
    a.cmd.valid := pend(i)
    a.cmd.bits := cur
  }
  private def endIn(s: Int) = curIsEnd && curSlot === s.U

  // ---- acknowledgements
  // Acknowledgements owed for requests that gave up on the agent.
  val owed = RegInit(VecInit(Seq.fill(n)(0.U(log2Ceil(p.agentQueue + slots + 2).W))))
  val rawAcks = VecInit(io.agents.map(_.ack)).asUInt
  val stale = VecInit(owed.map(_ =/= 0.U)).asUInt
  io.ackNow := rawAcks & ~stale
  /** The slot agent i's acknowledgement is for: the oldest that waits for
    * it and whose `end` it took. */
  private def ackSlot(i: Int): (Bool, UInt) = {
    // An agent may acknowledge in the cycle it takes the `end` (only a
    // broken one would, as mutant ack-before-drain does, but its early
    // acknowledgement must still land where the checks can see it).
    def tookEnd(s: Int) = !waits(s).endPend(i) || (endIn(s) && takes(i))
    val hits = VecInit((0 until slots).map(s => valid(s) && waits(s).live(i) && !waits(s).acked(i) && tookEnd(s))).asUInt
    val oldest = VecInit((0 until slots).map(s => hits(s) && (older(s) & hits) === 0.U)).asUInt
    (hits.orR, OHToUInt(oldest))
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

  // ---- the watchdogs: one per target, counting the cycles in a row in
  // which a request waited for it and it did not move; while it is dead,
  // the cycles in a row its agent has been idle.
  /** Per slot: live targets it still waits for (not acknowledged). */
  val unacked = VecInit((0 until slots).map(s => Mux(valid(s), waits(s).live & ~waits(s).acked & ~ackedNow(s), 0.U)))
  val owesAck = (0 until slots).map(s => unacked(s) & ~waits(s).endPend)
  val waitedOn = pend | unacked.reduce(_ | _)
  val progress = takes | rawAcks
  val idle = VecInit(io.agents.zip(owed).map { case (a, o) => !a.busy && o === 0.U }).asUInt
  val stalled = RegInit(VecInit(Seq.fill(n)(0.U(32.W))))
  val expireV = Wire(Vec(n, Bool()))
  val reviveV = Wire(Vec(n, Bool()))
  (0 until n).foreach { i =>
    val elapsed = io.timeout === 0.U || stalled(i) >= io.timeout - 1.U
    expireV(i) := !dead(i) && waitedOn(i) && !progress(i) && io.timeout =/= 0.U && elapsed
    reviveV(i) := dead(i) && idle(i) && elapsed
    val counting = Mux(dead(i), idle(i), waitedOn(i) && !progress(i))
    stalled(i) := Mux(expireV(i) || reviveV(i) || !counting, 0.U, stalled(i) + 1.U)
  }
  val expire = expireV.asUInt
  dead := (dead & ~reviveV.asUInt) | expire

  // Given up on this cycle: in the request being sent (before its `end`
  // has a slot) and in every slot that waits for the target.
  val gaveUpSending = Mux(inReq, expire & liveNow, 0.U)
  val gaveUpIn = VecInit((0 until slots).map(s => expire & unacked(s)))
  io.gaveUp := PopCount(gaveUpSending) +& gaveUpIn.map(PopCount(_)).reduce(_ +& _)
  val endFire = io.cmd.fire() && io.cmd.bits.end
  io.skipped := Mux(endFire, io.targets & skip, 0.U)
  owed.zipWithIndex.foreach { case (o, i) =>
    // Given up on after taking an `end` command: its ack will still come.
    val owes = PopCount((0 until slots).map(s => expire(i) && owesAck(s)(i)))
    o := o + owes - (rawAcks(i) && stale(i))
  }
  pend := Mux(io.cmd.fire(), liveNow & ~expire, remaining & ~expire)
  failedNow := failedNow | gaveUpSending
  when (io.cmd.fire()) {
    cur := io.cmd.bits
    curIsEnd := io.cmd.bits.end
  }

  // ---- the waiting requests' state
  val freed = WireDefault(0.U(slots.W))
  (0 until slots).foreach { s =>
    val w = waits(s)
    w.acked := w.acked | ackedNow(s)
    w.live := w.live & ~gaveUpIn(s)
    w.failed := w.failed | gaveUpIn(s)
    when (endIn(s)) { w.endPend := w.endPend & ~takes & ~expire }
    older(s) := older(s) & ~freed
  }
  when (endFire) {
    val w = waits(io.alloc)
    w.seq := io.seq
    w.chan := io.chan
    w.live := liveNow & ~expire
    w.endPend := liveNow & ~expire
    w.acked := 0.U
    w.failed := failedNow | gaveUpSending | io.skipped
    valid(io.alloc) := true.B
    older(io.alloc) := validBits & ~freed
    curSlot := io.alloc
    inReq := false.B
  }
  // After the `end` above: the next request may start in the cycle the
  // last one's `end` goes out.
  when (io.start) {
    inReq := true.B
    failedNow := 0.U
    skip := dead | expire
  }

  // ---- completion: a slot whose live targets have all acknowledged and
  // whose channel has no older request waiting; the oldest such, one a cycle.
  val done = VecInit((0 until slots).map { s =>
    valid(s) && waits(s).endPend === 0.U && (unacked(s) & ~gaveUpIn(s)) === 0.U && !(endIn(s) && pend =/= 0.U)
  }).asUInt
  private def sameChanOlder(s: Int) =
    VecInit((0 until slots).map(t => older(s)(t) && waits(t).chan === waits(s).chan)).asUInt.orR
  val eligible = VecInit((0 until slots).map(s => done(s) && !sameChanOlder(s))).asUInt
  val first = VecInit((0 until slots).map(s => eligible(s) && (older(s) & eligible) === 0.U)).asUInt
  val cs = OHToUInt(first)
  io.complete.valid := eligible.orR
  io.completeSlot := cs
  io.complete.bits := waits(cs)
  io.complete.bits.acked := waits(cs).acked | ackedNow(cs)
  io.complete.bits.live := waits(cs).live & ~gaveUpIn(cs)
  io.complete.bits.failed := waits(cs).failed | gaveUpIn(cs)
  when (io.complete.valid) {
    valid(cs) := false.B
    freed := first
  }

  // Each channel's oldest waiting request (for its ACKED register).
  io.chanAcked.zipWithIndex.foreach { case (out, c) =>
    val head = VecInit((0 until slots).map(s => valid(s) && waits(s).chan === c.U && !sameChanOlder(s))).asUInt
    out.valid := head.orR
    out.bits := Mux1H(head, (0 until slots).map(s => waits(s).acked | ackedNow(s)))
  }
}
