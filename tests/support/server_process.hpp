// What the test servers that run as a process of their own (PostgreSQL, llama-server) share: the one
// instance of a test program, started on first use, and the end of a server's log for a failure message.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

namespace planfirst::test_support {

// The last `limit` bytes of `file` ("..." before them when cut); empty when it cannot be read.
std::string log_tail(const std::filesystem::path& file, std::size_t limit);

// The one `Server` of this test program: Server::start(&failure) on the first call, stopped by the
// static destructor when the program exits. A failed start is remembered, not retried: every call then
// returns nullptr and sets `*failure` to the reason.
template <class Server>
Server* shared_server(std::string* failure) {
  struct Shared {
    std::unique_ptr<Server> server;
    std::string failure;
  };
  static Shared shared = [] {
    Shared started;
    started.server = Server::start(&started.failure);
    return started;
  }();
  *failure = shared.failure;
  return shared.server.get();
}

}  // namespace planfirst::test_support
