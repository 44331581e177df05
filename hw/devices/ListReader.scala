// The shootdown unit's list reader: turns (LIST, COUNT) into a stream of
// 64-bit entries, reading whole cache blocks with up to `listReads` reads in
// flight. It speaks plain bundles, not TileLink, so that a bench can drive
// it alone; ShootdownUnit adapts them to its TileLink client port.
//
// A watchdog: when reads are outstanding and none is answered for TIMEOUT
// cycles in a row (an uncalibrated DRAM controller, memory declared larger
// than fitted), the list is given up (`timedOut`) and the reads outstanding
// are lost: their sources are not used again until their answers come, and
// those answers are dropped. The unit goes on; a later list that cannot
// get a read out because every source is lost times out the same way.
package shootdown.devices

import chisel3._
import chisel3.util._

/** @param addrBits   width of a list address
  * @param countBits  width of COUNT
  * @param maxEntries most entries one list may hold
  * @param blockBytes bytes one read returns (a cache block)
  * @param listReads  reads in flight at once (sources 0 until listReads) */
case class ListReaderParams(addrBits: Int, countBits: Int, maxEntries: Int, blockBytes: Int, listReads: Int) {
  val entriesPerBlock = blockBytes / ShootdownMap.Entry.bytes
  val lgBlock = log2Ceil(blockBytes)
  val sourceBits = log2Ceil(listReads max 2)
  /** Bits that count the blocks of the longest list (it may straddle one more). */
  val blockCountBits = log2Ceil(maxEntries / entriesPerBlock + 2)
}

/** A read of one block. */
class ListGet(p: ListReaderParams) extends Bundle {
  val source = UInt(p.sourceBits.W)
  val addr   = UInt(p.addrBits.W)
  override def cloneType = new ListGet(p).asInstanceOf[this.type]
}

/** One beat of a block's data (ShootdownMap.Entry.bytes wide). */
class ListBeat(p: ListReaderParams) extends Bundle {
  val source = UInt(p.sourceBits.W)
  val data   = UInt(64.W)
  /** Denied or corrupt. */
  val bad    = Bool()
  override def cloneType = new ListBeat(p).asInstanceOf[this.type]
}

class ListReaderIO(p: ListReaderParams) extends Bundle {
  /** One-cycle pulse, only while `done`: read the list (`list`, `count`,
    * sampled in this cycle). */
  val start = Input(Bool())
  val list  = Input(UInt(p.addrBits.W))
  val count = Input(UInt(p.countBits.W))
  /** TIMEOUT: cycles without an answer before the list is given up (0: never). */
  val timeout = Input(UInt(32.W))

  val get  = Decoupled(new ListGet(p))
  /** Always taken: every read has room reserved before it is issued. */
  val beat = Flipped(Valid(new ListBeat(p)))

  /** The entries of every list read, in order of the reads; a list's own
    * entries in the order its blocks arrive. A list's entries all come
    * before the next list's. */
  val entries = Decoupled(UInt(64.W))
  /** Entries of the current (or last) list put into `entries` so far. */
  val delivered = Output(UInt(p.countBits.W))
  /** The current (or last) list was not read whole: a beat came back bad,
    * or it timed out (`timedOut`); the reader issued no more of its reads
    * and dropped the rest of its beats. */
  val failed = Output(Bool())
  /** The current (or last) list was given up: no read was answered for
    * TIMEOUT cycles (a failure too). */
  val timedOut = Output(Bool())
  /** Every read of the list was issued (or the reader stopped at a bad
    * beat) and answered: the reader may start the next. */
  val done = Output(Bool())
  override def cloneType = new ListReaderIO(p).asInstanceOf[this.type]
}

class ListReader(p: ListReaderParams) extends Module {
  val io = IO(new ListReaderIO(p))
  import p._
  private val entryAddrBits = log2Ceil(ShootdownMap.Entry.bytes)

  // Every block read has room reserved in `entryQ` before it goes out, so the
  // reader always takes its beats at once. Holding them (or a coherence
  // manager's tracker) until an agent made progress would deadlock: the
  // agents' D$s may need that same manager to get there.
  private val room = listReads * entriesPerBlock
  val entryQ = Module(new Queue(UInt(64.W), room))
  io.entries <> entryQ.io.deq

