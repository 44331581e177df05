// A JTAG adapter for the simulated board: openocd's remote_bitbang
// protocol on a TCP socket on the loopback address, driving the board's
// TCK, TMS and TDI pins and reading TDO, as an adapter on the GPIO header
// would. Unlike rocket-chip's remote_bitbang_t it never blocks: the board
// runs on while no debugger is attached or the debugger is thinking, and a
// debugger that leaves can be followed by another.
#pragma once

#include <string>

class JtagBitbang {
 public:
  ~JtagBitbang();
  // Listens on 127.0.0.1:port (0: a free port) and tells stderr the port.
  // Returns an error message, or "".
  std::string listen(unsigned port);
  // The pins the adapter drives. TCK and TDI idle low, TMS high.
  bool tck = false, tms = true, tdi = false;
  // Once per JTAG step (a few core cycles apart, so that the TAP's clock
  // stays well below the core's): takes a waiting debugger, then carries
  // out at most one command against `tdo`, the board's TDO pin.
  void tick(bool tdo);

 private:
  void drop_peer();

  int listen_fd_ = -1, fd_ = -1;
  char buf_[4096];
  int have_ = 0, next_ = 0;
};
