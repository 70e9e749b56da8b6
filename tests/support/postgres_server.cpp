#include "support/postgres_server.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <system_error>
#include <vector>

#include "support/loopback.hpp"
#include "support/server_process.hpp"

extern char** environ;

namespace planfirst::test_support {
namespace {

const std::filesystem::path kBinDir = "/usr/lib/postgresql/15/bin";
constexpr int kStartAttempts = 3;
constexpr std::size_t kLogTail = 2000;

struct PostgresUser {
  uid_t uid;
  gid_t gid;
};

// Runs `args` (as the postgres user when `user` is set) with stdout and stderr appended to `log`
// and `cwd` as its working directory; returns its exit status, or -1 when it cannot start.
int run(const std::vector<std::string>& args, const std::optional<PostgresUser>& user,
        const std::filesystem::path& log, const std::filesystem::path& cwd) {
  std::vector<std::string> command;
  if (user) command = {"/usr/sbin/runuser", "-u", "postgres", "--"};
  command.insert(command.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : command) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::optional<PostgresUser> postgres_user_if_root(std::string* failure) {
  if (geteuid() != 0) return std::nullopt;
  const passwd* entry = getpwnam("postgres");
  if (entry == nullptr) {
    *failure = "running as root, but there is no postgres user to run initdb as";
    return std::nullopt;
  }
  return PostgresUser{entry->pw_uid, entry->pw_gid};
}

std::vector<std::string> pg_ctl(const std::filesystem::path& root, std::vector<std::string> rest) {
  std::vector<std::string> args{(kBinDir / "pg_ctl").string(), "-D", (root / "data").string()};
  args.insert(args.end(), rest.begin(), rest.end());
  return args;
}

}  // namespace

PostgresServer::PostgresServer(std::filesystem::path root, int port)
    : root_(std::move(root)),
      port_(port),
      uri_("postgresql://postgres@127.0.0.1:" + std::to_string(port) + "/postgres") {}

PostgresServer::~PostgresServer() {
  std::string ignored;
  const std::optional<PostgresUser> user = postgres_user_if_root(&ignored);
  run(pg_ctl(root_, {"-m", "fast", "-w", "stop"}), user, root_ / "stop.log", root_);
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

std::unique_ptr<PostgresServer> PostgresServer::start(std::string* failure) {
  failure->clear();
  if (!std::filesystem::exists(kBinDir / "initdb")) {
    *failure = "PostgreSQL 15 is not installed: " + (kBinDir / "initdb").string() + " is missing";
    return nullptr;
  }
  const std::optional<PostgresUser> user = postgres_user_if_root(failure);
  if (!failure->empty()) return nullptr;

  std::string pattern = (std::filesystem::temp_directory_path() / "planfirst-pg-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    *failure = "cannot create a temporary directory from " + pattern;
    return nullptr;
  }
  const std::filesystem::path root = pattern;
  auto give_up = [&root](std::string* why, std::string reason) {
    *why = std::move(reason);
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
    return nullptr;
  };
  if (user && chown(root.c_str(), user->uid, user->gid) != 0) {
    return give_up(failure, "cannot hand " + root.string() + " to the postgres user");
  }

  const std::filesystem::path setup_log = root / "setup.log";
  const std::vector<std::string> initdb{(kBinDir / "initdb").string(),
                                        "-D",
                                        (root / "data").string(),
                                        "-A",
                                        "trust",
                                        "-U",
                                        "postgres",
                                        "--no-sync",
                                        "-E",
                                        "UTF8",
                                        "--locale=C"};
  if (run(initdb, user, setup_log, root) != 0) {
    return give_up(failure, "initdb failed:\n" + log_tail(setup_log, kLogTail));
  }

  std::string last_log;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    const int port = free_loopback_port();
    if (port < 0) return give_up(failure, "cannot find a free port on 127.0.0.1");
    const std::filesystem::path server_log = root / ("server-" + std::to_string(attempt) + ".log");
    const std::string settings = "-c listen_addresses=127.0.0.1 -p " + std::to_string(port) + " -k " +
                                 root.string() +
                                 " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
    if (run(pg_ctl(root, {"-l", server_log.string(), "-o", settings, "-w", "-t", "60", "start"}), user,
            setup_log, root) == 0) {
      return std::unique_ptr<PostgresServer>(new PostgresServer(root, port));
    }
    last_log = log_tail(setup_log, kLogTail) + "\n" + log_tail(server_log, kLogTail);
    run(pg_ctl(root, {"-m", "immediate", "-w", "stop"}), user, setup_log, root);  // in case it half started
  }
  return give_up(failure, "pg_ctl start failed " + std::to_string(kStartAttempts) + " times:\n" + last_log);
}

PostgresServer* PostgresServer::shared(std::string* failure) {
  return shared_server<PostgresServer>(failure);
}

}  // namespace planfirst::test_support
