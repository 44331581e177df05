// Verilator harness for SimTop: loads an ELF into DRAM before reset, runs all
// harts, forwards the console, and exits with the program's status.
//
//   sim [+max-cycles=N] [+mem-latency=N] [+mem-jitter=J [+seed=N] [+snapshot-seed=N | +fork-seeds=N,N...
//       [+fork-logs=DIR] [+fork-jobs=N]]] [+waves=FILE.fst [+waves-from=C] [+waves-to=C]] [+quiet]
//       [+timestamps] [+trace-axi] [+verbose] [+no-scoreboard | +scoreboard-only] [+mutant=NAME]
//       [+uart=PORT [+uart-bit-cycles=N]] PROGRAM.elf
//
// Models built with the scoreboard (checked and debug flavours) run it on
// every cycle (sim/scoreboard.h, docs/scoreboard.md): a violation makes a
// passing program exit 71 (a failing one keeps its status).
// +scoreboard-only ignores the program's own verdict, so that the exit
// status is the scoreboard's alone (0 or 71); +no-scoreboard turns it off.
// +mutant=NAME turns on one of the debug knobs that break a rule on purpose
// (hw/devices/Mutants.scala; the same models only).
//
// The FPGA SoCs' models (flavour uart) have a real serial port for a
// console: +uart=PORT connects its pins to a TCP peer on 127.0.0.1:PORT (0
// picks a free port; the harness says which on stderr and waits for the peer
// before the first cycle), at +uart-bit-cycles clock cycles a bit (5, the
// port's reset divisor); without +uart, what it sends goes to stdout. Their
// boot ROM loads the program over that port (fpga/tools/uartboot.py), so
// PROGRAM may be left out.
//
// +mem-jitter=J adds a number of cycles in [0, J] to each DRAM access's
// latency, drawn from a generator seeded by +seed=N (default 1): the same
// seed repeats a run exactly, different seeds perturb it (sim/axi_mem.h).
//
// Snapshots: the guest writes the finisher's snapshot command (0x5a5a; QEMU
// ignores it) at a point of its choosing, say after boot and set-up. With
// +snapshot-seed=N the memory is exact until there and jittered from there
// on, seeded with N; with +seed=B as well, the boot before it is jittered
// too, seeded with B, so that runs of different B boot differently (a
// kernel's state at the snapshot, its random pool and what it allocated
// where, then differs from boot to boot). With +fork-seeds=N1,N2,... the harness forks one
// child a seed there, at most
// +fork-jobs (2) at a time: each child is the whole simulation (model,
// memory, scoreboard) copied on write, its memory jittered from there with its seed; it runs on
// with its console in DIR/seed-N.out and the rest in DIR/seed-N.err
// (+fork-logs, default "."), exactly as a run with +snapshot-seed=N would
// (tests/system/test_harness.py checks it), so N samples share one boot, as
// XiangShan's LightSSS shares its snapshots. The parent prints each child's
// status and exits with the first non-zero one (0 if all passed). Forking
// refuses +waves and +uart: a waveform file or a connection cannot be split.
//
// +timestamps prefixes console lines with the cycle and, per hart, the
// harness's counts so far (sim/hart_counters.h): machine software interrupts
// (IPIs) raised, cycles in M-mode, cycles its flush agent held the core and
// cycles its page-table walker was busy:
// "[  cycle msip 3 5 mmode 1200 900 held 40 41 walk 700 650] ".
//
// Exit status: the program's (test finisher), 124 on +max-cycles, 64 for bad
// usage, 65 for a bad ELF, 70 for an internal error (AXI protocol), 71 for
// a scoreboard violation, 72 for an access or walk the scoreboard could not
// trace (a run it cannot check is no pass; docs/scoreboard.md).
//
// +scoreboard-disconnect=PROBE (a test aid) drops one probe's events before
// the scoreboard sees them, to show that the scoreboard then fails the run.
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "VSimTop.h"
#include "axi_mem.h"
#include "elf_loader.h"
#include "finisher.h"
#include "hart_counters.h"
#include "mutants.h"
#include "rtl_globals.h"
#include "scoreboard.h"
#include "uart_bridge.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

