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

  // The core clock at the frequency Ulx3sConfig was elaborated for
  // (fpga/build.sh reads it from the SoC's device tree) and the reset
  // (fpga/ulx3s/pll.v).
  wire clk, reset;
  ulx3s_clock_reset clock_reset (.clk_25mhz(clk_25mhz), .button(btn[1]), .clk(clk), .clk_shifted(), .reset(reset));

  wire done, passed;
  wire [15:0] code;
  FpgaTop soc (
    .clock(clk), .reset(reset),
    .uart_tx(ftdi_rxd), .uart_rx(ftdi_txd),
    .status_done(done), .status_passed(passed), .status_code(code)
  );

  status_leds #(.BEAT_BIT(23)) status (.clk(clk), .reset(reset), .done(done), .passed(passed), .led(led[2:0]));
  assign led[7:3] = done && !passed ? code[4:0] : 5'd0;
endmodule
