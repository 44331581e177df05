// A serial port for the FPGA boards: enough of an NS16550 for OpenSBI's
// uart8250 driver, Linux's 8250 driver and the bare-metal console, with a
// real transmitter and receiver on two pins (8 data bits, no parity, one stop
// bit). The simulated SoCs keep SimConsole; the FPGA SoC puts this at the
// same address, so the same programs run on both.
package shootdown.devices

import chisel3._
import chisel3.util._
import freechips.rocketchip.config.Parameters
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.interrupts._
import freechips.rocketchip.regmapper._
import freechips.rocketchip.tilelink._

/** @param address      base of the 256-byte register window
  * @param clockHz      the clock the port runs on
  * @param divisorInit  reset value of the divisor: clock cycles per bit (the
  *                     boot ROM and the firmware leave it as it is)
  * @param fifoDepth    bytes each direction buffers */
case class UartParams(address: BigInt, clockHz: BigInt, divisorInit: Int, fifoDepth: Int = 16) {
  require(divisorInit >= UartConsts.minDivisor && divisorInit < (1 << 16),
    s"divisor $divisorInit outside ${UartConsts.minDivisor}..65535 cycles a bit")
  require(isPow2(fifoDepth) && fifoDepth >= 2)
  /** Bits per second at reset. */
  def baud: BigInt = clockHz / divisorInit
}

object UartConsts {
  // NS16550 offsets (reg-shift 0, byte-wide registers).
  val rbrThr = 0x0 // R: RBR, pops a received byte; W: THR, queues a byte (DLL while DLAB)
  val ier    = 0x1 // bit 0 receive interrupt, bit 1 transmitter-empty interrupt (DLM while DLAB)
  val iirFcr = 0x2 // R: IIR; W: FCR, bit 1 clears the receive FIFO, bit 2 the transmit FIFO
  val lcr    = 0x3 // bit 7 DLAB; the frame is always 8N1
  val mcr    = 0x4
  val lsr    = 0x5 // bit 0 DR, 1 OE (cleared by reading), 5 THRE, 6 TEMT
  val msr    = 0x6
  val scr    = 0x7
  /** Not an NS16550 register: a 32-bit read that pops a received byte
    * (bits 7:0) or says there is none (bit 31), in one bus access instead
    * of LSR then RBR: the boot loader reads the line with it. */
  val rxdata = 0x10
  val size   = 0x100
  /** Fewest cycles a bit: the receiver samples each bit in its middle. */
  val minDivisor = 4
}

class UartPins extends Bundle {
  val tx = Output(Bool())
  val rx = Input(Bool())
}

/** The divisor counts clock cycles per bit, not the NS16550's 16 × clock
  * cycles: the device tree's `clock-frequency` is 16 × the real clock, so a
  * standard driver's divisor, clock / (16 × baud), comes out as clock / baud
  * here, and `current-speed` is the reset rate, which the firmware keeps.
  *
  * {{{
  * offset  DLAB=0              DLAB=1
  * 0x0     R RBR / W THR       RW DLL (divisor bits 7:0)
  * 0x1     RW IER              RW DLM (divisor bits 15:8)
  * 0x2     R IIR / W FCR
  * 0x3     RW LCR (bit 7 DLAB)
  * 0x4     RW MCR (ignored)
  * 0x5     R LSR
  * 0x6     R MSR (0)
  * 0x7     RW SCR (scratch)
  * 0x10    R RXDATA (32 bits): bit 31 set if nothing was received, else
  *         bits 7:0 the next received byte (popped); an extension
  * }}}
  */
class Uart(params: UartParams, beatBytes: Int)(implicit p: Parameters) extends LazyModule {
  val device = new SimpleDevice("serial", Seq("ns16550a")) {
    override def describe(resources: ResourceBindings): Description = {
      val Description(name, mapping) = super.describe(resources)
      Description(name, mapping ++ Map(
        "clock-frequency" -> Seq(ResourceInt(params.clockHz * 16)),
        "current-speed"   -> Seq(ResourceInt(params.baud)),
        "reg-shift"       -> Seq(ResourceInt(0)),
        "reg-io-width"    -> Seq(ResourceInt(1))))
    }
  }
  val node = TLRegisterNode(
    address   = Seq(AddressSet(params.address, UartConsts.size - 1)),
    device    = device,
    // reads with a side effect (RBR, LSR) act on the response's handshake
    concurrency = 1,
    beatBytes = beatBytes)
  val intNode = IntSourceNode(IntSourcePortSimple(resources = device.int))