namespace {

constexpr uint64_t kDramBase = 0x80000000ull;
constexpr uint64_t kDramSize = 0x10000000ull;  // matches WithDefaultMemPort
constexpr int kResetCycles = 16;
constexpr uint32_t kSnapshot = FINISHER_SNAPSHOT;  // the finisher command that marks the snapshot point
constexpr int kExitTimeout = 124, kExitUsage = 64, kExitBadElf = 65, kExitInternal = 70, kExitScoreboard = 71,
              kExitUntraced = 72;
#ifdef SCOREBOARD
constexpr bool kHaveScoreboard = true;
#else
constexpr bool kHaveScoreboard = false;
#endif

struct Options {
  std::string program;
  uint64_t max_cycles = 0;  // 0: no limit
  unsigned mem_latency = 20;
  unsigned mem_jitter = 0;  // cycles added to an access's latency, at most
  uint64_t seed = 1;        // of the jitter's generator (until the snapshot, if one reseeds it)
  bool seed_given = false;
  uint64_t snapshot_seed = 0;  // seeds the jitter, which starts at the snapshot command
  bool snapshot_seed_given = false;
  std::vector<uint64_t> fork_seeds;  // a child a seed at the snapshot command
  std::string fork_logs = ".";
  unsigned fork_jobs = 2;
  std::string waves;
  uint64_t waves_from = 0, waves_to = UINT64_MAX;
  bool quiet = false;
  bool timestamps = false;  // prefix console lines with the cycle count
  bool trace_axi = false;   // log every DRAM address handshake to stderr
  bool verbose = false;     // RTL printfs (debug models: commit trace, assertion text)
  bool scoreboard = kHaveScoreboard;
  bool scoreboard_only = false;  // the exit status is the scoreboard's verdict alone
  std::string mutant;            // the debug knob to turn on (hw/devices/Mutants.scala)
  std::string disconnect;        // a scoreboard probe to drop (test aid)
  int uart_port = -1;            // the serial port's TCP peer (-1: none)
  unsigned uart_bit_cycles = 5;
};

const char* kUsage =
    "usage: sim [+max-cycles=N] [+mem-latency=N] [+mem-jitter=J [+seed=N] [+snapshot-seed=N | "
    "+fork-seeds=N,N... [+fork-logs=DIR] [+fork-jobs=N]]] [+waves=FILE.fst [+waves-from=C] [+waves-to=C]] [+quiet] "
    "[+timestamps] [+trace-axi] [+verbose] [+no-scoreboard | +scoreboard-only] [+mutant=NAME] "
    "[+scoreboard-disconnect=PROBE] "
    "[+uart=PORT [+uart-bit-cycles=N]] PROGRAM.elf";

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "sim: %s\n%s\n", msg.c_str(), kUsage);
  std::exit(kExitUsage);
}

uint64_t parse_number(const std::string& key, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(value.c_str(), &end, 0);
  if (value.empty() || *end != '\0' || errno != 0 || value[0] == '-')
    usage_error("+" + key + " wants a non-negative number, not '" + value + "'");
  return v;
}

