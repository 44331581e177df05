// The co-simulation scoreboard; scoreboard.h says what it checks.
#include "scoreboard.h"

#include <algorithm>
#include <cinttypes>

#include "tlb_shootdown_regs.h"

namespace {

constexpr uint64_t kNever = UINT64_MAX;  // the age of what no read vouches for
constexpr uint64_t kVpnMask = (1ull << 27) - 1;  // Sv39
constexpr size_t kWalkHistory = 8;  // memory walks remembered per VPN (to date L2 TLB hits)
constexpr size_t kInflightCap = 1024;
constexpr uint64_t kMaxMessages = 20;

uint64_t ppn(uint64_t pte) { return (pte >> 10) & ((1ull << 44) - 1); }
bool pte_valid(uint64_t pte) { return pte & 1; }
bool pte_leaf(uint64_t pte) { return pte_valid(pte) && (pte & 0xa); }  // R or X
bool pte_global(uint64_t pte) { return pte & 0x20; }
// What Rocket's L2 TLB keeps of a leaf PTE (L2TLBEntry: the PPN and D, A,
// U, X, W, R; G beside it; V implied): its answer has the software bits
// (RSW, 8-9) and the reserved bits 54-63 cleared, whatever the PTE in
// memory held there. Linux keeps _PAGE_SPECIAL in RSW (the zero page).
uint64_t l2_kept(uint64_t pte) { return pte & ~(0x300ull | 0x3ffull << 54); }
uint64_t vpn_of(uint64_t va) { return (va >> 12) & kVpnMask; }
uint64_t span_of(int level) { return 1ull << (9 * (2 - level)); }  // Sv39: level 0 is 1 GiB

// The order a cycle's events are handled in: what the unit started, what
// walks read and answered (a walk's answer before the next walk the walker
// takes in the same cycle), what drained and acknowledged, what completed,
// and only then the accesses of that cycle.
int priority(int kind) {
  static const int order[] = {kSbUnitStart, kSbUnitEntry, kSbPteRead, kSbRefill, kSbWalkReq, kSbOrdered,
                              kSbAgentAck, kSbUnitDone, kSbChanVisible, kSbLocalSfence, kSbRace, kSbDataAccess, kSbFetch};
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
    if (order[i] == kind) return (int)i;
  return -1;
}

const char* data_command(uint64_t cmd) {
  switch (cmd) {
    case 0: return "load";
    case 1: return "store";
    case 6: return "load-reserved";
    case 7: return "store-conditional";
    default: return "AMO";
  }
}

Scoreboard* g_scoreboard = nullptr;

}  // namespace

void scoreboard_attach(Scoreboard* sb) { g_scoreboard = sb; }

// The DPI import of ScoreboardProbe.v.
extern "C" void sb_event(int kind, int hart, long long a, long long b, long long c, long long d) {
  if (g_scoreboard) g_scoreboard->event(kind, hart, (uint64_t)a, (uint64_t)b, (uint64_t)c, (uint64_t)d);
}

std::string Scoreboard::Request::name() const {
  char buf[96];
  if (serial < 0)
    std::snprintf(buf, sizeof buf, "hart %d's own sfence.vma", hart);
  else
    std::snprintf(buf, sizeof buf, "request #%d (channel %d, ticket %u)", serial, channel, ticket);
  return buf;
}

void Scoreboard::event(int kind, int hart, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  if (kind >= 0 && kind < 32 && (disconnected_ >> kind & 1)) return;
  pending_.push_back({kind, hart, a, b, c, d});
}

// The probes a test may disconnect, by the event kind they send.
static const std::map<std::string, int> kProbes = {
    {"refill", kSbRefill}, {"pte-read", kSbPteRead}, {"walk", kSbWalkReq}, {"unit-done", kSbUnitDone}};

bool Scoreboard::disconnect(const std::string& probe) {
  const auto it = kProbes.find(probe);
  if (it == kProbes.end()) return false;
  disconnected_ |= 1u << it->second;
  return true;
}

std::string Scoreboard::probe_names() {
  std::string names;
  for (const auto& kv : kProbes) names += (names.empty() ? "" : ", ") + kv.first;
  return names;
}

