## arty_ddr3_top (top_ddr3.v), read after arty.xdc. The DDR3 pins and
## their I/O standards come with the MIG core (mig.prj, ip.tcl), the
## clock converter's crossing constraints with its core; this adds the
## top's own crossing: the MIG's init_calib_complete (ui_clk) enters clk's
## domain through the two-flip-flop synchroniser calib_sync.
set_false_path -to [get_pins {calib_sync_reg[0]/D}]
