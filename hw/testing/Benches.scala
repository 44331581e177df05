// Small tops for the cocotb unit benches (tests/cocotb/):
//   ./mill hw.runMain shootdown.soc.ElaborateBench --top agent|unit --out DIR
// `agent` is the FlushAgent alone (its knobs on the switches); `unit` is the ShootdownUnit with its
// register port, list-read port, agent links and interrupts as plain IOs
// (TileLink monitors on both TileLink ports). On the register port, source
// h (0 until harts) is hart h, which owns channel h, and source `harts` is
// a requester that owns no channel.
package shootdown.soc

import java.io.File

import chisel3._
import freechips.rocketchip.config.{Config, Parameters}
import freechips.rocketchip.diplomacy._
import freechips.rocketchip.interrupts._
import freechips.rocketchip.subsystem.CacheBlockBytes
import freechips.rocketchip.tilelink._
import shootdown.devices.{Knobs, ShootdownParams, ShootdownUnit}
import shootdown.tile.{FlushAgent, FlushAgentIO}

object BenchParams {
  val harts = 4
  val memBase = BigInt(0x80000000L)
  val memSize = BigInt(0x10000000L)
  val unit = ShootdownParams()
}

/** The agent with the same ports as its own (its knobs on the switches). */
class AgentBench(queueDepth: Int) extends Module {
  val io = IO(new FlushAgentIO)
  val agent = Module(new FlushAgent(queueDepth))
  io <> agent.io
  agent.knobs := Knobs.switches(Knobs.agent)
}

class UnitBench(implicit p: Parameters) extends LazyModule {
  import BenchParams._
  val unit = LazyModule(new ShootdownUnit(BenchParams.unit, harts, memBase, memSize, beatBytes = 8,
    owner = c => Some(c.sourceId.start).filter(_ < harts)))
  val cpu = TLClientNode(Seq(TLClientPortParameters(
    Seq.tabulate(harts)(h => TLClientParameters(s"bench-hart-$h", sourceId = IdRange(h, h + 1))) :+
      TLClientParameters("bench-stranger", sourceId = IdRange(harts, harts + 1)))))
  val mem = TLManagerNode(Seq(TLManagerPortParameters(Seq(TLManagerParameters(
    address     = Seq(AddressSet(memBase, memSize - 1)),
    regionType  = RegionType.UNCACHED,
    supportsGet = TransferSizes(1, 64),
    mayDenyGet  = true)), beatBytes = 8)))
  val irqSink = IntSinkNode(IntSinkPortSimple())
  unit.clientTap := cpu
  mem := unit.listNode
  irqSink := unit.intNode

  lazy val module = new UnitBenchImp(this)
}

class UnitBenchImp(outer: UnitBench) extends LazyModuleImp(outer) {
  val (cpuOut, _) = outer.cpu.out.head
  val reg = IO(Flipped(chiselTypeOf(cpuOut)))
  cpuOut <> reg
  val (memIn, _) = outer.mem.in.head
  val mem = IO(chiselTypeOf(memIn))
  mem <> memIn
  val agents = IO(chiselTypeOf(outer.unit.module.io.agents))
  agents <> outer.unit.module.io.agents
  val sent = IO(chiselTypeOf(outer.unit.module.io.sent))
  sent := outer.unit.module.io.sent
  val irq = IO(Output(UInt(BenchParams.harts.W)))
  irq := outer.irqSink.in.head._1.asUInt
}

object ElaborateBench {
  def main(args: Array[String]): Unit = {
    val opts = args.grouped(2).collect { case Array(k, v) => k -> v }.toMap
    val (top, out) = (opts.get("--top"), opts.get("--out")) match {
      case (Some(t), Some(o)) if Set("agent", "unit")(t) => (t, o)
      case _ =>
        System.err.println("usage: ElaborateBench --top agent|unit --out DIR")
        sys.exit(64)
    }
    new File(out).mkdirs()
    implicit val p: Parameters = new Config((site, here, up) => {
      case CacheBlockBytes => 64
      case MonitorsEnabled => true
    })
    val gen: () => RawModule = top match {
      case "agent" => () => new AgentBench(BenchParams.unit.agentQueue)
      case "unit"  => () => LazyModule(new UnitBench).module
    }
    chisel3.Driver.execute(Array("--target-dir", out, "--top-name", top), gen)
    // The parameters the benches were elaborated with, which the cocotb
    // benches read rather than restate (tests/cocotb/test_benches.py).
    val u = BenchParams.unit
    val fields = Seq("harts" -> BigInt(BenchParams.harts), "mem_base" -> BenchParams.memBase,
      "mem_size" -> BenchParams.memSize, "address" -> u.address, "max_entries" -> BigInt(u.maxEntries),
      "queue_depth" -> BigInt(u.queueDepth), "ceiling" -> BigInt(u.ceiling), "list_reads" -> BigInt(u.listReads),
      "agent_queue" -> BigInt(u.agentQueue), "counter_bits" -> BigInt(u.counterBits), "timeout" -> BigInt(u.timeout))
    val json = fields.map { case (k, v) => s"""  "$k": $v""" }.mkString("{\n", ",\n", "\n}\n")
    java.nio.file.Files.write(new File(out, "params.json").toPath, json.getBytes("UTF-8"))
  }
}
