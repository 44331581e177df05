// Simulation-only devices: a console and a test finisher. The harness (sim/)
// watches their output ports every cycle; nothing here models timing.
package shootdown.soc

import chisel3._
import chisel3.util._
import freechips.rocketchip.config.{Field, Parameters}
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.regmapper._
import freechips.rocketchip.subsystem.BaseSubsystem
import freechips.rocketchip.tilelink._
import shootdown.devices.{Uart, UartParams, UartPins}

/** Addresses follow QEMU `virt`, so the same bare-metal platform header and
  * OpenSBI drivers work on both.
  * @param uart  the console as a real serial port at the console's address
  *              (the FPGA SoCs, hw/devices/Uart.scala), not SimConsole
  * @param delayRamBytes  the delay RAM's RAM (SimDelayRam; its registers
  *              stay at +0x1000): 4 KiB in simulation, a few words on a
  *              board, where the 4 KiB would take some 6,000 LUTs */
case class SimDevicesParams(
  consoleAddress: BigInt = 0x10000000L,
  finisherAddress: BigInt = 0x100000L,
  delayRamAddress: BigInt = 0x11000000L,
  uart: Option[UartParams] = None,
  delayRamBytes: Int = DelayRamConsts.ramBytes) {
  require(uart.forall(_.address == consoleAddress), "the serial port takes the console's address")
}

case object SimDevicesKey extends Field[Option[SimDevicesParams]](None)

/** The finisher's commands, written here and nowhere else: QEMU `virt`'s
  * sifive,test values and the harness's snapshot point (sim/main.cpp forks
  * there; QEMU and the boards' LEDs ignore it). GenShootdownHeaders writes
  * them into sw/include/finisher.h for the harness, the bare-metal runtime
  * and Linux's /init; the device tree and FpgaTop take them from here. */
object FinisherCommands {
  val Pass = 0x5555
  val Fail = 0x3333 // (code << 16) | Fail ends a run with status `code`
  val Reset = 0x7777
  val Snapshot = 0x5a5a
}

object ConsoleConsts {
  // NS16550 register offsets (reg-shift 0, byte-wide registers).
  val thr = 0x0 // transmit holding register (DLL while LCR.DLAB is set)
  val ier = 0x1
  val lcr = 0x3
  val lsr = 0x5
  val lsrTxIdle = 0x60 // THRE | TEMT: always ready to send, never has input
  val size = 0x100
}

class ConsoleTx extends Bundle {
  val valid = Output(Bool())
  val bits  = Output(UInt(8.W))
}

/** Just enough of an NS16550 for OpenSBI's uart8250 driver and bare-metal code.
  *
  * {{{
  * offset  name  access  behaviour
  * 0x0     THR   W       byte to the console (ignored while LCR.DLAB = 1)
  * 0x3     LCR   RW      bit 7 (DLAB) redirects offset 0 to the divisor latch
  * 0x5     LSR   R       0x60: transmitter idle, no receive data
  * other         RW      accepted and ignored, read as zero
  * }}}
  */
class SimConsole(params: SimDevicesParams, beatBytes: Int)(implicit p: Parameters) extends LazyModule {
  val device = new SimpleDevice("serial", Seq("ns16550a")) {
    override def describe(resources: ResourceBindings): Description = {
      val Description(name, mapping) = super.describe(resources)
      Description(name, mapping ++ Map(
        "clock-frequency" -> Seq(ResourceInt(3686400)),
        "reg-shift"       -> Seq(ResourceInt(0)),
        "reg-io-width"    -> Seq(ResourceInt(1))))
    }
  }
  val node = TLRegisterNode(
    address   = Seq(AddressSet(params.consoleAddress, ConsoleConsts.size - 1)),
    device    = device,
    beatBytes = beatBytes)

  lazy val module = new SimConsoleImp(this)
}

class SimConsoleImp(outer: SimConsole) extends LazyModuleImp(outer) {
    import outer.node
    val io = IO(new Bundle { val tx = new ConsoleTx })
    val lcr = RegInit(0.U(8.W))
    val dlab = lcr(7)
    io.tx.valid := false.B
    io.tx.bits := 0.U
    node.regmap(
      ConsoleConsts.thr -> Seq(RegField.w(8, RegWriteFn((valid, data) => {
        io.tx.valid := valid && !dlab
        io.tx.bits := data
        true.B
      }), RegFieldDesc("thr", "transmit holding register"))),
      ConsoleConsts.lcr -> Seq(RegField(8, lcr, RegFieldDesc("lcr", "line control; only DLAB matters", reset = Some(0)))),
      ConsoleConsts.lsr -> Seq(RegField.r(8, ConsoleConsts.lsrTxIdle.U, RegFieldDesc("lsr", "line status: transmitter always idle"))))
}

