// ULX3S smoke top: the first bitstream to load on a new board (make fpga
// BOARD=ulx3s-smoke, a few minutes). The clock through the same PLL as the
// SoC's top (pll_params.vh, for 25 MHz), reset from FIRE1 held until the
// PLL locks (fpga/common/board_reset.v), the FTDI serial port echoing every
// byte at 1 Mbit/s (fpga/common/uart_echo.v), and the LEDs:
//   led[0] heartbeat (about 1.5 Hz)   led[1] out of reset, the PLL locked
//   led[7:2] the low six bits of the last byte received
// With it a person checks the clock, the reset button, both serial lines
// and the rate before any SoC: `python3 -m serial.tools.miniterm
// /dev/ttyUSB0 1000000` echoes what is typed.
module ulx3s_smoke #(
  parameter integer HEARTBEAT_BIT = 23  // 2^24 cycles a blink at 25 MHz
) (
  input  wire       clk_25mhz,
  input  wire [6:0] btn,        // btn[1] FIRE1, pressed = 1
  output wire [7:0] led,
  output wire       ftdi_rxd,   // named from the FTDI chip: the FPGA's TX
  input  wire       ftdi_txd,   // the FPGA's RX
  output wire       wifi_gpio0  // high: keeps the ESP32 from resetting the FPGA
);
  assign wifi_gpio0 = 1'b1;

  wire clk, reset;
  ulx3s_clock_reset clock_reset (.clk_25mhz(clk_25mhz), .button(btn[1]), .clk(clk), .clk_shifted(), .reset(reset));

  wire heard, framing;
  wire [7:0] last;
  uart_echo #(.BIT_CYCLES(25)) echo (
    .clk(clk), .reset(reset), .rx(ftdi_txd), .tx(ftdi_rxd), .heard(heard), .last(last), .framing(framing)
  );

  reg [HEARTBEAT_BIT:0] beat = 0;
  always @(posedge clk) if (!reset) beat <= beat + 1'b1;
  assign led = {last[5:0], !reset, beat[HEARTBEAT_BIT]};
endmodule
