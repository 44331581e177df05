// The co-simulation scoreboard: a translation-lifetime checker fed by the
// RTL's ScoreboardProbe taps (hw/devices/ScoreboardProbe.scala), compiled
// into models built with SCOREBOARD defined (the checked and debug flavours).
//
// It follows every translation a hart's TLBs hold back to the cycle its PTEs
// were read from memory, and flags, naming hart, cycle, VA, PA and request:
// - an access (load, store, AMO, fetch) after a request became visible as
//   complete, through a translation that request covered and whose PTEs
//   were read before the request started (rule 1 of docs/semantics.md);
// - an access through such a translation still in flight (the D$ not
//   drained) when the hart acknowledged or the request completed (rule 2);
// - a request shown complete before every target acknowledged (rule 3).
// The core's own sfence.vma counts as a request to itself (rule 7).
// docs/scoreboard.md says how translations are traced and what is assumed.
#pragma once
// main.cpp makes one and attaches it; the DPI calls reach it from there.
class Scoreboard;
void scoreboard_attach(Scoreboard* sb);

#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

// Event kinds: ScoreboardEvent in hw/devices/ScoreboardProbe.scala.
enum SbEvent {
  kSbUnitStart = 1,
  kSbUnitEntry = 2,
  kSbUnitDone = 3,
  kSbChanVisible = 4,
  kSbAgentAck = 5,
  kSbWalkReq = 6,
  kSbPteRead = 7,
  kSbRefill = 8,
  kSbDataAccess = 9,
  kSbFetch = 10,
  kSbOrdered = 11,
  kSbLocalSfence = 12,
  kSbRace = 13,
};

// The races the "racing" tests claim to produce (ScoreboardEvent.race*),
// and one the scoreboard sees itself: an L2 TLB hit while the hart's agent
// works on a request to it.
enum SbRace { kRaceSfenceDeferred = 1, kRaceWalkInFlush = 2, kRaceGuard = 3, kRaceL2HitInRequest = 4, kRaces };

class Scoreboard {
 public:
  explicit Scoreboard(FILE* log) : log_(log) {}
  // Called from the DPI entry point during a clock edge.
  void event(int kind, int hart, uint64_t a, uint64_t b, uint64_t c, uint64_t d);
  // A test aid: the events of one probe (its name, as probe_names() lists
  // them) never reach the scoreboard, as if the probe were disconnected.
  // The scoreboard must then fail the run, not pass it. False: no such probe.
  bool disconnect(const std::string& probe);
  static std::string probe_names();
  // After each rising edge: handles that edge's events in a fixed order.
  void end_cycle(uint64_t cycle);
  // Events before reset ends are random initial state: dropped.
  void discard() { pending_.clear(); }
  uint64_t violations() const { return violations_; }
  uint64_t unexplained() const { return unexplained_; }
  void summary(FILE* f) const;

  struct Entry {
    int kind;                   // TLBSD_KIND_*
    uint64_t vpn, pages, stride;  // the pages it names: vpn + i * stride for i < pages (in 4 KiB pages)
    bool nonleaf = false;         // per-VA: non-leaf entries on the way are dropped too
  };

 private:
  struct Raw {
    int kind, hart;
    uint64_t a, b, c, d;
  };
  struct Request {
    int serial;  // engine order; local sfence.vma: -1
    int channel, hart;  // channel; the hart of a local sfence.vma
    uint32_t ticket;
    uint64_t targets, acked = 0;  // targets: those it promises (not those it gave up on)
    uint64_t start, visible = 0;
    bool finished = false;
    int err = 0;
    std::vector<Entry> entries;
    std::string name() const;
  };
  struct Translation {
    uint64_t vpn, span;  // first 4 KiB page and how many it covers
    uint64_t pte;
    uint64_t leaf_age, nonleaf_age;  // cycle its leaf PTE, its oldest non-leaf PTE was read
    uint64_t refilled;
    size_t checked = 0;  // requests of its hart already found not to cover it
    bool reported = false;
  };
  struct Access {
    uint64_t cycle, va, pa;
    const char* what;
    std::shared_ptr<Translation> t;
  };
  struct Walk {
    int port;
    uint64_t vpn;
    std::vector<std::pair<uint64_t, uint64_t>> reads;  // (PTE address, PTE)
    std::vector<uint64_t> read_cycles;
  };
  struct Hart {
    // Per TLB (0 ITLB, 1 DTLB), per level: the latest refill of each page.
    std::unordered_map<uint64_t, std::shared_ptr<Translation>> tlb[2][3];
    bool walking = false;
    Walk walk;
    std::unordered_map<uint64_t, uint64_t> table_age;  // table page -> oldest read on the way to it
    std::unordered_map<uint64_t, std::deque<std::shared_ptr<Translation>>> walked;  // VPN -> memory walks
    std::vector<Access> inflight;  // accesses since the D$ was last ordered
    std::vector<std::shared_ptr<Request>> done;  // requests to it, in order of visible completion
    uint64_t accesses = 0;
  };

  Hart& hart(int h);
  void handle(const Raw& e);
  void refill(Hart& h, int hart, int port, uint64_t pte, int level, bool ae);
  void access(int hart, int port, uint64_t va, uint64_t pa, const char* what);
  void complete(const std::shared_ptr<Request>& r);
  bool stale_after(const Request& r, const Translation& t) const;
  void check_inflight(int hart, const Request& r, const char* when);
  void violation(const std::string& msg);

  FILE* log_;
  uint64_t cycle_ = 0;
  std::vector<Raw> pending_;
  uint32_t disconnected_ = 0;  // bit k: events of kind k are dropped (disconnect())
  std::vector<Hart> harts_;
  std::unordered_map<int, std::deque<std::shared_ptr<Request>>> waiting_;  // per channel: started, not yet visible
  std::vector<std::shared_ptr<Request>> local_due_;  // local sfence.vma not yet binding
  std::map<uint32_t, std::shared_ptr<Request>> engine_;  // started, not finished, by seq
  uint64_t violations_ = 0, unexplained_ = 0, requests_ = 0, local_ = 0;
  uint64_t races_[kRaces] = {};
};
