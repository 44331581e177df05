// Taps for the co-simulation scoreboard (sim/scoreboard.cpp). Each probe is a
// small Verilog block that calls the harness through DPI when `valid` is high
// at a clock edge. The call is compiled only with SCOREBOARD defined (the
// checked and debug Verilator models); everywhere else, FPGA synthesis
// included, a probe is an empty module.
package shootdown.devices

import chisel3._
import chisel3.experimental.IntParam
import chisel3.util.HasBlackBoxInline

/** What a probe reports. sim/scoreboard.h has the same numbers. */
object ScoreboardEvent {
  val unitStart   = 1  // hart = channel; a = ticket, b = target mask, c = seq (its number in the engine's order)
  val unitEntry   = 2  // a = the raw 64-bit list entry as the unit read it, b = seq
  val unitDone    = 3  // hart = channel; a = error code (0: success), b = targets given up on (CH_FAILED), c = seq
  val chanVisible = 4  // hart = channel; a = the ticket STATUS shows as done, b = STATUS.IDLE
  val agentAck    = 5  // hart's agent acknowledged request a = seq (not an ack owed to one that gave up)
  val walkReq     = 6  // a = requestor (0 ITLB, 1 DTLB), b = VPN
  val pteRead     = 7  // a = PTE address, b = PTE as read from memory
  val refill      = 8  // a = requestor, b = PTE answered to the TLB, c = level, d = access fault
  val dataAccess  = 9  // a = VA, b = PA, c = memory command, d = translated (1) or bare (0)
  val fetch       = 10 // a = VA, b = PA, d = translated (1) or bare (0)
  val ordered     = 11 // the hart's D$ became ordered (no access in flight)
  val localSfence = 12 // a = rs1 | rs2 << 1, b = VPN, c = ASID: the core's own sfence.vma
  val race        = 13 // a = which race happened this cycle (the race* codes below)

  /** The races the "racing" tests claim to produce, counted by the scoreboard. */
  val raceSfenceDeferred = 1 // the agent waited for the core's own sfence.vma
  val raceWalkInFlush    = 2 // a walk answered a TLB in a cycle the agent flushed the PTW
  val raceGuard          = 3 // the refill guard turned a non-global flush into a full one
}

class ScoreboardProbeIO extends Bundle {
  val clock = Input(Clock())
  val valid = Input(Bool())
  val hart  = Input(UInt(8.W))
  val a = Input(UInt(64.W))
  val b = Input(UInt(64.W))
  val c = Input(UInt(64.W))
  val d = Input(UInt(64.W))
}

class ScoreboardProbe(kind: Int) extends BlackBox(Map("KIND" -> IntParam(kind))) with HasBlackBoxInline {
  val io = IO(new ScoreboardProbeIO)
  setInline("ScoreboardProbe.v",
    """module ScoreboardProbe #(parameter KIND = 0) (
      |  input clock, input valid, input [7:0] hart,
      |  input [63:0] a, input [63:0] b, input [63:0] c, input [63:0] d);
      |`ifdef SCOREBOARD
      |  import "DPI-C" function void sb_event(input int kind, input int hart,
      |    input longint a, input longint b, input longint c, input longint d);
      |  always @(posedge clock) if (valid) sb_event(KIND, {24'b0, hart}, a, b, c, d);
      |`endif
      |endmodule
      |""".stripMargin)
}

object ScoreboardProbe {
  /** Report `kind` with up to four operands in every cycle where `valid` is high. */
  def apply(kind: Int, valid: Bool, hart: UInt, ops: UInt*): Unit = {
    require(ops.size <= 4, "a scoreboard event has at most four operands")
    val p = Module(new ScoreboardProbe(kind))
    p.io.clock := Module.clock
    p.io.valid := valid
    p.io.hart := hart
    // Narrower operands are zero-extended by the connection.
    val operands = ops ++ Seq.fill(4 - ops.size)(0.U)
    p.io.a := operands(0)
    p.io.b := operands(1)
    p.io.c := operands(2)
    p.io.d := operands(3)
  }
}
