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

// The one `Server` of this test program that `start(&failure)` makes, on the first call, stopped by the
// static destructor when the program exits; each Start type (a distinct lambda) is its own instance. A
// failed start is remembered, not retried: every call then returns nullptr and sets `*failure` to the
// reason.
template <class Server, class Start>
Server* shared_server(std::string* failure, Start start) {
  struct Shared {
    std::unique_ptr<Server> server;
    std::string failure;
  };
  static Shared shared = [&start] {
    Shared started;
    started.server = start(&started.failure);
    return started;
  }();
  *failure = shared.failure;
  return shared.server.get();
}

// shared_server with Server::start.
template <class Server>
Server* shared_server(std::string* failure) {
  return shared_server<Server>(failure, [](std::string* why) { return Server::start(why); });
}

}  // namespace planfirst::test_support
