## arty_ddr3_top (top_ddr3.v), read after arty.xdc. The DDR3 pins and
## their I/O standards come with the MIG core (mig.prj, ip.tcl), the
## clock converter's crossing constraints with its core; this adds the
## top's own crossing: the MIG's init_calib_complete (ui_clk) enters clk's
## domain through the two-flip-flop synchroniser calib_sync.
set_false_path -to [get_pins {calib_sync_reg[0]/D}]

## The debug module's JTAG port on Pmod JA (top row, JA5 GND, JA6 3.3 V):
## JA1 TCK, JA2 TMS, JA3 TDI, JA4 TDO, for a 3.3 V adapter (openocd's
## ftdi drivers and the like; fpga/openocd/soc.cfg). No pin of Pmod JA is
## clock capable, so TCK reaches its buffer through general routing, which
## Vivado must be told is wanted; at the 10 MHz an adapter drives at most,
## the skew does not matter. TCK is a clock apart from the SoC's.
set_property -dict { PACKAGE_PIN G13 IOSTANDARD LVCMOS33 PULLDOWN TRUE } [get_ports jtag_tck]
set_property -dict { PACKAGE_PIN B11 IOSTANDARD LVCMOS33 PULLUP TRUE } [get_ports jtag_tms]
set_property -dict { PACKAGE_PIN A11 IOSTANDARD LVCMOS33 PULLUP TRUE } [get_ports jtag_tdi]
set_property -dict { PACKAGE_PIN D12 IOSTANDARD LVCMOS33 DRIVE 4 } [get_ports jtag_tdo]
set_property CLOCK_DEDICATED_ROUTE FALSE [get_nets jtag_tck_IBUF]
create_clock -name jtag_tck -period 100.0 [get_ports jtag_tck]
set_clock_groups -asynchronous -group [get_clocks jtag_tck]
