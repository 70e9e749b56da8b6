#include "support/loopback.hpp"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

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

int free_loopback_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  close(fd);
  return port;
}

}  // namespace planfirst::test_support
