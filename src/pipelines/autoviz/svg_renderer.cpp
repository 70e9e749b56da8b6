#include "pipelines/autoviz/svg_renderer.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <system_error>
#include <utility>
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
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(std::exchange(other.fd_, -1));
    return *this;
  }
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

struct Child {  // a started child and the parent's ends of its pipes
  pid_t pid = 0;
  ChildPipes pipes;
};

struct ChildOutput {
  std::string out, err;
  bool timed_out = false;
  int status = 0;
};

core::Result<Child> spawn(const std::vector<std::string>& argv) {
  Child child;
  ChildPipes& pipes = child.pipes;
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
  child.pid = pid;
  return child;
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

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Gives `input` to a started child and collects what it writes until it exits; a child still
// running `timeout` after it got its input is killed.
ChildOutput finish(Child& child, std::string_view input, std::chrono::milliseconds timeout) {
  ChildOutput output;
  output.timed_out = !exchange(child.pipes, input, output, Clock::now() + timeout);
  if (output.timed_out) ::kill(child.pid, SIGKILL);
  output.status = wait_for(child.pid);
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

// What vl2svg gave: the SVG document or the error that names why there is none.
core::Result<std::string> svg_of(ChildOutput run, std::chrono::milliseconds timeout) {
  if (run.timed_out) {
    return core::unavailable("vl2svg ran past " + std::to_string(timeout.count()) + " ms and was killed", "vl2svg");
  }
  if (!WIFEXITED(run.status) || WEXITSTATUS(run.status) != 0 || run.out.find("<svg") == std::string::npos) {
    const std::string detail = first_lines(run.err, 3);
    return core::invalid_argument("vl2svg failed: " + (detail.empty() ? std::string("no SVG produced") : detail),
                                  "vl2svg");
  }
  return std::move(run.out);
}

// Renders `spec` in `child` when one waits, else in a child started for it.
core::Result<std::string> render_in(std::optional<Child> child, const std::vector<std::string>& argv,
                                    std::string_view spec, std::chrono::milliseconds timeout) {
  if (!child) {
    core::Result<Child> started = spawn(argv);
    if (!started) return started.error();
    child = std::move(*started);
  }
  return svg_of(finish(*child, spec, timeout), timeout);
}

using StartedRender = std::pair<std::string, std::future<core::Result<std::string>>>;  // spec, SVG

}  // namespace

struct SvgRenderer::Background {
  ~Background() {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!waiting) return;
    ::kill(waiting->pid, SIGKILL);
    wait_for(waiting->pid);
  }  // then `started` joins each render still running

  std::optional<Child> take_waiting() {
    const std::lock_guard<std::mutex> lock(mutex);
    return std::exchange(waiting, std::nullopt);
  }

  std::mutex mutex;
  std::optional<Child> waiting;        // guarded by mutex; node started, no spec given yet
  std::deque<StartedRender> started;  // guarded by mutex; oldest first
};

SvgRendererOptions SvgRendererOptions::installed() {
  SvgRendererOptions options;
  options.script = fs::path(PLANFIRST_NODE_MODULES) / "vega-lite" / "bin" / "vl2svg";
  return options;
}

SvgRenderer::SvgRenderer(SvgRendererOptions options)
    : options_(std::move(options)), background_(std::make_unique<Background>()) {
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

SvgRenderer::SvgRenderer(SvgRenderer&&) noexcept = default;
SvgRenderer& SvgRenderer::operator=(SvgRenderer&&) noexcept = default;
SvgRenderer::~SvgRenderer() = default;

std::vector<std::string> SvgRenderer::command() const { return {node_.string(), options_.script.string()}; }

void SvgRenderer::warm_up() const {
  if (!available() || !background_) return;
  const std::lock_guard<std::mutex> lock(background_->mutex);
  if (background_->waiting) return;
  core::Result<Child> child = spawn(command());
  if (child) background_->waiting = std::move(*child);
}

void SvgRenderer::start(std::string spec) const {
  if (!available() || !background_) return;
  std::optional<StartedRender> oldest;  // dropped after the lock is released: it may still be running
  const std::lock_guard<std::mutex> lock(background_->mutex);
  for (const StartedRender& render : background_->started) {
    if (render.first == spec) return;
  }
  if (background_->started.size() >= kMaxStarted) {
    oldest = std::move(background_->started.front());
    background_->started.pop_front();
  }
  std::optional<Child> child = std::exchange(background_->waiting, std::nullopt);
  try {
    std::future<core::Result<std::string>> svg =
        std::async(std::launch::async, [child = std::move(child), argv = command(),
                                        spec, timeout = options_.timeout]() mutable {
          return render_in(std::move(child), argv, spec, timeout);
        });
    background_->started.emplace_back(std::move(spec), std::move(svg));
  } catch (const std::system_error&) {
    // no thread to spare: render() renders the spec when it is asked for
  }
}

core::Result<std::string> SvgRenderer::render(std::string_view spec) const {
  if (!available()) return core::failed_precondition(reason_, "vl2svg");
  std::optional<Child> child;
  if (background_) {
    std::future<core::Result<std::string>> started;
    {
      const std::lock_guard<std::mutex> lock(background_->mutex);
      auto found = std::find_if(background_->started.begin(), background_->started.end(),
                                [spec](const StartedRender& render) { return render.first == spec; });
      if (found != background_->started.end()) {
        started = std::move(found->second);
        background_->started.erase(found);
      }
    }
    if (started.valid()) return started.get();
    child = background_->take_waiting();
  }
  return render_in(std::move(child), command(), spec, options_.timeout);
}

}  // namespace planfirst::autoviz