std::vector<uint64_t> parse_seeds(const std::string& key, const std::string& value) {
  std::vector<uint64_t> seeds;
  size_t from = 0;
  for (;;) {
    const size_t comma = value.find(',', from);
    seeds.push_back(parse_number(key, value.substr(from, comma - from)));
    if (comma == std::string::npos) return seeds;
    from = comma + 1;
  }
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg[0] != '+') {
      if (!o.program.empty()) usage_error("more than one program given ('" + o.program + "', '" + arg + "')");
      o.program = arg;
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "max-cycles") o.max_cycles = parse_number(key, value);
    else if (key == "mem-latency") o.mem_latency = (unsigned)parse_number(key, value);
    else if (key == "mem-jitter") o.mem_jitter = (unsigned)parse_number(key, value);
    else if (key == "seed") o.seed = parse_number(key, value), o.seed_given = true;
    else if (key == "snapshot-seed") o.snapshot_seed = parse_number(key, value), o.snapshot_seed_given = true;
    else if (key == "fork-seeds") o.fork_seeds = parse_seeds(key, value);
    else if (key == "fork-logs" && !value.empty()) o.fork_logs = value;
    else if (key == "fork-jobs") o.fork_jobs = (unsigned)parse_number(key, value);
    else if (key == "waves") o.waves = value;
    else if (key == "waves-from") o.waves_from = parse_number(key, value);
    else if (key == "waves-to") o.waves_to = parse_number(key, value);
    else if (key == "quiet") o.quiet = true;
    else if (key == "timestamps") o.timestamps = true;
    else if (key == "trace-axi") o.trace_axi = true;
    else if (key == "verbose") o.verbose = true;
    else if (key == "no-scoreboard") o.scoreboard = false;
    else if (key == "scoreboard-only") o.scoreboard_only = true;
    else if (key == "mutant" && !value.empty()) o.mutant = value;
    else if (key == "scoreboard-disconnect" && !value.empty()) o.disconnect = value;
    else if (key == "uart") o.uart_port = (int)parse_number(key, value);
    else if (key == "uart-bit-cycles") o.uart_bit_cycles = (unsigned)parse_number(key, value);
    else usage_error("unknown option '" + arg + "'");
  }
  if (o.program.empty() && o.uart_port < 0) usage_error("no program given (and no +uart to load one through)");
  if (o.mem_latency > 100000 || o.mem_jitter > 100000)
    usage_error("+mem-latency and +mem-jitter want at most 100000 cycles");
  if ((o.seed_given || o.snapshot_seed_given || !o.fork_seeds.empty()) && o.mem_jitter == 0)
    usage_error("+seed, +snapshot-seed and +fork-seeds perturb nothing without +mem-jitter=J (J > 0)");
  if (o.snapshot_seed_given && !o.fork_seeds.empty())
    usage_error("+snapshot-seed and +fork-seeds each seed the jitter from the snapshot on: give one");
  if (!o.fork_seeds.empty() && (!o.waves.empty() || o.uart_port >= 0))
    usage_error("+fork-seeds cannot split a waveform file or a serial connection between children: "
                "run without +waves and +uart");
  if (o.fork_jobs < 1 || o.fork_jobs > 64) usage_error("+fork-jobs wants 1-64");
  if (o.uart_port > 65535) usage_error("+uart wants a TCP port, 0-65535");
  if (o.uart_bit_cycles < 4 || o.uart_bit_cycles > 65535) usage_error("+uart-bit-cycles wants 4-65535");
  if (o.waves.empty() && (o.waves_from != 0 || o.waves_to != UINT64_MAX))
    usage_error("+waves-from/+waves-to need +waves=FILE.fst");
  if (o.waves_from > o.waves_to) usage_error("+waves-from is after +waves-to");
  if (!o.disconnect.empty() && !o.scoreboard)
    usage_error("+scoreboard-disconnect needs the scoreboard (a checked or debug model, without +no-scoreboard)");
  if (o.scoreboard_only && !o.scoreboard)
    usage_error(kHaveScoreboard ? "+scoreboard-only and +no-scoreboard contradict each other"
                                : "+scoreboard-only needs a model with the scoreboard (flavour checked or debug; the uart, board and base models have none)");
#if !VM_TRACE
  if (!o.waves.empty()) usage_error("this model was built without waveform support; use 'make run WAVES=1'");
#endif
  return o;
}

