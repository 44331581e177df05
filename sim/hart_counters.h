// What the harness counts per hart from the RTL, which no program can hide:
// - msip: machine software interrupts (IPIs), by watching the CLINT's msip
//   registers rise: every IPI on this SoC, whether OpenSBI sends it for an
//   SBI IPI or for an RFENCE, is a write of 1 to a target's msip;
// - mmode: cycles spent in M-mode, from each core's privilege register
//   (Rocket's CSRFile reg_mstatus_prv): the firmware's share of a hart's
//   time, traps for remote fences included;
// - held: cycles the tile's flush agent (hw/tile/FlushAgent.scala) keeps
//   the core off its D$ port, flushing the DTLB or draining before its
//   acknowledgement: what the unit's requests take from a hart directly;
// - walk: cycles the tile's page-table walker (Rocket's PTW) is busy: the
//   refills, which flushes make more of.
// And one count of the whole SoC: the requests the shootdown unit
// completed, its own CTR_REQUESTS register, read when asked.
// soc.vlt keeps them readable. Harts are numbered in tile order (tile,
// tile_1, ...), which is hart-id order on these SoCs. A counter whose
// registers are not in the model (a SoC without the unit has no agents) is
// not counted and not printed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

class VerilatedContext;

class HartCounters {
 public:
  // Finds the registers.
  explicit HartCounters(VerilatedContext& ctx);
  // Call once per cycle, after the rising edge.
  void tick() {
    for (size_t h = 0; h < msip_.bits.size(); h++) {
      const bool now = *msip_.bits[h] & 1;
      if (now && !msip_last_[h]) msip_.counts[h]++;
      msip_last_[h] = now;
    }
    for (size_t h = 0; h < mmode_.bits.size(); h++) mmode_.counts[h] += (*mmode_.bits[h] & 3) == 3;
    for (size_t h = 0; h < held_.bits.size(); h++) held_.counts[h] += (*held_.bits[h] | *held_.also[h]) & 1;
    for (size_t h = 0; h < walk_.bits.size(); h++) walk_.counts[h] += *walk_.bits[h] != 0;
  }
  bool msip_found() const { return msip_.found(); }
  bool mmode_found() const { return mmode_.found(); }
  // " msip 3 5 mmode 1200 900 held 40 41 walk 700 650": every counter
  // found, its count per hart so far (the +timestamps prefix).
  std::string stamp() const;
  // "h0 h1 ...": one counter's counts per hart.
  std::string msip_summary() const { return msip_.join(); }
  std::string mmode_summary() const { return mmode_.join(); }
  std::string held_summary() const { return held_.join(); }
  std::string walk_summary() const { return walk_.join(); }
  bool held_found() const { return held_.found(); }
  bool walk_found() const { return walk_.found(); }
  // CTR_REQUESTS (a 40-bit register: Verilator keeps it in 64 bits).
  bool unit_found() const { return unit_requests_ != nullptr; }
  uint64_t unit_requests() const { return *reinterpret_cast<const uint64_t*>(unit_requests_); }

 private:
  struct PerHart {
    const char* name;
    std::vector<const uint8_t*> bits, also;  // per hart; `also` for held's second signal
    std::vector<uint64_t> counts;
    bool found() const { return !bits.empty(); }
    std::string join() const;
  };
  PerHart msip_{"msip", {}, {}, {}}, mmode_{"mmode", {}, {}, {}}, held_{"held", {}, {}, {}}, walk_{"walk", {}, {}, {}};
  std::vector<bool> msip_last_;
  const uint8_t* unit_requests_ = nullptr;
};
