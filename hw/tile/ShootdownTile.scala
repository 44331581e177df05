// A Rocket tile with a flush agent, and the subsystem trait that builds it.
// The agent reaches Rocket only through seams rocket-chip 1.2.6 has: the
// RocketTile auxiliary constructor, a module subclass that re-drives the
// ITLB/PTW sfence inputs and the core's D$ arbiter port after the parent's
// connections (last connect wins), and the public dcacheArb/ptw/core vals.
// See docs/rocket-flush-seams.md.
package shootdown.tile

import chisel3._
import chisel3.util._
import chisel3.util.experimental.BoringUtils
import freechips.rocketchip.config.Parameters
import freechips.rocketchip.devices.debug.{HasPeripheryDebug, HasPeripheryDebugModuleImp}
import freechips.rocketchip.devices.tilelink.{CanHavePeripheryCLINT, CanHavePeripheryPLIC}
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.diplomaticobjectmodel.logicaltree._
import freechips.rocketchip.rocket._
import freechips.rocketchip.subsystem._
import freechips.rocketchip.tile._
import shootdown.devices.{AgentPort, Knobs, ScoreboardEvent, ScoreboardProbe, ShootdownKey}

class ShootdownTile(
    params: RocketTileParams,
    crossing: RocketCrossingParams,
    lookup: LookupByHartIdImpl,
    logicalTreeNode: LogicalTreeNode)(implicit p: Parameters)
  extends RocketTile(params, crossing, lookup, logicalTreeNode) {
  override lazy val module = new ShootdownTileModuleImp(this)
}

class ShootdownTileModuleImp(outer: ShootdownTile) extends RocketTileModuleImp(outer) {
  private val prm = outer.p(ShootdownKey).get

  /** The link from the shootdown unit. */
  val shootdown = IO(Flipped(new AgentPort))

  val agent = Module(new FlushAgent(prm.agentQueue))
  agent.io.port <> shootdown
  agent.knobs := Knobs.switches(Knobs.agent)
  /** The tile's own test switches (hw/testing/Mutants.scala). */
  private val knobs = Knobs.switches(Knobs.tile)

  /** A sign-extended VA, as the core puts on its D$ port. */
  private def vaddr(vpn: UInt, width: Int): UInt = {
    val va = Cat(vpn, 0.U(pgIdxBits.W))(vaddrBits - 1, 0)
    Cat(Fill(width - vaddrBits, va(vaddrBits - 1)), va)
  }
  private def sfenceReq(s: AgentSfence): SFenceReq = {
    val r = Wire(new SFenceReq()(outer.p))
    r.rs1 := s.rs1
    r.rs2 := s.rs2
    r.addr := Cat(s.vpn, 0.U(pgIdxBits.W))(vaddrBits - 1, 0)
    r.asid := s.asid
    r
  }

  // ITLB and PTW: one sfence input each, shared with the core's WB-stage
  // sfence.vma. The core's always wins; the agent waits a cycle.
  val coreSfence = core.io.imem.sfence
  agent.io.sfenceFree := !coreSfence.valid || knobs("lose-local-sfence")
  private def sfenceInput(agentSfence: Valid[AgentSfence]): Valid[SFenceReq] = {
    val s = Wire(Valid(new SFenceReq()(outer.p)))
    s := coreSfence
    when (agentSfence.valid) {
      s.valid := true.B
      s.bits := sfenceReq(agentSfence.bits)
    }
    s
  }

  // The refill guard. Rocket's L2 TLB flushes "every non-global entry"
  // (rs1 = 0, rs2 = 1) as `valid & g`, and its L1 TLBs test each entry's
  // old `g`, both from the state before the cycle; a refill landing in the
  // flush's own cycle into a slot (or sector) that held a global entry
  // therefore survives it: valid, non-global, and stale if its walk read
  // the old tables (a walk that began before the flush; the flush marks
  // only its later cycles invalidated). A refill always comes with the
  // walk's answer to its TLB in the same cycle (PTW.scala sets the
  // registers l2_refill and resp_valid in one branch; TLB.scala refills on
  // the answer), so in such a cycle the flush is sent as a full one, whose
  // clearing is the later connection and beats the refill. It covers the
  // core's own `sfence.vma x0, asid` as well as the agent's flushes.
  // docs/shootdown-unit.md says why no other interleaving leaves an entry.
  /** The guard turned a flush into a full one this cycle (for the scoreboard). */
  private val guarded = WireDefault(false.B)
  private val noGuard = knobs("no-refill-guard")
  private def guardRefill(s: Valid[SFenceReq], answered: Bool): Valid[SFenceReq] = {
    val g = Wire(chiselTypeOf(s))
    g := s
    when (!noGuard && s.valid && !s.bits.rs1 && s.bits.rs2 && answered) {
      g.bits.rs2 := false.B
      guarded := true.B
    }
    g
  }
  private def answered(port: TLBPTWIO): Bool = ptw.io.requestor(ptwPorts.indexWhere(_ eq port)).resp.valid

