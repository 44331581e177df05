// The exact ULX3S board top (fpga/ulx3s/top.v, or top_sdram.v with the
// SDRAM chip's model on the board's wires: ulx3s_sdram_board.sv; FpgaTop,
// the PLL and the reset logic as they go into the bitstream; ECP5
// primitives by the stand-ins of ecp5_stubs.v) in Verilator, driven only
// through the board's pins: the
// 25 MHz oscillator, the buttons (never pressed), the FTDI serial lines
// (bridged to a TCP socket as the SoC models' +uart is: sim/uart_bridge.h,
// for fpga/tools/uartboot.py) and the LEDs, which decide the exit status as
// a person would read them: led[1] lit, the program passed (exit 0);
// led[2] lit, it failed (exit 64 + the five bits of its status led[7:3]
// shows); neither after +max-cycles, exit 3 (a timeout). With the SDRAM,
// a breach of the chip's rules (its model counts them) ends the run at
// once, exit 5. A top with the debug module's JTAG port (JTAG defined) can
// have a debugger on it: +jtag=PORT puts openocd's remote bitbang adapter
// on those pins (jtag_bitbang.h; a JTAG step every JTAG_CYCLES cycles).
// +load=ELF (the SDRAM board) starts the run with the program already in
// the chip, where the controller would have put it: what the boot ROM's
// loader would have written over the wire (`uartboot.py --preloaded` then
// only starts it), for programs too large to load at 1 Mbit/s in a
// simulation (Linux: 3.5 MB, some 900 M cycles of serial line).
//
//   board-sim +uart=PORT [+uart-bit-cycles=N] [+max-cycles=N] [+jtag=PORT] [+load=ELF]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "jtag_bitbang.h"
#include "sdram_preload.h"
#include "uart_bridge.h"
// The Verilated top and VTOP, its class (fpga/sim/build.sh writes vtop.h);
// SDRAM is defined if the top has the chip's error count.
#include "vtop.h"
#include "verilated.h"

namespace {
// Core cycles a JTAG step (half a TCK period at most): the TAP's clock
// crosses into the core's through synchronizers, which want it slow.
constexpr unsigned JTAG_CYCLES = 4;

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "board-sim: %s\nusage: board-sim +uart=PORT [+uart-bit-cycles=N] [+max-cycles=N] [+jtag=PORT] "
               "[+load=ELF]\n",
               why.c_str());
  std::exit(2);
}

unsigned long long number(const std::string& arg, const std::string& value) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(value.c_str(), &end, 0);
  if (value.empty() || *end) usage("'" + arg + "' wants a number");
  return v;
}
}  // namespace

int main(int argc, char** argv) {
  long port = -1, jtag_port = -1;
  std::string load;
  unsigned bit_cycles = 25;  // the ULX3S console: 25 MHz, 1 Mbit/s
  unsigned long long max_cycles = 100000000;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto eq = a.find('=');
    std::string key = a.substr(0, eq), value = eq == std::string::npos ? "" : a.substr(eq + 1);
    if (key == "+uart") port = (long)number(a, value);
    else if (key == "+uart-bit-cycles") bit_cycles = (unsigned)number(a, value);
    else if (key == "+max-cycles") max_cycles = number(a, value);
    else if (key == "+jtag") jtag_port = (long)number(a, value);
    else if (key == "+load" && !value.empty()) load = value;
    else if (a == "+sdram-trace") continue;  // the chip's model reads it (every command it takes)
    else usage("unknown argument '" + a + "'");
  }
  if (port < 0 || port > 65535) usage("+uart=PORT is required (0: a free port)");
  if (bit_cycles < 4) usage("+uart-bit-cycles wants 4 or more");
  if (jtag_port > 65535) usage("+jtag=PORT: a TCP port (0: a free port)");
#ifndef JTAG
  if (jtag_port >= 0) usage("+jtag: this board top has no JTAG port (only the SDRAM board's has)");
#endif
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);  // the SDRAM model reads +sdram-trace
  auto top = std::make_unique<VTOP>(ctx.get());
  if (!load.empty()) {
#ifdef SDRAM
    std::string why = sdram_preload_elf(load);
    if (!why.empty()) {
      std::fprintf(stderr, "board-sim: +load: %s\n", why.c_str());
      return 2;
    }
#else
    usage("+load: this board top has no SDRAM to start with a program in (only the SDRAM board's has)");
#endif
  }
  JtagBitbang jtag;
  std::string err = jtag_port >= 0 ? jtag.listen((unsigned)jtag_port) : "";
  if (!err.empty()) {
    std::fprintf(stderr, "board-sim: %s\n", err.c_str());
    return 2;
  }
  UartBridge uart(bit_cycles);
  err = uart.listen_and_accept((unsigned)port);
  if (!err.empty()) {
    std::fprintf(stderr, "board-sim: %s\n", err.c_str());
    return 2;
  }
  top->btn = 0;
  top->ftdi_txd = 1;  // the line idles high
  top->clk_25mhz = 0;
#ifdef JTAG
  auto drive_jtag = [&] {
    top->jtag_tck = jtag.tck;
    top->jtag_tms = jtag.tms;
    top->jtag_tdi = jtag.tdi;
  };
  drive_jtag();
#endif
  top->eval();
  int status = 3;
  unsigned long long cycle = 0;
  for (; cycle < max_cycles; cycle++) {
    top->clk_25mhz = 1;
    top->eval();
    top->ftdi_txd = uart.tick(top->ftdi_rxd);
    top->clk_25mhz = 0;
#ifdef JTAG
    if (jtag_port >= 0 && cycle % JTAG_CYCLES == 0) {
      jtag.tick(top->jtag_tdo);
      drive_jtag();
    }
#endif
    top->eval();
    if (top->led & 0x2) { status = 0; break; }
    if (top->led & 0x4) { status = 64 + ((top->led >> 3) & 31); break; }
#ifdef SDRAM
    if (top->sdram_errors) { status = 5; break; }
#endif
  }
  uart.close();
  top->final();
  if (status == 0) std::fprintf(stderr, "[board] led[1]: passed after %llu cycles\n", cycle);
  else if (status >= 64) std::fprintf(stderr, "[board] led[2]: failed, led[7:3] = %d, after %llu cycles\n",
                                      status - 64, cycle);
  else if (status == 5) std::fprintf(stderr, "[board] the SDRAM chip's model counted a breach (above) at cycle %llu\n", cycle);
  else std::fprintf(stderr, "[board] timeout: no LED said passed or failed after %llu cycles\n", cycle);
  return status;
}
