// Simulation stand-ins for the ECP5 primitives the ULX3S top instantiates,
// for simulating the exact board top in Verilator (fpga/sim/build.sh).
// They model what a simulation without delays can see, and refuse what
// they cannot model.

// EHXPLLL: CLKOP (and CLKOS) at the input's frequency, the only case a
// simulation driven by the board's oscillator can make; any phase of CLKOS
// is "between the edges", which a simulation without delays cannot tell
// from 180 degrees. LOCK rises after 64 input cycles. Dividers that would
// make another frequency stop the simulation at time 0.
module EHXPLLL #(
  parameter PLLRST_ENA = "DISABLED", parameter INTFB_WAKE = "DISABLED", parameter STDBY_ENABLE = "DISABLED",
  parameter DPHASE_SOURCE = "DISABLED", parameter OUTDIVIDER_MUXA = "DIVA", parameter OUTDIVIDER_MUXB = "DIVB",
  parameter OUTDIVIDER_MUXC = "DIVC", parameter OUTDIVIDER_MUXD = "DIVD",
  parameter integer CLKI_DIV = 1, parameter integer CLKFB_DIV = 1,
  parameter CLKOP_ENABLE = "ENABLED", parameter integer CLKOP_DIV = 8, parameter integer CLKOP_CPHASE = 0,
  parameter integer CLKOP_FPHASE = 0,
  parameter CLKOS_ENABLE = "DISABLED", parameter integer CLKOS_DIV = 8, parameter integer CLKOS_CPHASE = 0,
  parameter integer CLKOS_FPHASE = 0,
  parameter FEEDBK_PATH = "CLKOP"
) (
  input  wire CLKI, input wire CLKFB, input wire RST, input wire STDBY, input wire PHASESEL0, input wire PHASESEL1,
  input  wire PHASEDIR, input wire PHASESTEP, input wire PHASELOADREG, input wire PLLWAKESYNC, input wire ENCLKOP,
  input  wire ENCLKOS,
  output wire CLKOP, output wire CLKOS, output wire CLKINTFB, output reg LOCK
);
  initial begin
    if (FEEDBK_PATH != "CLKOP" || CLKFB_DIV != CLKI_DIV)
      $fatal(1, "EHXPLLL stand-in: only CLKOP at the input's frequency (CLKFB_DIV == CLKI_DIV), not %0d/%0d",
             CLKFB_DIV, CLKI_DIV);
    if (CLKOS_ENABLE == "ENABLED" && CLKOS_DIV != CLKOP_DIV)
      $fatal(1, "EHXPLLL stand-in: CLKOS at CLKOP's frequency only");
    LOCK = 0;
  end
  assign CLKOP = CLKI;
  assign CLKOS = ~CLKI;
  assign CLKINTFB = 1'b0;
  reg [6:0] count = 0;
  always @(posedge CLKI) begin
    if (!count[6]) count <= count + 1;
    LOCK <= count[6];
  end
endmodule

// ODDRX1F: D0 out while SCLK is high, D1 while it is low (the SDRAM's clock
// pin, D0 = 1 and D1 = 0, is SCLK itself).
module ODDRX1F (input wire D0, input wire D1, input wire SCLK, input wire RST, output wire Q);
  assign Q = RST ? 1'b0 : (SCLK ? D0 : D1);
endmodule
