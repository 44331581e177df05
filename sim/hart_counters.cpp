#include "hart_counters.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
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

const uint8_t* var(const VerilatedScope* scope, const char* name) {
  const VerilatedVar* v = scope->varFind(name);
  return v ? static_cast<const uint8_t*>(v->datap()) : nullptr;
}

// Per tile, in tile order: the variables `names` of the tile's scope ending
// in `suffix`; tiles without all of them are left out.
std::vector<std::vector<const uint8_t*>> per_tile(VerilatedContext& ctx, const char* suffix,
                                                  const std::vector<const char*>& names) {
  std::map<int, std::vector<const uint8_t*>> found;
  for (const auto& scope : *ctx.scopeNameMap()) {
    if (!ends_with(scope.first, suffix) || tile_of(scope.first) < 0) continue;
    std::vector<const uint8_t*> vars;
    for (const char* n : names)
      if (const uint8_t* p = var(scope.second, n)) vars.push_back(p);
    if (vars.size() == names.size()) found[tile_of(scope.first)] = vars;
  }
  std::vector<std::vector<const uint8_t*>> out;
  for (auto& f : found) out.push_back(f.second);
  return out;
}

}  // namespace

HartCounters::HartCounters(VerilatedContext& ctx) {
  for (const auto& scope : *ctx.scopeNameMap()) {
    if (!ends_with(scope.first, ".clint") || msip_.found()) continue;
    for (int h = 0;; h++) {
      const uint8_t* p = var(scope.second, ("ipi_" + std::to_string(h)).c_str());
      if (!p) break;
      msip_.bits.push_back(p);
    }
  }
  for (const auto& v : per_tile(ctx, ".csr", {"reg_mstatus_prv"})) mmode_.bits.push_back(v[0]);
  for (const auto& v : per_tile(ctx, ".agent", {"io_dtlb_valid", "io_blockCore"})) {
    held_.bits.push_back(v[0]);
    held_.also.push_back(v[1]);
  }
  for (const auto& v : per_tile(ctx, ".ptw", {"state"})) walk_.bits.push_back(v[0]);
  for (const auto& scope : *ctx.scopeNameMap())
    if (ends_with(scope.first, ".unit") && !unit_requests_) unit_requests_ = var(scope.second, "ctrRequests");
  msip_last_.assign(msip_.bits.size(), false);
  for (PerHart* c : {&msip_, &mmode_, &held_, &walk_}) c->counts.assign(c->bits.size(), 0);
}

std::string HartCounters::PerHart::join() const {
  std::string s;
  for (size_t h = 0; h < counts.size(); h++) s += (h ? " " : "") + std::to_string(counts[h]);
  return s;
}

std::string HartCounters::stamp() const {
  std::string s;
  for (const PerHart* c : {&msip_, &mmode_, &held_, &walk_})
    if (c->found()) s += std::string(" ") + c->name + " " + c->join();
  return s;
}