Scoreboard::Hart& Scoreboard::hart(int h) {
  if ((size_t)h >= harts_.size()) harts_.resize(h + 1);
  return harts_[h];
}

void Scoreboard::end_cycle(uint64_t cycle) {
  cycle_ = cycle;
  // Local sfence.vma requests come due a few cycles after the core's write
  // back (see kSbLocalSfence).
  for (auto it = local_due_.begin(); it != local_due_.end();) {
    if ((*it)->visible <= cycle_) {
      complete(*it);
      it = local_due_.erase(it);
    } else {
      ++it;
    }
  }
  if (pending_.empty()) return;
  std::stable_sort(pending_.begin(), pending_.end(),
                   [](const Raw& x, const Raw& y) { return priority(x.kind) < priority(y.kind); });
  for (const Raw& e : pending_) handle(e);
  pending_.clear();
}

void Scoreboard::handle(const Raw& e) {
  Hart& h = hart(e.hart);
  switch (e.kind) {
    case kSbUnitStart: {
      auto r = std::make_shared<Request>();
      r->serial = (int)requests_++;
      r->channel = r->hart = e.hart;
      r->ticket = (uint32_t)e.a;
      r->targets = e.b;
      r->start = cycle_;
      engine_[(uint32_t)e.c] = r;
      waiting_[e.hart].push_back(r);
      break;
    }
    case kSbUnitEntry: {
      const auto it = engine_.find((uint32_t)e.b);
      if (it == engine_.end()) break;
      const auto& current_ = it->second;
      const uint64_t raw = e.a;
      const int kind = (int)(raw >> TLBSD_ENTRY_KIND_SHIFT & 3);
      const int size = (int)(raw >> TLBSD_ENTRY_SIZE_SHIFT & 3);
      const uint64_t pages = (raw >> TLBSD_ENTRY_PAGES_SHIFT & (TLBSD_ENTRY_MAX_PAGES - 1)) + 1;
      // A reserved size makes the request a full flush (ERR_BAD_ENTRY), which completion records.
      if (size > TLBSD_SIZE_1G) break;
      current_->entries.push_back({kind, vpn_of(raw & TLBSD_ENTRY_VA_MASK), pages, 1ull << (9 * size),
                                   (raw & TLBSD_ENTRY_NONLEAF) != 0});
      break;
    }
    case kSbAgentAck: {
      // Requests overlap in the engine: the acknowledgement names its request.
      const auto it = engine_.find((uint32_t)e.a);
      if (it == engine_.end()) break;
      it->second->acked |= 1ull << e.hart;
      check_inflight(e.hart, *it->second, "when the hart acknowledged");
      break;
    }
    case kSbUnitDone: {
      const auto it = engine_.find((uint32_t)e.c);
      if (it == engine_.end()) break;
      const auto current_ = it->second;
      engine_.erase(it);
      current_->finished = true;
      current_->err = (int)e.a;
      // Targets the unit gave up on (ERR_TIMEOUT, CH_FAILED) are promised nothing.
      current_->targets &= ~e.b;
      // A bad entry or a bus error turned the request into one full flush.
      if (current_->err == TLBSD_ERR_BAD_ENTRY || current_->err == TLBSD_ERR_BUS)
        current_->entries.assign(1, Entry{TLBSD_KIND_ALL, 0, 1, 1});
      if (current_->acked != current_->targets) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "cycle %" PRIu64 ": the unit completed %s with acknowledgements 0x%" PRIx64
                      " of targets 0x%" PRIx64, cycle_, current_->name().c_str(), current_->acked, current_->targets);
        violation(buf);
      }
      break;
    }
    case kSbChanVisible: {
      auto& q = waiting_[e.hart];
      while (!q.empty() && (int32_t)((uint32_t)e.a - q.front()->ticket) >= 0) {
        complete(q.front());
        q.pop_front();
      }
      break;
    }
    case kSbWalkReq:
      h.walking = true;
      h.walk = Walk{(int)e.a, e.b & kVpnMask, {}, {}};
      break;
    case kSbPteRead:
      if (h.walking) {
        h.walk.reads.push_back({e.a, e.b});
        h.walk.read_cycles.push_back(cycle_);
      }
      break;
    case kSbRefill:
      refill(h, e.hart, (int)e.a, e.b, (int)e.c, e.d != 0);
      break;
    case kSbOrdered:
      h.inflight.clear();
      break;
    case kSbLocalSfence: {
      // The core's sfence.vma flushes its DTLB one cycle before write back
      // (its M_SFENCE in D$ stage 1) and the ITLB and walker at write back;
      // what its own pipeline still holds is refetched after it. So PTEs
      // read from two cycles before write back on are new, and the flush
      // binds accesses from three cycles after it on.
      auto r = std::make_shared<Request>();
      r->serial = -1;
      r->hart = e.hart;
      r->targets = 1ull << e.hart;
      r->start = cycle_ >= 2 ? cycle_ - 2 : 0;
      r->visible = cycle_ + 3;
      r->finished = true;
      r->acked = r->targets;
      const bool rs1 = e.a & 1, rs2 = e.a & 2;
      const int kind = rs1 ? (rs2 ? TLBSD_KIND_VA_ASID : TLBSD_KIND_VA_ALL) : (rs2 ? TLBSD_KIND_ASID : TLBSD_KIND_ALL);
      r->entries.push_back({kind, e.b & kVpnMask, 1, 1});
      local_due_.push_back(r);
      local_++;
      break;
    }
    case kSbRace:
      if (e.a > 0 && e.a < kRaces) races_[e.a]++;
      break;
    case kSbDataAccess:
      if (e.d) access(e.hart, 1, e.a, e.b, data_command(e.c));
      break;
    case kSbFetch:
      if (e.d) access(e.hart, 0, e.a, e.b, "fetch");
      break;
    default:
      std::fprintf(log_, "[sim] scoreboard: unknown event kind %d from the RTL (sim/scoreboard.h is out of step)\n",
                   e.kind);
      unexplained_++;
  }
}

