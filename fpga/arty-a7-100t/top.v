// Arty A7-100T (xc7a100tcsg324-1) board top around FpgaTop
// (hw/boards/FpgaTop.scala, ArtyA7Config): the 100 MHz oscillator through an
// MMCM to the core clock (50 MHz), reset from the red RESET button (active low)
// synchronised and held until the MMCM locks, the console on the FT2232's
// serial lines, and the green LEDs (docs/fpga.md, "Arty A7-100T"):
//   led[0] heartbeat   led[1] the program passed   led[2] it failed
//   led[3] a received byte (the host is talking)
module arty_top (
  input  wire       CLK100MHZ,
  input  wire       ck_rst,        // pressed = 0
  output wire [3:0] led,
  output wire       uart_rxd_out,  // named from the FT2232: the FPGA's TX
  input  wire       uart_txd_in    // the FPGA's RX
);
  // 100 MHz -> the core clock: VCO 1,000 MHz, divided by MMCM_CORE_DIVIDE,
  // which fpga/build.sh computes from the clock the config was elaborated
  // for (20: 50 MHz).
  `include "mmcm_params.vh"
  wire clk_mmcm, clk, fb, fb_buf, locked;
  MMCME2_BASE #(
    .CLKIN1_PERIOD(10.0), .DIVCLK_DIVIDE(1), .CLKFBOUT_MULT_F(10.0), .CLKOUT0_DIVIDE_F(MMCM_CORE_DIVIDE),
    .BANDWIDTH("OPTIMIZED"), .STARTUP_WAIT("FALSE")
  ) mmcm (
    .CLKIN1(CLK100MHZ), .CLKFBIN(fb_buf), .CLKFBOUT(fb), .CLKOUT0(clk_mmcm), .LOCKED(locked),
    .RST(~ck_rst), .PWRDWN(1'b0),
    .CLKFBOUTB(), .CLKOUT0B(), .CLKOUT1(), .CLKOUT1B(), .CLKOUT2(), .CLKOUT2B(), .CLKOUT3(), .CLKOUT3B(),
    .CLKOUT4(), .CLKOUT5(), .CLKOUT6()
  );
  BUFG fb_bufg (.I(fb), .O(fb_buf));
  BUFG clk_bufg (.I(clk_mmcm), .O(clk));

  // Reset: held until the button is let go and the clock is locked
  // (fpga/common/board_reset.v).
  wire reset;
  board_reset board_reset (.clk(clk), .reset_in(~ck_rst | ~locked), .reset(reset));

  wire done, passed;
  wire [15:0] code;
  FpgaTop soc (
    .clock(clk), .reset(reset),
    .uart_tx(uart_rxd_out), .uart_rx(uart_txd_in),
    .status_done(done), .status_passed(passed), .status_code(code)
  );

  status_leds #(.BEAT_BIT(24)) status (.clk(clk), .reset(reset), .done(done), .passed(passed), .led(led[2:0]));
  reg [22:0] heard = 23'd0;  // stretched: about 0.17 s after each start bit
  always @(posedge clk) heard <= !uart_txd_in ? ~23'd0 : heard - (|heard);
  assign led[3] = |heard;
endmodule
