#include "hart_counters.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "verilated.h"
#include "verilated_syms.h"

namespace {

bool ends_with(const char* s, const char* tail) {
  const size_t n = std::strlen(s), m = std::strlen(tail);
  return n >= m && std::strcmp(s + n - m, tail) == 0;
}

// The tile a scope is in: 0 for "...tile.", k for "...tile_k.", -1 if none.
int tile_of(const std::string& scope) {
  const size_t at = scope.rfind(".tile");
  if (at == std::string::npos) return -1;
  const char* p = scope.c_str() + at + 5;
  if (*p == '.') return 0;
  if (*p != '_') return -1;
  return std::atoi(p + 1);
}

}  // namespace

HartCounters::HartCounters(VerilatedContext& ctx) {
  std::vector<std::pair<int, const uint8_t*>> prv;
  for (const auto& scope : *ctx.scopeNameMap()) {
    const char* name = scope.first;
    if (ends_with(name, ".clint") && msip_bits_.empty()) {
      for (int h = 0;; h++) {
        const VerilatedVar* v = scope.second->varFind(("ipi_" + std::to_string(h)).c_str());
        if (!v) break;
        msip_bits_.push_back(static_cast<const uint8_t*>(v->datap()));
      }
    }
    if (ends_with(name, ".csr")) {
      const VerilatedVar* v = scope.second->varFind("reg_mstatus_prv");
      if (v && tile_of(name) >= 0) prv.emplace_back(tile_of(name), static_cast<const uint8_t*>(v->datap()));
    }
  }
  std::sort(prv.begin(), prv.end());
  for (const auto& p : prv) prv_.push_back(p.second);
  msip_last_.assign(msip_bits_.size(), false);
  msip_.assign(msip_bits_.size(), 0);
  mmode_.assign(prv_.size(), 0);
}

std::string HartCounters::join(const std::vector<uint64_t>& v) {
  std::string s;
  for (size_t h = 0; h < v.size(); h++) s += (h ? " " : "") + std::to_string(v[h]);
  return s;
}
