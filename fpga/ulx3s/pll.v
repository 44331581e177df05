// The ULX3S tops' clocks from the board's 25 MHz oscillator: CLKOP, the
// core clock, and CLKOS, the same frequency shifted (the SDRAM's clock pin
// takes it; the other tops leave it open), with the dividers fpga/build.sh
// has fpga/ecp5_pll.py compute (as ecppll does) for the clock the SoC was
// elaborated for, into pll_params.vh; it refuses a frequency the PLL cannot
// make exactly. Feedback from CLKOP: CLKOP = 25 MHz / CLKI_DIV x CLKFB_DIV,
// with the VCO (CLKOP x CLKOP_DIV) within 400-800 MHz.
module ulx3s_pll (
  input  wire clk_25mhz,
  output wire clk,
  output wire clk_shifted,
  output wire locked
);
`include "pll_params.vh"
  (* ICP_CURRENT = "12", LPF_RESISTOR = "8", MFG_ENABLE_FILTEROPAMP = "1", MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"), .DPHASE_SOURCE("DISABLED"),
    .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"), .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
    .CLKI_DIV(PLL_CLKI_DIV), .CLKFB_DIV(PLL_CLKFB_DIV), .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(PLL_CLKOP_DIV),
    .CLKOP_CPHASE(PLL_CLKOP_CPHASE), .CLKOP_FPHASE(0), .CLKOS_ENABLE("ENABLED"), .CLKOS_DIV(PLL_CLKOS_DIV),
    .CLKOS_CPHASE(PLL_CLKOS_CPHASE), .CLKOS_FPHASE(PLL_CLKOS_FPHASE), .FEEDBK_PATH("CLKOP")
  ) pll (
    .RST(1'b0), .STDBY(1'b0), .CLKI(clk_25mhz), .CLKOP(clk), .CLKOS(clk_shifted), .CLKFB(clk), .CLKINTFB(),
    .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1),
    .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .ENCLKOS(1'b0), .LOCK(locked)
  );
endmodule

// The ULX3S tops' clock and reset: ulx3s_pll's clocks, and a reset held
// until FIRE1 is let go and the PLL is locked (fpga/common/board_reset.v).
module ulx3s_clock_reset (
  input  wire clk_25mhz,
  input  wire button,      // btn[1] FIRE1, pressed = 1
  output wire clk,
  output wire clk_shifted,
  output wire reset
);
  wire locked;
  ulx3s_pll pll (.clk_25mhz(clk_25mhz), .clk(clk), .clk_shifted(clk_shifted), .locked(locked));
  board_reset board_reset (.clk(clk), .reset_in(button | ~locked), .reset(reset));
endmodule