  lazy val module = new UartImp(this, params)
}

class UartImp(outer: Uart, params: UartParams) extends LazyModuleImp(outer) {
    import outer.{intNode, node}
    val io = IO(new Bundle { val pins = new UartPins })
    val divisor = RegInit(params.divisorInit.U(16.W))
    val ier = RegInit(0.U(2.W))
    val lcr = RegInit(0.U(8.W))
    val mcr = RegInit(0.U(5.W))
    val scr = RegInit(0.U(8.W))
    val dlab = lcr(7)
    val bitCycles = Mux(divisor < UartConsts.minDivisor.U, UartConsts.minDivisor.U, divisor)

    val tx = Module(new UartTx)
    val txq = Module(new Queue(UInt(8.W), params.fifoDepth))
    tx.io.bitCycles := bitCycles
    tx.io.in <> txq.io.deq
    io.pins.tx := tx.io.out

    val rx = Module(new UartRx)
    val rxq = Module(new Queue(UInt(8.W), params.fifoDepth))
    rx.io.bitCycles := bitCycles
    rx.io.in := io.pins.rx
    rxq.io.enq.valid := rx.io.out.valid
    rxq.io.enq.bits := rx.io.out.bits
    val overrun = RegInit(false.B)
    when(rx.io.out.valid && !rxq.io.enq.ready) { overrun := true.B }

    val thre = !txq.io.deq.valid
    val temt = thre && !tx.io.busy
    val dr = rxq.io.deq.valid
    val lsr = Cat(temt, thre, 0.U(3.W), overrun, dr)
    // IIR: 0xc0 says "FIFOs enabled"; then receive data (0x4), transmitter
    // empty (0x2) or nothing pending (0x1).
    val iir = Cat("b1100".U(4.W), Mux(ier(0) && dr, 4.U(4.W), Mux(ier(1) && thre, 2.U(4.W), 1.U(4.W))))
    intNode.out.head._1(0) := (ier(0) && dr) || (ier(1) && thre)

    // A FIFO clear from FCR: a Queue has no flush, so drain it a byte a cycle.
    val clearRx = RegInit(false.B)
    val clearTx = RegInit(false.B)
    rxq.io.deq.ready := false.B
    when(clearRx) { rxq.io.deq.ready := true.B; when(!rxq.io.deq.valid) { clearRx := false.B } }
    txq.io.enq.valid := false.B
    txq.io.enq.bits := 0.U
    when(clearTx) {
      tx.io.in.valid := false.B
      txq.io.deq.ready := true.B
      when(!txq.io.deq.valid) { clearTx := false.B }
    }

    def byteReg(read: UInt, write: UInt => Unit, name: String, desc: String) =
      RegField(8,
        RegReadFn(read),
        RegWriteFn((valid: Bool, data: UInt) => { when(valid) { write(data) }; true.B }),
        RegFieldDesc(name, desc))

