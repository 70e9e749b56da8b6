// Every `--llm` path of the planfirst program against llama.cpp's llama-server with the bundled small
// model, as a user runs them: ask, ask --confirm then resume, chat, graph node analyst analyst_plan,
// llm check. Each completes; whatever the model said, the run's record shows which stage used it and
// which fell back to the rules after the guard and its re-asks, and the plan stays covered.
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/llama_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

const test_support::LlamaServer& server() {
  static std::string failure;
  static test_support::LlamaServer* shared = test_support::LlamaServer::shared(&failure);
  if (shared == nullptr) throw std::runtime_error("llama-server did not start: " + failure);
  return *shared;
}

constexpr const char* kQuestion = "\"get revenue totals by region and product type over time\"";

// Each stage's record: the model's answer was used (it passed its contract and the stage's checks on
// some attempt), or the rules planned and the record says why.
void expect_recorded_strategies(const nlohmann::json& result) {
  ASSERT_TRUE(result.contains("strategies")) << result.dump(2);
  ASSERT_EQ(result["strategies"].size(), 3u) << result["strategies"];
  const std::set<std::string> stages{"intent", "requirements", "adapt"};
  for (const nlohmann::json& record : result["strategies"]) {
    EXPECT_TRUE(stages.contains(record["stage"].get<std::string>())) << record;
    EXPECT_EQ(record["model"], server().model_id()) << record;
    const std::string strategy = record["strategy"].get<std::string>();
    std::cout << record.dump() << "\n";  // what the small model did, in the test's log
    if (strategy == "llm") {             // on the first try or after the one re-ask
      EXPECT_GE(record["attempts"].get<int>(), 1) << record;
      EXPECT_LE(record["attempts"].get<int>(), 2) << record;
      EXPECT_FALSE(record.contains("fallback")) << record;
    } else {
      // The model was asked, re-asked once (PLANFIRST_LLM_MAX_REASKS=1) and then the rules planned:
      // the record names why.
      EXPECT_EQ(strategy, "rules") << record;
      EXPECT_EQ(record["attempts"].get<int>(), 2) << record;
      EXPECT_FALSE(record["fallback"].get<std::string>().empty()) << record;
    }
  }
  EXPECT_TRUE(result["coverage"]["complete"].get<bool>()) << result["coverage"];
}

// Bounded for two shared cores: our GBNF grammar (llm.structured_output = llamacpp, as the README
// configures llama-server), at most 192 completion tokens a request and one re-ask, so a stage whose
// answers the small model cannot finish costs two short calls before its fallback; a slow reply is not
// a lost server (180 s). The model is named as the server lists it, so each record names it.
constexpr const char* kEnv =
    "PLANFIRST_LLM_TIMEOUT_SECONDS=180 PLANFIRST_LLM_MAX_TOKENS=192 PLANFIRST_LLM_MAX_REASKS=1 "
    "PLANFIRST_LLM_STRUCTURED_OUTPUT=llamacpp PLANFIRST_LLM_MODEL=smollm2-135m-instruct "
    "PLANFIRST_RENDER_KEEP_ALIVE_SECONDS=0 ";

std::string llm_flags() {
  return " --llm " + server().base_url() + " --checkpointer memory: --json";
}

TEST(LlamaCli, AskRunsThePlanTheModelHelpedMakeAndWritesTheReport) {
  test_support::TempDir dir;
  const CommandOutcome run = run_command("(" + std::string(kEnv) +
                                         planfirst("ask " + source("examples/sales.csv") + " " + kQuestion +
                                                   llm_flags() + " --out " + (dir.path() / "out").string()) +
                                         " 2>/dev/null)");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  expect_recorded_strategies(result);
  EXPECT_EQ(result["outcome"], "done") << result["outcome"];
  EXPECT_FALSE(read_text(dir.path() / "out" / "report.md").empty());
}

TEST(LlamaCli, AConfirmedAskResumesToTheEnd) {
  test_support::TempDir dir;
  const std::string store = "sqlite:" + (dir.path() / "threads.sqlite").string();
  const std::string flags = " --llm " + server().base_url() + " --json --checkpointer " + store + " --out " +
                            (dir.path() / "out").string();
  const CommandOutcome paused = run_command(
      "(" + std::string(kEnv) +
      planfirst("ask " + source("examples/sales.csv") + " " + kQuestion + flags + " --confirm --thread t1") +
      " 2>/dev/null)");
  ASSERT_EQ(paused.exit_code, 0) << paused.output;
  const nlohmann::json pause = parsed(paused);
  expect_recorded_strategies(pause);

  const CommandOutcome resumed = run_command(
      "(" + std::string(kEnv) +
      planfirst("resume --thread t1 --checkpoint " + pause["checkpoint_id"].get<std::string>() +
                " --answer approve --json --checkpointer " + store + " --llm " + server().base_url()) +
      " 2>/dev/null)");

  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(parsed(resumed)["outcome"], "done");
}

// The analyst plan through the model: used when it passed the contract and the plan guard, else the
// rules' plan with the fallback and every guard failure recorded.
void expect_plan_review(const nlohmann::json& output) {
  ASSERT_TRUE(output.contains("plan_review")) << output.dump(2);
  const nlohmann::json& review = output["plan_review"];
  EXPECT_FALSE(output["analyst_plan"]["required_sources"].empty()) << output["analyst_plan"];
  if (review["fell_back"].get<bool>()) {
    EXPECT_FALSE(review["fallback_reason"].get<std::string>().empty()) << review;
    EXPECT_EQ(output["route_reason"].get<std::string>().rfind("analyst_plan_fallback:", 0), 0u) << output;
  } else {
    EXPECT_EQ(review["strategy"], "llm") << review;
  }
}

TEST(LlamaCli, ChatPlansWithTheModelOrRecordsTheFallback) {
  test_support::TempDir project;
  test_support::TempDir cache;
  const CommandOutcome run =
      run_command("(" + std::string(kEnv) + "XDG_CACHE_HOME=" + cache.path().string() + " " +
                  planfirst("chat --project " + project.path().string() +
                            " \"What's the sprint completion rate?\" --json --llm " + server().base_url()) +
                  " 2>/dev/null)");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_plan_review(parsed(run));
}

TEST(LlamaCli, GraphNodeAnalystPlanAsksTheModel) {
  test_support::TempDir project;
  const std::string state = project
                                .write("state.json", R"({"user_query": "Who owns the payments-connector?",
      "request_type": "KNOWLEDGE_QA", "track": "QUALITY", "route_reason": "router:test"})")
                                .string();
  const CommandOutcome run = run_command(
      "(" + std::string(kEnv) + "XDG_CACHE_HOME=" + project.path().string() + " " +
      planfirst("graph node analyst analyst_plan --state " + state + " --llm " + server().base_url()) +
      " 2>/dev/null)");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_plan_review(parsed(run));
}

TEST(LlamaCli, LlmCheckListsTheModelAndSaysWhenTheConfiguredNameIsNotOffered) {
  const CommandOutcome known = run_command(planfirst("llm check --base-url " + server().base_url()));
  const CommandOutcome unknown =
      run_command(planfirst("llm check --base-url " + server().base_url() + " --model no-such-model"));

  EXPECT_NE(known.output.find("1 offered: " + server().model_id()), std::string::npos) << known.output;
  EXPECT_NE(unknown.output.find("no-such-model is NOT among the offered models"), std::string::npos)
      << unknown.output;
}

}  // namespace
}  // namespace planfirst::e2e
