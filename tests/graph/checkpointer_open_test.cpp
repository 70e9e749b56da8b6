#include <gtest/gtest.h>

#include "graph/memory_checkpointer.hpp"
#include "graph/open_checkpointer.hpp"
#include "graph/sqlite_checkpointer.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::graph {
namespace {

TEST(OpenCheckpointer, MemoryUriOpensAnEmptyStore) {
  auto store = open_checkpointer("memory:");

  ASSERT_TRUE(store.has_value());
  EXPECT_NE(dynamic_cast<MemoryCheckpointer*>(store->get()), nullptr);
  EXPECT_TRUE((*store)->threads()->empty());
}

TEST(OpenCheckpointer, SqliteUriCreatesTheFileAndItsFolder) {
  const test_support::TempDir dir;
  const auto file = dir.path() / "nested" / "deeper" / "c.sqlite";

  auto store = open_checkpointer("sqlite:" + file.string());

  ASSERT_TRUE(store.has_value()) << store.error().describe();
  EXPECT_NE(dynamic_cast<SqliteCheckpointer*>(store->get()), nullptr);
  EXPECT_TRUE(std::filesystem::exists(file));
}

TEST(OpenCheckpointer, UnknownSchemesAndEmptyPathsAreInvalid) {
  auto unknown = open_checkpointer("redis://localhost");
  auto empty = open_checkpointer("sqlite:");
  auto option = open_checkpointer("sqlite:/tmp/x.sqlite?sync=sometimes");

  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(unknown.error().message.find("memory:, sqlite:PATH or postgresql://"), std::string::npos);
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().code, core::ErrorCode::kInvalidArgument);
  ASSERT_FALSE(option.has_value());
  EXPECT_EQ(option.error().code, core::ErrorCode::kInvalidArgument);
}

TEST(OpenCheckpointer, DefaultPathPrefersXdgDataHomeThenHome) {
  const core::Environment xdg = {{"XDG_DATA_HOME", "/data"}, {"HOME", "/home/ana"}};
  const core::Environment home = {{"HOME", "/home/ana"}};

  const std::string from_xdg = default_checkpointer_uri(xdg);
  const std::string from_home = default_checkpointer_uri(home);

  EXPECT_EQ(from_xdg, "sqlite:/data/planfirst/checkpoints.sqlite");
  EXPECT_EQ(from_home, "sqlite:/home/ana/.local/share/planfirst/checkpoints.sqlite");
}

}  // namespace
}  // namespace planfirst::graph
