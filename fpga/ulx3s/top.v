// ULX3S (LFE5U-85F) board top around FpgaTop (hw/boards/FpgaTop.scala, Ulx3sConfig):
// the 25 MHz oscillator through the PLL to the core clock (the config's
// frequency, 25 MHz today: a clean, locked clock), reset from
// FIRE1 synchronised and held until the PLL locks, the console on the FTDI
// serial lines, and the LEDs (docs/fpga.md, "ULX3S"):
//   led[0] heartbeat (about 1.5 Hz: the clock runs and the SoC is out of reset)
//   led[1] the program passed (the finisher's 0x5555)
//   led[2] the program failed; led[7:3] the low bits of its status
module ulx3s_top (
  input  wire       clk_25mhz,
  input  wire [6:0] btn,        // btn[1] FIRE1, pressed = 1
  output wire [7:0] led,
  output wire       ftdi_rxd,   // named from the FTDI chip: the FPGA's TX
  input  wire       ftdi_txd,   // the FPGA's RX
  output wire       wifi_gpio0  // high: keeps the ESP32 from resetting the FPGA
);
  assign wifi_gpio0 = 1'b1;

  // The core clock from the 25 MHz oscillator at the frequency Ulx3sConfig
  // was elaborated for: fpga/build.sh reads it from the SoC's device tree
  // and has fpga/ecp5_pll.py compute the dividers (as ecppll does) into
  // pll_params.vh, refusing a frequency the PLL cannot make exactly. Feedback
  // from CLKOP: CLKOP = 25 MHz / CLKI_DIV x CLKFB_DIV, with the VCO (CLKOP x
  // CLKOP_DIV) within 400-800 MHz.
`include "pll_params.vh"
  wire clk, locked;
  (* ICP_CURRENT = "12", LPF_RESISTOR = "8", MFG_ENABLE_FILTEROPAMP = "1", MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"), .DPHASE_SOURCE("DISABLED"),
    .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"), .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
    .CLKI_DIV(PLL_CLKI_DIV), .CLKFB_DIV(PLL_CLKFB_DIV), .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(PLL_CLKOP_DIV),
    .CLKOP_CPHASE(PLL_CLKOP_CPHASE), .CLKOP_FPHASE(0), .FEEDBK_PATH("CLKOP")
  ) pll (
    .RST(1'b0), .STDBY(1'b0), .CLKI(clk_25mhz), .CLKOP(clk), .CLKFB(clk), .CLKINTFB(),
    .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1),
    .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .LOCK(locked)
  );

  // Reset: held until the button is let go and the clock is locked
  // (fpga/common/board_reset.v).
  wire reset;
  board_reset board_reset (.clk(clk), .reset_in(btn[1] | ~locked), .reset(reset));

  wire done, passed;
  wire [15:0] code;
  FpgaTop soc (
    .clock(clk), .reset(reset),
    .uart_tx(ftdi_rxd), .uart_rx(ftdi_txd),
    .status_done(done), .status_passed(passed), .status_code(code)
  );

  reg [23:0] beat = 24'd0;
  always @(posedge clk) if (!reset) beat <= beat + 24'd1;
  assign led = {done && !passed ? code[4:0] : 5'd0, done && !passed, passed, beat[23]};
endmodule
