// Attaches the batched shootdown unit: registers on the pbus, its list reader
// on the sbus, one completion interrupt per channel to the PLIC, and a
// point-to-point link to every tile's flush agent.
//
// Hart h's channel takes writes and submissions only from clients inside
// tile h, told apart by TileLink source id: the unit sees the clients at its
// `clientTap`, before its own fragmenter merges them; every other master
// (ForeignMaster in the debug SoCs) is foreign.
package shootdown.soc

import freechips.rocketchip.diplomacy._
import freechips.rocketchip.subsystem._
import freechips.rocketchip.tilelink._
import shootdown.devices.{ShootdownKey, ShootdownUnit}
import shootdown.tile.{HasShootdownTiles, HasShootdownTilesModuleImp}

trait CanHavePeripheryBatchedShootdown { this: BaseSubsystem with HasShootdownTiles =>
  val shootdownUnit = p(ShootdownKey).map { params =>
    val mem = p(ExtMem).getOrElse(throw new IllegalArgumentException("the shootdown unit reads lists from ExtMem, which is not configured")).master
    val tiles = shootdownTiles
    def owner(c: TLClientParameters): Option[Int] =
      Some(tiles.indexWhere(t => c.nodePath.exists(_.parents.contains(t)))).filter(_ >= 0)
    val unit = LazyModule(new ShootdownUnit(params, p(RocketTilesKey).size, mem.base, mem.size, pbus.beatBytes, owner))
    pbus.coupleTo("tlb-shootdown") { unit.clientTap := _ }
    sbus.fromPort(Some("tlb-shootdown-list"))() := unit.listNode
    ibus.fromSync := unit.intNode
    unit
  }
}

trait CanHavePeripheryBatchedShootdownModuleImp extends HasShootdownTilesModuleImp {
  val outer: CanHavePeripheryBatchedShootdown with HasShootdownTiles
  outer.shootdownUnit.foreach { unit =>
    val tiles = outer.shootdownTiles
    require(tiles.map(_.tileParams.hartId) == tiles.indices, "the shootdown unit expects hart ids 0..n-1")
    unit.module.io.agents.zip(tiles).foreach { case (port, tile) => port <> tile.module.shootdown }
  }
}
