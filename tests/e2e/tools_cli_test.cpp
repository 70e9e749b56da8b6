// planfirst tools list | search as a user runs them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/command_runner.hpp"

namespace planfirst::e2e {
namespace {

TEST(ToolsCli, ListNamesAllTwentySevenToolsWithTheirParams) {
  const CommandOutcome run = run_command(planfirst("tools list --json"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json tools = nlohmann::json::parse(run.output);
  ASSERT_EQ(tools.size(), 27u);
  EXPECT_EQ(tools[0]["name"], "load_dataset");
  bool aggregate_has_group_by = false;
  for (const auto& tool : tools) {
    if (tool["name"] == "aggregate")
      aggregate_has_group_by = tool["params"].dump().find("group_by") != std::string::npos;
  }
  EXPECT_TRUE(aggregate_has_group_by);
}

TEST(ToolsCli, SearchRanksTheToolMadeForTheQueryFirstTheSameWayTwice) {
  const std::string command = planfirst("tools search \"percent of total by group\" --top 3 --json");

  const CommandOutcome first = run_command(command);
  const CommandOutcome second = run_command(command);

  ASSERT_EQ(first.exit_code, 0) << first.output;
  const nlohmann::json hits = nlohmann::json::parse(first.output);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0]["tool"], "compute_share");
  EXPECT_GE(hits[0]["score"].get<double>(), hits[1]["score"].get<double>());
  EXPECT_EQ(first.output, second.output);
}

TEST(ToolsCli, SearchWithoutAQueryIsAUsageError) {
  EXPECT_EQ(run_command(planfirst("tools search")).exit_code, 2);
}

}  // namespace
}  // namespace planfirst::e2e