  // The mutants that change what the agent sends to the ITLB and the PTW.
  private def unless(m: String, s: Valid[AgentSfence]): Valid[AgentSfence] = {
    val w = WireDefault(s)
    when (knobs(m)) { w.valid := false.B }
    w
  }
  private val agentItlb = unless("itlb-unconnected", agent.io.itlb)
  private val agentPtw: Valid[AgentSfence] = {
    val s = WireDefault(unless("skip-ptw-flush", agent.io.ptw))
    // One cycle late would be harmless: nothing can ask the PTW for a walk
    // before the core's next access reaches the D$'s stage 1, two cycles
    // after the agent's last M_SFENCE (make mutants showed it survives).
    when (knobs("ptw-flush-late")) {
      s.valid := ShiftRegister(agent.io.ptw.valid, 4, false.B, true.B)
      s.bits := ShiftRegister(agent.io.ptw.bits, 4)
    }
    when (knobs("skip-nonleaf")) { s.bits.rs1 := true.B }
    s
  }

  val frontendCpu = outer.frontend.module.io.cpu
  frontendCpu.sfence := guardRefill(sfenceInput(agentItlb), answered(outer.frontend.module.io.ptw))
  frontendCpu.might_request := core.io.imem.might_request || agentItlb.valid

  ptw.io.dpath.sfence := guardRefill(sfenceInput(agentPtw), ptw.io.requestor.map(_.resp.valid).reduce(_ || _))

  // DTLB: an M_SFENCE on the core's own D$ arbiter port, taking precedence
  // over the core, which sees `ready` low and replays its access. The D$
  // applies it in its stage 1, one cycle after it is accepted.
  private val coreIdx = dcachePorts.indexWhere(_ eq core.io.dmem)
  require(coreIdx >= 0, "the core's D$ port is not in the arbiter list")
  val dport = dcacheArb.io.requestor(coreIdx)
  agent.io.dtlb.ready := dport.req.ready
  when (agent.io.dtlb.valid || agent.io.blockCore) {
    core.io.dmem.req.ready := false.B
    dport.req.valid := agent.io.dtlb.valid
    dport.req.bits := 0.U.asTypeOf(dport.req.bits)
    dport.req.bits.cmd := M_SFENCE
    dport.req.bits.size := Cat(agent.io.dtlb.bits.rs2, agent.io.dtlb.bits.rs1)
    dport.req.bits.addr := vaddr(agent.io.dtlb.bits.vpn, dport.req.bits.addr.getWidth)
  }
  val agentInS1 = RegNext(agent.io.dtlb.fire(), false.B)
  val asidInS1 = RegEnable(agent.io.dtlb.bits.asid, agent.io.dtlb.fire())
  when (agentInS1) {
    // The core drives s1_kill high when its own stage is empty.
    dport.s1_kill := false.B
    dport.s1_data.data := asidInS1
    dport.s1_data.mask := 0.U
  }
  agent.io.ordered := dport.ordered
  // An I$ refill translated through an ITLB entry the request drops may
  // still be reading memory: the agent waits for it too. Rocket exposes no
  // such signal, so it is bored out of the I$ (`refill_valid`, and the
  // refill's request in the cycle before it).
  private val icacheImp = outer.frontend.module.icache
  agent.io.fetchIdle := !tap(icacheImp.refill_valid) && !tap(icacheImp.tl_out.a.valid)

  /** A signal of a module below the frontend, wired up here. */
  private def tap[T <: Data](source: T): T = {
    val sink = WireInit(0.U.asTypeOf(source))
    BoringUtils.bore(source, Seq(sink))
    sink
  }

  probes()

