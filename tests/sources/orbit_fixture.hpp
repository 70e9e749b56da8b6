// The Orbit example project (examples/project/status/) for the db source tests: its rows read into
// plain structs (so tests compute expected values themselves, in C++), and one DbSource per engine:
// DuckDB built from a copy of the scripts in a temporary folder, and PostgreSQL on this program's
// throwaway server with the scripts loaded into a database of its own. Each is built on first use;
// the clock is fixed at 2026-11-25T12:00:00Z (Wednesday of the active sprint 14).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/clock.hpp"
#include "core/date_parse.hpp"
#include "core/file_text.hpp"
#include "data/database.hpp"
#include "data/duckdb_database.hpp"
#include "data/postgres_database.hpp"
#include "sources/db_source.hpp"
#include "support/postgres_server.hpp"

namespace planfirst::sources::orbit {

using std::chrono::sys_days;
using std::chrono::sys_seconds;

inline constexpr sys_days kReferenceDay = sys_days{std::chrono::year{2026} / 11 / 25};

inline std::filesystem::path scripts_dir() {
  return std::filesystem::path(PLANFIRST_SOURCE_DIR) / "examples" / "project" / "status";
}

struct Issue {
  std::string key, title, type, priority, status, component, assignee, reporter;
  std::optional<std::int64_t> sprint, points;
  sys_seconds created;
  std::optional<sys_seconds> resolved;
  std::optional<sys_days> due;
};

struct Sprint {
  std::int64_t id = 0;
  std::string name, state;
  sys_days start, end;
};

struct Commit {
  std::string sha, author, component;
  std::optional<std::string> issue;
  sys_seconds at;
};

struct Orbit {
  std::vector<std::pair<std::string, std::string>> people;  // id, name
  std::map<std::string, std::string> component_owner;       // id -> owner id
  std::map<std::string, std::string> component_name;        // id -> name
  std::vector<std::pair<std::string, std::string>> dependencies;
  std::map<std::int64_t, Sprint> sprints;
  std::vector<Issue> issues;
  std::vector<std::pair<std::int64_t, std::string>> commitments;
  std::vector<std::tuple<std::string, std::string, std::string>> links;
  std::vector<Commit> commits;

