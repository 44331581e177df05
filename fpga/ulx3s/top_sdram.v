// ULX3S (LFE5U-85F) board top with the board's 32 MiB SDRAM as main memory
// (Ulx3sSdramConfig): as top.v (clock, reset, console, LEDs; docs/fpga.md,
// "ULX3S"), and FpgaTop's AXI4 memory port served by litedram_ulx3s, the
// controller fpga/litedram/gen.py generates (AXI4 bursts streamed onto a
// 16-bit LiteDRAM native port, GENSDRPHY at the core clock). The SoC is held in reset until the
// controller has run the chip's power-up sequence (init_done, 200 us after
// the board's reset ends). The chip's clock pin is the PLL's CLKOS, at the
// core clock 90 degrees behind it, driven out through an ODDRX1F so that
// the pin leaves from the I/O cell as LiteX's own ULX3S target does: the
// chip samples in the middle of the controller's cycle. The debug module's
// JTAG port is on the GPIO header (jtag.lpf; docs/fpga.md, "Debugging").
module ulx3s_sdram_top (
  input  wire        clk_25mhz,
  input  wire [6:0]  btn,        // btn[1] FIRE1, pressed = 1
  output wire [7:0]  led,
  output wire        ftdi_rxd,   // named from the FTDI chip: the FPGA's TX
  input  wire        ftdi_txd,   // the FPGA's RX
  output wire        wifi_gpio0, // high: keeps the ESP32 from resetting the FPGA
  output wire        sdram_clk,
  output wire        sdram_cke,
  output wire        sdram_csn,
  output wire        sdram_wen,
  output wire        sdram_rasn,
  output wire        sdram_casn,
  output wire [12:0] sdram_a,
  output wire [1:0]  sdram_ba,
  output wire [1:0]  sdram_dqm,
  inout  wire [15:0] sdram_d,
  input  wire        jtag_tck,   // GP0
  input  wire        jtag_tms,   // GN0
  input  wire        jtag_tdi,   // GP1
  output wire        jtag_tdo    // GN1
);
  assign wifi_gpio0 = 1'b1;

  // The core clock and the SDRAM's, from the dividers fpga/build.sh has
  // fpga/ecp5_pll.py compute for the config's clock, and the controller's
  // reset (as top.v's); the SoC's is held until the chip is ready.
  wire clk, clk_sdram, reset, init_done;
  ulx3s_clock_reset clock_reset (.clk_25mhz(clk_25mhz), .button(btn[1]), .clk(clk), .clk_shifted(clk_sdram),
                                 .reset(reset));
  ODDRX1F sdram_clock (.D0(1'b1), .D1(1'b0), .SCLK(clk_sdram), .RST(1'b0), .Q(sdram_clk));
  reg soc_reset = 1'b1;
  always @(posedge clk) soc_reset <= reset | ~init_done;

  wire [3:0]  awid, arid, bid, rid;
  wire [31:0] awaddr, araddr;
  wire [7:0]  awlen, arlen, wstrb;
  wire [2:0]  awsize, arsize;
  wire [1:0]  awburst, arburst, bresp, rresp;
  wire        awvalid, awready, wvalid, wready, wlast, bvalid, bready, arvalid, arready, rvalid, rready, rlast;
  wire [63:0] wdata, rdata;
  wire done, passed;
  wire [15:0] code;
  FpgaTop soc (
    .clock(clk), .reset(soc_reset),
    .uart_tx(ftdi_rxd), .uart_rx(ftdi_txd),
    .status_done(done), .status_passed(passed), .status_code(code),
    .jtag_tck(jtag_tck), .jtag_tms(jtag_tms), .jtag_tdi(jtag_tdi), .jtag_tdo(jtag_tdo),
    .mem_aw_ready(awready), .mem_aw_valid(awvalid), .mem_aw_bits_id(awid), .mem_aw_bits_addr(awaddr),
    .mem_aw_bits_len(awlen), .mem_aw_bits_size(awsize), .mem_aw_bits_burst(awburst), .mem_aw_bits_lock(),
    .mem_aw_bits_cache(), .mem_aw_bits_prot(), .mem_aw_bits_qos(),
    .mem_w_ready(wready), .mem_w_valid(wvalid), .mem_w_bits_data(wdata), .mem_w_bits_strb(wstrb),
    .mem_w_bits_last(wlast),
    .mem_b_ready(bready), .mem_b_valid(bvalid), .mem_b_bits_id(bid), .mem_b_bits_resp(bresp),
    .mem_ar_ready(arready), .mem_ar_valid(arvalid), .mem_ar_bits_id(arid), .mem_ar_bits_addr(araddr),
    .mem_ar_bits_len(arlen), .mem_ar_bits_size(arsize), .mem_ar_bits_burst(arburst), .mem_ar_bits_lock(),
    .mem_ar_bits_cache(), .mem_ar_bits_prot(), .mem_ar_bits_qos(),
    .mem_r_ready(rready), .mem_r_valid(rvalid), .mem_r_bits_id(rid), .mem_r_bits_data(rdata),
    .mem_r_bits_resp(rresp), .mem_r_bits_last(rlast)
  );

  // The controller sees the offset into the 32 MiB (the SoC's memory is at
  // 0x8000_0000, a multiple of it).
  wire [15:0] dq_o, dq_oe;
  genvar i;
  for (i = 0; i < 16; i = i + 1) begin : dq
    assign sdram_d[i] = dq_oe[i] ? dq_o[i] : 1'bz;
  end
  litedram_ulx3s sdram (
    .sys_clk(clk), .sys_rst(reset), .init_done(init_done),
    .awid(awid), .awaddr(awaddr[24:0]), .awlen(awlen), .awsize(awsize), .awburst(awburst), .awvalid(awvalid),
    .awready(awready), .wdata(wdata), .wstrb(wstrb), .wlast(wlast), .wvalid(wvalid), .wready(wready),
    .bid(bid), .bresp(bresp), .bvalid(bvalid), .bready(bready),
    .arid(arid), .araddr(araddr[24:0]), .arlen(arlen), .arsize(arsize), .arburst(arburst), .arvalid(arvalid),
    .arready(arready), .rid(rid), .rdata(rdata), .rresp(rresp), .rlast(rlast), .rvalid(rvalid), .rready(rready),
    .sdram_a(sdram_a), .sdram_ba(sdram_ba), .sdram_cs_n(sdram_csn), .sdram_cke(sdram_cke),
    .sdram_ras_n(sdram_rasn), .sdram_cas_n(sdram_casn), .sdram_we_n(sdram_wen), .sdram_dm(sdram_dqm),
    .dq_o(dq_o), .dq_oe(dq_oe), .dq_i(sdram_d));

  status_leds #(.BEAT_BIT(23)) status (.clk(clk), .reset(reset), .done(done), .passed(passed), .led(led[2:0]));
  assign led[7:3] = done && !passed ? code[4:0] : 5'd0;
endmodule
