#include "msip_counter.h"

#include <cstring>

#include "verilated.h"
#include "verilated_syms.h"

MsipCounter::MsipCounter(VerilatedContext& ctx) {
  for (const auto& scope : *ctx.scopeNameMap()) {
    const char* name = scope.first;
    const size_t n = std::strlen(name);
    if (n < 6 || std::strcmp(name + n - 6, ".clint") != 0) continue;
    for (int h = 0;; h++) {
      const VerilatedVar* v = scope.second->varFind(("ipi_" + std::to_string(h)).c_str());
      if (!v) break;
      bits_.push_back(static_cast<const uint8_t*>(v->datap()));
    }
    break;
  }
  last_.assign(bits_.size(), false);
  counts_.assign(bits_.size(), 0);
}

std::string MsipCounter::summary() const {
  std::string s;
  for (size_t h = 0; h < counts_.size(); h++) s += (h ? " " : "") + std::to_string(counts_[h]);
  return s;
}
