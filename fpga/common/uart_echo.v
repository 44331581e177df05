// A serial port that sends back every byte it receives (8N1, BIT_CYCLES
// clock cycles a bit): the smoke tops' proof that the clock runs at the
// rate the host expects and that both serial lines are wired. `heard`
// pulses for a cycle when a byte has arrived (a broken stop bit included,
// which `framing` then flags), `last` holds it.
module uart_echo #(
  parameter integer BIT_CYCLES = 25
) (
  input  wire       clk,
  input  wire       reset,
  input  wire       rx,
  output reg        tx,
  output reg        heard,
  output reg  [7:0] last,
  output reg        framing
);
  localparam integer W = $clog2(BIT_CYCLES * 3 / 2 + 1);
  (* ASYNC_REG = "TRUE" *) reg [1:0] rx_sync = 2'b11;
  always @(posedge clk) rx_sync <= {rx_sync[0], rx};
  wire rx_s = rx_sync[1];

  // Receiver: from the start bit's falling edge, the first data bit is
  // sampled 1.5 bits later, then one a bit; the stop bit last.
  reg          rx_busy = 1'b0;
  reg  [3:0]   rx_bit = 4'd0;
  reg  [W-1:0] rx_wait = {W{1'b0}};
  reg  [7:0]   rx_shift = 8'd0;
  // Transmitter: start bit, 8 data bits LSB first, stop bit.
  reg          tx_busy = 1'b0;
  reg  [3:0]   tx_bit = 4'd0;
  reg  [W-1:0] tx_wait = {W{1'b0}};
  reg  [9:0]   tx_shift = 10'h3ff;

  always @(posedge clk) begin
    heard <= 1'b0;
    if (reset) begin
      rx_busy <= 1'b0;
      tx_busy <= 1'b0;
      tx <= 1'b1;
      last <= 8'd0;
      framing <= 1'b0;
    end else begin
      if (!rx_busy) begin
        if (!rx_s) begin
          rx_busy <= 1'b1;
          rx_bit <= 4'd0;
          rx_wait <= BIT_CYCLES * 3 / 2 - 1;
        end
      end else if (rx_wait != 0) begin
        rx_wait <= rx_wait - 1'b1;
      end else if (rx_bit != 4'd8) begin
        rx_shift <= {rx_s, rx_shift[7:1]};
        rx_bit <= rx_bit + 4'd1;
        rx_wait <= BIT_CYCLES - 1;
      end else begin
        rx_busy <= 1'b0;  // the stop bit's middle
        heard <= 1'b1;
        last <= rx_shift;
        framing <= !rx_s;
      end
      if (heard && !tx_busy) begin  // a byte that arrives while one goes out is dropped
        tx_busy <= 1'b1;
        tx_shift <= {1'b1, last, 1'b0};
        tx_bit <= 4'd0;
        tx_wait <= {W{1'b0}};
      end else if (tx_busy) begin
        if (tx_wait != 0) begin
          tx_wait <= tx_wait - 1'b1;
        end else if (tx_bit == 4'd10) begin
          tx_busy <= 1'b0;
        end else begin
          tx <= tx_shift[0];
          tx_shift <= {1'b1, tx_shift[9:1]};
          tx_bit <= tx_bit + 4'd1;
          tx_wait <= BIT_CYCLES - 1;
        end
      end
    end
  end
endmodule
