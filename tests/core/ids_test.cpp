#include "core/ids.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <thread>
#include <vector>

namespace planfirst::core {
namespace {

TEST(RandomIdGenerator, GivesVersion4UuidText) {
  RandomIdGenerator ids;

  const std::string id = ids.next();

  EXPECT_TRUE(
      std::regex_match(id, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << id;
}

TEST(RandomIdGenerator, RepeatsIdsForTheSameSeed) {
  RandomIdGenerator first(7);
  RandomIdGenerator second(7);
  RandomIdGenerator other(8);

  const std::string id = first.next();

  EXPECT_EQ(id, second.next());
  EXPECT_NE(id, other.next());
}

TEST(RandomIdGenerator, GivesDistinctIdsAcrossThreads) {
  RandomIdGenerator ids;
  std::vector<std::vector<std::string>> per_thread(4);
  std::vector<std::thread> threads;

  for (auto& out : per_thread) {
    threads.emplace_back([&ids, &out] {
      for (int i = 0; i < 1000; ++i) out.push_back(ids.next());
    });
  }
  for (std::thread& thread : threads) thread.join();

  std::set<std::string> unique;
  for (const auto& out : per_thread) unique.insert(out.begin(), out.end());
  EXPECT_EQ(unique.size(), 4000u);
}

TEST(SequentialIdGenerator, CountsFromOneAfterThePrefix) {
  SequentialIdGenerator ids("run-");

  const std::string first = ids.next();
  const std::string second = ids.next();

  EXPECT_EQ(first, "run-1");
  EXPECT_EQ(second, "run-2");
}

}  // namespace
}  // namespace planfirst::core
