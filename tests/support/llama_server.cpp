#include "support/llama_server.hpp"

#include <fcntl.h>
#include <httplib.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include "support/loopback.hpp"
#include "support/server_process.hpp"

namespace planfirst::test_support {
namespace {

constexpr int kStartAttempts = 3;
constexpr auto kHealthWait = std::chrono::seconds(120);
constexpr std::size_t kLogTail = 3000;
// Enough context for planfirst's longest prompt plus a reply; one slot and one thread: the tests share
// two cores with other test programs, and llama.cpp's worker threads spin while they wait for each
// other, so two threads on a busy pair of cores ran 5 to 50 times slower than one.
constexpr const char* kContext = "8192";
constexpr const char* kThreads = "1";
constexpr const char* kModelAlias = "smollm2-135m-instruct";  // as scripts/local-llm names it
// The embedding model reads at most 512 tokens (its position table); one batch holds one input.
constexpr const char* kEmbeddingContext = "512";
constexpr const char* kEmbeddingAlias = "all-minilm-l6-v2";

std::filesystem::path model_file(LlamaRole role) {
  return role == LlamaRole::kChat ? llama_model_file() : llama_embedding_model_file();
}

std::vector<std::string> server_command(int port, LlamaRole role) {
  const bool chat = role == LlamaRole::kChat;
  std::vector<std::string> command{llama_server_binary().string(),
                                   "-m",
                                   model_file(role).string(),
                                   "--host",
                                   "127.0.0.1",
                                   "--port",
                                   std::to_string(port),
                                   "-c",
                                   chat ? kContext : kEmbeddingContext,
                                   "-t",
                                   kThreads,
                                   "-np",
                                   "1",
                                   "--alias",
                                   chat ? kModelAlias : kEmbeddingAlias,
                                   "--no-webui"};
  if (!chat)
    command.insert(command.end(), {"--embeddings", "-b", kEmbeddingContext, "-ub", kEmbeddingContext});
  return command;
}

pid_t spawn_server(std::vector<std::string> command, const std::filesystem::path& log) {
  std::vector<char*> argv;
  for (std::string& arg : command) argv.push_back(arg.data());
  argv.push_back(nullptr);
  // fork and exec rather than posix_spawn: the child asks to be killed when this test program dies
  // (a ctest timeout kills it with SIGKILL), so no server outlives its tests. Only async-signal-safe
  // calls between fork and exec.
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) return pid;  // the parent: the child's pid, or -1
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl
  const int in = open("/dev/null", O_RDONLY);
  const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (in < 0 || out < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
      dup2(out, STDERR_FILENO) < 0)
    _exit(127);
  execv(argv[0], argv.data());
  _exit(127);
}

// Whether the child has exited, leaving it unreaped (WNOWAIT): stop() reaps it, and no signal can then
// reach another process that was given the same pid.
bool exited(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

void stop(pid_t pid, int signal) {
  if (pid <= 0) return;
  ::kill(pid, signal);
  int status = 0;
  for (int i = 0; i < 200; ++i) {  // 10 s, then SIGKILL
    const pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid || (got < 0 && errno == ECHILD)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
}

// Polls /health until it answers 200 (the model is loaded); false when the process dies or time runs out.
bool wait_healthy(pid_t pid, int port) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(std::chrono::seconds(1));
  client.set_read_timeout(std::chrono::seconds(2));
  const auto deadline = std::chrono::steady_clock::now() + kHealthWait;
  while (std::chrono::steady_clock::now() < deadline) {
    if (exited(pid)) return false;
    if (httplib::Result reply = client.Get("/health"); reply && reply->status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace

std::filesystem::path llama_server_binary() {
  return PLANFIRST_LLAMA_SERVER;
}
std::filesystem::path llama_model_file() {
  return PLANFIRST_LLAMA_MODEL;
}
std::filesystem::path llama_embedding_model_file() {
  return PLANFIRST_LLAMA_EMBEDDING_MODEL;
}

LlamaServer::LlamaServer(std::filesystem::path root, pid_t pid, int port, LlamaRole role)
    : root_(std::move(root)), pid_(pid), port_(port), role_(role) {}

LlamaServer::~LlamaServer() {
  stop(pid_, SIGTERM);
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

void LlamaServer::kill_now() {
  stop(pid_, SIGKILL);
  pid_ = -1;
}

std::string LlamaServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

std::string LlamaServer::model_id() const {
  return role_ == LlamaRole::kChat ? kModelAlias : kEmbeddingAlias;
}

std::unique_ptr<LlamaServer> LlamaServer::start(std::string* failure, LlamaRole role) {
  failure->clear();
  for (const std::filesystem::path& needed : {llama_server_binary(), model_file(role)}) {
    if (!std::filesystem::exists(needed)) {
      *failure = needed.string() +
                 " is missing: run scripts/bootstrap (it builds llama-server and fetches the models)";
      return nullptr;
    }
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "planfirst-llama-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    *failure = "cannot create a temporary directory from " + pattern;
    return nullptr;
  }
  const std::filesystem::path root = pattern;
  std::string logs;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    const int port = free_loopback_port();
    const std::filesystem::path log = root / ("server-" + std::to_string(attempt) + ".log");
    const pid_t pid = port > 0 ? spawn_server(server_command(port, role), log) : -1;
    if (pid > 0 && wait_healthy(pid, port))
      return std::unique_ptr<LlamaServer>(new LlamaServer(root, pid, port, role));
    stop(pid, SIGKILL);
    logs += log_tail(log, kLogTail) + "\n";
  }
  *failure = "llama-server did not start " + std::to_string(kStartAttempts) + " times:\n" + logs;
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  return nullptr;
}

LlamaServer* LlamaServer::shared(std::string* failure) {
  return shared_server<LlamaServer>(failure);
}

LlamaServer* LlamaServer::shared_embeddings(std::string* failure) {
  return shared_server<LlamaServer>(failure,
                                    [](std::string* why) { return start(why, LlamaRole::kEmbeddings); });
}

}  // namespace planfirst::test_support