AxiMasterOut sample(const VSimTop& t) {
  AxiMasterOut m{};
  m.aw_valid = t.mem_aw_valid;
  m.aw = {t.mem_aw_bits_id, t.mem_aw_bits_addr, t.mem_aw_bits_len, t.mem_aw_bits_size, t.mem_aw_bits_burst};
  m.w_valid = t.mem_w_valid;
  m.w_data = t.mem_w_bits_data;
  m.w_strb = t.mem_w_bits_strb;
  m.w_last = t.mem_w_bits_last;
  m.b_ready = t.mem_b_ready;
  m.ar_valid = t.mem_ar_valid;
  m.ar = {t.mem_ar_bits_id, t.mem_ar_bits_addr, t.mem_ar_bits_len, t.mem_ar_bits_size, t.mem_ar_bits_burst};
  m.r_ready = t.mem_r_ready;
  return m;
}

void drive(VSimTop& t, const AxiSlaveOut& s) {
  t.mem_aw_ready = s.aw_ready;
  t.mem_w_ready = s.w_ready;
  t.mem_b_valid = s.b_valid;
  t.mem_b_bits_id = s.b_id;
  t.mem_b_bits_resp = s.b_resp;
  t.mem_ar_ready = s.ar_ready;
  t.mem_r_valid = s.r_valid;
  t.mem_r_bits_id = s.r_id;
  t.mem_r_bits_data = s.r_data;
  t.mem_r_bits_resp = s.r_resp;
  t.mem_r_bits_last = s.r_last;
}

// The finisher protocol of QEMU's sifive_test device.
bool decode_finish(uint32_t v, int* status, std::string* what) {
  switch (v & 0xffff) {
    case FINISHER_PASS: *status = 0; *what = "pass"; return true;
    case FINISHER_FAIL: *status = (int)(v >> 16); *what = "fail"; return true;
    case FINISHER_RESET: *status = 1; *what = "reset requested (unsupported)"; return true;
    default: return false;
  }
}

void trace_axi(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s) {
  if (m.ar_valid && s.ar_ready)
    std::fprintf(stderr, "[%10llu] AR id %u addr 0x%llx len %u size %u\n", (unsigned long long)cycle, m.ar.id,
                 (unsigned long long)m.ar.addr, m.ar.len + 1, 1u << m.ar.size);
  if (m.aw_valid && s.aw_ready)
    std::fprintf(stderr, "[%10llu] AW id %u addr 0x%llx len %u size %u\n", (unsigned long long)cycle, m.aw.id,
                 (unsigned long long)m.aw.addr, m.aw.len + 1, 1u << m.aw.size);
}

volatile std::sig_atomic_t g_interrupted = 0;

// At the snapshot: forks a child a seed, at most `jobs` at a time. In a
// child, returns its seed with its output moved to its files; in the
// parent, once every child has ended, returns nothing and sets *status to
// the first non-zero child status (0 if all passed).
bool fork_children(const Options& opt, uint64_t cycle, uint64_t* child_seed, int* status) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<pid_t> pids(opt.fork_seeds.size(), -1);
  std::vector<int> statuses(opt.fork_seeds.size(), -1);
  size_t started = 0, running = 0;
  auto reap_one = [&]() {
    int ws = 0;
    const pid_t pid = wait(&ws);
    if (pid < 0) {
      std::fprintf(stderr, "sim: wait: %s\n", std::strerror(errno));
      std::exit(kExitInternal);
    }
    for (size_t i = 0; i < pids.size(); i++)
      if (pids[i] == pid) statuses[i] = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    running--;
  };
  while (started < pids.size()) {
    if (running == opt.fork_jobs) reap_one();
    const uint64_t seed = opt.fork_seeds[started];
    const pid_t pid = fork();
    if (pid < 0) {
      std::fprintf(stderr, "sim: fork: %s\n", std::strerror(errno));
      std::exit(kExitInternal);
    }
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);  // a killed parent (a test's timeout) takes its children along
      if (getppid() == 1) std::_Exit(kExitInternal);
      const std::string base = opt.fork_logs + "/seed-" + std::to_string(seed);
      if (!std::freopen((base + ".out").c_str(), "w", stdout) || !std::freopen((base + ".err").c_str(), "w", stderr))
        std::_Exit(kExitUsage);
      if (!opt.quiet)
        std::fprintf(stderr, "[sim] snapshot at cycle %llu: this child runs on with seed %llu\n",
                     (unsigned long long)cycle, (unsigned long long)seed);
      *child_seed = seed;
      return true;
    }
    pids[started++] = pid;
    running++;
  }
  while (running) reap_one();
  *status = 0;
  for (size_t i = 0; i < pids.size(); i++) {
    std::fprintf(stderr, "[sim] snapshot at cycle %llu: seed %llu: status %d (%s/seed-%llu.out, .err)\n",
                 (unsigned long long)cycle, (unsigned long long)opt.fork_seeds[i], statuses[i], opt.fork_logs.c_str(),
                 (unsigned long long)opt.fork_seeds[i]);
    if (*status == 0) *status = statuses[i];
  }
  return false;
}

