// yosys's internal tristate buffer, which synth_ecp5 leaves in the netlist
// for the SDRAM's data pins (nextpnr puts it into their I/O cells).
module \$_TBUF_ (input A, input E, output Y);
  assign Y = E ? A : 1'bz;
endmodule
