#include "pipelines/autoviz/report/svg_renderer.hpp"

#include <fcntl.h>
#include <linux/sockios.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "core/asset_store.hpp"
#include "core/config.hpp"
#include "core/content_hash.hpp"
#include "core/file_text.hpp"
#include "core/user_dirs.hpp"

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

// `argv` as execve takes it, null-terminated; the strings must outlive the result.
std::vector<char*> argv_pointers(const std::vector<std::string>& argv) {
  std::vector<char*> pointers;
  for (const std::string& arg : argv) pointers.push_back(const_cast<char*>(arg.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

core::Result<Child> spawn(const std::vector<std::string>& argv) {
  Child child;
  ChildPipes& pipes = child.pipes;
  int in[2], out[2], err[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0)
    return core::internal_error(std::strerror(errno));
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
  std::vector<char*> args = argv_pointers(argv);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return core::unavailable(std::strerror(rc), argv[0]);
  child.pid = pid;
  return child;
}

void end(Child& child) {
  ::kill(child.pid, SIGKILL);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
}

constexpr std::size_t kMaxReply = std::size_t{256} << 20;  // far beyond any chart's SVG

// The byte count of the whole reply frame "<kind> <length>\n<body>" (kind ok, error or started)
// once its header has arrived: 0 before that, npos for a header that is not one (or claims more
// than kMaxReply).
std::size_t frame_size(std::string_view reply) {
  const std::size_t newline = reply.find('\n');
  if (newline == std::string_view::npos) return reply.size() > 64 ? std::string_view::npos : 0;
  const std::size_t space = reply.find(' ');
  const std::string_view kind = reply.substr(0, space);
  if (space > newline || (kind != "ok" && kind != "error" && kind != "started"))
    return std::string_view::npos;
  std::size_t length = 0;
  const char* first = reply.data() + space + 1;
  const char* last = reply.data() + newline;
  const auto [end, ec] = std::from_chars(first, last, length);
  if (ec != std::errc() || end != last || first == last || length > kMaxReply) return std::string_view::npos;
  return newline + 1 + length;
}

enum class Io { kDone, kTimedOut, kClosed };

// When a reply must have come: `at`; with `render` set, the server's "started" frame (its render of
// this spec begins) moves `at` to `render` after it, so time spent queued behind other clients'
// renders does not count against the render.
struct Deadline {
  Clock::time_point at;
  std::optional<std::chrono::milliseconds> render;
  bool started = false;  // a "started" frame came
};

// Sends `request` to the child's stdin and reads its stdout into `reply` until a whole answer frame
// has arrived (or a bad header), draining its stderr into `err` (its last 8 KiB) all along.
Io exchange(ChildPipes& pipes, std::string_view request, std::string& reply, std::string& err,
            Deadline& deadline) {
  std::size_t written = 0;
  for (;;) {
    if (written == request.size()) {
      const std::size_t size = frame_size(reply);
      const bool whole = size != 0 && size != std::string_view::npos && reply.size() >= size;
      if (whole && reply.starts_with("started ")) {
        reply.erase(0, size);
        deadline.started = true;
        if (deadline.render) deadline.at = Clock::now() + *deadline.render;
        continue;
      }
      if (whole || size == std::string_view::npos) return Io::kDone;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline.at - Clock::now()).count();
    if (left <= 0) return Io::kTimedOut;
    std::array<pollfd, 3> fds{pollfd{pipes.out.get(), POLLIN, 0}, pollfd{pipes.err.get(), POLLIN, 0},
                              pollfd{written < request.size() ? pipes.in.get() : -1, POLLOUT, 0}};
    if (::poll(fds.data(), fds.size(), static_cast<int>(left)) < 0 && errno != EINTR) return Io::kClosed;
    char buffer[65536];
    if (fds[1].revents != 0) {
      const ssize_t n = ::read(fds[1].fd, buffer, sizeof buffer);
      if (n > 0) err.append(buffer, static_cast<std::size_t>(n));
      if (err.size() > 8192) err.erase(0, err.size() - 8192);
      if (n == 0) pipes.err.reset();
    }
    if (fds[0].revents != 0) {
      const ssize_t n = ::read(fds[0].fd, buffer, sizeof buffer);
      if (n > 0) reply.append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) return Io::kClosed;
    }
    if (fds[2].fd >= 0 && fds[2].revents != 0) {
      const ssize_t n =
          ::send(fds[2].fd, request.data() + written, request.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EAGAIN && errno != EINTR) return Io::kClosed;
    }
  }
}

std::string request_frame(std::string_view spec) {
  std::string request = std::to_string(spec.size()) + "\n";
  request += spec;
  return request;
}

// The SVG a whole reply frame carries, or the error it names; kUnavailable for a reply that is not
// a frame.
core::Result<std::string> svg_of_reply(const std::string& reply) {
  const std::size_t size = frame_size(reply);
  if (size == std::string_view::npos || reply.size() != size) {
    return core::unavailable(
        "the SVG renderer answered with something other than a frame: " + reply.substr(0, 40), "svg");
  }
  std::string body = reply.substr(reply.find('\n') + 1);
  if (reply.rfind("error ", 0) == 0)
    return core::invalid_argument("SVG render failed: " + first_lines(body, 3), "svg");
  if (body.find("<svg") == std::string::npos) {
    return core::invalid_argument("SVG render failed: the renderer gave no SVG", "svg");
  }
  return body;
}

// The resident node child and its frames; one render at a time (SvgRenderer takes turns).
class RenderServer {
 public:
  explicit RenderServer(std::vector<std::string> argv) : argv_(std::move(argv)) {}
  RenderServer(const RenderServer&) = delete;
  RenderServer& operator=(const RenderServer&) = delete;
  ~RenderServer() { stop(); }

  core::Result<void> start() {
    if (child_) return {};
    err_.clear();
    core::Result<Child> child = spawn(argv_);
    if (!child) return child.error();
    child_ = std::move(*child);
    return {};
  }

  // A child that was running before this render and closed its end unasked died between renders
  // (or on this spec): it is started again, once.
  core::Result<std::string> render(std::string_view spec, std::chrono::milliseconds timeout) {
    const bool was_running = child_.has_value();
    std::optional<core::Result<std::string>> svg = render_once(spec, timeout);
    if (!svg && was_running) svg = render_once(spec, timeout);
    if (svg) return std::move(*svg);
    const std::string detail = first_lines(err_, 3);
    return core::unavailable("the SVG renderer exited" + (detail.empty() ? std::string() : ": " + detail),
                             "svg");
  }

  void stop() {
    if (child_) end(*child_);
    child_.reset();
  }

 private:
  // The child's answer; nullopt when it closed its end before answering (its stderr stays in err_).
  std::optional<core::Result<std::string>> render_once(std::string_view spec,
                                                       std::chrono::milliseconds timeout) {
    Deadline deadline{Clock::now() + timeout, std::nullopt};  // node's start-up included
    if (core::Result<void> started = start(); !started) return started.error();
    std::string reply;
    const Io io = exchange(child_->pipes, request_frame(spec), reply, err_, deadline);
    if (io != Io::kDone) stop();
    if (io == Io::kClosed) return std::nullopt;
    if (io == Io::kTimedOut) {
      return core::unavailable(
          "the SVG render ran past " + std::to_string(timeout.count()) + " ms and was killed", "svg");
    }
    core::Result<std::string> svg = svg_of_reply(reply);
    if (!svg && svg.error().code == core::ErrorCode::kUnavailable) stop();
    return svg;
  }

  std::vector<std::string> argv_;  // node, its flags, the server script, the node_modules folder
  std::optional<Child> child_;
  std::string err_;  // what the child wrote to stderr lately
};

// A server on a Unix socket that outlives this process and serves later ones (the server script's
// --listen mode); one connection per render. Started here, detached in its own session with no
// inherited descriptors, when none answers.
class SharedServer {
 public:
  // The address of a socket at `path`; nullopt when the path is too long for one.
  static std::optional<sockaddr_un> address_of(const fs::path& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string text = path.string();
    if (text.size() >= sizeof address.sun_path) return std::nullopt;
    std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
    return address;
  }

  SharedServer(std::vector<std::string> argv, fs::path socket, sockaddr_un address,
               std::chrono::seconds keep_alive)
      : argv_(std::move(argv)), socket_(std::move(socket)), address_(address), keep_alive_(keep_alive) {}

  // Starts a server unless one answers.
  void start() {
    if (!connect_once()) spawn_server();
  }

  // The server's answer; nullopt when none answers within kConnectWait of starting one (after
  // which this renderer stops asking), the connection breaks before a reply, or the spec waited
  // `timeout` without starting (the server then drops it): the caller renders elsewhere. A server
  // gone since (its idle exit, a kill) is started again. A server stuck in one render is killed:
  // when this spec started and ran past `timeout`, as the caller's own child would be, and when
  // the server has not read the spec in `timeout` (between renders it reads every connection).
  std::optional<core::Result<std::string>> render(std::string_view spec, std::chrono::milliseconds timeout) {
    Deadline deadline{Clock::now() + timeout, timeout};
    std::optional<Fd> connection = unreachable_ ? std::nullopt : connect_once();
    if (!connection && !unreachable_) {
      spawn_server();
      const Clock::time_point give_up = std::min(deadline.at, Clock::now() + kConnectWait);
      while (!connection && Clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        connection = connect_once();
      }
      unreachable_ = !connection;
    }
    if (!connection) return std::nullopt;
    starting_ = false;
    ChildPipes pipes;
    pipes.out.reset(::dup(connection->get()));
    pipes.in = std::move(*connection);
    std::string reply, err;
    const Io io = exchange(pipes, request_frame(spec), reply, err, deadline);
    if (io == Io::kClosed) return std::nullopt;
    if (io == Io::kTimedOut) {
      if (!deadline.started) {  // queued behind other charts, or stuck
        if (unread_bytes(pipes.in.get()) > 0) kill_peer(pipes.in.get());
        return std::nullopt;
      }
      kill_peer(pipes.in.get());
      return core::unavailable("the SVG render ran past " + std::to_string(timeout.count()) +
                                   " ms and the shared renderer was killed",
                               "svg");
    }
    return svg_of_reply(reply);
  }

 private:
  static constexpr std::chrono::seconds kConnectWait{5};

  // Bytes this end sent on `fd` that the peer has not read yet.
  static int unread_bytes(int fd) {
    int unread = 0;
    return ::ioctl(fd, SIOCOUTQ, &unread) == 0 ? unread : 0;
  }

  static void kill_peer(int fd) {
    ucred peer{};
    socklen_t size = sizeof peer;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.pid > 0)
      ::kill(peer.pid, SIGKILL);
  }

  std::optional<Fd> connect_once() const {
    Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (fd.get() < 0) return std::nullopt;
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address_), sizeof address_) != 0)
      return std::nullopt;
    return fd;
  }

  // sh runs the server in the background and exits at once, so the server is not this process's
  // child; it starts its own session in /, with /dev/null for stdin, stdout and stderr.
  // Nothing while a server this renderer started has not answered yet.
  void spawn_server() {
    if (starting_) return;
    starting_ = true;
    std::vector<std::string> argv = {"/bin/sh", "-c", "cd / && \"$@\" &", "sh"};
    argv.insert(argv.end(), argv_.begin(), argv_.end());
    argv.insert(argv.end(),
                {"--listen", socket_.string(), "--idle-seconds", std::to_string(keep_alive_.count())});
    std::vector<char*> args = argv_pointers(argv);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY,
                                       0);
    }
    posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
    pid_t pid = 0;
    if (::posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ) == 0) {
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
  }

  std::vector<std::string> argv_;  // node, its flags, the server script, the node_modules folder
  fs::path socket_;
  sockaddr_un address_;  // socket_'s
  std::chrono::seconds keep_alive_;
  bool starting_ = false;     // a server this renderer started has not answered yet
  bool unreachable_ = false;  // none answered in time: renders stay in this process
};

