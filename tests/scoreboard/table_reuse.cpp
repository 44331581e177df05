// The scoreboard alone (sim/scoreboard.cpp), fed the events of two walks
// around a full sfence.vma on hart 0, then a load through the second:
//   reuse   a new process whose root is a page that was the first process's
//           level-1 table (freed and reused) walks from its root, every PTE
//           read after the sfence: clean, since the root has no age
//           (docs/scoreboard.md), whatever its page was before
//   cached  the same process walks again, but reads only the leaf PTE (the
//           walker's PTE cache answered the levels above, which it must not
//           after a full sfence.vma): a violation
// Built and run by tests/system/test_scoreboard.py; exits with the number
// of violations the scoreboard found, 100 on a setup error.
#include <cstdio>
#include <string>

#include "scoreboard.h"

namespace {
enum { kWalkReq = 6, kPteRead = 7, kRefill = 8, kDataAccess = 9, kOrdered = 11, kLocalSfence = 12 };
constexpr int kDtlb = 1;
constexpr unsigned long long kTable = 0x1;            // V
constexpr unsigned long long kLeaf = 0x1 | 0x2 | 0x4 | 0x10 | 0x40 | 0x80;  // V R W U A D

unsigned long long pte(unsigned long long page, unsigned long long flags) { return page << 10 | flags; }

unsigned long long cycle = 100;
void step(Scoreboard& sb) { sb.end_cycle(cycle++); }

// A three-level Sv39 walk of `va` from root page `root` through level-1
// page `l1` and level-0 page `l0` to data page `data`, then a load; with
// `cached`, the two upper levels come from the walker's PTE cache.
void walk_and_load(Scoreboard& sb, unsigned long long root, unsigned long long l1, unsigned long long l0,
                   unsigned long long data, unsigned long long va, bool cached = false) {
  const unsigned long long vpn = va >> 12, i2 = vpn >> 18 & 511, i1 = vpn >> 9 & 511, i0 = vpn & 511;
  sb.event(kWalkReq, 0, kDtlb, vpn, 0, 0);
  step(sb);
  if (!cached) {
    sb.event(kPteRead, 0, root << 12 | i2 * 8, pte(l1, kTable), 0, 0);
    step(sb);
    sb.event(kPteRead, 0, l1 << 12 | i1 * 8, pte(l0, kTable), 0, 0);
    step(sb);
  }
  sb.event(kPteRead, 0, l0 << 12 | i0 * 8, pte(data, kLeaf), 0, 0);
  step(sb);
  sb.event(kRefill, 0, kDtlb, pte(data, kLeaf), 2, 0);  // level 2: a 4 KiB page
  step(sb);
  sb.event(kDataAccess, 0, va, data << 12 | (va & 0xfff), 0, 1);
  step(sb);
  sb.event(kOrdered, 0, 0, 0, 0, 0);  // the load has left the D$
  step(sb);
}
}  // namespace

int main(int argc, char** argv) {
  const bool reuse = argc == 2 && std::string(argv[1]) == "reuse", cached = argc == 2 && std::string(argv[1]) == "cached";
  if (!reuse && !cached) {
    std::fprintf(stderr, "usage: table_reuse reuse|cached\n");
    return 100;
  }
  Scoreboard sb(stderr);
  // process 1: root 0x80100, its level-1 table at page 0x80200
  walk_and_load(sb, 0x80100, 0x80200, 0x80300, 0x80400, 0x10000);
  for (int i = 0; i < 50; i++) step(sb);
  sb.event(kLocalSfence, 0, 0, 0, 0, 0);  // sfence.vma x0, x0
  for (int i = 0; i < 50; i++) step(sb);
  if (reuse)  // process 2: its root is page 0x80200, once process 1's level-1 table
    walk_and_load(sb, 0x80200, 0x80500, 0x80600, 0x80700, 0x20000);
  else  // process 1 again, the page next to the first, its upper levels from the PTE cache
    walk_and_load(sb, 0x80100, 0x80200, 0x80300, 0x80800, 0x11000, true);
  if (sb.unexplained()) return 100;
  sb.summary(stderr);
  return (int)sb.violations();
}
