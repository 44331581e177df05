// The FPGA boards' SoCs (fpga/<board>/, docs/fpga.md). They live apart from
// hw/configs so that the simulation models' cache key (scripts/lib.sh,
// hw_key) does not change when a board does: nothing simulated uses them.
package shootdown.boards

import freechips.rocketchip.config.Config
import freechips.rocketchip.devices.debug.{DebugModuleKey, DefaultDebugModuleParams}
import freechips.rocketchip.rocket.BTBParams
import freechips.rocketchip.subsystem._
import freechips.rocketchip.tile.XLen
import shootdown.configs.{Shootdown2HartConfig, WithBootRomInBlockRam, WithUartConsole}
import shootdown.soc.SimDevicesKey

/** Main memory of `size` bytes at 0x8000_0000 (ExtMem), for a board that
  * puts it in block RAM (FpgaTop). */
class WithMainMemorySize(size: BigInt) extends Config((site, here, up) => {
  case ExtMem => up(ExtMem, site).map(m => m.copy(master = m.master.copy(size = size)))
})

/** The buses' clock, which the CLINT divides down to the 1 MHz timebase. */
class WithBusFrequency(hz: BigInt) extends Config((site, here, up) => {
  case PeripheryBusKey => up(PeripheryBusKey, site).copy(dtsFrequency = Some(hz))
})

/** A board at `clockHz` with its console on a serial port at `baud` and
  * `memory` bytes of block RAM for main memory (FpgaTop), the boot ROM in
  * block RAM too. Of the SoC's other devices (SoCBase) a board keeps the
  * finisher, whose last command FpgaTop shows on the LEDs (a program's
  * pass or failure), and the delay RAM, which WithUlx3sCores shrinks to
  * the 64 bytes shootdown_timeout's stuck hart needs. */
class WithBoard(clockHz: Int, baud: Int, memory: BigInt) extends Config(
  new WithUartConsole(clockHz, clockHz / baud) ++ // cycles a bit: the rate must divide the clock
  new WithBootRomInBlockRam ++                   // not 5,400 LUT4s of constants
  new WithBusFrequency(clockHz) ++               // mtime still at 1 MHz
  new WithMainMemorySize(memory))

/** What each hart gives up to fit a smaller FPGA. The shootdown unit, the
  * flush agents and everything they act on keep their kind: every hart
  * still has an ITLB, a DTLB, an L2 TLB and the PTW's PTE cache, so a board
  * runs the same requests through the same paths as the simulation, only
  * with less reach.
  * @param cacheWays  ways of the 64-set L1 I$ and D$ (4 KiB a way)
  * @param l1TLBEntries  entries of the ITLB and of the DTLB
  * @param l2TLBEntries  entries of the L2 TLB (in block RAM)
  * @param btb  the branch target buffer (None: every branch predicted not taken)
  * @param mulUnroll  multiplier bits a cycle (64 / mulUnroll cycles a MUL)
  * @param pmps  PMP entries (the bare-metal tests use 3; OpenSBI, 8 on these SoCs)
  * @param breakpoints  debug triggers */
case class SmallerCores(
    cacheWays: Int,
    l1TLBEntries: Int,
    l2TLBEntries: Int,
    btb: Option[BTBParams],
    mulUnroll: Int,
    pmps: Int,
    breakpoints: Int)

class WithSmallerCores(s: SmallerCores) extends Config((site, here, up) => {
  case RocketTilesKey => up(RocketTilesKey, site).map { t =>
    t.copy(
      core = t.core.copy(
        nL2TLBEntries = s.l2TLBEntries,
        nPMPs = s.pmps,
        nBreakpoints = s.breakpoints,
        mulDiv = t.core.mulDiv.map(_.copy(mulUnroll = s.mulUnroll))),
      btb = s.btb,
      icache = t.icache.map(_.copy(nWays = s.cacheWays, nTLBEntries = s.l1TLBEntries)),
      dcache = t.dcache.map(_.copy(nWays = s.cacheWays, nTLBEntries = s.l1TLBEntries)))
  }
})

/** The delay RAM (hw/testing/SimDelayRam.scala) with `bytes` of RAM: enough
  * for the tests that store to it (shootdown_timeout's one word), without
  * the 4 KiB of LUT RAM the simulated SoC has. */
class WithDelayRamBytes(bytes: Int) extends Config((site, here, up) => {
  case SimDevicesKey => up(SimDevicesKey, site).map(_.copy(delayRamBytes = bytes))
})

/** The ULX3S's harts, shrunk to fit the ECP5-85F's 83,640 LUT4s with the
  * unit and its agents as simulated (the simulated SoC takes 102,847;
  * docs/fpga.md has the accounting): L1 caches of `cacheWays` 4 KiB ways
  * (direct-mapped when block RAM must hold main memory too),
  * 8-entry L1 TLBs, a 128-entry L2 TLB, no BTB, a one-bit-a-cycle
  * multiplier, no debug triggers and 64 bytes of delay RAM. */
