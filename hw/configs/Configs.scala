// Config fragments and the simulation SoCs built from them.
package shootdown.configs

import freechips.rocketchip.config.Config
import freechips.rocketchip.devices.debug.DebugModuleKey
import freechips.rocketchip.rocket._
import freechips.rocketchip.subsystem._
import freechips.rocketchip.tile._
import shootdown.devices.{ShootdownKey, ShootdownParams, UartParams}
import shootdown.soc.{BootRomInBlockRam, SimDevicesKey, SimDevicesParams, WithForeignMaster}

/** `n` RV64IMAC harts with S and U mode, Sv39 and TLBs sized like an
  * application core: 32-entry L1 ITLB and DTLB and a 512-entry L2 TLB, so that
  * flush precision and refill cost show up in every measurement. */
class WithShootdownCores(n: Int, l1TLBEntries: Int = 32, l2TLBEntries: Int = 512) extends Config((site, here, up) => {
  case RocketTilesKey => {
    val core = RocketTileParams(
      core = RocketCoreParams(
        useVM = true,
        fpu = None,
        nL2TLBEntries = l2TLBEntries,
        mulDiv = Some(MulDivParams(mulUnroll = 8, mulEarlyOut = true, divEarlyOut = true))),
      dcache = Some(DCacheParams(
        rowBits = site(SystemBusKey).beatBits,
        nSets = 64,
        nWays = 4,
        nTLBEntries = l1TLBEntries,
        nMSHRs = 0,
        blockBytes = site(CacheBlockBytes))),
      icache = Some(ICacheParams(
        rowBits = site(SystemBusKey).beatBits,
        nSets = 64,
        nWays = 4,
        nTLBEntries = l1TLBEntries,
        blockBytes = site(CacheBlockBytes))))
    List.tabulate(n)(i => core.copy(hartId = i))
  }
})

/** The batched shootdown unit and a flush agent in every tile. */
class WithBatchedShootdown(params: ShootdownParams = ShootdownParams()) extends Config((site, here, up) => {
  case ShootdownKey => Some(params)
})

/** Console and test finisher at QEMU `virt` addresses. */
class WithSimDevices extends Config((site, here, up) => {
  case SimDevicesKey => Some(SimDevicesParams())
})

/** The console as a real serial port (hw/devices/Uart.scala) at `bitCycles`
  * clock cycles a bit, as on the FPGA boards; in simulation the harness
  * drives its pins (sim/uart_bridge.h). */
class WithUartConsole(clockHz: BigInt, bitCycles: Int) extends Config((site, here, up) => {
  case SimDevicesKey => up(SimDevicesKey, site).map(d => d.copy(uart = Some(UartParams(d.consoleAddress, clockHz, bitCycles))))
})

/** The boot ROM in block RAM (hw/soc/BootRom.scala), as on the FPGA boards. */
class WithBootRomInBlockRam extends Config((site, here, up) => {
  case BootRomInBlockRam => true
})

/** No debug module: the harness has no DTM to drive it. */
class WithoutDebugModule extends Config((site, here, up) => {
  case DebugModuleKey => None
})

/** Everything of a SoC but its harts and the unit; TileLink monitors on.
  * Its devices (hw/testing/SimDevices.scala) are the console, the test
  * finisher and the delay RAM at QEMU `virt`'s addresses; the boards keep
  * them, as what they are there (hw/boards): the console as a serial port,
  * the finisher as the status their LEDs show, the delay RAM shrunk to the
  * word shootdown_timeout's stuck hart stores to. */
class SoCBase extends Config(
  new WithSimDevices ++                        // console + finisher + delay RAM, QEMU virt addresses
  new WithoutDebugModule ++                    // no DTM in our harness
  new WithNoMMIOPort ++                        // devices live on the pbus instead
  new WithNoSlavePort ++                       // no external masters
  new WithDefaultMemPort ++                    // AXI4 DRAM at 0x8000_0000, 256 MiB
  new WithTimebase(BigInt(1000000)) ++         // mtime ticks at 1 MHz (every 100 cycles)
  new WithDTS("shootdown,sim-soc", Nil) ++     // model / compatible of the root node
  new WithNExtTopInterrupts(1) ++              // one PLIC source, tied off
  new BaseSubsystemConfig)

/** N harts, each with a flush agent, and the unit. */
class WithShootdown(harts: Int) extends Config(new WithBatchedShootdown ++ new WithShootdownCores(harts))

/** The SoC: the unit and N harts, without TileLink's protocol monitors
  * (which only check). What the checked models simulate (make test, the
  * benches, the sweeps) and what the boards build on (hw/boards). */
class Shootdown2HartConfig extends Config(new WithoutTLMonitors ++ new WithShootdown(2) ++ new SoCBase)
class Shootdown4HartConfig extends Config(new WithoutTLMonitors ++ new WithShootdown(4) ++ new SoCBase)
/** How cost grows with the machine (make bench-scaling): 1, 3 and 7 targets. */
class Shootdown8HartConfig extends Config(new WithoutTLMonitors ++ new WithShootdown(8) ++ new SoCBase)

/** Debug builds: the same SoC with rocket-chip's TileLink protocol monitors
  * and a bus master that is no hart (hw/testing/ForeignMaster.scala), which
  * the unit must take as foreign. */
class Debug2HartConfig extends Config(new WithForeignMaster ++ new WithShootdown(2) ++ new SoCBase)
class Debug4HartConfig extends Config(new WithForeignMaster ++ new WithShootdown(4) ++ new SoCBase)
class Debug8HartConfig extends Config(new WithForeignMaster ++ new WithShootdown(8) ++ new SoCBase)

/** The FPGA SoCs' console and boot on the simulated SoC: a serial port at
  * 5 cycles a bit (the nominal clock is 100 MHz: mtime ticks every 100
  * cycles) and, from build-model.sh, the boot ROM that loads a program over
  * it (hw/bootrom/uartboot), in block RAM as on the boards. */
class Uart2HartConfig extends Config(new WithUartConsole(100000000, 5) ++ new WithBootRomInBlockRam ++ new Shootdown2HartConfig)

/** The same SoCs without the unit: the baseline for area and for the
  * software-only shootdown path. */
class NoUnit2HartConfig extends Config(new WithoutTLMonitors ++ new WithShootdownCores(2) ++ new SoCBase)
class NoUnit4HartConfig extends Config(new WithoutTLMonitors ++ new WithShootdownCores(4) ++ new SoCBase)
