// The boards' reset: asserted at once when reset_in is (a button, a clock
// that lost its lock), released synchronously to clk 2^16 cycles after
// reset_in has gone away, so that a bouncing button or a settling clock
// resets the SoC once.
module board_reset (
  input  wire clk,
  input  wire reset_in,
  output reg  reset
);
  (* ASYNC_REG = "TRUE" *) reg [1:0] sync = 2'b11;
  reg [15:0] hold = 16'd0;
  initial reset = 1'b1;
  always @(posedge clk or posedge reset_in)
    if (reset_in) begin
      sync <= 2'b11;
      hold <= 16'd0;
      reset <= 1'b1;
    end else begin
      sync <= {sync[0], 1'b0};
      if (sync[1]) hold <= 16'd0;
      else if (~&hold) hold <= hold + 16'd1;
      reset <= ~&hold;
    end
endmodule
