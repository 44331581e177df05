// Arty A7-100T board top with the board's 256 MiB of DDR3L as main memory
// (ArtyA7Ddr3Config: FpgaTop brings its AXI4 memory port out). Not run
// through Vivado: there is none on the project's machines (docs/fpga.md).
//
//   CLK100MHZ -> MMCM: the core clock (clk: 50 MHz, 25 in the fallback
//                      ArtyA7Ddr3At25MHzConfig), 200 MHz for the MIG's
//                      sys_clk_i (also its IDELAYCTRL reference, mig.prj)
//   SoC mem (clk, 64-bit AXI4, 4-bit ids)
//     -> arty_mem_cdc (axi_clock_converter, asynchronous)
//     -> arty_mig s_axi (ui_clk, 81.25 MHz, 28-bit addresses: 256 MiB)
//   The SoC stays in reset until the button is released, the MMCM has
//   locked and the MIG has calibrated the memory (init_calib_complete).
//
// The IP cores come from ip.tcl (create_ip); ip_stubs.v describes their
// ports for yosys. LEDs as in top.v, and led[3] lights until the
// calibration completes instead of showing received bytes:
//   led[0] heartbeat   led[1] passed   led[2] failed   led[3] DDR3 not calibrated
// The debug module's JTAG port is on Pmod JA (arty_ddr3.xdc; docs/fpga.md,
// "Debugging over JTAG"), its TCK a clock of its own.
module arty_ddr3_top (
  input  wire        CLK100MHZ,
  input  wire        ck_rst,        // pressed = 0
  output wire [3:0]  led,
  output wire        uart_rxd_out,  // the FPGA's TX
  input  wire        uart_txd_in,   // the FPGA's RX
  input  wire        jtag_tck,      // JA1
  input  wire        jtag_tms,      // JA2
  input  wire        jtag_tdi,      // JA3
  output wire        jtag_tdo,      // JA4
  // DDR3L (MT41K128M16JT-125), pins placed by the MIG's constraints
  inout  wire [15:0] ddr3_dq,
  inout  wire [1:0]  ddr3_dqs_p,
  inout  wire [1:0]  ddr3_dqs_n,
  output wire [13:0] ddr3_addr,
  output wire [2:0]  ddr3_ba,
  output wire        ddr3_ras_n,
  output wire        ddr3_cas_n,
  output wire        ddr3_we_n,
  output wire        ddr3_reset_n,
  output wire [0:0]  ddr3_ck_p,
  output wire [0:0]  ddr3_ck_n,
  output wire [0:0]  ddr3_cke,
  output wire [0:0]  ddr3_cs_n,
  output wire [1:0]  ddr3_dm,
  output wire [0:0]  ddr3_odt
);
  // 100 MHz -> VCO 1,000 MHz -> the core clock (CLKOUT0: 1,000 MHz /
  // MMCM_CORE_DIVIDE, which fpga/build.sh computes from the config's clock)
  // and 200 MHz (CLKOUT1).
  `include "mmcm_params.vh"
  wire clk_mmcm, clk200_mmcm, clk, clk200, fb, fb_buf, locked;
  MMCME2_BASE #(
    .CLKIN1_PERIOD(10.0), .DIVCLK_DIVIDE(1), .CLKFBOUT_MULT_F(10.0),
    .CLKOUT0_DIVIDE_F(MMCM_CORE_DIVIDE), .CLKOUT1_DIVIDE(5),
    .BANDWIDTH("OPTIMIZED"), .STARTUP_WAIT("FALSE")
  ) mmcm (
    .CLKIN1(CLK100MHZ), .CLKFBIN(fb_buf), .CLKFBOUT(fb), .CLKOUT0(clk_mmcm), .CLKOUT1(clk200_mmcm),
    .LOCKED(locked), .RST(~ck_rst), .PWRDWN(1'b0),
    .CLKFBOUTB(), .CLKOUT0B(), .CLKOUT1B(), .CLKOUT2(), .CLKOUT2B(), .CLKOUT3(), .CLKOUT3B(),
    .CLKOUT4(), .CLKOUT5(), .CLKOUT6()
  );
  BUFG fb_bufg (.I(fb), .O(fb_buf));
  BUFG clk_bufg (.I(clk_mmcm), .O(clk));
  BUFG clk200_bufg (.I(clk200_mmcm), .O(clk200));

  // ---- the MIG (ui_clk domain)
  wire ui_clk, ui_rst, calibrated;
  wire [3:0]  m_awid, m_bid, m_arid, m_rid;
  wire [27:0] m_awaddr, m_araddr;
  wire [7:0]  m_awlen, m_arlen;
  wire [2:0]  m_awsize, m_arsize, m_awprot, m_arprot;
  wire [1:0]  m_awburst, m_arburst, m_bresp, m_rresp;
  wire [0:0]  m_awlock, m_arlock;
  wire [3:0]  m_awcache, m_arcache, m_awqos, m_arqos;
  wire [63:0] m_wdata, m_rdata;
  wire [7:0]  m_wstrb;
  wire m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
  wire m_arvalid, m_arready, m_rlast, m_rvalid, m_rready;
  // The AXI side's reset, released a cycle after the MIG's own.
  reg ui_aresetn = 1'b0;
  always @(posedge ui_clk) ui_aresetn <= ~ui_rst;

  arty_mig mig (
    .ddr3_dq(ddr3_dq), .ddr3_dqs_p(ddr3_dqs_p), .ddr3_dqs_n(ddr3_dqs_n),
    .ddr3_addr(ddr3_addr), .ddr3_ba(ddr3_ba), .ddr3_ras_n(ddr3_ras_n), .ddr3_cas_n(ddr3_cas_n),
    .ddr3_we_n(ddr3_we_n), .ddr3_reset_n(ddr3_reset_n), .ddr3_ck_p(ddr3_ck_p), .ddr3_ck_n(ddr3_ck_n),
    .ddr3_cke(ddr3_cke), .ddr3_cs_n(ddr3_cs_n), .ddr3_dm(ddr3_dm), .ddr3_odt(ddr3_odt),
    .sys_clk_i(clk200), .sys_rst(ck_rst & locked),  // sys_rst is active low (mig.prj)
    .ui_clk(ui_clk), .ui_clk_sync_rst(ui_rst), .mmcm_locked(), .aresetn(ui_aresetn),
    .app_sr_req(1'b0), .app_ref_req(1'b0), .app_zq_req(1'b0),
    .app_sr_active(), .app_ref_ack(), .app_zq_ack(),
    .s_axi_awid(m_awid), .s_axi_awaddr(m_awaddr), .s_axi_awlen(m_awlen), .s_axi_awsize(m_awsize),
    .s_axi_awburst(m_awburst), .s_axi_awlock(m_awlock), .s_axi_awcache(m_awcache), .s_axi_awprot(m_awprot),
    .s_axi_awqos(m_awqos), .s_axi_awvalid(m_awvalid), .s_axi_awready(m_awready),
    .s_axi_wdata(m_wdata), .s_axi_wstrb(m_wstrb), .s_axi_wlast(m_wlast), .s_axi_wvalid(m_wvalid),
    .s_axi_wready(m_wready),
    .s_axi_bid(m_bid), .s_axi_bresp(m_bresp), .s_axi_bvalid(m_bvalid), .s_axi_bready(m_bready),
    .s_axi_arid(m_arid), .s_axi_araddr(m_araddr), .s_axi_arlen(m_arlen), .s_axi_arsize(m_arsize),
    .s_axi_arburst(m_arburst), .s_axi_arlock(m_arlock), .s_axi_arcache(m_arcache), .s_axi_arprot(m_arprot),
    .s_axi_arqos(m_arqos), .s_axi_arvalid(m_arvalid), .s_axi_arready(m_arready),
    .s_axi_rid(m_rid), .s_axi_rdata(m_rdata), .s_axi_rresp(m_rresp), .s_axi_rlast(m_rlast),
    .s_axi_rvalid(m_rvalid), .s_axi_rready(m_rready),
    .init_calib_complete(calibrated), .device_temp()
  );

  // ---- reset: the calibration flag crosses into clk's domain through two
  // flip-flops (arty_ddr3.xdc cuts the path into the first), then holds
  // the SoC in reset with the button and the MMCM (fpga/common/board_reset.v).
  (* ASYNC_REG = "TRUE" *) reg [1:0] calib_sync = 2'b00;
  always @(posedge clk) calib_sync <= {calib_sync[0], calibrated};
  wire reset;
  board_reset board_reset (.clk(clk), .reset_in(~ck_rst | ~locked | ~calib_sync[1]), .reset(reset));

  // ---- the SoC (clk domain) and the clock converter to the MIG
  wire [3:0]  s_awid, s_bid, s_arid, s_rid;
  wire [31:0] s_awaddr, s_araddr;
  wire [7:0]  s_awlen, s_arlen;
  wire [2:0]  s_awsize, s_arsize, s_awprot, s_arprot;
  wire [1:0]  s_awburst, s_arburst, s_bresp, s_rresp;
  wire        s_awlock, s_arlock;
  wire [3:0]  s_awcache, s_arcache, s_awqos, s_arqos;
  wire [63:0] s_wdata, s_rdata;
  wire [7:0]  s_wstrb;
  wire s_awvalid, s_awready, s_wlast, s_wvalid, s_wready, s_bvalid, s_bready;
  wire s_arvalid, s_arready, s_rlast, s_rvalid, s_rready;

  wire done, passed;
  wire [15:0] code;
  FpgaTop soc (
    .clock(clk), .reset(reset),
    .uart_tx(uart_rxd_out), .uart_rx(uart_txd_in),
    .status_done(done), .status_passed(passed), .status_code(code),
    .jtag_tck(jtag_tck), .jtag_tms(jtag_tms), .jtag_tdi(jtag_tdi), .jtag_tdo(jtag_tdo),
    .mem_aw_ready(s_awready), .mem_aw_valid(s_awvalid), .mem_aw_bits_id(s_awid),
    .mem_aw_bits_addr(s_awaddr), .mem_aw_bits_len(s_awlen), .mem_aw_bits_size(s_awsize),
    .mem_aw_bits_burst(s_awburst), .mem_aw_bits_lock(s_awlock), .mem_aw_bits_cache(s_awcache),
    .mem_aw_bits_prot(s_awprot), .mem_aw_bits_qos(s_awqos),
    .mem_w_ready(s_wready), .mem_w_valid(s_wvalid), .mem_w_bits_data(s_wdata),
    .mem_w_bits_strb(s_wstrb), .mem_w_bits_last(s_wlast),
    .mem_b_ready(s_bready), .mem_b_valid(s_bvalid), .mem_b_bits_id(s_bid), .mem_b_bits_resp(s_bresp),
    .mem_ar_ready(s_arready), .mem_ar_valid(s_arvalid), .mem_ar_bits_id(s_arid),
    .mem_ar_bits_addr(s_araddr), .mem_ar_bits_len(s_arlen), .mem_ar_bits_size(s_arsize),
    .mem_ar_bits_burst(s_arburst), .mem_ar_bits_lock(s_arlock), .mem_ar_bits_cache(s_arcache),
    .mem_ar_bits_prot(s_arprot), .mem_ar_bits_qos(s_arqos),
    .mem_r_ready(s_rready), .mem_r_valid(s_rvalid), .mem_r_bits_id(s_rid), .mem_r_bits_data(s_rdata),
    .mem_r_bits_resp(s_rresp), .mem_r_bits_last(s_rlast)
  );

  // Addresses: the SoC's 0x8000_0000 + 256 MiB is the MIG's 0 + 256 MiB.
  arty_mem_cdc cdc (
    .s_axi_aclk(clk), .s_axi_aresetn(~reset),
    .s_axi_awid(s_awid), .s_axi_awaddr(s_awaddr[27:0]), .s_axi_awlen(s_awlen), .s_axi_awsize(s_awsize),
    .s_axi_awburst(s_awburst), .s_axi_awlock(s_awlock), .s_axi_awcache(s_awcache), .s_axi_awprot(s_awprot),
    .s_axi_awregion(4'd0), .s_axi_awqos(s_awqos), .s_axi_awvalid(s_awvalid), .s_axi_awready(s_awready),
    .s_axi_wdata(s_wdata), .s_axi_wstrb(s_wstrb), .s_axi_wlast(s_wlast), .s_axi_wvalid(s_wvalid),
    .s_axi_wready(s_wready),
    .s_axi_bid(s_bid), .s_axi_bresp(s_bresp), .s_axi_bvalid(s_bvalid), .s_axi_bready(s_bready),
    .s_axi_arid(s_arid), .s_axi_araddr(s_araddr[27:0]), .s_axi_arlen(s_arlen), .s_axi_arsize(s_arsize),
    .s_axi_arburst(s_arburst), .s_axi_arlock(s_arlock), .s_axi_arcache(s_arcache), .s_axi_arprot(s_arprot),
    .s_axi_arregion(4'd0), .s_axi_arqos(s_arqos), .s_axi_arvalid(s_arvalid), .s_axi_arready(s_arready),
    .s_axi_rid(s_rid), .s_axi_rdata(s_rdata), .s_axi_rresp(s_rresp), .s_axi_rlast(s_rlast),
    .s_axi_rvalid(s_rvalid), .s_axi_rready(s_rready),
    .m_axi_aclk(ui_clk), .m_axi_aresetn(ui_aresetn),
    .m_axi_awid(m_awid), .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen), .m_axi_awsize(m_awsize),
    .m_axi_awburst(m_awburst), .m_axi_awlock(m_awlock), .m_axi_awcache(m_awcache), .m_axi_awprot(m_awprot),
    .m_axi_awregion(), .m_axi_awqos(m_awqos), .m_axi_awvalid(m_awvalid), .m_axi_awready(m_awready),
    .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb), .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid),
    .m_axi_wready(m_wready),
    .m_axi_bid(m_bid), .m_axi_bresp(m_bresp), .m_axi_bvalid(m_bvalid), .m_axi_bready(m_bready),
    .m_axi_arid(m_arid), .m_axi_araddr(m_araddr), .m_axi_arlen(m_arlen), .m_axi_arsize(m_arsize),
    .m_axi_arburst(m_arburst), .m_axi_arlock(m_arlock), .m_axi_arcache(m_arcache), .m_axi_arprot(m_arprot),
    .m_axi_arregion(), .m_axi_arqos(m_arqos), .m_axi_arvalid(m_arvalid), .m_axi_arready(m_arready),
    .m_axi_rid(m_rid), .m_axi_rdata(m_rdata), .m_axi_rresp(m_rresp), .m_axi_rlast(m_rlast),
    .m_axi_rvalid(m_rvalid), .m_axi_rready(m_rready)
  );

  status_leds #(.BEAT_BIT(24)) status (.clk(clk), .reset(reset), .done(done), .passed(passed), .led(led[2:0]));
  assign led[3] = ~calib_sync[1];
endmodule
