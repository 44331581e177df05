// Connects the SoC's serial pins (hw/devices/Uart.scala, the FPGA SoCs'
// console) to a TCP socket on the loopback address, bit by bit: what the
// SoC transmits is sampled in the middle of each bit and sent to the peer;
// what the peer sends is shifted into the SoC's receive pin, 8N1, a byte
// straight after the other. The peer is what sits on the other end of a
// board's USB serial cable: fpga/tools/uartboot.py, or `nc 127.0.0.1 PORT`.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

class UartBridge {
 public:
  // bit_cycles: clock cycles per bit, the UART's divisor at reset.
  explicit UartBridge(unsigned bit_cycles) : bit_cycles_(bit_cycles) {}
  ~UartBridge();
  // Listens on 127.0.0.1:port (0: a free port), tells stderr the port, and
  // waits for one peer. Returns an error message, or "".
  std::string listen_and_accept(unsigned port);
  // Without a peer, received bytes go to stdout and nothing is sent.
  bool connected() const { return fd_ >= 0; }
  // Once per cycle, after the rising edge: the SoC's TX pin; returns the
  // level to drive on its RX pin for the next cycle.
  bool tick(bool tx);
  // Sends what is still buffered and closes the connection.
  void close();
  // For a simulation that checkpoints (fpga/sim/board_main.cpp): record()
  // keeps every byte the SoC has sent; state() is the bridge between two
  // ticks with those bytes, and restore() takes it back (before or after
  // the peer connects), the recorded bytes queued for the new peer, so that
  // it hears the whole console of a run that was stopped and restored.
  // restore() returns "" or why the state cannot be taken.
  void record() { record_ = true; }
  std::string state() const;
  std::string restore(const std::string& state);

 private:
  void poll();
  void emit(uint8_t byte);

  unsigned bit_cycles_;
  int fd_ = -1;
  uint64_t cycle_ = 0;
  // Receiving from the SoC: 0 idle, else the bit being sampled (1 start,
  // 2..9 data, 10 stop) and the cycles left to its middle.
  unsigned rx_bit_ = 0, rx_wait_ = 0;
  uint8_t rx_byte_ = 0;
  std::string out_;
  bool record_ = false;
  std::string recorded_;
  // Sending to the SoC: the frame being shifted out, LSB first.
  std::deque<uint8_t> in_;
  uint16_t tx_frame_ = 0;
  unsigned tx_bits_ = 0, tx_wait_ = 0;
};
