// AXI4 slave that serves the SoC's DRAM port from a host byte array.
//
// In-order and non-interleaving (the port declares interleavedId = 0): one
// read burst streams at a time, one beat a cycle, after a fixed latency.
// With jitter J > 0 (set_jitter) each read burst's first beat and each
// write response waits latency + a number in [0, J] drawn from a generator
// seeded by `seed` (splitmix64): the same seed gives the same run, byte for
// byte, and different seeds give the spread that a fixed latency hides.
// Bursts still complete in the order they were accepted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

struct AxiAddr {
  uint32_t id;
  uint64_t addr;
  uint32_t len;    // beats - 1
  uint32_t size;   // log2 bytes per beat
  uint32_t burst;  // 0 FIXED, 1 INCR, 2 WRAP
};

// What the DUT drives this cycle, sampled before the clock edge.
struct AxiMasterOut {
  bool aw_valid, w_valid, b_ready, ar_valid, r_ready;
  AxiAddr aw, ar;
  uint64_t w_data;
  uint32_t w_strb;
  bool w_last;
};

// What the memory drives this cycle.
struct AxiSlaveOut {
  bool aw_ready, w_ready, b_valid, ar_ready, r_valid;
  uint32_t b_id, b_resp, r_id, r_resp;
  uint64_t r_data;
  bool r_last;
};

class AxiMem {
 public:
  static constexpr unsigned kBeatBytes = 8;

  AxiMem(uint64_t base, uint64_t size, unsigned latency);

  uint64_t base() const { return base_; }
  uint64_t size() const { return bytes_.size(); }
  bool contains(uint64_t addr, uint64_t len) const {
    return addr >= base_ && len <= size() && addr - base_ <= size() - len;
  }
  uint8_t* at(uint64_t addr) { return &bytes_[addr - base_]; }

  // Outputs for the coming clock edge.
  AxiSlaveOut outputs() const;
  // Advance one cycle given the handshakes that happened at this edge.
  void tick(const AxiMasterOut& in, const AxiSlaveOut& out);

  uint64_t errors() const { return errors_; }
  // From now on, up to `jitter` cycles more per access, from a generator
  // started at `seed`.
  void set_jitter(unsigned jitter, uint64_t seed) { jitter_ = jitter, rng_ = seed; }

 private:
  struct Pending {
    AxiAddr a;
    uint32_t beat;
    uint64_t ready_at;  // cycle the first beat (reads) or the response (writes) may go
    uint32_t resp;
  };
  static uint64_t beat_addr(const AxiAddr& a, uint32_t beat);
  bool burst_ok(const AxiAddr& a) const;
  uint64_t delay();  // latency plus this access's jitter

  uint64_t base_;
  std::vector<uint8_t> bytes_;
  unsigned latency_;
  unsigned jitter_;
  uint64_t rng_;  // splitmix64 state
  uint64_t cycle_ = 0;
  uint64_t errors_ = 0;
  std::deque<Pending> reads_, writes_, responses_;
  static constexpr size_t kQueueDepth = 8;
};
