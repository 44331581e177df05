// The per-hart flush agent: applies the unit's commands to its hart's TLBs
// without the hart taking a trap, then drains the hart's older accesses and
// acknowledges. It only speaks small bundles of its own; ShootdownTile adapts
// them to Rocket's D$, ITLB and PTW ports, so the agent can be simulated alone.
package shootdown.tile

import chisel3._
import chisel3.util._
import shootdown.devices.{AgentPort, FlushCmd, Knobs, ShootdownMap}

/** An sfence.vma as Rocket's TLBs take it: rs1 = "one VA", rs2 = "one ASID". */
class AgentSfence extends Bundle {
  val rs1  = Bool()
  val rs2  = Bool()
  val vpn  = UInt(FlushCmd.vpnBits.W)
  val asid = UInt(ShootdownMap.Entry.asidBits.W)
}

class FlushAgentIO extends Bundle {
  val port = Flipped(new AgentPort)
  /** To the DTLB, as an M_SFENCE through the D$ (ready: the D$ took it). */
  val dtlb = Decoupled(new AgentSfence)
  /** To the PTW (L2 TLB, PTE cache, in-flight walk); valid exactly in the
    * cycles where `dtlb` fires. */
  val ptw = Valid(new AgentSfence)
  /** To the ITLB, once per request at the end. */
  val itlb = Valid(new AgentSfence)
  /** The core drives no sfence of its own to the ITLB/PTW this cycle. Those
    * inputs take one request per cycle, so the agent waits for a free one. */
  val sfenceFree = Input(Bool())
  /** Hold the core's D$ requests off (the core replays them). */
  val blockCore = Output(Bool())
  /** The D$ has no access in flight (HellaCacheIO.ordered). */
  val ordered = Input(Bool())
  /** The I$ has no refill in flight and none about to start. */
  val fetchIdle = Input(Bool())
  /** The agent waits this cycle because the core's own sfence has the
    * ITLB and PTW inputs (for the scoreboard's race counters). */
  val deferred = Output(Bool())
}

/** Commands are applied in bursts (see `go`). Per command: the PTW is
  * flushed in the cycle the D$ takes the `M_SFENCE`, and the D$ flushes the
  * DTLB a cycle later. The D$ takes nothing while the DTLB waits for a walk,
  * except in the cycle the walk's answer (the DTLB's refill) arrives, so no
  * DTLB refill can follow its flush; an L2 TLB refill can land in the PTW
  * flush's own cycle, which ShootdownTile's refill guard covers. At the end
  * of a request: the ITLB gets the flush the `end` command names (the
  * request's one ASID, or everything: EntryExpander decides), twice, because
  * a refill landing in the same cycle as a flush survives it; the `end`
  * stays at the head of the queue until then, so the flush reads its kind
  * and ASID there; then the core's D$ port is held until the
  * D$ reports `ordered` and the I$ has no refill in flight, so every access
  * and every fetch translated before the flush has been performed; then the
  * ack. docs/shootdown-unit.md has the argument.
  *
  * Two mutants (hw/testing/Mutants.scala) act here: "ack-before-drain"
  * acknowledges as soon as the `end` command arrives, before the queued
  * flushes are applied and the hart's accesses drained; "ack-before-ordered"
  * holds the core but does not wait for `ordered`. */
class FlushAgent(queueDepth: Int) extends MultiIOModule {
  val io = IO(new FlushAgentIO)
  /** Test switches (hw/testing/Mutants.scala): ack-before-drain, ack-before-ordered. */
  val knobs = IO(Input(new Knobs(Knobs.agent)))

  val queue = Module(new Queue(new FlushCmd, queueDepth))
  queue.io.enq <> io.port.cmd
  val q = queue.io.deq
  val c = q.bits

  // Steal the core's D$ port in bursts, not one cycle per command as the list
  // trickles in: every burst costs the core a replay. A burst starts when the
  // request's end is queued or the queue is full, and lasts until the queue
  // runs dry.
  val endsQueued = RegInit(0.U(log2Ceil(queueDepth + 1).W))
  endsQueued := endsQueued + (queue.io.enq.fire() && queue.io.enq.bits.end) - (q.fire() && c.end)
  val bursting = RegInit(false.B)
  val go = bursting || endsQueued =/= 0.U || queue.io.count === queueDepth.U

  val sRun :: sItlb :: sDrain :: Nil = Enum(3)
  val state = RegInit(sRun)
  val itlbDone = RegInit(0.U(2.W))

  val sf = Wire(new AgentSfence)
  sf.rs1 := !c.kind(1)   // kinds 0 and 1 name a VA
  sf.rs2 := !c.kind(0)   // kinds 0 and 2 name an ASID
  sf.vpn := c.vpn
  sf.asid := c.asid

  val flushing = state === sRun && q.valid && !c.end && go
  io.dtlb.valid := flushing && io.sfenceFree
  io.dtlb.bits := sf

  // At the end of a request (an `end` command at the head): kind ASID or ALL.
  val itlb = WireDefault(sf)
  itlb.rs1 := false.B
  itlb.vpn := 0.U
  io.itlb.valid := state === sItlb && io.sfenceFree
  io.deferred := (flushing || state === sItlb) && !io.sfenceFree
  io.itlb.bits := itlb

  io.ptw.valid := io.dtlb.fire()
  io.ptw.bits := sf
  // NONLEAF: the page walker's cache of non-leaf entries is dropped only by
  // a flush that names no VA (Rocket's PTW), so send it one.
  when (c.nonLeaf) { io.ptw.bits.rs1 := false.B }

  val itlbLast = io.itlb.valid && itlbDone === 1.U
  q.ready := Mux(c.end, itlbLast, state === sRun && io.dtlb.fire())
  when (io.dtlb.fire()) { bursting := true.B }
  when (!q.valid || c.end) { bursting := false.B }
  when (state === sRun && q.valid && c.end) {
    state := sItlb
    itlbDone := 0.U
  }

  val ack = WireDefault(false.B)
  when (io.itlb.valid) { itlbDone := itlbDone + 1.U }
  when (itlbLast) { state := sDrain }

  // Hold the core off for two cycles before trusting `ordered`: an access the
  // D$ accepted in the cycle the hold began is in its stage 1 only then.
  // (Holding it from the last burst on, to save a replay, measured worse:
  // the core loses the cycles it could use between the burst and the drain.)
  io.blockCore := state === sDrain
  val held = RegInit(0.U(2.W))
  held := Mux(io.blockCore, Mux(held === 2.U, 2.U, held + 1.U), 0.U)
  when (state === sDrain && held === 2.U && ((io.ordered && io.fetchIdle) || knobs("ack-before-ordered"))) {
    ack := true.B
    state := sRun
  }

  val earlyAck = io.port.cmd.fire() && io.port.cmd.bits.end
  io.port.ack := Mux(knobs("ack-before-drain"), earlyAck, ack)
  io.port.busy := state =/= sRun || q.valid
}