  val list = RegInit(0.U(addrBits.W))
  val count = RegInit(0.U(countBits.W))
  val badBeat = RegInit(false.B)
  val timedOut = RegInit(false.B)
  val delivered = RegInit(0.U(countBits.W))
  val stopped = badBeat || timedOut
  io.failed := stopped
  io.timedOut := timedOut
  io.delivered := delivered

  val firstBlock = list >> lgBlock
  val listEnd = list +& (count << entryAddrBits)
  val nBlocks = ((listEnd + (blockBytes - 1).U) >> lgBlock) - firstBlock
  val issued = RegInit(0.U(blockCountBits.W))
  val reserved = RegInit(0.U(log2Ceil(room + 1).W))  // beats promised to reads in flight
  val hasRoom = entryQ.io.count +& reserved +& entriesPerBlock.U <= room.U
  val srcBusy = RegInit(0.U(listReads.W))
  val lost = RegInit(0.U(listReads.W))  // busy reads given up on (a subset of srcBusy)
  val srcBlock = Reg(Vec(listReads, UInt(blockCountBits.W)))  // block number within the list
  // A block's beats arrive together (TileLink does not interleave messages).
  val beatIdx = RegInit(0.U(log2Ceil(entriesPerBlock).W))
  val freeSrc = PriorityEncoder(~srcBusy)

  io.get.valid := !stopped && issued < nBlocks && !srcBusy.andR && hasRoom
  io.get.bits.source := freeSrc
  io.get.bits.addr := ((firstBlock +& issued) << lgBlock)(addrBits - 1, 0)
  val issuedNow = Mux(io.get.fire(), UIntToOH(freeSrc, listReads), 0.U)
  when (io.get.fire()) {
    srcBlock(freeSrc) := issued
    issued := issued + 1.U
  }

  // Beats count in entries from the start of the list's first block.
  val b = io.beat.bits
  val last = beatIdx === (entriesPerBlock - 1).U
  when (io.beat.valid) { beatIdx := Mux(last, 0.U, beatIdx + 1.U) }
  val pos = Cat(srcBlock(b.source), beatIdx)
  val firstPos = list(lgBlock - 1, entryAddrBits)
  // A beat of a read that is still waited for (not one given up on).
  val awaited = io.beat.valid && !lost(b.source)
  val inList = pos >= firstPos && pos < firstPos +& count && !lost(b.source)
  val bad = io.beat.valid && b.bad && inList
  val keep = io.beat.valid && inList && !stopped && !b.bad
  entryQ.io.enq.valid := keep
  entryQ.io.enq.bits := b.data
  assert(!(entryQ.io.enq.valid && !entryQ.io.enq.ready), "shootdown list reader: a beat without reserved room")
  when (keep) { delivered := delivered + 1.U }
  when (bad) { badBeat := true.B }
  reserved := reserved + Mux(io.get.fire(), entriesPerBlock.U, 0.U) - io.beat.valid
  val answered = Mux(io.beat.valid && last, UIntToOH(b.source, listReads), 0.U)
  srcBusy := (srcBusy | issuedNow) & ~answered

  // The watchdog counts cycles in which the list waits for memory: a read
  // of it is outstanding, or it cannot issue one because every source is
  // lost; not cycles in which it waits for room (the agents are slow).
  val live = srcBusy & ~lost
  val waitingMem = live =/= 0.U || (!stopped && issued < nBlocks && srcBusy.andR)
  val stall = RegInit(0.U(32.W))
  stall := Mux(!waitingMem || awaited, 0.U, stall + 1.U)
  val expire = waitingMem && io.timeout =/= 0.U && stall >= io.timeout - 1.U && !awaited
  lost := (lost | Mux(expire, live, 0.U)) & ~answered
  when (expire) { timedOut := true.B }

  io.done := (stopped || issued === nBlocks) && live === 0.U
  when (io.start) {
    assert(io.done, "shootdown list reader: started while reading")
    list := io.list
    count := io.count
    issued := 0.U
    delivered := 0.U
    badBeat := false.B
    timedOut := false.B
  }
}
