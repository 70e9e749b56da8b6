#include "pipelines/autoviz/svg_renderer.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace planfirst::autoviz {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

fs::path find_on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path == nullptr ? std::string_view() : std::string_view(path);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const fs::path candidate = fs::path(rest.substr(0, colon)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
  return {};
}

class Fd {  // closes on scope exit
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

struct ChildPipes {  // parent ends; the child's ends are closed once it has started
  Fd in, out, err;
};

struct ChildOutput {
  std::string out, err;
  bool timed_out = false;
  int status = 0;
};

core::Result<pid_t> spawn(const std::vector<std::string>& argv, ChildPipes& pipes) {
  int in[2], out[2], err[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) return core::internal_error(std::strerror(errno));
  Fd child_in(in[1]);
  pipes.in.reset(in[0]);
  if (::pipe2(out, O_CLOEXEC) != 0) return core::internal_error(std::strerror(errno));
  Fd child_out(out[1]);
  pipes.out.reset(out[0]);
  if (::pipe2(err, O_CLOEXEC) != 0) return core::internal_error(std::strerror(errno));
  Fd child_err(err[1]);
  pipes.err.reset(err[0]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_in.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_out.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_err.get(), STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return core::unavailable(std::strerror(rc), argv[0]);
  return pid;
}

// Writes `input` to the child's stdin while draining its stdout and stderr, until both close or
// the deadline passes.
bool exchange(ChildPipes& pipes, std::string_view input, ChildOutput& output, Clock::time_point deadline) {
  std::size_t written = 0;
  if (input.empty()) pipes.in.reset();
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    std::array<pollfd, 3> fds{pollfd{pipes.out.get(), POLLIN, 0}, pollfd{pipes.err.get(), POLLIN, 0},
                              pollfd{pipes.in.get(), POLLOUT, 0}};
    if (::poll(fds.data(), fds.size(), static_cast<int>(left)) < 0 && errno != EINTR) return false;
    char buffer[8192];
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) (i == 0 ? output.out : output.err).append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) (i == 0 ? pipes.out : pipes.err).reset();
    }
    if (fds[2].fd >= 0 && fds[2].revents != 0) {
      const ssize_t n = ::send(fds[2].fd, input.data() + written, input.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (written == input.size() || (n < 0 && errno != EAGAIN && errno != EINTR)) pipes.in.reset();
    }
    out_open = pipes.out.get() >= 0;
    err_open = pipes.err.get() >= 0;
  }
  return true;
}

core::Result<ChildOutput> run_child(const std::vector<std::string>& argv, std::string_view input,
                                    std::chrono::milliseconds timeout) {
  ChildPipes pipes;
  core::Result<pid_t> pid = spawn(argv, pipes);
  if (!pid) return pid.error();
  ChildOutput output;
  output.timed_out = !exchange(pipes, input, output, Clock::now() + timeout);
  if (output.timed_out) ::kill(*pid, SIGKILL);
  while (::waitpid(*pid, &output.status, 0) < 0 && errno == EINTR) {
  }
  return output;
}

std::string first_lines(const std::string& text, int count) {
  std::size_t end = 0;
  for (int i = 0; i < count && end != std::string::npos; ++i) {
    end = text.find('\n', end);
    if (end != std::string::npos) ++end;
  }
  std::string head = text.substr(0, end);
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  return head;
}

}  // namespace

SvgRendererOptions SvgRendererOptions::installed() {
  SvgRendererOptions options;
  options.script = fs::path(PLANFIRST_NODE_MODULES) / "vega-lite" / "bin" / "vl2svg";
  return options;
}

SvgRenderer::SvgRenderer(SvgRendererOptions options) : options_(std::move(options)) {
  node_ = options_.node.empty() ? find_on_path("node") : options_.node;
  std::error_code ec;
  if (node_.empty()) {
    reason_ = "node not found on PATH";
  } else if (::access(node_.c_str(), X_OK) != 0) {
    reason_ = "node not found at " + node_.string();
  } else if (!fs::is_regular_file(options_.script, ec)) {
    reason_ = "vl2svg not found at " + options_.script.string() + " (scripts/bootstrap installs it)";
  }
}

core::Result<std::string> SvgRenderer::render(std::string_view spec) const {
  if (!available()) return core::failed_precondition(reason_, "vl2svg");
  core::Result<ChildOutput> run = run_child({node_.string(), options_.script.string()}, spec, options_.timeout);
  if (!run) return run.error();
  if (run->timed_out) {
    return core::unavailable("vl2svg ran past " + std::to_string(options_.timeout.count()) + " ms and was killed",
                             "vl2svg");
  }
  if (!WIFEXITED(run->status) || WEXITSTATUS(run->status) != 0 || run->out.find("<svg") == std::string::npos) {
    const std::string detail = first_lines(run->err, 3);
    return core::invalid_argument("vl2svg failed: " + (detail.empty() ? std::string("no SVG produced") : detail),
                                  "vl2svg");
  }
  return std::move(run->out);
}

}  // namespace planfirst::autoviz
