# Non-project Vivado flow for the Arty A7-100T (not run here: there is no
# Vivado on the project's machines; fpga/build.sh arty-a7-100t elaborates
# the Verilog and estimates the utilisation with yosys instead):
#   vivado -mode batch -nojournal -source fpga/arty-a7-100t/build.tcl \
#     -tclargs <FpgaTop Verilog dir> <output dir>
# Writes <output dir>/arty_top.bit, the checkpoints after synthesis,
# placement and routing (debug.tcl opens them), and the reports; fails if
# timing does not close.
if {$argc != 2} {
  puts stderr "usage: vivado -mode batch -source build.tcl -tclargs <FpgaTop Verilog dir> <output dir>"
  exit 2
}
set vdir [lindex $argv 0]
set out [lindex $argv 1]
set here [file dirname [file normalize [info script]]]
set part xc7a100tcsg324-1
file mkdir $out

# Sources: the SoC (every Verilog file of the elaboration) and the board top.
read_verilog [glob -directory $vdir *.v]
read_verilog [list $here/top.v $here/../common/board_reset.v]
read_xdc $here/arty.xdc

synth_design -top arty_top -part $part -flatten_hierarchy rebuilt -verilog_define SYNTHESIS
write_checkpoint -force $out/post_synth.dcp
report_utilization -file $out/utilization_synth.rpt

opt_design
place_design
phys_opt_design
write_checkpoint -force $out/post_place.dcp

route_design
write_checkpoint -force $out/post_route.dcp

report_timing_summary -max_paths 10 -file $out/timing.rpt
report_utilization -file $out/utilization.rpt
report_utilization -hierarchical -file $out/utilization_hierarchical.rpt
report_clock_utilization -file $out/clocks.rpt
report_drc -file $out/drc.rpt

write_bitstream -force $out/arty_top.bit

set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
puts "worst negative slack: $wns ns"
if {$wns < 0} {
  puts stderr "timing not met (WNS $wns ns): see $out/timing.rpt; debug.tcl opens the routed checkpoint"
  exit 1
}
