// A bus master that belongs to no hart, in the debug SoCs: at reset it does
// to hart 0's channel what a DMA engine or a debug module's system bus
// access could, a write of TARGETS and a submitting read of SUBMIT_ONE, and
// reads back what the unit answered. The unit must take it as foreign
// (docs/shootdown-registers.md: dropped, -ERR_FOREIGN, reads 0, counted):
// rocket-chip's TLPatternPusher asserts each expected read (a failed RTL
// assertion ends a debug run), and sw/baremetal/programs/foreign_master.c
// checks on hart 0 that the master ran and changed nothing.
package shootdown.soc

import chisel3._
import freechips.rocketchip.config.{Config, Field}
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.subsystem._
import freechips.rocketchip.tilelink._
import shootdown.devices.{ShootdownKey, ShootdownMap}

case object ForeignMasterKey extends Field[Boolean](false)

class WithForeignMaster extends Config((site, here, up) => {
  case ForeignMasterKey => true
})

object ForeignMaster {
  /** What it does, in order (one request at a time). */
  def pattern(unit: BigInt): Seq[Pattern] = {
    import ShootdownMap._
    val chan = unit + channelBase(0)
    val minusForeign = (BigInt(1) << 64) - Err.foreign.value
    Seq(
      WritePattern(chan + Channel.targets.offset, 3, 3),
      ReadExpectPattern(chan + Channel.targets.offset, 3, 0),
      ReadExpectPattern(chan + Channel.submitOne.offset, 3, minusForeign),
      ReadExpectPattern(unit + Global.foreign.offset, 3, 2))
  }
}

trait CanHaveForeignMaster { this: BaseSubsystem =>
  val foreignMaster = p(ShootdownKey).filter(_ => p(ForeignMasterKey)).map { unit =>
    val pusher = LazyModule(new TLPatternPusher("foreign-master", ForeignMaster.pattern(unit.address)))
    fbus.fromPort(Some("foreign-master"))() := pusher.node
    pusher
  }
}

trait CanHaveForeignMasterModuleImp extends LazyModuleImp {
  val outer: CanHaveForeignMaster
  outer.foreignMaster.foreach(_.module.io.run := true.B)
}
