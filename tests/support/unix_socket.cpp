#include "support/unix_socket.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <thread>

namespace planfirst::test_support {
namespace {

sockaddr_un address_of(const std::filesystem::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  return address;
}

// Runs `call` (connect or bind) on a fresh socket for `path`; whether it succeeded.
template <typename Call>
bool with_fresh_socket(const std::filesystem::path& path, Call call) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  const sockaddr_un address = address_of(path);
  const bool done = call(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return done;
}

}  // namespace

std::optional<std::pair<ino_t, std::int64_t>> socket_identity(const std::filesystem::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || !S_ISSOCK(status.st_mode)) return std::nullopt;
  return std::pair<ino_t, std::int64_t>(status.st_ino,
                                        status.st_ctim.tv_sec * 1000000000LL + status.st_ctim.tv_nsec);
}

bool accepts_connections(const std::filesystem::path& path) {
  return with_fresh_socket(path, ::connect);
}

std::optional<pid_t> listening_pid(const std::filesystem::path& path) {
  std::optional<pid_t> pid;
  with_fresh_socket(path, [&pid](int fd, const sockaddr* address, socklen_t size) {
    ucred peer{};
    socklen_t length = sizeof peer;
    if (::connect(fd, address, size) == 0 && ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) == 0 &&
        peer.pid > 0) {
      pid = peer.pid;
    }
    return 0;
  });
  return pid;
}

bool leave_stale_socket(const std::filesystem::path& path) {
  return with_fresh_socket(path, ::bind);
}

bool holds_within(const std::function<bool()>& condition, std::chrono::milliseconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= give_up) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

bool disappears_within(const std::filesystem::path& path, std::chrono::milliseconds limit) {
  return holds_within([&path] { return !std::filesystem::exists(path); }, limit);
}

bool stops_accepting_within(const std::filesystem::path& path, std::chrono::milliseconds limit) {
  return holds_within([&path] { return !accepts_connections(path); }, limit);
}

}  // namespace planfirst::test_support