// A folder only this user can use: made 0700 when missing; false when it is anything else.
bool private_folder(const fs::path& dir) {
  ::mkdir(dir.c_str(), 0700);
  struct stat status {};
  return ::lstat(dir.c_str(), &status) == 0 && S_ISDIR(status.st_mode) && status.st_uid == ::getuid() &&
         (status.st_mode & 077) == 0;
}

// The shared server's socket in `dir`, named for the node, script and node_modules it runs and the
// size and time of node, the script and vega's and vega-lite's package.json, so another install or
// version (a bootstrap that updated vega, a new node at the same path) never shares it.
fs::path socket_for(const fs::path& dir, const std::vector<std::string>& argv, const fs::path& node,
                    const fs::path& script, const fs::path& modules) {
  std::string key;
  for (const std::string& arg : argv) key += arg + "\n";
  for (const fs::path& file :
       {node, script, modules / "vega" / "package.json", modules / "vega-lite" / "package.json"}) {
    std::error_code ec;
    key += std::to_string(fs::file_size(file, ec)) + ":" +
           std::to_string(fs::last_write_time(file, ec).time_since_epoch().count()) + "\n";
  }
  return dir / ("render-" + core::to_hex(core::fnv1a64(key)) + ".sock");
}

using StartedRender = std::pair<std::string, std::future<core::Result<std::string>>>;  // spec, SVG

}  // namespace

