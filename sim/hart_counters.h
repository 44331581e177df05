// What the harness counts per hart from the RTL, which no program can hide:
// - machine software interrupts (IPIs), by watching the CLINT's msip
//   registers rise: every IPI on this SoC, whether OpenSBI sends it for an
//   SBI IPI or for an RFENCE, is a write of 1 to a target's msip;
// - cycles spent in M-mode, from each core's privilege register (Rocket's
//   CSRFile reg_mstatus_prv): the firmware's share of a hart's time, traps
//   for remote fences included.
// soc.vlt keeps both readable. Harts are numbered in tile order (tile,
// tile_1, ...), which is hart-id order on these SoCs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

class VerilatedContext;

class HartCounters {
 public:
  // Finds the registers; what is not found is not counted.
  explicit HartCounters(VerilatedContext& ctx);
  // Call once per cycle, after the rising edge.
  void tick() {
    for (size_t h = 0; h < msip_bits_.size(); h++) {
      const bool now = *msip_bits_[h] & 1;
      if (now && !msip_last_[h]) msip_[h]++;
      msip_last_[h] = now;
    }
    for (size_t h = 0; h < prv_.size(); h++) mmode_[h] += (*prv_[h] & 3) == 3;
  }
  bool msip_found() const { return !msip_bits_.empty(); }
  bool mmode_found() const { return !prv_.empty(); }
  // "h0 h1 ...": IPIs raised per hart, cycles in M-mode per hart.
  std::string msip_summary() const { return join(msip_); }
  std::string mmode_summary() const { return join(mmode_); }

 private:
  static std::string join(const std::vector<uint64_t>& v);
  std::vector<const uint8_t*> msip_bits_, prv_;
  std::vector<bool> msip_last_;
  std::vector<uint64_t> msip_, mmode_;
};