  const Issue* issue(const std::string& key) const {
    for (const Issue& i : issues) {
      if (i.key == key) return &i;
    }
    return nullptr;
  }
};

inline sys_seconds timestamp(const data::Value& v) {
  return core::parse_date(v.as_text())->time;
}
inline sys_days day(const data::Value& v) {
  return core::parse_date(v.as_text())->day();
}
inline std::optional<std::int64_t> maybe_int(const data::Value& v) {
  return v.is_null() ? std::nullopt : std::optional<std::int64_t>(v.as_int());
}
inline std::string text(const data::Value& v) {
  return v.is_null() ? std::string() : v.to_string();
}

// Reads every table with plain SELECTs; any failure fails the calling test.
inline Orbit read_orbit(data::Database& db) {
  Orbit o;
  auto q = [&db](const char* sql) {
    auto r = db.query(sql);
    EXPECT_TRUE(r) << sql << ": " << r.error().describe();
    return r ? *r : data::QueryResult();
  };
  auto people = q("SELECT id, name FROM people");
  for (std::size_t i = 0; i < people.row_count(); ++i)
    o.people.emplace_back(text(people.at(i, 0)), text(people.at(i, 1)));
  auto components = q("SELECT id, name, owner_id FROM components");
  for (std::size_t i = 0; i < components.row_count(); ++i) {
    o.component_name[text(components.at(i, 0))] = text(components.at(i, 1));
    o.component_owner[text(components.at(i, 0))] = text(components.at(i, 2));
  }
  auto deps = q("SELECT component_id, depends_on_id FROM component_dependencies");
  for (std::size_t i = 0; i < deps.row_count(); ++i)
    o.dependencies.emplace_back(text(deps.at(i, 0)), text(deps.at(i, 1)));
  auto sprints = q("SELECT id, name, state, start_date, end_date FROM sprints");
  for (std::size_t i = 0; i < sprints.row_count(); ++i) {
    Sprint s{sprints.at(i, 0).as_int(), text(sprints.at(i, 1)), text(sprints.at(i, 2)), day(sprints.at(i, 3)),
             day(sprints.at(i, 4))};
    o.sprints[s.id] = s;
  }
  auto issues =
      q("SELECT key, title, type, priority, status, component_id, assignee_id, reporter_id, sprint_id, "
        "story_points, "
        "created_at, resolved_at, due_date FROM issues");
  for (std::size_t i = 0; i < issues.row_count(); ++i) {
    Issue is;
    is.key = text(issues.at(i, 0));
    is.title = text(issues.at(i, 1));
    is.type = text(issues.at(i, 2));
    is.priority = text(issues.at(i, 3));
    is.status = text(issues.at(i, 4));
    is.component = text(issues.at(i, 5));
    is.assignee = text(issues.at(i, 6));
    is.reporter = text(issues.at(i, 7));
    is.sprint = maybe_int(issues.at(i, 8));
    is.points = maybe_int(issues.at(i, 9));
    is.created = timestamp(issues.at(i, 10));
    if (!issues.at(i, 11).is_null()) is.resolved = timestamp(issues.at(i, 11));
    if (!issues.at(i, 12).is_null()) is.due = day(issues.at(i, 12));
    o.issues.push_back(is);
  }
  auto commitments = q("SELECT sprint_id, issue_key FROM sprint_commitments");
  for (std::size_t i = 0; i < commitments.row_count(); ++i) {
    o.commitments.emplace_back(commitments.at(i, 0).as_int(), text(commitments.at(i, 1)));
  }
  auto links = q("SELECT from_key, to_key, kind FROM issue_links");
  for (std::size_t i = 0; i < links.row_count(); ++i) {
    o.links.emplace_back(text(links.at(i, 0)), text(links.at(i, 1)), text(links.at(i, 2)));
  }
  auto commits = q("SELECT sha, author_id, component_id, issue_key, committed_at FROM commits");
  for (std::size_t i = 0; i < commits.row_count(); ++i) {
    Commit c{text(commits.at(i, 0)), text(commits.at(i, 1)), text(commits.at(i, 2)), std::nullopt,
             timestamp(commits.at(i, 4))};
    if (!commits.at(i, 3).is_null()) c.issue = text(commits.at(i, 3));
    o.commits.push_back(c);
  }
  return o;
}

inline std::string read_script(const char* name) {
  auto text = core::read_file_text(scripts_dir() / name);
  EXPECT_TRUE(text) << text.error().describe();
  return text ? *text : std::string();
}

// The clock every source of these tests reads.
inline const core::ManualClock& clock() {
  static const core::ManualClock fixed{sys_days{kReferenceDay} + std::chrono::hours(12)};
  return fixed;
}

// A writable in-memory DuckDB loaded from the scripts, and its rows; built on first use.
struct Direct {
  std::unique_ptr<data::Database> db;
  Orbit orbit;
};

inline const Direct& direct() {
  static const std::unique_ptr<Direct> made = [] {
    auto d = std::make_unique<Direct>();
    auto db = data::DuckDbDatabase::open(":memory:");
    EXPECT_TRUE(db) << db.error().describe();
    if (!db) return d;
    for (const char* f : {"schema.sql", "data.sql"}) {
      auto ran = (*db)->exec(read_script(f));
      EXPECT_TRUE(ran) << f << ": " << ran.error().describe();
    }
    d->db = std::move(*db);
    d->orbit = read_orbit(*d->db);
    return d;
  }();
  return *made;
}

// A temporary project folder holding a copy of the scripts (the DuckDB source builds its cache there).
inline const std::filesystem::path& project_dir() {
  static const std::filesystem::path dir = [] {
    auto path = std::filesystem::path(::testing::TempDir()) / ("orbit-project-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path / "status");
    for (const char* f : {"schema.sql", "data.sql"})
      std::filesystem::copy_file(scripts_dir() / f, path / "status" / f);
    return path;
  }();
  return dir;
}

inline std::string database_uri(const std::string& server_uri, const std::string& database) {
  return server_uri.substr(0, server_uri.rfind('/') + 1) + database;
}

// The db source on DuckDB (from project_dir()) or on PostgreSQL (the scripts loaded into a database
// "orbit_status" of this program's server); nullptr after a failure the calling test is told about.
inline const DbSource* source(std::string_view engine) {
  static const std::unique_ptr<DbSource> duckdb = [] {
    auto made = DbSource::open(project_dir().string(), core::AssetStore(), clock());
    EXPECT_TRUE(made) << made.error().describe();
    return made ? std::move(*made) : nullptr;
  }();
  if (engine == "duckdb") return duckdb.get();
  static const std::unique_ptr<DbSource> postgres = []() -> std::unique_ptr<DbSource> {
    std::string why;
    test_support::PostgresServer* server = test_support::PostgresServer::shared(&why);
    EXPECT_NE(server, nullptr) << "cannot start PostgreSQL: " << why;
    if (server == nullptr) return nullptr;
    auto admin = data::PostgresDatabase::connect(server->uri());
    EXPECT_TRUE(admin && (*admin)->exec("CREATE DATABASE orbit_status"));
    auto loader = data::PostgresDatabase::connect(database_uri(server->uri(), "orbit_status"));
    EXPECT_TRUE(loader) << loader.error().describe();
    if (!loader) return nullptr;
    for (const char* f : {"schema.sql", "data.sql"}) {
      auto ran = (*loader)->exec(read_script(f));
      EXPECT_TRUE(ran) << f << ": " << ran.error().describe();
    }
    auto made = DbSource::open(database_uri(server->uri(), "orbit_status"), core::AssetStore(), clock());
    EXPECT_TRUE(made) << made.error().describe();
    return made ? std::move(*made) : nullptr;
  }();
  return postgres.get();
}

}  // namespace planfirst::sources::orbit
