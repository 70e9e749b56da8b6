// The throwaway server other PostgreSQL tests stand on: it must come up reachable and go away
// completely when destroyed.
#include "support/postgres_server.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "data/postgres_database.hpp"

namespace planfirst::test_support {
namespace {

TEST(PostgresServer, ServesOnLoopbackUntilDestroyed) {
  std::string failure;
  std::unique_ptr<PostgresServer> server = PostgresServer::start(&failure);
  ASSERT_NE(server, nullptr) << failure;
  const std::string uri = server->uri();

  const bool reachable_while_running = data::PostgresDatabase::connect(uri).has_value();
  server.reset();
  auto after = data::PostgresDatabase::connect(uri + "?connect_timeout=5");

  EXPECT_TRUE(reachable_while_running);
  EXPECT_EQ(uri.rfind("postgresql://postgres@127.0.0.1:", 0), 0u) << uri;
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().code, core::ErrorCode::kUnavailable);
}

TEST(PostgresServer, SharedServerIsStartedOnceAndReused) {
  std::string failure;

  PostgresServer* first = PostgresServer::shared(&failure);
  PostgresServer* second = PostgresServer::shared(&failure);

  ASSERT_NE(first, nullptr) << failure;
  EXPECT_EQ(first, second);
  auto db = data::PostgresDatabase::connect(first->uri());
  EXPECT_TRUE(db) << db.error().describe();
}

}  // namespace
}  // namespace planfirst::test_support