    node.regmap(
      UartConsts.rbrThr -> Seq(RegField(8,
        RegReadFn((_: Bool, oready: Bool) => {
          when(oready && !dlab) { rxq.io.deq.ready := true.B }
          (true.B, true.B, Mux(dlab, divisor(7, 0), rxq.io.deq.bits))
        }),
        RegWriteFn((valid: Bool, data: UInt) => {
          when(valid && dlab) { divisor := Cat(divisor(15, 8), data) }
          when(valid && !dlab) { txq.io.enq.valid := true.B; txq.io.enq.bits := data }
          true.B
        }),
        RegFieldDesc("rbr_thr", "R: received byte (pops it); W: byte to send (dropped if the FIFO is full); DLL while DLAB",
          volatile = true))),
      UartConsts.ier -> Seq(byteReg(Mux(dlab, divisor(15, 8), ier),
        d => when(dlab) { divisor := Cat(d, divisor(7, 0)) }.otherwise { ier := d(1, 0) },
        "ier", "interrupt enable: bit 0 data received, bit 1 transmitter empty; DLM while DLAB")),
      UartConsts.iirFcr -> Seq(byteReg(iir,
        d => { when(d(1)) { clearRx := true.B }; when(d(2)) { clearTx := true.B } },
        "iir_fcr", "R: interrupt identification; W: FIFO control (bit 1 clears receive, bit 2 transmit)")),
      UartConsts.lcr -> Seq(RegField(8, lcr, RegFieldDesc("lcr", "line control; only DLAB (bit 7) matters, frames are 8N1", reset = Some(0)))),
      UartConsts.mcr -> Seq(RegField(5, mcr, RegFieldDesc("mcr", "modem control; ignored", reset = Some(0)))),
      UartConsts.lsr -> Seq(RegField.r(8,
        RegReadFn((_: Bool, oready: Bool) => { when(oready) { overrun := false.B }; (true.B, true.B, lsr) }),
        RegFieldDesc("lsr", "line status: bit 0 data ready, 1 overrun (cleared by this read), 5 FIFO empty, 6 transmitter idle",
          volatile = true))),
      UartConsts.msr -> Seq(RegField.r(8, 0.U, RegFieldDesc("msr", "modem status: always 0"))),
      UartConsts.scr -> Seq(RegField(8, scr, RegFieldDesc("scr", "scratch", reset = Some(0)))),
      UartConsts.rxdata -> Seq(RegField.r(32,
        RegReadFn((_: Bool, oready: Bool) => {
          when(oready) { rxq.io.deq.ready := true.B }
          (true.B, true.B, Cat(!rxq.io.deq.valid, 0.U(23.W), rxq.io.deq.bits))
        }),
        RegFieldDesc("rxdata", "bit 31: nothing received; else bits 7:0 the next received byte, popped by this read",
          volatile = true))))
}

class UartTxIO extends Bundle {
  val bitCycles = Input(UInt(16.W))
  val in = Flipped(Decoupled(UInt(8.W)))
  val out = Output(Bool())
  val busy = Output(Bool())
}

class UartRxIO extends Bundle {
  val bitCycles = Input(UInt(16.W))
  val in = Input(Bool())
  val out = Valid(UInt(8.W))
}

/** Sends each byte as a start bit, 8 data bits (LSB first) and a stop bit,
  * `bitCycles` cycles each. */
class UartTx extends Module {
  val io = IO(new UartTxIO)
  val frame = RegInit(0x3ff.U(10.W)) // shifted out LSB first; idle high
  val bitsLeft = RegInit(0.U(4.W))
  val timer = RegInit(0.U(16.W))
  io.busy := bitsLeft =/= 0.U
  io.in.ready := !io.busy
  io.out := frame(0)
  when(io.in.fire()) {
    frame := Cat(1.U(1.W), io.in.bits, 0.U(1.W))
    bitsLeft := 10.U
    timer := io.bitCycles - 1.U
  }.elsewhen(io.busy) {
    when(timer === 0.U) {
      frame := Cat(1.U(1.W), frame(9, 1))
      bitsLeft := bitsLeft - 1.U
      timer := io.bitCycles - 1.U
    }.otherwise { timer := timer - 1.U }
  }
}

/** Receives 8N1 frames: waits for a falling edge, checks the start bit in
  * its middle, then samples each data bit in its middle. A frame whose stop
  * bit is low (a break or a framing error) is dropped. */
class UartRx extends Module {
  val io = IO(new UartRxIO)
  // Two flip-flops bring the pin into this clock domain.
  val pin = RegNext(RegNext(io.in, true.B), true.B)
  val bits = RegInit(0.U(4.W)) // 0 idle; 1 start bit; 2..9 data; 10 stop bit
  val timer = RegInit(0.U(16.W))
  val data = Reg(UInt(8.W))
  io.out.valid := false.B
  io.out.bits := data
  when(bits === 0.U) {
    when(!pin) { bits := 1.U; timer := (io.bitCycles >> 1) - 1.U }
  }.elsewhen(timer =/= 0.U) {
    timer := timer - 1.U
  }.otherwise {
    timer := io.bitCycles - 1.U
    bits := bits + 1.U
    when(bits === 1.U && pin) { bits := 0.U } // a glitch, not a start bit
    when(bits >= 2.U && bits <= 9.U) { data := Cat(pin, data(7, 1)) }
    when(bits === 10.U) {
      bits := 0.U
      io.out.valid := pin
    }
  }
}
