// The shootdown unit's entry expander: turns a request's list entries into
// flush commands, one per page for the per-VA kinds, and ends the request
// with an `end` command. It owns the ceiling (a request that would flush more
// pages than CEILING becomes one full flush) and the errors found in the
// list (a reserved encoding or a bus error also make it one full flush).
//
// The answer depends only on COUNT, CEILING and what the list holds, never
// on the order its blocks arrive in (docs/shootdown-unit.md, "Errors"):
//   COUNT > CEILING         the list is not read: one full flush, no error
//                           (CEILING as it was when the read would begin);
//   a bus error             ERR_BUS (reading stops there);
//   a read left unanswered  ERR_LIST_TIMEOUT (likewise: the reader's
//                           watchdog gave the list up);
//   else a reserved entry   ERR_BAD_ENTRY (every entry is examined, even
//                           after the ceiling was passed);
//   else over CEILING pages one full flush, counted as a fallback.
// In the error and fallback cases the full flush comes after whatever pages
// were already sent.
//
// The `end` command tells the agents what their ITLB flush must cover: kind
// ASID with the request's ASID when every command of the request named that
// one ASID (so no global mapping and no other ASID was flushed), else kind
// ALL. The agents flush the ITLB once per request, not per page.
package shootdown.devices

import chisel3._
import chisel3.util._

/** @param countBits     width of COUNT
  * @param pageCountBits width of CEILING and of a request's page count */
case class EntryExpanderParams(countBits: Int, pageCountBits: Int)

class EntryExpanderIO(p: EntryExpanderParams) extends Bundle {
  /** One-cycle pulse: a request begins; `count` holds its COUNT from the
    * next cycle until its `end` command, `ceiling` likewise. `notRead`, in
    * the start cycle: its COUNT was above CEILING, so its list was not read
    * (the engine decides that when the read would begin). */
  val start   = Input(Bool())
  val count   = Input(UInt(p.countBits.W))
  val ceiling = Input(UInt(p.pageCountBits.W))
  val notRead = Input(Bool())

  /** The request's entries, and no other request's. */
  val entries    = Flipped(Decoupled(UInt(64.W)))
  /** No more of the request's entries will come. */
  val readerDone = Input(Bool())
  /** Reading the request's list failed (level): a bus error, or, with
    * `listTimeout`, a read not answered within TIMEOUT cycles. */
  val busError    = Input(Bool())
  val listTimeout = Input(Bool())

  val cmd = Decoupled(new FlushCmd)
  /** 0, or the ShootdownMap.Err code the request ends with (final once the
    * `end` command has gone out). */
  val errCode = Output(UInt(8.W))
  /** The request ran as a full flush because of CEILING (final likewise). */
  val fallback = Output(Bool())
  /** Pulse: an entry was carried out (for CTR_ENTRIES). */
  val entryDone = Output(Bool())
  /** Test switches (hw/testing/Mutants.scala): drop-last-entry, superpage-4k-stride. */
  val knobs = Input(new Knobs(Knobs.unit))
  override def cloneType = new EntryExpanderIO(p).asInstanceOf[this.type]
}

object EntryExpander {
  import ShootdownMap.Entry
  def kind(e: UInt): UInt = e(Entry.kindShift + Entry.kindBits - 1, Entry.kindShift)
  def perVa(e: UInt): Bool = !kind(e)(1)  // kinds 0 and 1 name a VA
  /** An entry with a reserved encoding: a per-VA kind with SIZE 3. */
  def reserved(e: UInt): Bool = perVa(e) && e(Entry.sizeShift + Entry.sizeBits - 1, Entry.sizeShift) >= Entry.sizes.size.U
}

class EntryExpander(p: EntryExpanderParams) extends Module {
  import ShootdownMap.{Entry, Err}
  import EntryExpander.{kind, perVa, reserved}
  val io = IO(new EntryExpanderIO(p))

  val active   = RegInit(false.B)  // between start and the `end` command
  val full     = RegInit(false.B)  // a full flush replaces the rest of the list
  val needAll  = RegInit(false.B)  // that full flush is still to be sent
  val busErr   = RegInit(false.B)
  val listTo   = RegInit(false.B)  // the list failure was a timeout
  val badEntry = RegInit(false.B)
  val pagesSent = Reg(UInt(p.pageCountBits.W))
  val entriesTaken = Reg(UInt(p.countBits.W))
  io.errCode := Mux(busErr, Mux(listTo, Err.listTimeout.value.U, Err.busError.value.U),
    Mux(badEntry, Err.badEntry.value.U, 0.U))
  io.fallback := full && !busErr && !badEntry