class WithUlx3sCores(cacheWays: Int = 1) extends Config(
  new WithDelayRamBytes(64) ++
  new WithSmallerCores(SmallerCores(
    cacheWays = cacheWays,
    l1TLBEntries = 8,
    l2TLBEntries = 128,
    btb = None,
    mulUnroll = 1,
    pmps = 8,
    breakpoints = 0)))

/** rocket-chip's debug module with its JTAG transport (FpgaTop's `jtag`
  * pins; docs/fpga.md, "Debugging"): openocd halts a hart, reads and
  * writes memory through it and loads programs. Abstract commands and the
  * program buffer only (no system bus access: memory goes through a halted
  * hart), and no clock gate (rocket-chip ships no Verilog for it). */
class WithJtagDebug extends Config(
  new WithJtagDTM ++
  new Config((site, here, up) => {
    case DebugModuleKey => Some(DefaultDebugModuleParams(site(XLen)).copy(clockGate = false))
  }))

/** Radiona ULX3S (Lattice ECP5-85F, fpga/ulx3s): the 2-hart SoC with the
  * ULX3S's cores, 25 MHz, the console on the FTDI serial port at 1 Mbit/s,
  * which the FT231X divides exactly (25 cycles a bit), and 256 KiB of block
  * RAM for main memory (first light: Ulx3sSdramConfig has the SDRAM). */
class Ulx3sConfig extends Config(
  new WithBoard(25000000, 1000000, 256 << 10) ++
  new WithUlx3sCores ++
  new Shootdown2HartConfig)

/** The ULX3S with its 32 MiB SDRAM as main memory: FpgaTop's memory port
  * goes out to the board top (fpga/ulx3s/top_sdram.v), which serves it
  * with the controller fpga/litedram/gen.py generates; the debug module's
  * JTAG port on the GPIO header (WithJtagDebug). Block RAM no longer
  * holds main memory, so the harts keep the simulated SoC's 16 KiB 4-way
  * L1 caches: with direct-mapped 4 KiB ones and a 16-bit SDRAM they ran
  * Linux at 0.09 instructions a cycle, their timer ticks taking most of
  * their time (docs/fpga.md). */
class Ulx3sSdramConfig extends Config(
  new WithJtagDebug ++
  new WithMemoryOnBoard ++
  new WithBoard(25000000, 1000000, 32 << 20) ++
  new WithUlx3sCores(cacheWays = 4) ++
  new Shootdown2HartConfig)

/** The ULX3S's harts (WithUlx3sCores) on the simulated SoC's memory,
  * console and finisher: what the board's shrunk cores do, told apart from
  * what its SDRAM path and 25 MHz do (scripts/build-model.sh 2 board-cores):
  * the SDRAM board's harts. */
class Ulx3sCoresSimConfig extends Config(new WithUlx3sCores(cacheWays = 4) ++ new Shootdown2HartConfig)

/** Digilent Arty A7-100T (fpga/arty-a7-100t): the 2-hart SoC as simulated
  * (63,400 LUT6s hold it), 50 MHz, 1 Mbit/s on the FT2232's serial port,
  * 256 KiB of block RAM (first light; ArtyA7Ddr3Config has the DDR3). */
class ArtyA7Config extends Config(new WithBoard(50000000, 1000000, 256 << 10) ++ new Shootdown2HartConfig)

/** Main memory on the board: FpgaTop's `mem` port (FpgaTop.scala). */
class WithMemoryOnBoard extends Config((site, here, up) => {
  case MemoryOnBoard => true
})

/** The Arty with its 256 MiB of DDR3L as main memory: the memory port goes
  * out to the board top (fpga/arty-a7-100t/top_ddr3.v), which serves it
  * with the MIG (mig.prj) through an AXI clock converter; the debug
  * module's JTAG port on Pmod JA (WithJtagDebug). Everything else as
  * ArtyA7Config; OpenSBI and its payloads run as in simulation. */
class ArtyA7Ddr3Config extends Config(new WithArtyDdr3(50000000))

/** The same at 25 MHz, the fallback should 50 MHz not close timing (two
  * harts fill 77-79% of the LUT6s): fpga/build.sh arty-a7-100t-ddr3-25mhz
  * sets the MMCM's divider from this config's clock. */
class ArtyA7Ddr3At25MHzConfig extends Config(new WithArtyDdr3(25000000))

/** The Arty's DDR3 SoC at `clockHz` (1 Mbit/s on the console, which must
  * divide it). */
class WithArtyDdr3(clockHz: Int) extends Config(
  new WithJtagDebug ++
  new WithMemoryOnBoard ++
  new WithBoard(clockHz, 1000000, 256 << 20) ++
  new Shootdown2HartConfig)
