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
// +checkpoint=FILE writes the whole run's state to FILE every
// +checkpoint-every=N cycles (default 25,000,000: a second of the board's
// time, some minutes of simulation), and +restore=FILE goes on from such a
// file in a later process, the console's peer hearing the console from the
// start again: a run of hours survives being stopped (Linux on the board,
// docs/fpga.md). What is saved: the model's every variable (Verilator
// --savable: the SoC, the controller, the chip's 32 MiB), the cycle and the
// serial bridge with what it has received. Not the JTAG adapter: no
// +jtag with +checkpoint, but a restored run may have a debugger (the
// adapter starts afresh, as openocd starts by resetting the TAP): a run
// that went wrong hours in can be looked into from its last checkpoint.
//
//   board-sim +uart=PORT [+uart-bit-cycles=N] [+max-cycles=N] [+jtag=PORT] [+load=ELF | +restore=FILE]
//             [+checkpoint=FILE [+checkpoint-every=N]]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "jtag_bitbang.h"
#include "sdram_preload.h"
#include "uart_bridge.h"
// The Verilated top and VTOP, its class (fpga/sim/build.sh writes vtop.h);
// SDRAM is defined if the top has the chip's error count.
#include "vtop.h"
#include "verilated.h"
#include "verilated_save.h"

namespace {
// Core cycles a JTAG step (half a TCK period at most): the TAP's clock
// crosses into the core's through synchronizers, which want it slow.
constexpr unsigned JTAG_CYCLES = 4;

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "board-sim: %s\nusage: board-sim +uart=PORT [+uart-bit-cycles=N] [+max-cycles=N] [+jtag=PORT] "
               "[+load=ELF | +restore=FILE] [+checkpoint=FILE [+checkpoint-every=N]]\n",
               why.c_str());
  std::exit(2);
}

unsigned long long number(const std::string& arg, const std::string& value) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(value.c_str(), &end, 0);
  if (value.empty() || *end) usage("'" + arg + "' wants a number");
  return v;
}

#ifdef BOARD_SIM_KEY  // a --savable build (fpga/sim/build.sh; not the gate-level one)
// A checkpoint file: this tag, the model it was made by (BOARD_SIM_KEY,
// the key of what Verilator read, from vtop.h), the cycle, the serial bridge's
// state, then Verilator's serialisation of the model (its own header and
// trailer). The cycle is the loop's: the state between two cycles, the
// clock low.
constexpr char kCheckpointTag[] = "board-sim checkpoint 1";

// Written beside `path` and renamed over it: a run killed while writing
// leaves the last whole checkpoint.
void save_checkpoint(const std::string& path, VTOP& top, unsigned long long cycle, const UartBridge& uart) {
  const std::string tmp = path + ".tmp";
  {
    VerilatedSave os;
    os.open(tmp);
    if (!os.isOpen()) {
      std::fprintf(stderr, "board-sim: +checkpoint: cannot write '%s'\n", tmp.c_str());
      std::exit(2);
    }
    os << std::string(kCheckpointTag) << std::string(BOARD_SIM_KEY) << (uint64_t)cycle << uart.state();
    os << top;
    os.close();
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "board-sim: +checkpoint: cannot rename '%s' to '%s'\n", tmp.c_str(), path.c_str());
    std::exit(2);
  }
  std::fprintf(stderr, "[board] checkpoint at cycle %llu: %s\n", cycle, path.c_str());
}

// Why the file at `path` is not one of this model's checkpoints, or "".
// Read before Verilator's restore, which ends the process on a file it
// cannot take: its own header, then the tag and the model's key, each a
// length and its bytes.
std::string not_a_checkpoint(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "no file '" + path + "'";
  auto string_of = [&](size_t most) {
    uint32_t len = 0;
    if (!f.read(reinterpret_cast<char*>(&len), sizeof len) || len > most) return std::string("\1");
    std::string v(len, '\0');
    return f.read(&v[0], len) ? v : std::string("\1");
  };
  // Verilator's header ("verilatorsave" and a version, a line of 16 bytes)
  std::string header(16, '\0');
  if (!f.read(&header[0], (std::streamsize)header.size()) || header.rfind("verilatorsave", 0) != 0 ||
      header.back() != '\n' || string_of(64) != kCheckpointTag)
    return "'" + path + "' is not a board-sim checkpoint";
  const std::string key = string_of(64);
  if (key != BOARD_SIM_KEY) return "'" + path + "' was made by another model (" + key + ", this is " BOARD_SIM_KEY ")";
  return "";
}

