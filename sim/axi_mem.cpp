#include "axi_mem.h"

#include <cstdio>
#include <cstring>

AxiMem::AxiMem(uint64_t base, uint64_t size, unsigned latency)
    : base_(base), bytes_(size, 0), latency_(latency), jitter_(0), rng_(0) {}

uint64_t AxiMem::delay() {
  if (jitter_ == 0) return latency_;
  uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return latency_ + z % (jitter_ + 1ull);
}

uint64_t AxiMem::beat_addr(const AxiAddr& a, uint32_t beat) {
  const uint64_t step = 1ull << a.size;
  switch (a.burst) {
    case 0:  // FIXED
      return a.addr;
    case 2: {  // WRAP: the burst wraps at its total size
      const uint64_t total = step * (a.len + 1);
      const uint64_t lo = a.addr & ~(total - 1);
      return lo + ((a.addr - lo + beat * step) & (total - 1));
    }
    default:  // INCR
      return (a.addr & ~(step - 1)) + beat * step;
  }
}

bool AxiMem::burst_ok(const AxiAddr& a) const {
  const uint64_t step = 1ull << a.size;
  const uint64_t first = a.addr & ~(uint64_t)(kBeatBytes - 1);
  const uint64_t last = beat_addr(a, a.len) & ~(uint64_t)(kBeatBytes - 1);
  return step <= kBeatBytes && contains(first, kBeatBytes) && contains(last, kBeatBytes);
}

AxiSlaveOut AxiMem::outputs() const {
  AxiSlaveOut o{};
  o.aw_ready = writes_.size() < kQueueDepth;
  o.ar_ready = reads_.size() < kQueueDepth;
  o.w_ready = !writes_.empty();
  if (!responses_.empty() && responses_.front().ready_at <= cycle_) {
    o.b_valid = true;
    o.b_id = responses_.front().a.id;
    o.b_resp = responses_.front().resp;
  }
  if (!reads_.empty() && reads_.front().ready_at <= cycle_) {
    const Pending& r = reads_.front();
    o.r_valid = true;
    o.r_id = r.a.id;
    o.r_resp = r.resp;
    o.r_last = r.beat == r.a.len;
    if (r.resp == 0) {
      const uint64_t addr = beat_addr(r.a, r.beat) & ~(uint64_t)(kBeatBytes - 1);
      std::memcpy(&o.r_data, &bytes_[addr - base_], kBeatBytes);
    }
  }
  return o;
}

void AxiMem::tick(const AxiMasterOut& in, const AxiSlaveOut& out) {
  if (out.r_valid && in.r_ready) {
    Pending& r = reads_.front();
    if (r.beat++ == r.a.len) reads_.pop_front();
  }
  if (out.b_valid && in.b_ready) responses_.pop_front();

  if (out.w_ready && in.w_valid) {
    Pending& w = writes_.front();
    if (w.resp == 0) {
      const uint64_t addr = beat_addr(w.a, w.beat) & ~(uint64_t)(kBeatBytes - 1);
      uint8_t* p = &bytes_[addr - base_];
      for (unsigned i = 0; i < kBeatBytes; i++)
        if (in.w_strb & (1u << i)) p[i] = (uint8_t)(in.w_data >> (8 * i));
    }
    const bool last = w.beat == w.a.len;
    if (last != in.w_last) {
      std::fprintf(stderr, "[sim] axi: write burst id %u: WLAST on beat %u of %u\n", w.a.id, w.beat, w.a.len + 1);
      errors_++;
    }
    w.beat++;
    if (last || in.w_last) {
      w.ready_at = cycle_ + delay();
      responses_.push_back(w);
      writes_.pop_front();
    }
  }

  if (out.aw_ready && in.aw_valid) {
    Pending w{in.aw, 0, 0, 0};
    if (!burst_ok(in.aw)) {
      std::fprintf(stderr, "[sim] axi: write to 0x%llx outside memory: SLVERR\n", (unsigned long long)in.aw.addr);
      w.resp = 2;
      errors_++;
    }
    writes_.push_back(w);
  }
  if (out.ar_ready && in.ar_valid) {
    Pending r{in.ar, 0, cycle_ + delay(), 0};
    if (!burst_ok(in.ar)) {
      std::fprintf(stderr, "[sim] axi: read from 0x%llx outside memory: SLVERR\n", (unsigned long long)in.ar.addr);
      r.resp = 2;
      errors_++;
    }
    reads_.push_back(r);
  }
  cycle_++;
}
