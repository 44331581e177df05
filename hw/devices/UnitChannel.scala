// One channel of the shootdown unit: its hart's registers, the limits the
// firmware sets on it, the checks a submission must pass, and the queue of
// the requests it posted. The register map (ShootdownUnit) hands it each
// access to its page, the engine (UnitEngine) what became of its requests.
// docs/shootdown-registers.md has the registers, docs/shootdown-unit.md the
// behaviour.
package shootdown.devices

import chisel3._
import chisel3.util._

/** @param index     the channel's number, its hart's
  * @param nHarts    harts the unit serves
  * @param addrBits  bits LIST and the limits hold (ShootdownUnitImp says why)
  * @param memBase   where lists may start (DRAM)
  * @param memEnd    where they must end */
case class UnitChannelParams(index: Int, nHarts: Int, addrBits: Int, unit: ShootdownParams, memBase: BigInt,
                             memEnd: BigInt) {
  val countBits = unit.countBits
  def request = new ShootdownRequest(nHarts, addrBits, countBits)
}

object UnitChannel {
  import ShootdownMap.Entry
  /** The ticket after `t`: tickets count 1 .. 2^32 - 1 and never 0, which
    * SUBMIT uses for "queue full". */
  def nextTicket(t: UInt): UInt = Mux(t.andR, 1.U, t + 1.U)

  // Registers are only as wide as what they must tell apart. LIST holds
  // addresses up to just past the end of DRAM; a written value above that
  // is stored as all ones (keeping its alignment bits) so that it still
  // fails the range check, and likewise COUNT saturates at maxEntries + 1
  // and TARGETS naming an absent hart stores 0. Software reads back the
  // stored value (docs/shootdown-registers.md).
  def clampAddr(addrBits: Int)(v: UInt): UInt = {
    val low = log2Ceil(Entry.bytes)
    Mux(v(63, addrBits).orR, Cat(Fill(addrBits - low, 1.U(1.W)), v(low - 1, 0)), v(addrBits - 1, 0))
  }
  def clampCount(p: ShootdownParams)(v: UInt): UInt =
    Mux(v > p.maxEntries.U, (p.maxEntries + 1).U(p.countBits.W), v(p.countBits - 1, 0))
  def clampTargets(n: Int)(v: UInt): UInt = Mux(v(63, n).orR, 0.U(n.W), v(n - 1, 0))
}

/** The register port's access to the channel's page this cycle: who asks,
  * the writes (each register's valid and data) and the reads that submit.
  * A write or a submission from anyone but the channel's hart is refused
  * and counted (`foreign`); a submitting read must take the whole word. */
class UnitChannelAccess extends Bundle {
  val own       = Bool()
  val wholeWord = Bool()
  val targets, list, count, entry, error, irqEnable, irqPending, failed, errors = Valid(UInt(64.W))
  val submit, submitOne = Bool()
}

/** What the channel's registers hold, as its hart reads them. */
class UnitChannelView(p: UnitChannelParams) extends Bundle {
  val targets = UInt(p.nHarts.W)
  val list    = UInt(p.addrBits.W)
  val count   = UInt(p.countBits.W)
  val entry   = UInt(64.W)
  val status  = UInt(34.W)
  val errWord = UInt(40.W)
  val acked   = UInt(p.nHarts.W)
  val irqEn   = Bool()
  val irqPend = Bool()
  val failed  = UInt(p.nHarts.W)
  val errors  = UInt(ShootdownMap.Err.summaryBits.W)
  /** SUBMIT's and SUBMIT_ONE's answers to a read this cycle. */
  val submitAnswer, submitOneAnswer = UInt(64.W)
  override def cloneType = new UnitChannelView(p).asInstanceOf[this.type]
}

/** The firmware's limits on the channel (page 0): writes in, values out. */
class UnitChannelLimits(p: UnitChannelParams) extends Bundle {
  val write = Input(new Bundle {
    val listBase, listLimit, allowed = Valid(UInt(64.W))
  })
  val listBase  = Output(UInt(p.addrBits.W))
  val listLimit = Output(UInt(p.addrBits.W))
  val allowed   = Output(UInt(p.nHarts.W))
  override def cloneType = new UnitChannelLimits(p).asInstanceOf[this.type]
}

/** What the engine tells a channel of its requests this cycle. */
class UnitChannelProgress(nHarts: Int) extends Bundle {
  /** One of its requests entered the engine's sending stage. */
  val started  = Bool()
  /** The sending stage holds one of its requests. */
  val sending  = Bool()
  /** Its oldest waiting request's acknowledgements (valid: it has one waiting). */
  val oldest   = Valid(UInt(nHarts.W))
  /** That request completed, with this error code (0: success), the
    * error its list ended with (0: none; hidden by a TIMEOUT errCode) and
    * these targets given up on. */
  val complete = Bool()
  val errCode  = UInt(8.W)
  val listCode = UInt(8.W)
  val failed   = UInt(nHarts.W)
  override def cloneType = new UnitChannelProgress(nHarts).asInstanceOf[this.type]
}

