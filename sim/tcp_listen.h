// A listening TCP socket on the loopback address, for the harness's peers:
// the UART bridge's (uart_bridge.h) and the simulated board's JTAG adapter
// (fpga/sim/jtag_bitbang.h).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

// Listens on 127.0.0.1:port (0: a free port). Returns the socket and sets
// *bound to its port, or returns -1 and sets *err.
inline int listen_loopback(unsigned port, int type_flags, unsigned* bound, std::string* err) {
  const int s = socket(AF_INET, SOCK_STREAM | type_flags, 0);
  if (s < 0) {
    *err = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  const int one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons((uint16_t)port);
  socklen_t len = sizeof a;
  if (bind(s, (sockaddr*)&a, sizeof a) < 0 || ::listen(s, 1) < 0 || getsockname(s, (sockaddr*)&a, &len) < 0) {
    *err = "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno);
    ::close(s);
    return -1;
  }
  *bound = ntohs(a.sin_port);
  return s;
}
