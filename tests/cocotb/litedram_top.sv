// The generated SDRAM controller (fpga/litedram/gen.py) on the SDRAM model
// (fpga/sim/sdr_sdram.sv), as the ULX3S has them: the chip's clock pin
// between the controller's edges (the board shifts it by 90 degrees; any
// phase strictly between edges is the same to a simulation without
// delays), DQ a bus both drive. `contention` goes high (and stays) on an
// edge where both drove a byte lane.
module litedram_top (
  input  wire        clk,
  input  wire        rst,
  input  wire [3:0]  awid, arid,
  input  wire [24:0] awaddr, araddr,
  input  wire [7:0]  awlen, arlen,
  input  wire [2:0]  awsize, arsize,
  input  wire [1:0]  awburst, arburst,
  input  wire        awvalid, arvalid,
  output wire        awready, arready,
  input  wire [63:0] wdata,
  input  wire [7:0]  wstrb,
  input  wire        wlast, wvalid,
  output wire        wready,
  output wire [3:0]  bid, rid,
  output wire [1:0]  bresp, rresp,
  output wire        bvalid, rvalid, rlast,
  input  wire        bready, rready,
  output wire [63:0] rdata,
  output wire        init_done,
  output wire [31:0] errors,
  output reg         contention
);
  wire [12:0] a;
  wire [1:0] ba, dm;
  wire cs_n, cke, ras_n, cas_n, we_n;
  wire [15:0] dq_o, dq_oe, dq;
  genvar i;
  for (i = 0; i < 16; i = i + 1) begin : lane
    assign dq[i] = dq_oe[i] ? dq_o[i] : 1'bz;
  end
  litedram_ulx3s ctrl (
    .sys_clk(clk), .sys_rst(rst), .init_done(init_done),
    .awid(awid), .awaddr(awaddr), .awlen(awlen), .awsize(awsize), .awburst(awburst), .awvalid(awvalid),
    .awready(awready), .wdata(wdata), .wstrb(wstrb), .wlast(wlast), .wvalid(wvalid), .wready(wready),
    .bid(bid), .bresp(bresp), .bvalid(bvalid), .bready(bready),
    .arid(arid), .araddr(araddr), .arlen(arlen), .arsize(arsize), .arburst(arburst), .arvalid(arvalid),
    .arready(arready), .rid(rid), .rdata(rdata), .rresp(rresp), .rlast(rlast), .rvalid(rvalid), .rready(rready),
    .sdram_a(a), .sdram_ba(ba), .sdram_cs_n(cs_n), .sdram_cke(cke), .sdram_ras_n(ras_n), .sdram_cas_n(cas_n),
    .sdram_we_n(we_n), .sdram_dm(dm), .dq_o(dq_o), .dq_oe(dq_oe), .dq_i(dq));
  sdr_sdram #(.CLK_PS(40000)) chip (
    .clk(~clk), .cke(cke), .cs_n(cs_n), .ras_n(ras_n), .cas_n(cas_n), .we_n(we_n), .ba(ba), .a(a), .dqm(dm),
    .dq(dq), .errors(errors), .initialised());
  initial contention = 0;
  always @(posedge clk) if (((dq_oe[7:0] != 0) && chip.drive[0]) || ((dq_oe[15:8] != 0) && chip.drive[1])) contention <= 1;
endmodule
