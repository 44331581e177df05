# Non-project Vivado flow for the Arty A7-100T (not run here: there is no
# Vivado on the project's machines; fpga/build.sh arty-a7-100t elaborates
# the Verilog and estimates the utilisation with yosys instead):
#   vivado -mode batch -nojournal -source fpga/arty-a7-100t/build.tcl \
#     -tclargs <FpgaTop Verilog dir> <output dir> [ddr3]
# Without `ddr3`: ArtyA7Config's Verilog, main memory in block RAM (top.v).
# With it: ArtyA7Ddr3Config's, main memory in the DDR3 through the MIG
# (top_ddr3.v; ip.tcl creates the cores).
# Writes <output dir>/<top>.bit, the checkpoints after synthesis,
# placement and routing (debug.tcl opens them), and the reports; fails if
# timing does not close.
if {$argc < 2 || $argc > 3 || ($argc == 3 && [lindex $argv 2] ne "ddr3")} {
  puts stderr "usage: vivado -mode batch -source build.tcl -tclargs <FpgaTop Verilog dir> <output dir> \[ddr3\]"
  exit 2
}
set vdir [lindex $argv 0]
set out [lindex $argv 1]
set ddr3 [expr {$argc == 3}]
set here [file dirname [file normalize [info script]]]
set part xc7a100tcsg324-1
set top [expr {$ddr3 ? "arty_ddr3_top" : "arty_top"}]
file mkdir $out
create_project -in_memory -part $part

# Sources: the SoC (every Verilog file of the elaboration), the board top,
# and with DDR3 the IP cores.
read_verilog [glob -directory $vdir *.v]
read_verilog [list $here/[expr {$ddr3 ? "top_ddr3.v" : "top.v"}] $here/../common/board_reset.v $here/../common/status_leds.v]
read_xdc $here/arty.xdc
if {$ddr3} {
  read_xdc $here/arty_ddr3.xdc
  source $here/ip.tcl
}

# (mmcm_params.vh, the MMCM's divider for the config's clock: fpga/build.sh
# wrote it into the output directory)
synth_design -top $top -part $part -flatten_hierarchy rebuilt -verilog_define SYNTHESIS -include_dirs [list $out]
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

write_bitstream -force $out/$top.bit

set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
puts "worst negative slack: $wns ns"
if {$wns < 0} {
  puts stderr "timing not met (WNS $wns ns): see $out/timing.rpt; debug.tcl opens the routed checkpoint"
  exit 1
}
