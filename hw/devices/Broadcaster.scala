// The shootdown unit's broadcaster: hands each flush command to every target's
// agent (the next command waits until all have taken it) and completes the
// request once every target has acknowledged its `end` command, that is,
// applied every flush and drained its older accesses (docs/semantics.md,
// rules 1 and 2).
//
// Liveness (rule 9): a target that neither takes a command nor acknowledges
// for TIMEOUT cycles in a row, while the request waits for it, is given up
// on: the request goes on without it and completes with that target in
// FAILED. An agent given up on after it took the `end` command still owes
// that acknowledgement; it is swallowed when it comes, so that it is never
// taken for a later request's.
package shootdown.devices

import chisel3._
import chisel3.util._

/** @param nHarts     targets (agents)
  * @param agentQueue commands an agent buffers: bounds the acknowledgements
  *                   one agent can owe for requests that gave up on it */
case class BroadcasterParams(nHarts: Int, agentQueue: Int)

class BroadcasterIO(p: BroadcasterParams) extends Bundle {
  /** One-cycle pulse: a request begins; `targets` holds its mask from the
    * next cycle until `complete`. */
  val start   = Input(Bool())
  val targets = Input(UInt(p.nHarts.W))
  /** TIMEOUT: cycles without progress from a target before it is given up
    * on (0: never). */
  val timeout = Input(UInt(32.W))
  val cmd     = Flipped(Decoupled(new FlushCmd))
  val agents  = Vec(p.nHarts, new AgentPort)
  /** Targets that have acknowledged the request so far (this cycle's
    * acknowledgements included). */
  val acked    = Output(UInt(p.nHarts.W))
  /** This cycle's acknowledgements that count for the request. */
  val ackNow   = Output(UInt(p.nHarts.W))
  /** Targets given up on this cycle (pulse), and so far in the request. */
  val gaveUp   = Output(UInt(p.nHarts.W))
  val failed   = Output(UInt(p.nHarts.W))
  /** One-cycle pulse: every target not given up on has acknowledged. */
  val complete = Output(Bool())
  override def cloneType = new BroadcasterIO(p).asInstanceOf[this.type]
}

class Broadcaster(p: BroadcasterParams) extends Module {
  val io = IO(new BroadcasterIO(p))
  private val n = p.nHarts

  val failed = RegInit(0.U(n.W))
  val live = io.targets & ~failed

  val cur = Reg(new FlushCmd)
  val pend = RegInit(0.U(n.W))  // targets that have not taken `cur` yet
  val takes = VecInit(io.agents.map(_.cmd.fire())).asUInt
  val remaining = pend & ~takes
  io.cmd.ready := remaining === 0.U
  when (io.cmd.fire()) { cur := io.cmd.bits }
  io.agents.zipWithIndex.foreach { case (a, i) =>
    a.cmd.valid := pend(i)
    a.cmd.bits := cur
  }

  // Acknowledgements owed for requests that gave up on the agent.
  val owed = RegInit(VecInit(Seq.fill(n)(0.U(log2Ceil(p.agentQueue + 2).W))))
  val rawAcks = VecInit(io.agents.map(_.ack)).asUInt
  val stale = VecInit(owed.map(_ =/= 0.U)).asUInt
  io.ackNow := rawAcks & ~stale
  val endSent = RegInit(false.B)
  val ackedBefore = RegInit(0.U(n.W))
  io.acked := ackedBefore | io.ackNow
  ackedBefore := io.acked
  when (io.cmd.fire() && io.cmd.bits.end) { endSent := true.B }

  // The watchdog: cycles in a row in which the request waited for targets
  // and none of them moved.
  val waitingAcks = Mux(endSent, live & ~io.acked, 0.U)
  val waiting = pend =/= 0.U || waitingAcks =/= 0.U
  val progress = takes =/= 0.U || io.ackNow =/= 0.U
  val stalled = RegInit(0.U(32.W))
  stalled := Mux(!waiting || progress, 0.U, stalled + 1.U)
  val expire = waiting && !progress && io.timeout =/= 0.U && stalled >= io.timeout - 1.U
  io.gaveUp := Mux(expire, Mux(pend =/= 0.U, pend, waitingAcks), 0.U)
  failed := failed | io.gaveUp
  io.failed := failed | io.gaveUp
  owed.zipWithIndex.foreach { case (o, i) =>
    // Given up on after taking the `end` command: its ack will still come.
    val owes = io.gaveUp(i) && endSent && !pend(i)
    o := o + owes - (rawAcks(i) && stale(i))
  }

  val pendNext = Mux(io.cmd.fire(), live & ~io.gaveUp, remaining & ~io.gaveUp)
  pend := pendNext
  io.complete := endSent && pend === 0.U && (live & ~io.gaveUp & ~io.acked) === 0.U
  when (io.complete) { endSent := false.B }
  when (io.start) {
    ackedBefore := 0.U
    failed := 0.U
  }
}