// Jitter from the start (unless a snapshot starts it and no +seed is given:
// the boot every sample shares is then the unperturbed one) and the program
// in memory; false if the program cannot be loaded (said why).
bool prepare_memory(const Options& opt, AxiMem& mem) {
  const bool from_snapshot = opt.snapshot_seed_given || !opt.fork_seeds.empty();
  if (!from_snapshot || opt.seed_given) mem.set_jitter(opt.mem_jitter, opt.seed);
  ElfImage img;
  const std::string err = opt.program.empty() ? "" : load_elf(opt.program, mem, &img);
  if (!err.empty()) {
    std::fprintf(stderr, "sim: %s\n", err.c_str());
    return false;
  }
  if (!opt.quiet && opt.mem_jitter)
    std::fprintf(stderr, "[sim] memory latency %u-%u cycles, %s\n", opt.mem_latency, opt.mem_latency + opt.mem_jitter,
                 !from_snapshot    ? ("seed " + std::to_string(opt.seed)).c_str()
                 : opt.seed_given ? ("seed " + std::to_string(opt.seed) + " until the snapshot, reseeded there").c_str()
                                  : "from the snapshot on (exact before it)");
  if (!opt.quiet && !opt.program.empty())
    std::fprintf(stderr, "[sim] loaded %s: %u segment(s), %llu bytes, entry 0x%llx\n", opt.program.c_str(),
                 img.segments, (unsigned long long)img.bytes, (unsigned long long)img.entry);
  return true;
}

#if VM_TRACE
// +waves=FILE: the FST writer on the model, or null (said why).
std::unique_ptr<VerilatedFstC> open_waves(VerilatedContext& ctx, VSimTop& top, const std::string& path) {
  ctx.traceEverOn(true);
  auto fst = std::make_unique<VerilatedFstC>();
  top.trace(fst.get(), 99);
  fst->open(path.c_str());
  if (!fst->isOpen()) {
    std::fprintf(stderr, "sim: cannot open waveform file '%s'\n", path.c_str());
    return nullptr;
  }
  return fst;
}
#endif

// A finisher command that neither ends the run nor forks it: the snapshot
// with +snapshot-seed (the jitter starts), or an unknown command (ignored).
void other_command(const Options& opt, uint32_t bits, uint64_t cycle, AxiMem& mem) {
  if (bits == kSnapshot && opt.snapshot_seed_given) {
    mem.set_jitter(opt.mem_jitter, opt.snapshot_seed);
    if (!opt.quiet)
      std::fprintf(stderr, "[sim] snapshot at cycle %llu: jitter from here, seed %llu\n", (unsigned long long)cycle,
                   (unsigned long long)opt.snapshot_seed);
  } else if (bits != kSnapshot) {
    std::fprintf(stderr, "[sim] finisher: ignoring unknown command 0x%x\n", bits);
  }
}

// +mutant=NAME: turns the knob on (the switches ask during the first
// eval, in their initial blocks) and refuses a name no switch asked about.
void select_mutant(VSimTop& top, const Options& opt) {
  mutant_select(opt.mutant);
  top.eval();
  const auto& known = mutants_known();
  if (!known.count(opt.mutant)) {
    std::string names;
    for (const auto& n : known) names += " " + n;
    usage_error(known.empty() ? "+mutant needs a model with the mutant switches (flavour checked or debug; the uart, board and base models have none)"
                              : "unknown mutant '" + opt.mutant + "'; this model has:" + names);
  }
  if (!opt.quiet) std::fprintf(stderr, "[sim] mutant %s is on\n", opt.mutant.c_str());
}

