#include "graph/open_checkpointer.hpp"

#include <system_error>

#include "graph/memory_checkpointer.hpp"
#include "graph/postgres_checkpointer.hpp"
#include "graph/sqlite_checkpointer.hpp"

namespace planfirst::graph {
namespace {

constexpr std::string_view kUsage = "expected memory:, sqlite:PATH or postgresql://...";

core::Result<std::unique_ptr<Checkpointer>> open_sqlite(std::string_view rest, std::string_view uri) {
  SqliteCheckpointerOptions options;
  std::string_view path = rest;
  if (const std::size_t query = rest.find('?'); query != std::string_view::npos) {
    path = rest.substr(0, query);
    const std::string_view parameters = rest.substr(query + 1);
    if (parameters == "sync=full") {
      options.sync_every_commit = true;
    } else if (parameters != "sync=normal") {
      return core::invalid_argument(
          "unknown option '" + std::string(parameters) + "' (expected sync=full or sync=normal)",
          std::string(uri));
    }
  }
  if (path.starts_with("//")) path.remove_prefix(2);  // sqlite://PATH
  if (path.empty())
    return core::invalid_argument("sqlite: needs a file path, e.g. sqlite:runs.sqlite", std::string(uri));
  const std::filesystem::path file(path);
  if (file.has_parent_path()) {
    std::error_code error;
    std::filesystem::create_directories(file.parent_path(), error);
    if (error) {
      return core::unavailable("cannot create " + file.parent_path().string() + ": " + error.message(),
                               std::string(uri));
    }
  }
  core::Result<std::unique_ptr<SqliteCheckpointer>> opened = SqliteCheckpointer::open(file, options);
  if (!opened) return opened.error();
  return std::unique_ptr<Checkpointer>(std::move(*opened));
}

}  // namespace

core::Result<std::unique_ptr<Checkpointer>> open_checkpointer(std::string_view uri) {
  if (uri == "memory:" || uri == "memory")
    return std::unique_ptr<Checkpointer>(std::make_unique<MemoryCheckpointer>());
  if (uri.starts_with("sqlite:")) return open_sqlite(uri.substr(7), uri);
  if (uri.starts_with("postgresql://") || uri.starts_with("postgres://")) {
    core::Result<std::unique_ptr<PostgresCheckpointer>> opened = PostgresCheckpointer::open(std::string(uri));
    if (!opened) return opened.error();
    return std::unique_ptr<Checkpointer>(std::move(*opened));
  }
  return core::invalid_argument("unknown checkpointer '" + std::string(uri) + "': " + std::string(kUsage));
}

std::filesystem::path default_checkpointer_path(const core::Environment& env) {
  const std::filesystem::path file = std::filesystem::path("planfirst") / "checkpoints.sqlite";
  if (auto xdg = env.find("XDG_DATA_HOME"); xdg != env.end() && !xdg->second.empty()) {
    return std::filesystem::path(xdg->second) / file;
  }
  if (auto home = env.find("HOME"); home != env.end() && !home->second.empty()) {
    return std::filesystem::path(home->second) / ".local" / "share" / file;
  }
  return std::filesystem::path("planfirst-checkpoints.sqlite");
}

std::string default_checkpointer_uri(const core::Environment& env) {
  return "sqlite:" + default_checkpointer_path(env).string();
}

}  // namespace planfirst::graph
