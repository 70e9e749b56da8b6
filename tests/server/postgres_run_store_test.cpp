// PostgresRunStore against a throwaway PostgreSQL: what opening it shows on the terminal.
#include "server/postgres_run_store.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::server {
namespace {

// What `body` writes to file descriptor 2 (libpq prints notices there).
template <typename Body>
std::string stderr_of(const std::filesystem::path& file, Body body) {
  std::fflush(stderr);
  const int saved = ::dup(2);
  const int out = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(out, 2);
  body();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  ::close(out);
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(PostgresRunStore, OpeningTablesThatExistPrintsNoServerNotices) {
  std::string failure;
  std::unique_ptr<test_support::PostgresServer> postgres = test_support::PostgresServer::start(&failure);
  ASSERT_NE(postgres, nullptr) << failure;
  core::Result<std::unique_ptr<PostgresRunStore>> first = PostgresRunStore::open(postgres->uri());
  ASSERT_TRUE(first) << first.error().describe();
  test_support::TempDir dir;

  core::Result<std::unique_ptr<PostgresRunStore>> second = core::internal_error("not opened");
  const std::string printed =
      stderr_of(dir.path() / "stderr.txt", [&] { second = PostgresRunStore::open(postgres->uri()); });

  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_EQ(printed, "");
}

TEST(PostgresRunStore, AnUnreachableServerIsUnavailableWithLibpqsReasonAndNoPassword) {
  core::Result<std::unique_ptr<PostgresRunStore>> store =
      PostgresRunStore::open("postgresql://planfirst:secret@127.0.0.1:1/none?connect_timeout=2");

  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(store.error().message.find("cannot connect to PostgreSQL: "), std::string::npos)
      << store.error().message;
  EXPECT_EQ(store.error().where, "postgresql://planfirst:***@127.0.0.1:1/none?connect_timeout=2");
}

}  // namespace
}  // namespace planfirst::server