  /** What the co-simulation scoreboard (sim/scoreboard.cpp) watches in this
    * tile: page walks, the PTEs they read and what they answered to the
    * TLBs, every load, store, AMO and fetch with its VA and PA, the D$
    * draining, and the core's own sfence.vma. */
  private def probes(): Unit = {
    import ScoreboardEvent._
    val hart = outer.tileParams.hartId.U(8.W)
    val status = core.io.ptw.status
    val sv39 = core.io.ptw.ptbr.mode(core.io.ptw.ptbr.mode.getWidth - 1)

    val tlbPorts = Seq(outer.frontend.module.io.ptw -> 0, outer.dcache.module.io.ptw -> 1)
    tlbPorts.foreach { case (port, code) =>
      val r = ptw.io.requestor(ptwPorts.indexWhere(_ eq port))
      ScoreboardProbe(walkReq, r.req.fire() && r.req.bits.valid, hart, code.U, r.req.bits.bits.addr)
      ScoreboardProbe(refill, r.resp.valid, hart, code.U, r.resp.bits.pte.asUInt, r.resp.bits.level, r.resp.bits.ae)
    }
    val pteAddr = RegEnable(ptw.io.mem.req.bits.addr, ptw.io.mem.req.fire())
    ScoreboardProbe(pteRead, ptw.io.mem.resp.valid, hart, pteAddr, ptw.io.mem.resp.bits.data)

    // The core's D$ accesses, followed to stage 2 where the D$ reports the
    // physical address, and reported there unless nacked, killed or faulting.
    val dmem = core.io.dmem
    val s0 = dmem.req.fire() && (isRead(dmem.req.bits.cmd) || isWrite(dmem.req.bits.cmd))
    val s1 = RegNext(s0, false.B)
    val s1Req = RegEnable(dmem.req.bits, s0)
    val s1Vm = sv39 && status.dprv <= PRV.S.U && !s1Req.phys
    val s2 = RegNext(s1 && !dmem.s1_kill, false.B)
    val s2Req = RegEnable(s1Req, s1)
    val s2Vm = RegEnable(s1Vm, s1)
    val x = dport.s2_xcpt
    val faulted = x.ma.ld || x.ma.st || x.pf.ld || x.pf.st || x.ae.ld || x.ae.st
    ScoreboardProbe(dataAccess, s2 && !dport.s2_nack && !dmem.s2_kill && !faulted, hart,
      s2Req.addr, dport.s2_paddr, s2Req.cmd, s2Vm)
    ScoreboardProbe(ordered, dport.ordered && !RegNext(dport.ordered, true.B), hart)

    // Fetches, followed through the I$ to its stage 2 (Rocket exposes no
    // fetch address past the frontend), bored out of the frontend: stage 1
    // takes the ITLB's PA unless killed (ITLB miss, redirect, replay);
    // stage 2 reports it unless killed (fetch fault, or a miss it may not
    // refill speculatively).
    val icache = icacheImp.io
    val f1 = RegNext(tap(icache.req.valid) && tap(icache.req.ready), false.B)
    val f2 = RegNext(f1 && !tap(icache.s1_kill), false.B)
    val f2Pa = RegNext(tap(icache.s1_paddr))
    ScoreboardProbe(fetch, f2 && !tap(icache.s2_kill), hart,
      tap(icache.s2_vaddr), f2Pa, 0.U, sv39 && status.prv <= PRV.S.U)

    ScoreboardProbe(race, agent.io.deferred, hart, raceSfenceDeferred.U)
    ScoreboardProbe(race, agentPtw.valid && ptw.io.requestor.map(_.resp.valid).reduce(_ || _), hart, raceWalkInFlush.U)
    ScoreboardProbe(race, guarded, hart, raceGuard.U)
    ScoreboardProbe(localSfence, coreSfence.valid, hart,
      Cat(coreSfence.bits.rs2, coreSfence.bits.rs1), coreSfence.bits.addr >> pgIdxBits, coreSfence.bits.asid)
  }
}

/** HasRocketTiles with ShootdownTile in place of RocketTile when the unit is
  * configured. rocket-chip 1.2.6 hard-codes `new RocketTile` in that trait,
  * so this is its tile-building part written again against the same
  * (protected) HasTiles helpers. */
trait HasShootdownTiles extends HasTiles
    with CanHavePeripheryPLIC
    with CanHavePeripheryCLINT
    with HasPeripheryDebug { this: BaseSubsystem =>
  val module: HasShootdownTilesModuleImp

  protected val rocketTileParams = p(RocketTilesKey)
  private val crossings = perTileOrGlobalSetting(p(RocketCrossingKey), rocketTileParams.size)

  val rocketTiles: Seq[RocketTile] = rocketTileParams.zip(crossings).map { case (tp, crossing) =>
    val lookup = PriorityMuxHartIdFromSeq(rocketTileParams)
    val tile = LazyModule(
      if (p(ShootdownKey).isDefined) new ShootdownTile(tp, crossing, lookup, logicalTreeNode)
      else new RocketTile(tp, crossing, lookup, logicalTreeNode))
    connectMasterPortsToSBus(tile, crossing)
    connectSlavePortsToCBus(tile, crossing)
    connectInterrupts(tile, debugOpt, clintOpt, plicOpt)
    LogicalModuleTree.add(logicalTreeNode, tile.rocketLogicalTree)
    tile
  }

  /** The tiles with an agent, indexed by hart id. */
  def shootdownTiles: Seq[ShootdownTile] =
    rocketTiles.collect { case t: ShootdownTile => t }.sortBy(_.tileParams.hartId)

  def coreMonitorBundles = rocketTiles.map(_.module.core.rocketImpl.coreMonitorBundle).toList
}

trait HasShootdownTilesModuleImp extends HasTilesModuleImp with HasPeripheryDebugModuleImp {
  val outer: HasShootdownTiles
}