struct SvgRenderer::Background {
  explicit Background(std::vector<std::string> argv) : server(std::move(argv)) {}

  std::mutex server_mutex;
  RenderServer server;                 // guarded by server_mutex
  std::optional<SharedServer> shared;  // guarded by server_mutex; set when renders go to a shared server
  std::mutex mutex;
  std::deque<StartedRender> started;  // guarded by mutex; oldest first; destroyed first, joining them
};

namespace {

// The render server compiled into planfirst (assets/autoviz/vl_render_server.js), written once into
// this user's private runtime folder under a name that holds its hash, since node runs it from a file.
// When it cannot be written there, the renderer reports it missing at the path it looked at.
fs::path builtin_render_server() {
  const fs::path dir = core::user_runtime_dir(core::process_environment(), ::getuid());
  const core::Result<std::string> text = core::AssetStore().read("autoviz/vl_render_server.js");
  if (!text || !private_folder(dir)) return dir / "vl_render_server.js";
  const fs::path script = dir / ("vl_render_server-" + core::to_hex(core::fnv1a64(*text)) + ".js");
  std::error_code ec;
  if (!fs::is_regular_file(script, ec)) (void)core::write_file_atomically(script, *text);
  return script;
}

}  // namespace

SvgRendererOptions SvgRendererOptions::installed() {
  SvgRendererOptions options;
  options.script = builtin_render_server();
  options.modules = PLANFIRST_NODE_MODULES;
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
    reason_ = "the SVG render server is not at " + options_.script.string();
  } else if (!fs::is_directory(options_.modules / "vega-lite", ec) ||
             !fs::is_directory(options_.modules / "vega", ec)) {
    reason_ = "vega-lite not found in " + options_.modules.string() + " (scripts/bootstrap installs it)";
  }
  // --expose-gc: the server collects its young objects between renders (see the script).
  std::vector<std::string> argv = {node_.string(), "--expose-gc", options_.script.string(),
                                   options_.modules.string()};
  background_ = std::make_unique<Background>(argv);
  if (!available() || options_.keep_alive.count() <= 0 || options_.runtime_dir.empty()) return;
  const fs::path runtime_dir = fs::absolute(options_.runtime_dir, ec);
  if (!private_folder(runtime_dir)) return;
  fs::path socket = socket_for(runtime_dir, argv, node_, options_.script, options_.modules);
  if (std::optional<sockaddr_un> address =
          SharedServer::address_of(socket)) {  // else no socket can have that name
    shared_socket_ = std::move(socket);
    background_->shared.emplace(std::move(argv), shared_socket_, *address, options_.keep_alive);
  }
}