// A walk's answer to a TLB. Its age is when its PTEs were read: the leaf
// read of this walk, or for an L2 TLB hit (no read at all) the memory walk
// that filled that L2 entry; the non-leaf age is the oldest read on the way
// from the root to the leaf's table, through the walker's PTE cache too.
void Scoreboard::refill(Hart& h, int hart_id, int port, uint64_t pte, int level, bool ae) {
  if (!h.walking || h.walk.port != port || level < 0 || level > 2) {
    unexplained_++;
    if (unexplained_ <= kMaxMessages)
      std::fprintf(log_, "[sim] scoreboard: hart %d cycle %" PRIu64 ": walker answered %s (PTE 0x%" PRIx64
                   ", level %d) with no walk of it under way\n", hart_id, cycle_, port ? "the DTLB" : "the ITLB",
                   pte, level);
    h.walking = false;
    return;
  }
  auto t = std::make_shared<Translation>();
  t->span = span_of(level);
  t->vpn = h.walk.vpn & ~(t->span - 1);
  t->pte = ae ? 0 : pte;
  t->refilled = cycle_;
  const auto& reads = h.walk.reads;
  if (reads.empty()) {
    for (const auto& kv : engine_)
      if ((kv.second->targets >> hart_id & 1) && !(kv.second->acked >> hart_id & 1)) {
        races_[kRaceL2HitInRequest]++;
        break;
      }
    t->leaf_age = t->nonleaf_age = 0;  // unknown: as old as can be
    bool found = false;
    const auto it = h.walked.find(h.walk.vpn);
    if (it != h.walked.end())
      for (auto w = it->second.rbegin(); w != it->second.rend(); ++w)
        if (l2_kept((*w)->pte) == l2_kept(pte)) {
          t->leaf_age = (*w)->leaf_age;
          t->nonleaf_age = (*w)->nonleaf_age;
          found = true;
          break;
        }
    if (!found && pte_leaf(pte)) {
      unexplained_++;
      if (unexplained_ <= kMaxMessages)
        std::fprintf(log_, "[sim] scoreboard: hart %d cycle %" PRIu64 ": walker answered VPN 0x%" PRIx64
                     " with PTE 0x%" PRIx64 " without reading memory, and no walk read it\n",
                     hart_id, cycle_, h.walk.vpn, pte);
    }
  } else {
    // The walker's PTE cache may answer any level above the leaf, the root
    // or one below it, so a walk reads level + 1 PTEs less those it
    // answered. A read that is not in the table the read before it points
    // to follows a level the cache answered; the levels it answered that
    // no read precedes are at the top, and the first read is the root's
    // when there are none.
    size_t breaks = 0;
    for (size_t i = 0; i + 1 < reads.size(); i++) breaks += ppn(reads[i].second) != reads[i + 1].first >> 12;
    const bool first_is_root = reads.size() + breaks == (size_t)level + 1;
    for (size_t i = 0; i + 1 < reads.size(); i++) {
      // The root has no age (satp names it): what its page was before (a
      // table of another process, freed and reused as this one's root)
      // says nothing of this walk. Every other read's table has the age of
      // the pointer that led there: read just before, or the cached one.
      const bool from_root = i == 0 && first_is_root;
      const auto parent = from_root ? h.table_age.end() : h.table_age.find(reads[i].first >> 12);
      const uint64_t parent_age = parent == h.table_age.end() ? kNever : parent->second;
      h.table_age[ppn(reads[i].second)] = std::min(h.walk.read_cycles[i], parent_age);
    }
    const auto table = h.table_age.find(reads.back().first >> 12);
    t->nonleaf_age = table == h.table_age.end() ? kNever : table->second;
    t->leaf_age = h.walk.read_cycles.back();
    auto& hist = h.walked[h.walk.vpn];
    hist.push_back(t);
    if (hist.size() > kWalkHistory) hist.pop_front();
  }
  h.tlb[port][level][t->vpn] = t;
  h.walking = false;
}

