// The SoC as an FPGA board sees it: main memory in block RAM inside (or its
// AXI4 port outside, MemoryOnBoard), the serial port's pins, the
// finisher's last word and (WithJtagDebug) the debug module's JTAG pins
// outside. A board top
// (fpga/<board>/) adds the clock, the reset and the LEDs.
package shootdown.boards

import chisel3._
import chisel3.util._
import freechips.rocketchip.amba.axi4._
import freechips.rocketchip.config.{Field, Parameters}
import freechips.rocketchip.devices.debug.JtagDTMKey
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.subsystem.ExtMem
import freechips.rocketchip.util.HeterogeneousBag
import shootdown.devices.UartPins
import shootdown.soc.{FinisherCommands, ShootdownTop}

/** The finisher's last command, for a board's LEDs: `done` once anything
  * but the snapshot command was written, `passed` if that was the pass
  * command (0x5555). */
class BoardStatus extends Bundle {
  val done   = Output(Bool())
  val passed = Output(Bool())
  val code   = Output(UInt(16.W))
}

object BoardStatus {
  /** The finisher's snapshot command (sim/main.cpp kSnapshot). */
  val Snapshot = 0x5a5a
}

/** The debug module's JTAG port at the board's pins (a 4-wire TAP, no
  * TRST: the board's reset resets it). TDO is driven all the time. */
class JtagPins extends Bundle {
  val tck = Input(Bool())
  val tms = Input(Bool())
  val tdi = Input(Bool())
  val tdo = Output(Bool())
}

/** Block RAM behind the SoC's AXI4 memory port, as large as ExtMem says. */
class BlockRamMemory(edge: AXI4EdgeParameters, size: BigInt)(implicit p: Parameters) extends LazyModule {
  require(isPow2(size), s"block RAM of $size bytes: a power of two, please")
  val node = AXI4MasterNode(List(edge.master))
  // AXI4RAM decodes only the address bits below `size`.
  val ram = LazyModule(new AXI4RAM(AddressSet(0, size - 1), beatBytes = edge.bundle.dataBits / 8))
  ram.node := AXI4Buffer() := AXI4Fragmenter() := node

  lazy val module = new BlockRamMemoryImp(this)
}

class BlockRamMemoryImp(outer: BlockRamMemory) extends LazyModuleImp(outer) {
  val io = IO(new Bundle { val axi4 = Flipped(HeterogeneousBag.fromNode(outer.node.out)) })
  outer.node.out.zip(io.axi4).foreach { case ((bundle, _), port) => bundle <> port }
}

/** Main memory is on the board, not in block RAM (the Arty's DDR3 behind
  * the MIG): FpgaTop brings the SoC's AXI4 memory port out as `mem`, in
  * the SoC's clock domain, for the board top to serve. */
case object MemoryOnBoard extends Field[Boolean](false)

class FpgaTop(implicit p: Parameters) extends ShootdownTop {
  val size = p(ExtMem).getOrElse(throw new IllegalArgumentException("FpgaTop needs ExtMem")).master.size
  private val memPorts = ldut.mem_axi4.getWrappedValue
  require(memPorts.size == 1, s"a board serves one memory channel, not ${memPorts.size}")
  /** With MemoryOnBoard: the AXI4 master for main memory (0x8000_0000, `size` bytes). */
  val mem = if (p(MemoryOnBoard)) Some(IO(chiselTypeOf(memPorts.head))) else None
  mem match {
    case Some(pins) => pins <> memPorts.head
    case None =>
      val (_, edge) = ldut.memAXI4Node.in.head
      val ram = LazyModule(new BlockRamMemory(edge, size))
      Module(ram.module).io.axi4.head <> memPorts.head
  }

  val devices = dut.sim.getOrElse(throw new IllegalArgumentException("FpgaTop needs SimDevicesKey with a uart"))
  val uart = IO(new UartPins)
  uart <> devices.uart

  val status = IO(new BoardStatus)
  val done = RegInit(false.B)
  val last = RegInit(0.U(32.W))
  // The snapshot command marks where a simulation may fork (docs/soc.md:
  // /init writes it before its benchmarks); it ends nothing, on a board
  // neither.
  when(devices.finish.valid && devices.finish.bits(15, 0) =/= BoardStatus.Snapshot.U) {
    done := true.B
    last := devices.finish.bits
  }
  status.done := done
  status.passed := done && last(15, 0) === FinisherCommands.Pass.U
  status.code := last(31, 16)

  /** With a debug module (WithJtagDebug): its JTAG transport at `jtag`,
    * IDCODE from JtagDTMKey, reset with the board; the debugger's ndmreset
    * resets the rest of the SoC, as rocket-chip's TestHarness does. */
  val jtag = dut.debug.flatMap(_.systemjtag).map { sj =>
    val pins = IO(new JtagPins)
    sj.jtag.TCK := pins.tck.asClock
    sj.jtag.TMS := pins.tms
    sj.jtag.TDI := pins.tdi
    pins.tdo := sj.jtag.TDO.data
    sj.reset := reset
    sj.mfr_id := p(JtagDTMKey).idcodeManufId.U(11.W)
    sj.part_number := p(JtagDTMKey).idcodePartNum.U(16.W)
    sj.version := p(JtagDTMKey).idcodeVersion.U(4.W)
    pins
  }
  dut.debug.foreach { d => dut.reset := reset.asBool || RegNext(d.ndreset, false.B) }
}
