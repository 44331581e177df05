// The scoreboard alone (sim/scoreboard.cpp), fed the events of two walks
// around a full sfence.vma on hart 0, then a load through the second:
//   reuse   a new process whose root is a page that was the first process's
//           level-1 table (freed and reused) walks from its root, every PTE
//           read after the sfence: clean, since the root has no age
//           (docs/scoreboard.md), whatever its page was before
//   cached  the same process walks again, but reads only the leaf PTE (the
//           walker's PTE cache answered the levels above, which it must not
//           after a full sfence.vma): a violation
//   mid     after the sfence, process 1 walks again from memory; a new
//           process whose root is a page that was process 1's other
//           level-0 table (its age from before the sfence) reads its root
//           from memory, takes the shared level-1 entry from the PTE cache
//           (a walk of two reads for a 4 KiB page that did start at the
//           root), then walks another page with its root from the cache:
//           clean (every pointer was read after the sfence). Found when
//           each benchmark got a process of its own: the scoreboard took
//           the first read of such a walk for one below the root and gave
//           the level-1 table its root page's old age
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
// page `l1` and level-0 page `l0` to data page `data`, then a load; the
// levels `cached` names (kRoot, kL1) come from the walker's PTE cache.
enum { kRoot = 1, kL1 = 2 };
void walk_and_load(Scoreboard& sb, unsigned long long root, unsigned long long l1, unsigned long long l0,
                   unsigned long long data, unsigned long long va, int cached = 0) {
  const unsigned long long vpn = va >> 12, i2 = vpn >> 18 & 511, i1 = vpn >> 9 & 511, i0 = vpn & 511;
  sb.event(kWalkReq, 0, kDtlb, vpn, 0, 0);
  step(sb);
  if (!(cached & kRoot)) {
    sb.event(kPteRead, 0, root << 12 | i2 * 8, pte(l1, kTable), 0, 0);
    step(sb);
  }
  if (!(cached & kL1)) {
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
  const std::string c = argc == 2 ? argv[1] : "";
  const bool reuse = c == "reuse", cached = c == "cached", mid = c == "mid";
  if (!reuse && !cached && !mid) {
    std::fprintf(stderr, "usage: table_reuse reuse|cached|mid\n");
    return 100;
  }
  Scoreboard sb(stderr);
  // process 1: root 0x80100, its level-1 table at page 0x80200
  walk_and_load(sb, 0x80100, 0x80200, 0x80300, 0x80400, 0x10000);
  if (mid)  // and a page under another level-0 table, 0x80900
    walk_and_load(sb, 0x80100, 0x80200, 0x80900, 0x80a00, 0x200000);
  for (int i = 0; i < 50; i++) step(sb);
  sb.event(kLocalSfence, 0, 0, 0, 0, 0);  // sfence.vma x0, x0
  for (int i = 0; i < 50; i++) step(sb);
  if (reuse) {  // process 2: its root is page 0x80200, once process 1's level-1 table
    walk_and_load(sb, 0x80200, 0x80500, 0x80600, 0x80700, 0x20000);
  } else if (cached) {  // process 1 again, the page next to the first, its upper levels from the PTE cache
    walk_and_load(sb, 0x80100, 0x80200, 0x80300, 0x80800, 0x11000, kRoot | kL1);
  } else {
    walk_and_load(sb, 0x80100, 0x80200, 0x80300, 0x80400, 0x10000);  // process 1, all read again
    // process 2, root 0x80900: its root from memory, level 1 from the cache
    walk_and_load(sb, 0x80900, 0x80200, 0x80300, 0x80400, 0x10000, kL1);
    // and a page under a new level-0 table, its root from the cache
    walk_and_load(sb, 0x80900, 0x80200, 0x80b00, 0x80c00, 0x400000, kRoot);
  }
  if (sb.unexplained()) return 100;
  sb.summary(stderr);
  return (int)sb.violations();
}