class UnitChannelIO(p: UnitChannelParams) extends Bundle {
  val access   = Input(new UnitChannelAccess)
  val view     = Output(new UnitChannelView(p))
  val limits   = new UnitChannelLimits(p)
  val requests = Decoupled(p.request)
  val progress = Input(new UnitChannelProgress(p.nHarts))
  val knobs    = Input(new Knobs(Knobs.unit))
  val irq      = Output(Bool())
  /** This cycle: an access from another hart refused; a submission refused. */
  val foreign, submitError = Output(Bool())
  /** For the scoreboard: the ticket of its request that last entered the
    * sending stage, and what STATUS shows (done ticket, IDLE). */
  val started = Output(UInt(32.W))
  val idle    = Output(Bool())
  val shown   = Output(UInt(32.W))
  override def cloneType = new UnitChannelIO(p).asInstanceOf[this.type]
}

class UnitChannel(p: UnitChannelParams) extends Module {
  import ShootdownMap._
  import UnitChannel._
  val io = IO(new UnitChannelIO(p))
  private val n = p.nHarts
  private val prm = p.unit
  private val a = io.access

  val targets = RegInit(0.U(n.W))
  val list    = RegInit(0.U(p.addrBits.W))
  val count   = RegInit(0.U(p.countBits.W))
  val entry   = RegInit(0.U(64.W))
  val posted  = RegInit(0.U(32.W))  // last ticket handed out
  val done    = RegInit(0.U(32.W))  // last ticket completed
  val errWord = RegInit(0.U(40.W))  // code << 32 | ticket
  val acked   = RegInit(0.U(n.W))
  val failed  = RegInit(0.U(n.W))   // sticky until written 1s clear it
  val errors  = RegInit(0.U(Err.summaryBits.W))  // sticky: bit c = code c seen
  /** This cycle's additions to `failed` and `errors` (the engine's, and a
    * refused submission's: both can come in one cycle) and the bits a write
    * clears: a bit both set and cleared in one cycle stays set. */
  val failedSet, failedClear = WireDefault(0.U(n.W))
  val errorsRefused, errorsCompleted, errorsClear = WireDefault(0.U(Err.summaryBits.W))
  failed := failed & ~failedClear | failedSet
  errors := errors & ~errorsClear | errorsRefused | errorsCompleted
  val irqEn   = RegInit(false.B)
  val irqPend = RegInit(false.B)
  val queue   = Module(new Queue(p.request, prm.queueDepth))
  io.requests <> queue.io.deq
  val submitError = WireDefault(false.B)
  val foreign = WireDefault(false.B)
  io.submitError := submitError
  io.foreign := foreign

  // Limits, set by firmware on page 0: closed until it opens them.
  val listBase  = RegInit(0.U(p.addrBits.W))
  val listLimit = RegInit(0.U(p.addrBits.W))
  val allowed   = RegInit(0.U(n.W))
  private val lw = io.limits.write
  when (lw.listBase.valid) { listBase := clampAddr(p.addrBits)(lw.listBase.bits) }
  when (lw.listLimit.valid) { listLimit := clampAddr(p.addrBits)(lw.listLimit.bits) }
  when (lw.allowed.valid) { allowed := lw.allowed.bits(n - 1, 0) }
  io.limits.listBase := listBase
  io.limits.listLimit := listLimit
  io.limits.allowed := allowed

  val ticket = nextTicket(posted)
  /** For the scoreboard's probe and the sync-one-early knob only (so
    * synthesis removes it): the ticket of this channel's request that last
    * started sending. */
  val started = RegInit(0.U(32.W))
  val full = !queue.io.enq.ready

  private val entryAddrBits = log2Ceil(Entry.bytes)
  val listEnd = list +& (count << entryAddrBits)
  val targetsCode = Mux(targets === 0.U, Err.badTargets.value.U, Mux((targets & ~allowed) =/= 0.U, Err.denied.value.U, 0.U))
  val listCode = MuxCase(0.U(8.W), Seq(
    (targetsCode =/= 0.U)                                 -> targetsCode,
    (count === 0.U || count > prm.maxEntries.U)           -> Err.badCount.value.U,
    (list(entryAddrBits - 1, 0) =/= 0.U)                  -> Err.badAlign.value.U,
    (list < p.memBase.U || listEnd > p.memEnd.U)          -> Err.badRange.value.U,
    (list < listBase || listEnd > listLimit)              -> Err.denied.value.U))
  val entryCode = Mux(targetsCode =/= 0.U, targetsCode, Mux(EntryExpander.reserved(entry), Err.badEntry.value.U, 0.U))

