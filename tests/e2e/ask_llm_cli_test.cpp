// `planfirst plan ... --llm URL` as a user runs it, against the scripted OpenAI-protocol server on
// loopback: the model's intent, requirements and plan changes are used and recorded as such; a model
// that keeps failing its contracts leaves every stage to the rules, which plan as they do offline.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/openai_test_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

using test_support::OpenAiTestServer;
using test_support::ScriptedReply;

constexpr const char* kWalkthrough = "\"get revenue totals by region and product type over time\"";

nlohmann::json case_json(const std::string& name) {
  std::ifstream in(source("tests/pipelines/autoviz/cases/" + name));
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

// `planfirst plan` of the seed walkthrough on examples/sales.csv with `extra` flags; stdout only.
CommandOutcome plan(const std::string& extra) {
  return run_command("(" +
                     planfirst("plan " + source("examples/sales.csv") + " " + kWalkthrough +
                               " --json --checkpointer memory: " + extra) +
                     " 2>/dev/null)");
}

std::vector<std::string> tools_of(const nlohmann::json& plan) {
  std::vector<std::string> tools;
  for (const nlohmann::json& step : plan["steps"]) tools.push_back(step["tool"].get<std::string>());
  return tools;
}

TEST(AskLlmCli, PlanUsesTheModelsIntentRequirementsAndChangesAndSaysSo) {
  OpenAiTestServer server;
  server.script_chat({ScriptedReply::chat(R"({"primary": "time_series_investigation", "confidence": 0.9})"),
                      ScriptedReply::chat(case_json("seed_requirements.json").dump()),
                      ScriptedReply::chat(case_json("seed_walkthrough_adaptation.json").dump())});

  const CommandOutcome run = plan("--llm " + server.base_url());

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  EXPECT_EQ(result["intent"]["template"], "time_series_grouped");
  EXPECT_EQ(result["requirements"], case_json("seed_requirements.json"));
  EXPECT_EQ(result["adaptation"], case_json("seed_walkthrough_adaptation.json"));
  EXPECT_EQ(tools_of(result["plan"]),
            (std::vector<std::string>{"parse_datetime", "aggregate", "plot_line", "compute_summary_stats"}));
  EXPECT_TRUE(result["coverage"]["complete"].get<bool>()) << result["coverage"];
  ASSERT_EQ(result["strategies"].size(), 3u) << result["strategies"];
  for (const nlohmann::json& record : result["strategies"]) {
    EXPECT_EQ(record["strategy"], "llm") << record;
    EXPECT_EQ(record["attempts"], 1) << record;
  }
  EXPECT_EQ(result["strategies"][2]["stage"], "adapt");
  EXPECT_EQ(server.requests("/v1/chat/completions").size(), 3u);
}

TEST(AskLlmCli, AModelThatKeepsFailingItsContractsLeavesEveryStageToTheRules) {
  const CommandOutcome offline = plan("");
  ASSERT_EQ(offline.exit_code, 0) << offline.output;
  OpenAiTestServer server;
  server.script_chat(std::vector<ScriptedReply>(9, ScriptedReply::chat("I cannot answer in JSON.")));

  const CommandOutcome run = plan("--llm " + server.base_url());

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  const nlohmann::json rules = parsed(offline);
  EXPECT_FALSE(rules.contains("strategies")) << "offline runs record no strategy";
  for (const char* key : {"intent", "requirements", "tools", "plan", "coverage"})
    EXPECT_EQ(result[key], rules[key]) << key;
  ASSERT_EQ(result["strategies"].size(), 3u) << result["strategies"];
  for (const nlohmann::json& record : result["strategies"]) {
    EXPECT_EQ(record["strategy"], "rules") << record;
    EXPECT_EQ(record["attempts"], 3) << record;
    EXPECT_NE(record["fallback"].get<std::string>().find("no_json after 3 attempts"), std::string::npos)
        << record;
  }
  EXPECT_TRUE(result["adaptation"].is_null());
  EXPECT_EQ(server.requests("/v1/chat/completions").size(), 9u);
}

TEST(AskLlmCli, AServerThatCannotBeReachedIsTriedOnceAndTheAnswerSaysTheRulesPlanned) {
  const std::string url = test_support::unreachable_base_url();
  test_support::TempDir dir;

  const CommandOutcome json = plan("--llm " + url);
  const CommandOutcome text =
      run_command("(" +
                  planfirst("ask " + source("examples/sales.csv") +
                            " \"total revenue by region\" --checkpointer memory: --out " +
                            (dir.path() / "out").string() + " --llm " + url) +
                  " 2>/dev/null)");

  ASSERT_EQ(json.exit_code, 0) << json.output;
  const nlohmann::json result = parsed(json);
  ASSERT_EQ(result["strategies"].size(), 3u) << result["strategies"];
  EXPECT_EQ(result["strategies"][0]["unreachable"], true) << result["strategies"][0];
  for (int stage : {1, 2}) {  // the later stages do not wait for the server again
    EXPECT_EQ(result["strategies"][stage]["attempts"], 0) << result["strategies"][stage];
    EXPECT_EQ(result["strategies"][stage]["fallback"],
              "not asked: the model's server could not be reached at the intent stage");
  }
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("Planned offline: the model's server could not be reached ("), std::string::npos)
      << text.output;
  EXPECT_LT(text.output.find("Planned offline"), text.output.find("Answer:")) << "said before the answer";
}

TEST(AskLlmCli, HelpDocumentsTheLlmFlag) {
  for (const char* command : {"ask", "plan"}) {
    const CommandOutcome run = run_command(planfirst(std::string(command) + " --help"));

    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("--llm"), std::string::npos) << run.output;
  }
}

}  // namespace
}  // namespace planfirst::e2e
