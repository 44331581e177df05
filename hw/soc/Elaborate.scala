// Elaborates SimTop (or, with --top FpgaTop, the boards' top) for one config
// and writes Verilog, the DTS and the FIRRTL, named after the top.
package shootdown.soc

import java.io.File
import java.nio.file.{Files, Paths}

import chisel3.experimental.RunFirrtlTransform
import firrtl.stage.RunFirrtlTransformAnnotation
import freechips.rocketchip.devices.tilelink.BootROMParams
import freechips.rocketchip.util.{ElaborationArtefacts, HasGeneratorUtilities}

object Elaborate extends App with HasGeneratorUtilities {
  private val usage = "usage: Elaborate --config <ConfigClass> --bootrom <bootrom.img> --out <dir> [--top SimTop|FpgaTop]"

  private def die(msg: String): Nothing = {
    System.err.println(s"elaborate: $msg")
    sys.exit(2)
  }

  private val opts: Map[String, String] = args.toSeq.grouped(2).map {
    case Seq(k, v) if k.startsWith("--") => k.drop(2) -> v
    case other => die(s"unexpected argument '${other.mkString(" ")}'\n$usage")
  }.toMap
  private def opt(name: String) = opts.getOrElse(name, die(s"missing --$name\n$usage"))

  val configName = opt("config")
  val bootrom = opt("bootrom")
  val outDir = new File(opt("out"))
  // By name: the boards (hw/boards) are outside the simulation's cache key.
  private val tops = Map("SimTop" -> classOf[SimTop].getName, "FpgaTop" -> "shootdown.boards.FpgaTop")
  val top = opts.getOrElse("top", "SimTop")
  if (!tops.contains(top)) die(s"unknown top '$top' (${tops.keys.mkString(", ")})")
  if (!Files.isRegularFile(Paths.get(bootrom))) die(s"boot ROM image '$bootrom' does not exist")
  outDir.mkdirs()

  val fullName = if (configName.contains(".")) configName
    else if (top == "FpgaTop") s"shootdown.boards.$configName" else s"shootdown.configs.$configName"
  val base = getParameters(Seq(fullName))
  val params = base.alterPartial {
    case BootROMParams => base(BootROMParams).copy(contentFileName = bootrom)
  }

  val circuit = elaborate(tops(top), params)
  val fir = new File(outDir, s"$top.fir")
  chisel3.Driver.dumpFirrtl(circuit, Some(fir))
  ElaborationArtefacts.files.foreach { case (ext, contents) =>
    Files.write(Paths.get(outDir.getPath, s"$top.$ext"), contents().getBytes)
  }

  // Chisel annotations that need a FIRRTL transform (BoringUtils' wiring,
  // which the scoreboard's fetch probe uses) name it; chisel3.Driver would
  // schedule it, FirrtlStage only when told.
  val annos = circuit.annotations.map(_.toFirrtl) ++
    circuit.annotations.collect { case a: RunFirrtlTransform => a.transformClass }.distinct
      .map(c => RunFirrtlTransformAnnotation(c.newInstance()))
  (new firrtl.stage.FirrtlStage).execute(
    Array("--target-dir", outDir.getPath, "-i", fir.getPath, "-o", s"$top.v", "-X", "verilog"),
    annos)
  println(s"elaborate: wrote ${outDir.getPath}/$top.v for $fullName")
}
