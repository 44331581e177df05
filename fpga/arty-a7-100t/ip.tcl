# The DDR3 build's IP cores (build.tcl sources this with `ddr3`; not run
# here, there is no Vivado on the project's machines): the MIG from the
# committed mig.prj, and the AXI clock converter between the SoC's 50 MHz
# and the MIG's 81.25 MHz user clock. Expects $part, $here and $out.
set ipdir $out/ip
file mkdir $ipdir

create_ip -name mig_7series -vendor xilinx.com -library ip -module_name arty_mig -dir $ipdir -force
set_property CONFIG.XML_INPUT_FILE [file normalize $here/mig.prj] [get_ips arty_mig]

create_ip -name axi_clock_converter -vendor xilinx.com -library ip -module_name arty_mem_cdc -dir $ipdir -force
set_property -dict [list \
  CONFIG.PROTOCOL {AXI4} CONFIG.ACLK_ASYNC {1} \
  CONFIG.ADDR_WIDTH {28} CONFIG.DATA_WIDTH {64} CONFIG.ID_WIDTH {4} \
  CONFIG.AWUSER_WIDTH {0} CONFIG.ARUSER_WIDTH {0} CONFIG.WUSER_WIDTH {0} \
  CONFIG.RUSER_WIDTH {0} CONFIG.BUSER_WIDTH {0}] [get_ips arty_mem_cdc]

# Out-of-context synthesis of both; synth_design then takes their netlists
# and constraints (the MIG's place the DDR3 pins).
generate_target all [get_ips {arty_mig arty_mem_cdc}]
synth_ip [get_ips {arty_mig arty_mem_cdc}]