  queue.io.enq.valid := false.B
  queue.io.enq.bits.targets := targets
  queue.io.enq.bits.payload := ShootdownRequest.pack(list, count)
  queue.io.enq.bits.inline := false.B

  /** SUBMIT and SUBMIT_ONE: reads that submit. The answer is computed from
    * the state of the cycle the read is performed in, so it always tells
    * the truth. Another hart's read submits nothing and leaves ERROR alone. */
  private def submitter(performed: Bool, code: UInt, inline: Boolean): UInt = {
    when (performed) {
      when (!a.own) {
        foreign := true.B
      } .elsewhen (!a.wholeWord) {
        // nothing: the answer says so
      } .elsewhen (code =/= 0.U) {
        errWord := Cat(code, 0.U(32.W))
        errorsRefused := UIntToOH(code, Err.summaryBits)
        submitError := true.B
      } .elsewhen (!full) {
        queue.io.enq.valid := true.B
        queue.io.enq.bits.inline := inline.B
        if (inline) { queue.io.enq.bits.payload := entry }
        posted := ticket
      }
    }
    Mux(!a.own, 0.U(64.W) - Err.foreign.value.U,
      Mux(!a.wholeWord, 0.U(64.W) - Err.narrow.value.U,
        Mux(code =/= 0.U, 0.U(64.W) - code, Mux(full, submitBusy.U(64.W), ticket))))
  }
  io.view.submitAnswer := submitter(a.submit, listCode, inline = false)
  io.view.submitOneAnswer := submitter(a.submitOne, entryCode, inline = true)

  /** A write from another hart is dropped and counted. */
  private def ownWrite(w: Valid[UInt])(f: UInt => Unit): Unit =
    when (w.valid) {
      when (a.own) { f(w.bits) } .otherwise { foreign := true.B }
    }
  ownWrite(a.targets)(d => targets := clampTargets(n)(d))
  ownWrite(a.list)(d => list := clampAddr(p.addrBits)(d))
  ownWrite(a.count)(d => count := clampCount(prm)(d))
  ownWrite(a.error)(_ => errWord := 0.U)
  ownWrite(a.irqEnable)(d => irqEn := d(0))
  ownWrite(a.irqPending)(d => when (d(0)) { irqPend := false.B })
  ownWrite(a.failed)(d => failedClear := d(n - 1, 0))
  ownWrite(a.entry)(d => entry := d)
  ownWrite(a.errors)(d => errorsClear := d(Err.summaryBits - 1, 0))

  // What the engine reports, after the register writes so that it wins
  // over a write in the same cycle (completion, interrupt pending).
  private val e = io.progress
  when (e.started) { acked := 0.U }
  when (e.oldest.valid) { acked := e.oldest.bits }
  // The request completing is the channel's oldest, so its ticket is the
  // one after the last completed.
  private val doneTicket = nextTicket(done)
  when (e.complete) {
    done := doneTicket
    when (e.errCode =/= 0.U) {
      errWord := Cat(e.errCode, doneTicket)
      // every code the request ended with (bit 0, no code, is never set)
      errorsCompleted := (UIntToOH(e.errCode, Err.summaryBits) | UIntToOH(e.listCode, Err.summaryBits)) >> 1 << 1
    }
    failedSet := e.failed
    when (doneTicket === posted) { irqPend := true.B }
  }
  when (e.started) { started := nextTicket(started) }

  /** STATUS.IDLE: every ticket handed out has completed. */
  val idle = WireDefault(posted === done)
  when (io.knobs("sync-one-early") && e.sending && started === posted) { idle := true.B }

  // A test aid, not a mutant: tickets start just below the wrap.
  private val presetDone = RegInit(false.B)
  presetDone := true.B
  when (!presetDone && io.knobs("tickets-near-wrap")) {
    posted := ((BigInt(1) << 32) - 16).U
    done := ((BigInt(1) << 32) - 16).U
    started := ((BigInt(1) << 32) - 16).U
  }

  io.irq := irqEn && irqPend
  io.view.targets := targets
  io.view.list := list
  io.view.count := count
  io.view.entry := entry
  io.view.status := Cat(errWord =/= 0.U, idle, done)
  io.view.errWord := errWord
  io.view.acked := acked
  io.view.irqEn := irqEn
  io.view.irqPend := irqPend
  io.view.failed := failed
  io.view.errors := errors
  io.started := started
  io.idle := idle
  io.shown := Mux(idle, posted, done)
}
