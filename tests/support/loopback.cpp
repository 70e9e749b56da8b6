#include "support/loopback.hpp"

#include <httplib.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace planfirst::test_support {

int start_loopback(httplib::Server& http, std::thread& thread, const char* who) {
  const int port = http.bind_to_any_port("127.0.0.1");
  if (port <= 0) throw std::runtime_error(std::string(who) + ": cannot bind 127.0.0.1");
  thread = std::thread([&http] { http.listen_after_bind(); });
  for (int i = 0; i < 500 && !http.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return port;
}

void stop_loopback(httplib::Server& http, std::thread& thread) {
  http.stop();
  if (thread.joinable()) thread.join();
}

}  // namespace planfirst::test_support
