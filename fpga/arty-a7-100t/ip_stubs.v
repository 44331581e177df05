// The ports of the two Xilinx IP cores that top_ddr3.v instantiates, as
// ip.tcl configures them, for tools that do not have the cores: yosys
// checks the top's wiring against them and leaves them out of its
// estimate (fpga/build.sh arty-a7-100t-ddr3). Vivado uses the generated
// cores instead. Port lists from the MIG 7-series AXI core of a "No Buffer"
// system clock with "Use System Clock" as reference (no clk_ref_i) and
// XADC enabled (device_temp), and from the AXI clock converter in AXI4.
(* blackbox *)
module arty_mig (
  inout  [15:0] ddr3_dq, inout [1:0] ddr3_dqs_p, inout [1:0] ddr3_dqs_n,
  output [13:0] ddr3_addr, output [2:0] ddr3_ba,
  output ddr3_ras_n, output ddr3_cas_n, output ddr3_we_n, output ddr3_reset_n,
  output [0:0] ddr3_ck_p, output [0:0] ddr3_ck_n, output [0:0] ddr3_cke, output [0:0] ddr3_cs_n,
  output [1:0] ddr3_dm, output [0:0] ddr3_odt,
  input  sys_clk_i, input sys_rst,
  output ui_clk, output ui_clk_sync_rst, output mmcm_locked, input aresetn,
  input  app_sr_req, input app_ref_req, input app_zq_req,
  output app_sr_active, output app_ref_ack, output app_zq_ack,
  input  [3:0] s_axi_awid, input [27:0] s_axi_awaddr, input [7:0] s_axi_awlen, input [2:0] s_axi_awsize,
  input  [1:0] s_axi_awburst, input [0:0] s_axi_awlock, input [3:0] s_axi_awcache, input [2:0] s_axi_awprot,
  input  [3:0] s_axi_awqos, input s_axi_awvalid, output s_axi_awready,
  input  [63:0] s_axi_wdata, input [7:0] s_axi_wstrb, input s_axi_wlast, input s_axi_wvalid, output s_axi_wready,
  output [3:0] s_axi_bid, output [1:0] s_axi_bresp, output s_axi_bvalid, input s_axi_bready,
  input  [3:0] s_axi_arid, input [27:0] s_axi_araddr, input [7:0] s_axi_arlen, input [2:0] s_axi_arsize,
  input  [1:0] s_axi_arburst, input [0:0] s_axi_arlock, input [3:0] s_axi_arcache, input [2:0] s_axi_arprot,
  input  [3:0] s_axi_arqos, input s_axi_arvalid, output s_axi_arready,
  output [3:0] s_axi_rid, output [63:0] s_axi_rdata, output [1:0] s_axi_rresp, output s_axi_rlast,
  output s_axi_rvalid, input s_axi_rready,
  output init_calib_complete, output [11:0] device_temp);
endmodule

(* blackbox *)
module arty_mem_cdc (
  input  s_axi_aclk, input s_axi_aresetn,
  input  [3:0] s_axi_awid, input [27:0] s_axi_awaddr, input [7:0] s_axi_awlen, input [2:0] s_axi_awsize,
  input  [1:0] s_axi_awburst, input [0:0] s_axi_awlock, input [3:0] s_axi_awcache, input [2:0] s_axi_awprot,
  input  [3:0] s_axi_awregion, input [3:0] s_axi_awqos, input s_axi_awvalid, output s_axi_awready,
  input  [63:0] s_axi_wdata, input [7:0] s_axi_wstrb, input s_axi_wlast, input s_axi_wvalid, output s_axi_wready,
  output [3:0] s_axi_bid, output [1:0] s_axi_bresp, output s_axi_bvalid, input s_axi_bready,
  input  [3:0] s_axi_arid, input [27:0] s_axi_araddr, input [7:0] s_axi_arlen, input [2:0] s_axi_arsize,
  input  [1:0] s_axi_arburst, input [0:0] s_axi_arlock, input [3:0] s_axi_arcache, input [2:0] s_axi_arprot,
  input  [3:0] s_axi_arregion, input [3:0] s_axi_arqos, input s_axi_arvalid, output s_axi_arready,
  output [3:0] s_axi_rid, output [63:0] s_axi_rdata, output [1:0] s_axi_rresp, output s_axi_rlast,
  output s_axi_rvalid, input s_axi_rready,
  input  m_axi_aclk, input m_axi_aresetn,
  output [3:0] m_axi_awid, output [27:0] m_axi_awaddr, output [7:0] m_axi_awlen, output [2:0] m_axi_awsize,
  output [1:0] m_axi_awburst, output [0:0] m_axi_awlock, output [3:0] m_axi_awcache, output [2:0] m_axi_awprot,
  output [3:0] m_axi_awregion, output [3:0] m_axi_awqos, output m_axi_awvalid, input m_axi_awready,
  output [63:0] m_axi_wdata, output [7:0] m_axi_wstrb, output m_axi_wlast, output m_axi_wvalid, input m_axi_wready,
  input  [3:0] m_axi_bid, input [1:0] m_axi_bresp, input m_axi_bvalid, output m_axi_bready,
  output [3:0] m_axi_arid, output [27:0] m_axi_araddr, output [7:0] m_axi_arlen, output [2:0] m_axi_arsize,
  output [1:0] m_axi_arburst, output [0:0] m_axi_arlock, output [3:0] m_axi_arcache, output [2:0] m_axi_arprot,
  output [3:0] m_axi_arregion, output [3:0] m_axi_arqos, output m_axi_arvalid, input m_axi_arready,
  input  [3:0] m_axi_rid, input [63:0] m_axi_rdata, input [1:0] m_axi_rresp, input m_axi_rlast,
  input  m_axi_rvalid, output m_axi_rready);
endmodule