SvgRenderer::SvgRenderer(SvgRenderer&&) noexcept = default;
SvgRenderer& SvgRenderer::operator=(SvgRenderer&&) noexcept = default;
SvgRenderer::~SvgRenderer() = default;

void SvgRenderer::warm_up() const {
  if (!available() || !background_) return;
  const std::unique_lock<std::mutex> lock(background_->server_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return;  // busy: it runs already
  if (background_->shared) {
    background_->shared->start();
  } else {
    (void)background_->server.start();
  }
}

core::Result<std::string> SvgRenderer::render_now(Background& background, std::string_view spec,
                                                  std::chrono::milliseconds timeout) {
  const std::lock_guard<std::mutex> lock(background.server_mutex);
  if (background.shared) {
    if (std::optional<core::Result<std::string>> svg = background.shared->render(spec, timeout)) return *svg;
  }
  return background.server.render(spec, timeout);  // no shared server: a child of this renderer
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
  try {
    std::future<core::Result<std::string>> svg =
        std::async(std::launch::async, [background = background_.get(), spec, timeout = options_.timeout]() {
          return render_now(*background, spec, timeout);
        });
    background_->started.emplace_back(std::move(spec), std::move(svg));
  } catch (const std::system_error&) {
    // no thread to spare: render() renders the spec when it is asked for
  }
}

core::Result<std::string> SvgRenderer::render(std::string_view spec) const {
  if (!available()) return core::failed_precondition(reason_, "svg");
  if (!background_) return core::failed_precondition("a moved-from SvgRenderer", "svg");
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
  return render_now(*background_, spec, options_.timeout);
}

}  // namespace planfirst::autoviz
