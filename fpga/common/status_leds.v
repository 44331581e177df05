// The boards' first three LEDs: led[0] a heartbeat (bit BEAT_BIT of a
// counter that runs while the SoC is out of reset: the clock runs), led[1]
// the program passed (the finisher's 0x5555), led[2] it failed.
module status_leds #(
  parameter integer BEAT_BIT = 23  // 2^24 cycles a blink: about 1.5 Hz at 25 MHz
) (
  input  wire       clk,
  input  wire       reset,
  input  wire       done,
  input  wire       passed,
  output wire [2:0] led
);
  reg [BEAT_BIT:0] beat = 0;
  always @(posedge clk) if (!reset) beat <= beat + 1'b1;
  assign led = {done && !passed, passed, beat[BEAT_BIT]};
endmodule
