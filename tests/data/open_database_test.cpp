#include "data/open_database.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::data {
namespace {

using test_support::PostgresServer;
using test_support::TempDir;

std::string engine_of(std::string_view uri) {
  core::Result<std::unique_ptr<Database>> db = open_database(uri);
  if (!db) return "error: " + db.error().describe();
  return std::string((*db)->engine());
}

TEST(OpenDatabase, PicksTheEngineFromTheUri) {
  TempDir dir;
  const std::string root = dir.path().string();

  EXPECT_EQ(engine_of("duckdb::memory:"), "duckdb");
  EXPECT_EQ(engine_of("duckdb:" + root + "/a.db"), "duckdb");
  EXPECT_EQ(engine_of(root + "/b.duckdb"), "duckdb");
  EXPECT_EQ(engine_of("sqlite::memory:"), "sqlite");
  EXPECT_EQ(engine_of("sqlite:" + root + "/c.db"), "sqlite");
  EXPECT_EQ(engine_of(root + "/d.sqlite3"), "sqlite");
}

TEST(OpenDatabase, PostgresUrisReachTheServer) {
  std::string failure;
  PostgresServer* server = PostgresServer::shared(&failure);
  ASSERT_NE(server, nullptr) << "cannot start PostgreSQL: " << failure;
  std::string short_form = server->uri();
  short_form.replace(0, std::string("postgresql").size(), "postgres");

  EXPECT_EQ(engine_of(server->uri()), "postgresql");
  EXPECT_EQ(engine_of(short_form), "postgresql");
}

TEST(OpenDatabase, UnknownUriIsInvalidArgumentListingTheAcceptedForms) {
  core::Result<std::unique_ptr<Database>> db = open_database("mysql://localhost/db");

  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(db.error().message.find("duckdb:PATH"), std::string::npos) << db.error().message;
  EXPECT_NE(db.error().message.find("postgresql://"), std::string::npos) << db.error().message;
}

TEST(OpenDatabase, OptionsReachTheEngine) {
  DatabaseOptions options;
  options.read_only = true;

  core::Result<std::unique_ptr<Database>> db = open_database("duckdb::memory:", options);

  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().code, core::ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace planfirst::data
