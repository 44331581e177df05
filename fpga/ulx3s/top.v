// ULX3S (LFE5U-85F) board top around FpgaTop (hw/boards/FpgaTop.scala, Ulx3sConfig):
// the 25 MHz oscillator through the PLL to the 25 MHz core clock (a clean,
// locked clock; the divider is the place to raise it when timing allows), reset from
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

  // 25 MHz -> 25 MHz: VCO 600 MHz (ecppll -i 25 -o 25; CLKOP_DIV 12 and
  // CLKOP_CPHASE 5 give 50 MHz, with Ulx3sConfig's clock to match).
  wire clk, locked;
  (* FREQUENCY_PIN_CLKI = "25", FREQUENCY_PIN_CLKOP = "25", ICP_CURRENT = "12", LPF_RESISTOR = "8",
     MFG_ENABLE_FILTEROPAMP = "1", MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"), .DPHASE_SOURCE("DISABLED"),
    .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"), .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
    .CLKI_DIV(1), .CLKFB_DIV(1), .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(24), .CLKOP_CPHASE(11), .CLKOP_FPHASE(0),
    .FEEDBK_PATH("CLKOP")
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