class FinisherOut extends Bundle {
  val valid = Output(Bool())
  val bits  = Output(UInt(32.W))
}

/** SiFive test finisher, as in QEMU `virt`: writing 0x5555 ends the run with
  * status 0, (code << 16) | 0x3333 ends it with status `code`. The harness
  * decodes the value so that this module stays trivial.
  *
  * {{{
  * offset  name    access  behaviour
  * 0x0     finish  W       0x5555 pass, (code << 16) | 0x3333 fail, 0x7777 reset (treated as fail)
  * }}}
  */
class SimFinisher(params: SimDevicesParams, beatBytes: Int)(implicit p: Parameters) extends LazyModule {
  val device = new SimpleDevice("test", Seq("sifive,test1", "sifive,test0", "syscon"))
  val node = TLRegisterNode(
    address   = Seq(AddressSet(params.finisherAddress, 0xfff)),
    device    = device,
    beatBytes = beatBytes)

  lazy val module = new SimFinisherImp(this)
}

class SimFinisherImp(outer: SimFinisher) extends LazyModuleImp(outer) {
    import outer.node
    val io = IO(new Bundle { val finish = new FinisherOut })
    io.finish.valid := false.B
    io.finish.bits := 0.U
    node.regmap(
      0x0 -> Seq(RegField.w(32, RegWriteFn((valid, data) => {
        io.finish.valid := valid
        io.finish.bits := data
        true.B
      }), RegFieldDesc("finish", "test finisher command"))))
}

/** Device-tree nodes that let OpenSBI and Linux find the console
  * (`/chosen/stdout-path`) and power off or reboot through the finisher
  * (`syscon-poweroff` / `syscon-reboot`, as QEMU `virt` does). */
object SimDevicesTree {
  private def node(name: String, props: Map[String, Seq[ResourceValue]]) = {
    val device = new Device {
      def describe(resources: ResourceBindings) = Description(name, props)
    }
    ResourceBinding { Resource(device, "exists").bind(ResourceString(name)) }
  }

  private def syscon(name: String, finisher: Device, value: Int) = node(name, Map(
    "compatible" -> Seq(ResourceString(s"syscon-$name")),
    "regmap"     -> Seq(ResourceReference(finisher.label)),
    "offset"     -> Seq(ResourceInt(0)),
    "value"      -> Seq(ResourceInt(value))))

  def describe(console: Device, finisher: Device): Unit = {
    ResourceBinding { Resource(ResourceAnchors.aliases, "uart").bind(ResourceAlias(console.label)) }
    node("chosen", Map("stdout-path" -> Seq(ResourceString("serial0"))))
    syscon("poweroff", finisher, FinisherCommands.Pass)
    syscon("reboot", finisher, FinisherCommands.Reset)
  }
}

class SimDevicesIO extends Bundle {
  val console = new ConsoleTx
  val finish  = new FinisherOut
  /** The serial port's pins; TX idle (high) on a SoC with SimConsole. */
  val uart    = new UartPins
}

trait CanHavePeripherySimDevices { this: BaseSubsystem =>
  val simDevices = p(SimDevicesKey).map { params =>
    val console: Either[SimConsole, Uart] = params.uart match {
      case None => Left(LazyModule(new SimConsole(params, pbus.beatBytes)))
      case Some(u) => Right(LazyModule(new Uart(u, pbus.beatBytes)))
    }
    val finisher = LazyModule(new SimFinisher(params, pbus.beatBytes))
    console.fold(_.node, _.node) := pbus.coupleTo("sim-console") { TLFragmenter(pbus) := _ }
    console.foreach(uart => ibus.fromSync := uart.intNode)
    finisher.node := pbus.coupleTo("sim-finisher") { TLFragmenter(pbus) := _ }
    SimDevicesTree.describe(console.fold(_.device, _.device), finisher.device)
    val delayRam = LazyModule(new SimDelayRam(params.delayRamAddress, pbus.beatBytes, params.delayRamBytes))
    delayRam.node := pbus.coupleTo("sim-delay-ram") { TLFragmenter(pbus) := _ }
    (console, finisher)
  }
}

trait CanHavePeripherySimDevicesModuleImp extends LazyModuleImp {
  val outer: CanHavePeripherySimDevices
  val sim = outer.simDevices.map { case (console, finisher) =>
    val port = IO(new SimDevicesIO)
    port.console.valid := false.B
    port.console.bits := 0.U
    port.uart.tx := true.B
    console match {
      case Left(c) => port.console := c.module.io.tx
      case Right(u) => u.module.io.pins <> port.uart
    }
    port.finish := finisher.module.io.finish
    port
  }
}