  val e = io.entries.bits
  val eSize  = e(Entry.sizeShift + Entry.sizeBits - 1, Entry.sizeShift)
  val ePages = e(Entry.pagesShift + Entry.pagesBits - 1, Entry.pagesShift)  // pages - 1
  val eVpn   = e(Entry.vaTop, Entry.vaShift)
  val eAsid  = e(Entry.asidShift + Entry.asidBits - 1, Entry.asidShift)
  val pageIdx = RegInit(0.U((Entry.pagesBits + 1).W))
  // The scope of the `end` command's ITLB flush: the request's commands so
  // far all named `oneAsid` (none yet: `noneYet`), or `scoped` is false.
  val noneYet = Reg(Bool())
  val scoped = Reg(Bool())
  val oneAsid = Reg(UInt(Entry.asidBits.W))
  val strideShift =
    Mux(io.knobs("superpage-4k-stride"), 0.U,
      MuxLookup(eSize, 0.U, Entry.sizeLog2.zipWithIndex.map { case (l, i) => i.U -> (l - Entry.vaShift).U }))
  when (io.entries.fire()) { entriesTaken := entriesTaken + 1.U }
  val dropThis = io.knobs("drop-last-entry") && io.count > 1.U && entriesTaken === io.count - 1.U
  val overCeiling = perVa(e) && pagesSent >= io.ceiling

  io.cmd.valid := false.B
  io.cmd.bits.end := false.B
  io.cmd.bits.kind := kind(e)
  io.cmd.bits.vpn := eVpn + (pageIdx << strideShift)
  io.cmd.bits.asid := eAsid
  io.cmd.bits.nonLeaf := e(Entry.nonLeafBit)
  io.entries.ready := false.B
  val lastPage = !perVa(e) || pageIdx === ePages
  io.entryDone := false.B

  when (active) {
    // Every entry is examined as it is taken, whatever happens to it.
    when (io.entries.fire() && reserved(e)) { badEntry := true.B }
    when (io.busError && !busErr) {
      // The list failed (a level from here on): a full flush replaces the
      // rest, before the `end` can go out.
      busErr := true.B
      listTo := io.listTimeout
      full := true.B
      needAll := !full || needAll
    } .elsewhen (needAll) {
      io.cmd.valid := true.B
      io.cmd.bits.kind := Entry.kindAll.value.U
      io.cmd.bits.nonLeaf := false.B
      when (io.cmd.fire()) { needAll := false.B }
    } .elsewhen (full) {
      io.entries.ready := true.B  // examine and discard the rest
      io.cmd.valid := io.readerDone && !io.entries.valid
      io.cmd.bits.end := true.B
    } .elsewhen (io.entries.valid) {
      when (dropThis) {
        io.entries.ready := true.B
      } .elsewhen (reserved(e) || overCeiling) {
        full := true.B
        needAll := true.B
      } .otherwise {
        io.cmd.valid := true.B
        when (io.cmd.fire()) {
          when (perVa(e)) { pagesSent := pagesSent + 1.U }
          pageIdx := Mux(lastPage, 0.U, pageIdx + 1.U)
          io.entries.ready := lastPage
          io.entryDone := lastPage
        }
      }
    } .elsewhen (io.readerDone) {
      io.cmd.valid := true.B
      io.cmd.bits.end := true.B
    }
    when (io.cmd.fire() && io.cmd.bits.end) { active := false.B }
    when (io.cmd.fire() && !io.cmd.bits.end) {
      noneYet := false.B
      when (io.cmd.bits.kind(0) || (!noneYet && io.cmd.bits.asid =/= oneAsid)) { scoped := false.B }
      oneAsid := io.cmd.bits.asid
    }
  }
  when (io.cmd.bits.end) {
    io.cmd.bits.kind := Mux(scoped && !noneYet, Entry.kindAsid.value.U, Entry.kindAll.value.U)
    io.cmd.bits.asid := oneAsid
    io.cmd.bits.vpn := 0.U
    io.cmd.bits.nonLeaf := false.B
  }

  when (io.start) {
    active := true.B
    entriesTaken := 0.U
    pagesSent := 0.U
    pageIdx := 0.U
    noneYet := true.B
    scoped := true.B
    busErr := false.B
    listTo := false.B
    badEntry := false.B
    // A list longer than the ceiling (each entry is at least one page) is
    // not even read.
    full := io.notRead
    needAll := io.notRead
  }
}
