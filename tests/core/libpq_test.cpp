#include "core/libpq.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace planfirst::core {
namespace {

// Whether this process has a file named like `name` mapped.
bool mapped(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  const std::string text{std::istreambuf_iterator<char>(maps), std::istreambuf_iterator<char>()};
  return text.find(name) != std::string::npos;
}

// ctest runs each test in its own process; this program links no libpq.
TEST(LibPq, IsMappedOnlyOnceLoaded) {
  ASSERT_FALSE(mapped(LibPq::kLibrary)) << "libpq was loaded before anything asked for it";

  Result<LibPq> pq = LibPq::load();

  ASSERT_TRUE(pq) << pq.error().describe();
  EXPECT_TRUE(mapped(LibPq::kLibrary));
}

TEST(LibPq, LoadingAgainGivesTheSameFunctions) {
  Result<LibPq> first = LibPq::load();
  Result<LibPq> second = LibPq::load();

  ASSERT_TRUE(first) << first.error().describe();
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_EQ(first->connectdb, second->connectdb);
  EXPECT_EQ(first->clear, second->clear);
}

TEST(LibPq, AFailedConnectionReportsLibpqsMessage) {
  Result<LibPq> pq = LibPq::load();
  ASSERT_TRUE(pq) << pq.error().describe();

  PGconn* conn = pq->connectdb("host=/nonexistent-planfirst-socket-dir port=1 connect_timeout=1");

  ASSERT_NE(conn, nullptr);
  EXPECT_EQ(pq->status(conn), CONNECTION_BAD);
  EXPECT_NE(std::string(pq->error_message(conn)).find("/nonexistent-planfirst-socket-dir"), std::string::npos)
      << pq->error_message(conn);
  pq->finish(conn);
}

}  // namespace
}  // namespace planfirst::core
