#include "uart_bridge.h"

#include "tcp_listen.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {
constexpr unsigned kPollCycles = 256;  // how often the socket is looked at
constexpr char kStateTag[] = "uart-bridge-1";

template <typename T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <typename T>
bool get(const std::string& s, size_t& at, T& v) {
  if (s.size() - at < sizeof v) return false;
  std::memcpy(&v, s.data() + at, sizeof v);
  at += sizeof v;
  return true;
}
}  // namespace

UartBridge::~UartBridge() { close(); }

std::string UartBridge::listen_and_accept(unsigned port) {
  std::string err;
  unsigned bound = 0;
  const int s = listen_loopback(port, 0, &bound, &err);
  if (s < 0) return err;
  std::fprintf(stderr, "[sim] uart: waiting on 127.0.0.1:%u (%u cycles a bit)\n", bound, bit_cycles_);
  std::fflush(stderr);
  fd_ = accept(s, nullptr, nullptr);
  const int e = errno;
  ::close(s);
  if (fd_ < 0) return std::string("accept: ") + std::strerror(e);
  const int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return "";
}

void UartBridge::emit(uint8_t byte) {
  if (record_) recorded_.push_back((char)byte);
  if (fd_ >= 0) {
    out_.push_back((char)byte);
  } else {
    std::fputc(byte, stdout);
    if (byte == '\n') std::fflush(stdout);
  }
}

void UartBridge::poll() {
  if (fd_ < 0) return;
  while (!out_.empty()) {
    const ssize_t n = send(fd_, out_.data(), out_.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n <= 0) break;
    out_.erase(0, (size_t)n);
  }
  if (in_.size() < 4096) {
    uint8_t buf[4096];
    const ssize_t n = recv(fd_, buf, sizeof buf - in_.size(), MSG_DONTWAIT);
    if (n > 0) in_.insert(in_.end(), buf, buf + n);
    if (n == 0) {  // the peer left: the program runs on, unheard
      ::close(fd_);
      fd_ = -2;
    }
  }
}

bool UartBridge::tick(bool tx) {
  if (++cycle_ % kPollCycles == 0) poll();

  // SoC -> peer.
  if (rx_bit_ == 0) {
    if (!tx) { rx_bit_ = 1; rx_wait_ = bit_cycles_ / 2; }
  } else if (--rx_wait_ == 0) {
    if (rx_bit_ == 1 && tx) {
      rx_bit_ = 0;  // a glitch, not a start bit
    } else {
      if (rx_bit_ >= 2 && rx_bit_ <= 9) rx_byte_ = (uint8_t)((rx_byte_ >> 1) | (tx ? 0x80 : 0));
      if (rx_bit_ == 10) {
        if (tx) emit(rx_byte_);  // else a framing error: dropped
        rx_bit_ = 0;
      } else {
        rx_bit_++;
        rx_wait_ = bit_cycles_;
      }
    }
  }

  // Peer -> SoC.
  if (tx_bits_ == 0 && !in_.empty()) {
    tx_frame_ = (uint16_t)(0x200 | (in_.front() << 1));  // start 0, data, stop 1
    in_.pop_front();
    tx_bits_ = 10;
    tx_wait_ = bit_cycles_;
  }
  if (tx_bits_ == 0) return true;
  const bool level = tx_frame_ & 1;
  if (--tx_wait_ == 0) {
    tx_frame_ >>= 1;
    tx_bits_--;
    tx_wait_ = bit_cycles_;
  }
  return level;
}

void UartBridge::close() {
  if (fd_ < 0) return;
  while (!out_.empty()) {
    const ssize_t n = send(fd_, out_.data(), out_.size(), MSG_NOSIGNAL);
    if (n <= 0) break;
    out_.erase(0, (size_t)n);
  }
  ::close(fd_);
  fd_ = -1;
}

std::string UartBridge::state() const {
  std::string s(kStateTag, sizeof kStateTag);
  put(s, bit_cycles_);
  put(s, cycle_);
  put(s, rx_bit_), put(s, rx_wait_), put(s, rx_byte_);
  put(s, tx_frame_), put(s, tx_bits_), put(s, tx_wait_);
  put(s, (uint64_t)in_.size());
  s.append(in_.begin(), in_.end());
  put(s, (uint64_t)recorded_.size());
  return s + recorded_;
}

std::string UartBridge::restore(const std::string& s) {
  size_t at = sizeof kStateTag;
  if (s.compare(0, at, std::string(kStateTag, sizeof kStateTag)) != 0) return "not a serial bridge's state";
  unsigned bit_cycles = 0;
  uint64_t n = 0;
  if (!get(s, at, bit_cycles) || bit_cycles != bit_cycles_)
    return "saved at " + std::to_string(bit_cycles) + " cycles a bit, not " + std::to_string(bit_cycles_);
  if (!get(s, at, cycle_) || !get(s, at, rx_bit_) || !get(s, at, rx_wait_) || !get(s, at, rx_byte_) ||
      !get(s, at, tx_frame_) || !get(s, at, tx_bits_) || !get(s, at, tx_wait_) || !get(s, at, n) ||
      s.size() - at < n)
    return "the serial bridge's state is cut short";
  in_.assign(s.begin() + (long)at, s.begin() + (long)(at + n));
  at += n;
  if (!get(s, at, n) || s.size() - at != n) return "the serial bridge's state is cut short";
  recorded_ = s.substr(at);
  record_ = true;
  out_ = recorded_ + out_;
  return "";
}
