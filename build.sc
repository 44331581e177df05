// Mill build for the batched TLB shootdown prototype.
// Mill itself is pinned in .mill-version and launched by ./mill.
import mill._
import mill.scalalib._

object hw extends ScalaModule {
  // 2.12.10 (what chisel3 3.2.6 was built with) has no compiler bridge on
  // Maven Central; any 2.12.x is binary compatible.
  def scalaVersion = "2.12.20"

  def ivyDeps = Agg(ivy"edu.berkeley.cs::rocketchip:1.2.6")

  def sources = T.sources(Seq("soc", "devices", "tile", "configs", "boards", "gen", "testing").map(d => PathRef(millSourcePath / d)))

  def scalacOptions = Seq("-deprecation", "-feature", "-unchecked", "-language:reflectiveCalls")

  // Elaborating a multi-hart Rocket SoC needs a deep stack and a few GB of heap.
  def forkArgs = Seq("-Xss16m", "-Xmx6g")
}