// What scripts and tests parse at the end of a run: per hart, machine
// software interrupts raised, M-mode cycles, the agents' hold and the page
// walkers' busy cycles; and the requests the unit completed (each if the
// model has it).
void report_counts(const HartCounters& harts) {
  if (harts.msip_found()) std::fprintf(stderr, "[sim] msip raised per hart: %s\n", harts.msip_summary().c_str());
  if (harts.mmode_found()) std::fprintf(stderr, "[sim] M-mode cycles per hart: %s\n", harts.mmode_summary().c_str());
  if (harts.held_found())
    std::fprintf(stderr, "[sim] cycles the flush agent held the core per hart: %s\n", harts.held_summary().c_str());
  if (harts.walk_found())
    std::fprintf(stderr, "[sim] page-walker busy cycles per hart: %s\n", harts.walk_summary().c_str());
  if (harts.unit_found())
    std::fprintf(stderr, "[sim] requests the shootdown unit completed (CTR_REQUESTS): %llu\n",
                 (unsigned long long)harts.unit_requests());
}

// The run's exit status with the scoreboard on: its summary, then a failing
// program keeps its own status (the summary line tells whether the
// scoreboard objected too); a passing one fails on a violation, or on
// events the scoreboard could not trace (no pass without a check).
int scoreboard_verdict(Scoreboard& scoreboard, const Options& opt, int status) {
  scoreboard.summary(stderr);
  if (status == kExitTimeout || status == kExitInternal || status == 130) return status;
  if (!opt.scoreboard_only && status != 0) return status;
  if (scoreboard.violations()) return kExitScoreboard;
  if (scoreboard.unexplained()) {
    std::fprintf(stderr, "[sim] scoreboard: it could not trace %llu events, so it could not check the run: "
                         "no pass (exit %d)\n", (unsigned long long)scoreboard.unexplained(), kExitUntraced);
    return kExitUntraced;
  }
  return 0;
}

}  // namespace

bool sim_verbose = false;

double sc_time_stamp() { return 0; }