// 0: r does not cover t; 1: covers its leaf; 2: covers its leaf and the
// non-leaf entries that led to it.
static int coverage(const std::vector<Scoreboard::Entry>& entries, uint64_t vpn, uint64_t span, uint64_t pte) {
  int best = 0;
  for (const auto& e : entries) {
    switch (e.kind) {
      case TLBSD_KIND_VA_ASID:
        // Rocket 1.2.6 tags no TLB entry with an ASID: a non-global
        // translation may belong to any ASID, so it is covered.
        if (pte_global(pte)) break;
        /* fall through */
      case TLBSD_KIND_VA_ALL: {
        // Covered when the translation maps one of the pages the entry
        // names (whatever the translation's size, rule 5): the first named
        // page at or after the translation's start lies inside it.
        const uint64_t i = vpn > e.vpn ? (vpn - e.vpn + e.stride - 1) / e.stride : 0;
        if (i < e.pages && e.vpn + i * e.stride < vpn + span) best = std::max(best, e.nonleaf ? 2 : 1);
        break;
      }
      case TLBSD_KIND_ASID:
        if (!pte_global(pte)) return 2;
        break;
      default:
        return 2;
    }
  }
  return best;
}

// r covered t, and t was read from memory before r started: a hart r
// promised (a target it did not give up on) may not use t once r is
// complete. A request that ended with a bad entry or a bus error was a full
// flush and covers everything.
bool Scoreboard::stale_after(const Request& r, const Translation& t) const {
  const int c = coverage(r.entries, t.vpn, t.span, t.pte);
  const uint64_t age = c == 2 ? std::min(t.leaf_age, t.nonleaf_age) : t.leaf_age;
  return c > 0 && age < r.start;
}

