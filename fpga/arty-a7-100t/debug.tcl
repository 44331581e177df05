# Opens a checkpoint of build.tcl to look at a failed or slow build without
# running it again:
#   vivado -mode tcl -source fpga/arty-a7-100t/debug.tcl -tclargs <output dir> [synth|place|route]
# then, for example: report_timing -max_paths 20 -nworst 2; report_utilization -cells [get_cells soc/*]
set out [lindex $argv 0]
set stage [expr {$argc > 1 ? [lindex $argv 1] : "route"}]
set dcp $out/post_$stage.dcp
if {![file exists $dcp]} {
  puts stderr "no checkpoint $dcp (stages: synth, place, route)"
  exit 2
}
open_checkpoint $dcp
report_timing_summary -max_paths 5
