// The SDRAM model (fpga/sim/sdr_sdram.sv) as cocotb drives it: DQ split
// into what the bench drives (dq_in while dq_oe) and what the bus carries
// (dq_bus), since a simulator's top-level inout is not a port cocotb can
// drive and read.
module sdram_top #(parameter integer CLK_PS = 7500, parameter integer ROW_BITS = 13, parameter integer T_REF_US = 64000) (
  input  wire        clk,
  input  wire        cke,
  input  wire        cs_n,
  input  wire        ras_n,
  input  wire        cas_n,
  input  wire        we_n,
  input  wire [1:0]  ba,
  input  wire [12:0] a,
  input  wire [1:0]  dqm,
  input  wire [15:0] dq_in,
  input  wire        dq_oe,
  output wire [15:0] dq_bus,
  output wire [1:0]  dq_driven,  // per byte lane: the chip drives it
  output wire [31:0] errors,
  output wire        initialised
);
  wire [15:0] dq;
  assign dq = dq_oe ? dq_in : 16'bz;
  assign dq_bus = dq;
  assign dq_driven = chip.drive;
  sdr_sdram #(.CLK_PS(CLK_PS), .ROW_BITS(ROW_BITS), .T_REF_US(T_REF_US)) chip (
    .clk(clk), .cke(cke), .cs_n(cs_n), .ras_n(ras_n), .cas_n(cas_n), .we_n(we_n), .ba(ba), .a(a), .dqm(dqm),
    .dq(dq), .errors(errors), .initialised(initialised));
endmodule
