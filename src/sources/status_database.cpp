#include "sources/status_database.hpp"

#include <unistd.h>

#include <system_error>
#include <thread>

#include "core/file_text.hpp"
#include "data/duckdb_database.hpp"
#include "data/open_database.hpp"
#include "data/postgres_database.hpp"

namespace planfirst::sources {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCacheName = "status.duckdb";

// "postgresql://user:secret@host/db" -> "postgresql://user@host/db": provenance never shows a password.
std::string without_password(std::string_view uri) {
  const std::size_t scheme = uri.find("://");
  const std::size_t at = uri.find('@');
  if (scheme == std::string_view::npos || at == std::string_view::npos || at < scheme)
    return std::string(uri);
  const std::size_t colon = uri.find(':', scheme + 3);
  if (colon == std::string_view::npos || colon > at) return std::string(uri);
  return std::string(uri.substr(0, colon)) + std::string(uri.substr(at));
}

// The folder holding schema.sql and data.sql: `folder` itself or its status/ child.
core::Result<fs::path> status_folder(const fs::path& folder) {
  for (const fs::path& candidate : {folder / "status", folder}) {
    std::error_code ec;
    if (fs::is_regular_file(candidate / "schema.sql", ec) &&
        fs::is_regular_file(candidate / "data.sql", ec)) {
      return candidate;
    }
  }
  return core::not_found("no status database scripts: expected " +
                             (folder / "status" / "schema.sql").string() +
                             " and data.sql beside it, a .duckdb file or a postgresql:// URI",
                         folder.string());
}

core::Result<void> load_scripts(data::Database& database, const fs::path& status_dir) {
  for (const char* script : {"schema.sql", "data.sql"}) {
    core::Result<std::string> text = core::read_file_text(status_dir / script);
    if (!text) return text.error();
    if (core::Result<void> ran = database.exec(*text); !ran) {
      core::Error error = ran.error();
      error.message = (status_dir / script).string() + ": " + error.message;
      return error;
    }
  }
  return {};
}

bool newer_than(const fs::path& file, const fs::path& other) {
  std::error_code ec;
  const auto a = fs::last_write_time(file, ec);
  if (ec) return false;
  const auto b = fs::last_write_time(other, ec);
  return !ec && a >= b;
}

core::Result<std::unique_ptr<data::Database>> open_in_memory(const fs::path& status_dir,
                                                             const data::DatabaseOptions& options) {
  auto database = data::DuckDbDatabase::open(":memory:", options);
  if (!database) return database.error();
  if (core::Result<void> loaded = load_scripts(**database, status_dir); !loaded) return loaded.error();
  return std::unique_ptr<data::Database>(std::move(*database));
}

}  // namespace

StatusDatabase::StatusDatabase(ConstructionKey, std::unique_ptr<data::Database> database,
                               std::string location)
    : database_(std::move(database)), engine_(database_->engine()), location_(std::move(location)) {}

core::Result<fs::path> StatusDatabase::build_duckdb_cache(const fs::path& status_dir) {
  const fs::path cache = status_dir / kCacheName;
  if (newer_than(cache, status_dir / "schema.sql") && newer_than(cache, status_dir / "data.sql"))
    return cache;
  // Built beside the cache under a name of its own, then renamed over it: a reader never sees half a file.
  const fs::path building =
      status_dir / (std::string(kCacheName) + ".building-" + std::to_string(::getpid()) + "-" +
                    std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  std::error_code ec;
  fs::remove(building, ec);
  {
    auto database = data::DuckDbDatabase::open(building.string());
    if (!database) return database.error();
    if (core::Result<void> loaded = load_scripts(**database, status_dir); !loaded) {
      database->reset();
      fs::remove(building, ec);
      return loaded.error();
    }
  }
  fs::rename(building, cache, ec);
  if (ec) {
    fs::remove(building, ec);
    return core::unavailable("cannot write the status database cache: " + ec.message(), cache.string());
  }
  return cache;
}

core::Result<std::unique_ptr<StatusDatabase>> StatusDatabase::open(std::string_view location,
                                                                   const StatusDatabaseOptions& options) {
  data::DatabaseOptions read_only;
  read_only.read_only = true;
  read_only.statement_timeout = options.statement_timeout;
  if (data::is_postgres_uri(location)) {
    auto database = data::PostgresDatabase::connect(location, read_only);
    if (!database) return database.error();
    return std::make_unique<StatusDatabase>(ConstructionKey{}, std::move(*database),
                                            without_password(location));
  }
  const fs::path path(location);
  if (path.extension() == ".duckdb") {
    auto database = data::DuckDbDatabase::open(path.string(), read_only);
    if (!database) return database.error();
    return std::make_unique<StatusDatabase>(ConstructionKey{}, std::move(*database), path.string());
  }
  core::Result<fs::path> folder = status_folder(path);
  if (!folder) return folder.error();
  core::Result<fs::path> cache = build_duckdb_cache(*folder);
  if (!cache) {
    if (cache.error().code != core::ErrorCode::kUnavailable) return cache.error();
    data::DatabaseOptions in_memory;  // a read-only in-memory database cannot be loaded
    in_memory.statement_timeout = options.statement_timeout;
    auto database = open_in_memory(*folder, in_memory);
    if (!database) return database.error();
    return std::make_unique<StatusDatabase>(ConstructionKey{}, std::move(*database), ":memory:");
  }
  auto database = data::DuckDbDatabase::open(cache->string(), read_only);
  if (!database) return database.error();
  return std::make_unique<StatusDatabase>(ConstructionKey{}, std::move(*database), cache->string());
}

core::Result<data::QueryResult> StatusDatabase::query(std::string_view sql,
                                                      const std::vector<data::Value>& params) const {
  std::lock_guard lock(mutex_);
  if (core::Result<void> begun = database_->exec("BEGIN TRANSACTION READ ONLY"); !begun) return begun.error();
  core::Result<data::QueryResult> result = database_->query(sql, params);
  core::Result<void> ended = database_->exec(result ? "COMMIT" : "ROLLBACK");
  if (!result) return result.error();
  if (!ended) return ended.error();
  return result;
}

}  // namespace planfirst::sources
