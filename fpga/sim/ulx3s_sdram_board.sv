// The ULX3S with its SDRAM, for simulating the exact SDRAM board top: the
// FPGA (fpga/ulx3s/top_sdram.v, untouched) and the chip
// (fpga/sim/sdr_sdram.sv) on the board's wires. The pins the harness drives
// are the FPGA's (its JTAG port's among them); sdram_errors counts the chip's breaches, which fail the
// run (fpga/sim/board_main.cpp).
module ulx3s_sdram_board (
  input  wire        clk_25mhz,
  input  wire [6:0]  btn,
  output wire [7:0]  led,
  output wire        ftdi_rxd,
  input  wire        ftdi_txd,
  output wire        wifi_gpio0,
  output wire [31:0] sdram_errors,
  input  wire        jtag_tck,
  input  wire        jtag_tms,
  input  wire        jtag_tdi,
  output wire        jtag_tdo
);
  wire sdram_clk, sdram_cke, sdram_csn, sdram_wen, sdram_rasn, sdram_casn;
  wire [12:0] sdram_a;
  wire [1:0] sdram_ba, sdram_dqm;
  wire [15:0] sdram_d;
  ulx3s_sdram_top fpga (
    .clk_25mhz(clk_25mhz), .btn(btn), .led(led), .ftdi_rxd(ftdi_rxd), .ftdi_txd(ftdi_txd), .wifi_gpio0(wifi_gpio0),
    .sdram_clk(sdram_clk), .sdram_cke(sdram_cke), .sdram_csn(sdram_csn), .sdram_wen(sdram_wen),
    .sdram_rasn(sdram_rasn), .sdram_casn(sdram_casn), .sdram_a(sdram_a), .sdram_ba(sdram_ba),
    .sdram_dqm(sdram_dqm), .sdram_d(sdram_d),
    .jtag_tck(jtag_tck), .jtag_tms(jtag_tms), .jtag_tdi(jtag_tdi), .jtag_tdo(jtag_tdo));
  sdr_sdram #(.CLK_PS(40000)) chip (
    .clk(sdram_clk), .cke(sdram_cke), .cs_n(sdram_csn), .ras_n(sdram_rasn), .cas_n(sdram_casn), .we_n(sdram_wen),
    .ba(sdram_ba), .a(sdram_a), .dqm(sdram_dqm), .dq(sdram_d), .errors(sdram_errors), .initialised());
endmodule