int main(int argc, char** argv) {
  const Options opt = parse_args(argc, argv);

  AxiMem mem(kDramBase, kDramSize, opt.mem_latency);
  if (!prepare_memory(opt, mem)) return kExitBadElf;

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(1, argv);  // no plusargs for the RTL: rocket's take their defaults
  sim_verbose = opt.verbose;
  auto top = std::make_unique<VSimTop>(ctx.get());
  Scoreboard scoreboard(stderr);
  if (opt.scoreboard) scoreboard_attach(&scoreboard);
  if (!opt.disconnect.empty() && !scoreboard.disconnect(opt.disconnect))
    usage_error("+scoreboard-disconnect: no probe '" + opt.disconnect + "' (" + Scoreboard::probe_names() + ")");
  HartCounters harts(*ctx);
  if (!harts.msip_found()) std::fprintf(stderr, "sim: warning: no CLINT msip registers found; IPIs are not counted\n");
  if (!harts.mmode_found())
    std::fprintf(stderr, "sim: warning: no privilege registers found; M-mode cycles are not counted\n");
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> fst;
  if (!opt.waves.empty() && !(fst = open_waves(*ctx, *top, opt.waves))) return kExitUsage;
#endif
  UartBridge uart(opt.uart_bit_cycles);
  if (opt.uart_port >= 0) {
    const std::string e = uart.listen_and_accept((unsigned)opt.uart_port);
    if (!e.empty()) {
      std::fprintf(stderr, "sim: uart: %s\n", e.c_str());
      return kExitUsage;
    }
  }
  bool uart_rx = true;
  std::signal(SIGINT, [](int) { g_interrupted = 1; });
  if (!opt.mutant.empty()) select_mutant(*top, opt);

  auto t0 = std::chrono::steady_clock::now();
  bool forked = false;  // this process forked children at the snapshot and waited for them
  bool child = false;   // this process is one of those children
  // A child has the model's thread pool without its worker thread (fork
  // copies only the caller), so it must not run the destructors: it
  // leaves with its status once its output is out.
  auto leave = [&child](int code) {
    if (child) {
      std::fflush(nullptr);
      std::_Exit(code);
    }
    return code;
  };
  uint64_t cycle = 0;
  int status = -1;
  std::string why;
  bool at_line_start = true;
  top->reset = 1;
  top->clock = 0;
  AxiSlaveOut s{};
  for (;;) {
    if (cycle == kResetCycles) top->reset = 0;
    drive(*top, s);
    top->sim_uart_rx = uart_rx;
    top->clock = 0;
    top->eval();
#if VM_TRACE
    if (fst && cycle >= opt.waves_from && cycle <= opt.waves_to) fst->dump(2 * cycle);
#endif
    const AxiMasterOut m = sample(*top);
    const bool console = top->sim_console_valid;
    const uint8_t ch = top->sim_console_bits;
    const bool finish = top->sim_finish_valid;
    const uint32_t finish_bits = top->sim_finish_bits;
    const bool uart_tx = top->sim_uart_tx;
    top->clock = 1;
    top->eval();
#if VM_TRACE
    if (fst && cycle >= opt.waves_from && cycle <= opt.waves_to) fst->dump(2 * cycle + 1);
#endif
    if (opt.scoreboard) {
      if (top->reset) scoreboard.discard();
      else scoreboard.end_cycle(cycle);
    }
    cycle++;
    if (top->reset) continue;
    harts.tick();
    uart_rx = uart.tick(uart_tx);
    if (opt.trace_axi) trace_axi(cycle, m, s);
    mem.tick(m, s);
    s = mem.outputs();

    if (console) {
      if (opt.timestamps && at_line_start)
        std::fprintf(stdout, "[%10llu%s] ", (unsigned long long)cycle, harts.stamp().c_str());
      at_line_start = ch == '\n';
      std::fputc(ch, stdout);
      if (ch == '\n') std::fflush(stdout);
    }
    if (finish) {
      std::string what;
      if (decode_finish(finish_bits, &status, &what)) {
        why = "finisher: " + what;
        break;
      }
      if (finish_bits == kSnapshot && !opt.fork_seeds.empty()) {
        uint64_t seed = 0;
        if (!fork_children(opt, cycle, &seed, &status)) {
          forked = true;
          why = "forked " + std::to_string(opt.fork_seeds.size()) + " children at the snapshot";
          break;
        }
        mem.set_jitter(opt.mem_jitter, seed);
        child = true;
        t0 = std::chrono::steady_clock::now();
      } else {
        other_command(opt, finish_bits, cycle, mem);
      }
    }
    if (mem.errors()) {
      status = kExitInternal;
      why = "memory port protocol or address error";
      break;
    }
    if (opt.max_cycles && cycle >= opt.max_cycles) {
      status = kExitTimeout;
      why = "timeout";
      break;
    }
    if (g_interrupted) {
      status = 130;
      why = "interrupted";
      break;
    }
  }
  std::fflush(stdout);
  uart.close();
  top->final();
#if VM_TRACE
  if (fst) fst->close();
#endif
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!forked && status == kExitTimeout)
    std::fprintf(stderr, "sim: timeout: no exit after %llu cycles (+max-cycles); the program hung or needs more\n",
                 (unsigned long long)cycle);
  if (forked || !opt.quiet || status == kExitTimeout)
    std::fprintf(stderr, "[sim] %s, status %d: %llu cycles in %.2f s (%.1f kHz)\n", why.c_str(), status,
                 (unsigned long long)cycle, secs, cycle / secs / 1000.0);
  if (forked) return status;  // the children said the rest
  if (!opt.quiet) report_counts(harts);
  return leave(opt.scoreboard ? scoreboard_verdict(scoreboard, opt, status) : status);
}
