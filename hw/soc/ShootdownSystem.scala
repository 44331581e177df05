// The simulated SoC and the top module the Verilator harness drives.
package shootdown.soc

import chisel3._
import freechips.rocketchip.config.Parameters
import freechips.rocketchip.devices.tilelink._
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.subsystem._
import freechips.rocketchip.util.DontTouch
import shootdown.tile.{HasShootdownTiles, HasShootdownTilesModuleImp}

/** Rocket harts, CLINT, PLIC, boot ROM, one AXI4 memory port, the sim
  * devices and (with WithBatchedShootdown) the shootdown unit with a flush
  * agent in every tile. Unlike rocket-chip's ExampleRocketSystem it has no
  * MMIO or slave AXI port and no debug module, so it needs nothing from
  * Spike's fesvr. It is RocketSubsystem with HasShootdownTiles in place of
  * HasRocketTiles and a boot ROM that can live in block RAM (BootRom.scala). */
class ShootdownSystem(implicit p: Parameters) extends BaseSubsystem
    with HasShootdownTiles
    with HasHierarchicalBusTopology
    with HasAsyncExtInterrupts
    with CanHaveMasterAXI4MemPort
    with HasShootdownBootROM
    with CanHavePeripherySimDevices
    with CanHavePeripheryBatchedShootdown
    with CanHaveForeignMaster {
  val tiles = rocketTiles

  // OpenSBI and Linux read timebase-frequency from /cpus; rocket-chip 1.2.6
  // writes it only into each cpu node, and its /cpus device takes no extra
  // properties, so add it to the generated text.
  override lazy val dts = ShootdownSystem.withCpusTimebase(DTS(bindingTree), p(DTSTimebase))

  override lazy val module = new ShootdownSystemModuleImp(this)
}

object ShootdownSystem {
  def withCpusTimebase(dts: String, timebase: BigInt): String = {
    val anchor = "cpus {\n"
    val at = dts.indexOf(anchor)
    require(at >= 0, "generated DTS has no cpus node")
    val indent = "\t\t"
    dts.patch(at + anchor.length, s"${indent}timebase-frequency = <$timebase>;\n", 0)
  }
}

class ShootdownSystemModuleImp[+L <: ShootdownSystem](_outer: L) extends BaseSubsystemModuleImp(_outer)
    with HasResetVectorWire
    with HasShootdownTilesModuleImp
    with CanHavePeripheryBatchedShootdownModuleImp
    with HasRTCModuleImp
    with HasExtInterruptsModuleImp
    with HasShootdownBootROMModuleImp
    with CanHavePeripherySimDevicesModuleImp
    with CanHaveForeignMasterModuleImp
    with DontTouch {
  tile_inputs.zip(outer.hartIdList).foreach { case (wire, i) =>
    wire.hartid := i.U
    wire.reset_vector := global_reset_vector
  }
}

/** The system with its ports kept, its interrupts tied off and no
  * power-on-reset signals; the tops (SimTop, the boards' FpgaTop) add what
  * serves its memory port and devices. */
abstract class ShootdownTop(implicit p: Parameters) extends MultiIOModule {
  val ldut = LazyModule(new ShootdownSystem)
  val dut = Module(ldut.module)

  dut.dontTouchPorts()
  dut.tieOffInterrupts()
  dut.psd.psd.foreach(_ := 0.U.asTypeOf(chiselTypeOf(dut.psd.psd.get)))
}

/** Top of the Verilator model. Ports (flattened by FIRRTL):
  * `mem_*` an AXI4 master for DRAM at 0x8000_0000, served by sim/axi_mem;
  * `sim_console_*`, `sim_finish_*` one-cycle pulses from the sim devices. */
class SimTop(implicit p: Parameters) extends ShootdownTop {
  val memPorts = ldut.mem_axi4.getWrappedValue
  require(memPorts.size == 1, "the harness serves exactly one memory channel")
  val mem = IO(chiselTypeOf(memPorts.head))
  mem <> memPorts.head

  val sim = IO(new SimDevicesIO)
  sim <> dut.sim.getOrElse(throw new IllegalArgumentException("SimTop needs SimDevicesKey (WithSimDevices)"))
}
