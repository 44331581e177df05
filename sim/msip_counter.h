// Counts machine software interrupts (IPIs) per hart by watching the CLINT's
// msip registers rise, which no program can hide: every IPI on this SoC,
// whether OpenSBI sends it for an SBI IPI or for an RFENCE, is a write of 1
// to a target's msip. soc.vlt keeps those registers readable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

class VerilatedContext;

class MsipCounter {
 public:
  // Finds the CLINT's ipi_<hart> registers; none found leaves the counter empty.
  explicit MsipCounter(VerilatedContext& ctx);
  // Call once per cycle, after the rising edge.
  void tick() {
    for (size_t h = 0; h < bits_.size(); h++) {
      const bool now = *bits_[h] & 1;
      if (now && !last_[h]) counts_[h]++;
      last_[h] = now;
    }
  }
  bool found() const { return !bits_.empty(); }
  // "h0 h1 ...": raises per hart.
  std::string summary() const;

 private:
  std::vector<const uint8_t*> bits_;
  std::vector<bool> last_;
  std::vector<uint64_t> counts_;
};
