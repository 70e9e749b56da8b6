// ChildProcess runs tests/graph/child/checkpointer_child (or any program) with its standard output
// captured in a temporary file: start it, kill it, or wait for it. POSIX only; for tests.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace planfirst::graph::testing {

class ChildProcess {
 public:
  // Starts `args` (args[0] is the program path) with stdout to `output` and stderr to output + ".err".
  ChildProcess(std::vector<std::string> args, std::filesystem::path output) : output_(std::move(output)) {
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const std::string errors = output_.string() + ".err";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output_.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~ChildProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      wait();
    }
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  bool started() const { return pid_ > 0; }
  void kill_now() {
    if (pid_ > 0) kill(pid_, SIGKILL);
  }
  // The exit code, or -signal when a signal ended it, or -1000 when it never started.
  int wait() {
    if (pid_ <= 0) return -1000;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0) {
      if (errno != EINTR) return -1000;
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }
  std::string output() const { return read(output_); }
  std::string errors() const { return read(output_.string() + ".err"); }

 private:
  static std::string read(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::filesystem::path output_;
  pid_t pid_ = -1;
};

// Runs a program to its end; returns its exit code and fills `out`.
inline int run_to_end(std::vector<std::string> args, const std::filesystem::path& output, std::string* out,
                      std::string* err = nullptr) {
  ChildProcess child(std::move(args), output);
  const int code = child.wait();
  *out = child.output();
  if (err != nullptr) *err = child.errors();
  return code;
}

}  // namespace planfirst::graph::testing