// Returns the cycle the checkpoint was taken at; a file that is not one of
// this model's checkpoints ends the run with exit 2 and why.
unsigned long long restore_checkpoint(const std::string& path, VTOP& top, UartBridge& uart) {
  std::string why = not_a_checkpoint(path);
  if (!why.empty()) usage("+restore: " + why);
  VerilatedRestore is;
  is.open(path);
  if (!is.isOpen()) usage("+restore: cannot read '" + path + "'");
  std::string tag, key, bridge;
  uint64_t cycle = 0;
  is >> tag >> key >> cycle >> bridge;
  why = uart.restore(bridge);
  if (!why.empty()) usage("+restore: '" + path + "': " + why);
  is >> top;
  is.close();
  return cycle;
}
#else
void save_checkpoint(const std::string&, VTOP&, unsigned long long, const UartBridge&) {}
unsigned long long restore_checkpoint(const std::string&, VTOP&, UartBridge&) { return 0; }
#endif
}  // namespace

int main(int argc, char** argv) {
  long port = -1, jtag_port = -1;
  std::string load, checkpoint, restore;
  unsigned bit_cycles = 25;  // the ULX3S console: 25 MHz, 1 Mbit/s
  unsigned long long max_cycles = 100000000, checkpoint_every = 25000000;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto eq = a.find('=');
    std::string key = a.substr(0, eq), value = eq == std::string::npos ? "" : a.substr(eq + 1);
    if (key == "+uart") port = (long)number(a, value);
    else if (key == "+uart-bit-cycles") bit_cycles = (unsigned)number(a, value);
    else if (key == "+max-cycles") max_cycles = number(a, value);
    else if (key == "+jtag") jtag_port = (long)number(a, value);
    else if (key == "+load" && !value.empty()) load = value;
    else if (key == "+checkpoint" && !value.empty()) checkpoint = value;
    else if (key == "+checkpoint-every") checkpoint_every = number(a, value);
    else if (key == "+restore" && !value.empty()) restore = value;
    else if (a == "+sdram-trace") continue;  // the chip's model reads it (every command it takes)
    else usage("unknown argument '" + a + "'");
  }
  if (port < 0 || port > 65535) usage("+uart=PORT is required (0: a free port)");
  if (bit_cycles < 4) usage("+uart-bit-cycles wants 4 or more");
  if (jtag_port > 65535) usage("+jtag=PORT: a TCP port (0: a free port)");
#ifndef JTAG
  if (jtag_port >= 0) usage("+jtag: this board top has no JTAG port (only the SDRAM board's has)");
#endif
  if (!load.empty() && !restore.empty()) usage("+load and +restore: a restored run has its program in memory already");
  if (jtag_port >= 0 && !checkpoint.empty())
    usage("+jtag with +checkpoint: the JTAG adapter's state is not saved");
  if (checkpoint_every == 0) usage("+checkpoint-every wants 1 or more cycles");
#ifndef BOARD_SIM_KEY
  if (!(checkpoint.empty() && restore.empty()))
    usage("+checkpoint and +restore: this model is not built to save its state (fpga/sim/build.sh's is)");
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
  if (!checkpoint.empty()) uart.record();
  unsigned long long cycle = 0;
  if (!restore.empty()) cycle = restore_checkpoint(restore, *top, uart);
  const unsigned long long first_cycle = cycle;  // not saved again
  err = uart.listen_and_accept((unsigned)port);
  if (!err.empty()) {
    std::fprintf(stderr, "board-sim: %s\n", err.c_str());
    return 2;
  }
  if (!restore.empty()) std::fprintf(stderr, "[board] restored at cycle %llu from %s\n", cycle, restore.c_str());
#ifdef JTAG
  auto drive_jtag = [&] {
    top->jtag_tck = jtag.tck;
    top->jtag_tms = jtag.tms;
    top->jtag_tdi = jtag.tdi;
  };
#endif
  if (restore.empty()) {  // else the inputs are as they were saved
    top->btn = 0;
    top->ftdi_txd = 1;  // the line idles high
    top->clk_25mhz = 0;
#ifdef JTAG
    drive_jtag();
#endif
    top->eval();
  }
  int status = 3;
  for (; cycle < max_cycles; cycle++) {
    if (!checkpoint.empty() && cycle % checkpoint_every == 0 && cycle != first_cycle)
      save_checkpoint(checkpoint, *top, cycle, uart);
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
