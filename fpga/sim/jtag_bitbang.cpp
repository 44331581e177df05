#include "jtag_bitbang.h"

#include "tcp_listen.h"

#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

JtagBitbang::~JtagBitbang() {
  drop_peer();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

std::string JtagBitbang::listen(unsigned port) {
  std::string err;
  unsigned bound = 0;
  listen_fd_ = listen_loopback(port, SOCK_NONBLOCK, &bound, &err);
  if (listen_fd_ < 0) return err;
  std::fprintf(stderr, "[board] jtag: remote bitbang on 127.0.0.1:%u\n", bound);
  std::fflush(stderr);
  return "";
}

void JtagBitbang::drop_peer() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  have_ = next_ = 0;
}

void JtagBitbang::tick(bool tdo) {
  if (fd_ < 0) {
    if (listen_fd_ < 0) return;
    fd_ = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK);
    if (fd_ < 0) return;
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  if (next_ == have_) {
    const ssize_t n = recv(fd_, buf_, sizeof buf_, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {  // the debugger left
      drop_peer();
      return;
    }
    if (n < 0) return;
    have_ = (int)n;
    next_ = 0;
  }
  const char c = buf_[next_++];
  if (c >= '0' && c <= '7') {  // write TCK, TMS, TDI (bits 2, 1, 0)
    tck = (c - '0') & 4;
    tms = (c - '0') & 2;
    tdi = (c - '0') & 1;
  } else if (c == 'R') {  // read TDO
    const char v = tdo ? '1' : '0';
    while (send(fd_, &v, 1, MSG_NOSIGNAL) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
    }
  } else if (c == 'Q') {  // quit
    drop_peer();
  }
  // 'B'/'b' (the adapter's LED) and 'r'-'u' (TRST/SRST: the board wires
  // neither) change nothing.
}
