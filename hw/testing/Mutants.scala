// Debug knobs, each breaking one rule of docs/semantics.md on purpose, so
// that the tests can show they would catch it (make mutants, docs/scoreboard.md).
// Every knob is in every build, behind a switch that a run turns on:
//   sim +mutant=NAME ...          (Verilator models built with SCOREBOARD:
//                                  the checked and debug flavours)
//   plusarg +mutant=NAME          (other simulators, with MUTANT_PLUSARGS
//                                  defined: the cocotb benches)
// Anywhere else (the plain models: uart, board, base; FPGA synthesis) a
// switch is the constant 0, and the knob it drives folds away.
package shootdown.devices

import scala.collection.immutable.ListMap

import chisel3._
import chisel3.experimental.StringParam
import chisel3.util.HasBlackBoxInline

object Mutants {
  /** The knobs, and the rule each breaks. */
  val all: Map[String, String] = Map(
    "ack-before-drain"   -> "agents acknowledge when the request's end arrives, before flushing and draining (rules 1, 2)",
    "ack-before-ordered" -> "agents acknowledge after holding the core two cycles, without waiting for the D$ to drain (rule 2)",
    "no-refill-guard"    -> "the tile no longer turns a non-global flush into a full one when a refill lands in its cycle (rule 1)",
    "itlb-unconnected"   -> "the agent's ITLB flush is not connected (rule 1, instruction fetches)",
    "skip-ptw-flush"     -> "the agent never flushes the page walker (L2 TLB, PTE cache) (rule 1)",
    "ptw-flush-late"     -> "the agent flushes the page walker four cycles after the DTLB (rule 1: a walk in between is answered from the L2 TLB)",
    "skip-nonleaf"       -> "the page walker sees ASID and full flushes as flushes of one VA, so its cache of non-leaf entries survives (rule 1)",
    "drop-last-entry"    -> "the unit ignores the last entry of a list with more than one (rule 1)",
    "superpage-4k-stride" -> "the unit steps through 2 MiB and 1 GiB entries in 4 KiB pages (rules 1, 5)",
    "sync-one-early"     -> "STATUS.IDLE turns on when the channel's last posted request starts, not when it completes (post, then sync)",
    "lose-local-sfence"  -> "the agent takes the ITLB and page walker inputs in the cycle the hart's own sfence.vma needs them (rule 7)")

  /** Test aids: switches of the same kind that break no rule but put the
    * design in a state a test could not reach in reasonable time. */
  val aids: Map[String, String] = Map(
    "tickets-near-wrap" -> "every channel's ticket counter starts 16 below 2^32, so that a run crosses the wrap")

  /** High while knob `name` is on (in a run that asked for it). */
  def apply(name: String): Bool = {
    require(all.contains(name) || aids.contains(name),
      s"unknown knob '$name' (${(all.keys ++ aids.keys).toSeq.sorted.mkString(", ")})")
    Module(new MutantSwitch(name)).io.on
  }
}

/** The knobs a block of the datapath takes, by name: an input the block
  * reads (`io.knobs("drop-last-entry")`), so that the block holds its design
  * and the hooks live where it is instantiated (Knobs.switches). */
final class Knobs(val names: Seq[String]) extends Record {
  names.foreach(n => require(Mutants.all.contains(n) || Mutants.aids.contains(n), s"unknown knob '$n'"))
  val elements = ListMap(names.map(n => n.replace('-', '_') -> Bool()): _*)
  def apply(name: String): Bool = elements.getOrElse(name.replace('-', '_'),
    throw new IllegalArgumentException(s"no knob '$name' here (${names.mkString(", ")})"))
  override def cloneType = new Knobs(names).asInstanceOf[this.type]
}

object Knobs {
  /** Each knob's home: the unit (its channels, engine and expander), a
    * flush agent, and the tile around the agent. */
  val unit  = Seq("sync-one-early", "tickets-near-wrap", "drop-last-entry", "superpage-4k-stride")
  val agent = Seq("ack-before-drain", "ack-before-ordered")
  val tile  = Seq("no-refill-guard", "itlb-unconnected", "skip-ptw-flush", "ptw-flush-late", "skip-nonleaf",
    "lose-local-sfence")
  require((unit ++ agent ++ tile).sorted == (Mutants.all.keys ++ Mutants.aids.keys).toSeq.sorted,
    "every knob of Mutants has one home in Knobs")

  /** The switches of `names` (each on in a run that asked for it). */
  def switches(names: Seq[String]): Knobs = {
    val k = Wire(new Knobs(names))
    names.foreach(n => k(n) := Mutants(n))
    k
  }
}

class MutantSwitchIO extends Bundle {
  val on = Output(Bool())
}

class MutantSwitch(name: String) extends BlackBox(Map("NAME" -> StringParam(name))) with HasBlackBoxInline {
  val io = IO(new MutantSwitchIO)
  // With SCOREBOARD the harness answers (sim/mutants.cpp), and refuses a
  // name no switch asks about; it calls once, before the first clock edge.
  setInline("MutantSwitch.v",
    """module MutantSwitch #(parameter NAME = "") (output on);
      |`ifdef SCOREBOARD
      |  import "DPI-C" function bit sim_mutant(input string name);
      |  reg r = 1'b0;
      |  initial r = sim_mutant($sformatf("%s", NAME));
      |  assign on = r;
      |`elsif MUTANT_PLUSARGS
      |  reg r = 1'b0;
      |  string s;
      |  initial if ($value$plusargs("mutant=%s", s)) r = s == $sformatf("%s", NAME);
      |  assign on = r;
      |`else
      |  assign on = 1'b0;
      |`endif
      |endmodule
      |""".stripMargin)
}