void Scoreboard::access(int hart_id, int port, uint64_t va, uint64_t pa, const char* what) {
  Hart& h = hart(hart_id);
  const uint64_t vpn = vpn_of(va);
  std::shared_ptr<Translation> t;
  for (int level = 0; level < 3; level++) {
    const auto it = h.tlb[port][level].find(vpn & ~(span_of(level) - 1));
    if (it != h.tlb[port][level].end() && (!t || it->second->refilled > t->refilled)) t = it->second;
  }
  if (!t || !pte_leaf(t->pte) || (pa >> 12) != ppn(t->pte) + (vpn - t->vpn)) {
    unexplained_++;
    if (unexplained_ <= kMaxMessages)
      std::fprintf(log_, "[sim] scoreboard: hart %d cycle %" PRIu64 ": %s VA 0x%" PRIx64 " -> PA 0x%" PRIx64
                   " matches no translation its TLB was given\n", hart_id, cycle_, what, va, pa);
    if (!t) return;
  }
  h.accesses++;
  for (; t->checked < h.done.size(); t->checked++) {
    const Request& r = *h.done[t->checked];
    if (t->reported || !stale_after(r, *t)) continue;
    char buf[400];
    std::snprintf(buf, sizeof buf, "hart %d cycle %" PRIu64 ": %s VA 0x%" PRIx64 " -> PA 0x%" PRIx64
                  " through a translation (PTE 0x%" PRIx64 ", read at cycle %" PRIu64 ", refilled at %" PRIu64
                  ") that %s covered (started at cycle %" PRIu64 ", complete at %" PRIu64 ")",
                  hart_id, cycle_, what, va, pa, t->pte, t->leaf_age, t->refilled, r.name().c_str(), r.start,
                  r.visible);
    violation(buf);
    t->reported = true;
  }
  if (port == 1) {
    if (h.inflight.size() >= kInflightCap) h.inflight.erase(h.inflight.begin());
    h.inflight.push_back({cycle_, va, pa, what, t});
  }
}

void Scoreboard::complete(const std::shared_ptr<Request>& r) {
  if (r->serial >= 0) {
    r->visible = cycle_;
    if (!r->finished) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "cycle %" PRIu64 ": channel %d shows %s complete before the unit finished it"
                    " (acknowledged by 0x%" PRIx64 " of targets 0x%" PRIx64 ")",
                    cycle_, r->channel, r->name().c_str(), r->acked, r->targets);
      violation(buf);
    }
  }
  for (size_t i = 0; i < 64; i++)
    if (r->targets >> i & 1) {
      hart((int)i).done.push_back(r);
      check_inflight((int)i, *r, "at completion");
    }
}

void Scoreboard::check_inflight(int hart_id, const Request& r, const char* when) {
  for (const Access& a : hart(hart_id).inflight) {
    if (!stale_after(r, *a.t)) continue;
    char buf[400];
    std::snprintf(buf, sizeof buf, "hart %d cycle %" PRIu64 ": %s VA 0x%" PRIx64 " -> PA 0x%" PRIx64
                  " (cycle %" PRIu64 ") through a translation %s covered was still in flight %s",
                  hart_id, cycle_, a.what, a.va, a.pa, a.cycle, r.name().c_str(), when);
    violation(buf);
  }
}

void Scoreboard::violation(const std::string& msg) {
  violations_++;
  if (violations_ <= kMaxMessages) std::fprintf(log_, "[sim] scoreboard: VIOLATION: %s\n", msg.c_str());
  if (violations_ == kMaxMessages + 1) std::fprintf(log_, "[sim] scoreboard: (further violations not shown)\n");
}

void Scoreboard::summary(FILE* f) const {
  uint64_t accesses = 0;
  for (const Hart& h : harts_) accesses += h.accesses;
  std::fprintf(f, "[sim] scoreboard: %" PRIu64 " requests, %" PRIu64 " local sfence.vma, %" PRIu64
               " translated accesses checked, %" PRIu64 " unexplained, %" PRIu64 " violations\n",
               requests_, local_, accesses, unexplained_, violations_);
  // What the racing tests read: each race seen how often.
  std::fprintf(f, "[sim] scoreboard races: sfence-deferred %" PRIu64 ", walk-in-flush %" PRIu64 ", guard %" PRIu64
               ", l2-hit-in-request %" PRIu64 "\n", races_[kRaceSfenceDeferred], races_[kRaceWalkInFlush],
               races_[kRaceGuard], races_[kRaceL2HitInRequest]);
}
