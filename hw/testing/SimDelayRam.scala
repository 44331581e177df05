// A simulation-only memory-mapped RAM whose writes take effect late: every
// Put is applied and acknowledged DELAY cycles after it arrives, while reads
// are answered at once. It models a slow path to a device, so that a test can
// see whether a store issued before a TLB shootdown was performed before the
// shootdown completed (docs/semantics.md rule 2): the RAM records the time of its
// last applied write on its own clock, which software reads as NOW.
package shootdown.soc

import chisel3._
import chisel3.util._
import freechips.rocketchip.config.Parameters
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.tilelink._

object DelayRamConsts {
  val ramBytes = 0x1000     // the most RAM there is (a board's build has less)
  val now = 0x1000          // R: cycles since reset
  val lastWriteAt = 0x1008  // R: NOW when the last RAM write took effect
  val delay = 0x1010        // RW: cycles a RAM write waits (applies to later writes)
  val size = 0x2000
  val defaultDelay = 400
}

class SimDelayRam(address: BigInt, beatBytes: Int, val ramBytes: Int = DelayRamConsts.ramBytes)(implicit p: Parameters)
    extends LazyModule {
  require(isPow2(ramBytes) && ramBytes >= 2 * beatBytes && ramBytes <= DelayRamConsts.ramBytes,
    s"delay RAM of $ramBytes bytes: a power of two from two beats to ${DelayRamConsts.ramBytes}")
  val device = new SimpleDevice("delay-ram", Seq("tlb-shootdown,sim-delay-ram"))
  val node = TLManagerNode(Seq(TLManagerPortParameters(Seq(TLManagerParameters(
    address            = Seq(AddressSet(address, DelayRamConsts.size - 1)),
    resources          = device.reg,
    regionType         = RegionType.UNCACHED,
    supportsGet        = TransferSizes(1, beatBytes),
    supportsPutFull    = TransferSizes(1, beatBytes),
    supportsPutPartial = TransferSizes(1, beatBytes),
    // Claimed so that the fragmenter in front accepts it (Rocket's TLB wants
    // every memory region to take block-sized accesses). Reads overtake
    // queued writes, so this holds only per source with one access in flight,
    // which is what a Rocket D$ sends to I/O (nMMIOs = 1).
    fifoId             = Some(0))),
    beatBytes = beatBytes,
    minLatency = 1)))

  lazy val module = new SimDelayRamImp(this)
}

class SimDelayRamImp(outer: SimDelayRam) extends LazyModuleImp(outer) {
  import DelayRamConsts.{ramBytes => _, _}
  private val ramBytes = outer.ramBytes
  val (in, edge) = outer.node.in.head
  private val beat = edge.manager.beatBytes
  private val words = ramBytes / beat

  val cycles = RegInit(0.U(64.W))
  cycles := cycles + 1.U
  val lastWrite = RegInit(0.U(64.W))
  val delayCycles = RegInit(defaultDelay.U(32.W))
  val ram = Mem(words, Vec(beat, UInt(8.W)))

  class Pending extends Bundle {
    val a = new TLBundleA(edge.bundle)
    val due = UInt(64.W)
  }
  val writes = Module(new Queue(new Pending, 4))
  val answers = Module(new Queue(new TLBundleD(edge.bundle), 2))

  val a = in.a.bits
  val offset = a.address(log2Ceil(size) - 1, 0)
  val isPut = a.opcode === TLMessages.PutFullData || a.opcode === TLMessages.PutPartialData
  val toRam = offset < ramBytes.U
  val delayed = isPut && toRam
  val word = offset(log2Ceil(ramBytes) - 1, log2Ceil(beat))

  // Reads and register writes: answered at once.
  val regRead = MuxLookup(offset & ~(beat - 1).U(offset.getWidth.W), 0.U, Seq(
    now.U -> cycles, lastWriteAt.U -> lastWrite, delay.U -> delayCycles))
  val readData = Mux(toRam, ram(word).asUInt, regRead)
  answers.io.enq.valid := in.a.valid && !delayed
  answers.io.enq.bits := Mux(isPut, edge.AccessAck(a), edge.AccessAck(a, readData))
  when (answers.io.enq.fire() && isPut && offset === delay.U) { delayCycles := a.data }

  // RAM writes: queued, applied and acknowledged when due.
  writes.io.enq.valid := in.a.valid && delayed
  writes.io.enq.bits.a := a
  writes.io.enq.bits.due := cycles + delayCycles
  in.a.ready := Mux(delayed, writes.io.enq.ready, answers.io.enq.ready)

  val w = writes.io.deq.bits
  val due = writes.io.deq.valid && cycles >= w.due
  val ack = Wire(Decoupled(new TLBundleD(edge.bundle)))
  ack.valid := due
  ack.bits := edge.AccessAck(w.a)
  writes.io.deq.ready := ack.ready && due
  when (ack.fire()) {
    ram.write(w.a.address(log2Ceil(ramBytes) - 1, log2Ceil(beat)),
      VecInit.tabulate(beat)(i => w.a.data(8 * i + 7, 8 * i)), w.a.mask.asBools)
    lastWrite := cycles
  }

  val d = Module(new Arbiter(new TLBundleD(edge.bundle), 2))
  d.io.in(0) <> ack
  d.io.in(1) <> answers.io.deq
  in.d <> d.io.out
}
