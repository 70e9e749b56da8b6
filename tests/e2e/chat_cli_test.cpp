// planfirst chat as a user runs it: the plan, the sources recorded as not configured, the answer in
// the plan's schema, a clarification answered with --answer or printed, interactive mode refused
// without a terminal, metrics, a model server behind --llm, and each analyst node alone through
// planfirst graph node.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "e2e/command_runner.hpp"
#include "support/openai_test_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

// planfirst chat with a project folder and a private cache; stderr (warnings) dropped for --json.
class ChatCli : public ::testing::Test {
 protected:
  std::string chat(const std::string& args, bool keep_stderr = false) const {
    return "(XDG_CACHE_HOME=" + cache_.path().string() + " " +
           planfirst("chat --project " + project_.path().string() + " " + args) +
           (keep_stderr ? "" : " 2>/dev/null") + ")";
  }

  test_support::TempDir project_;
  test_support::TempDir cache_;
};

TEST_F(ChatCli, StatusMetricQuestionPlansDbOnlyAndAnswersInTheMetricSchema) {
  const CommandOutcome run = run_command(chat("\"What's the sprint completion rate?\" --json"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["request_type"], "STATUS_METRIC");
  EXPECT_EQ(output["analyst_plan"]["intent"], "query_sprint_completion_rate");
  EXPECT_EQ(output["analyst_plan"]["required_sources"], nlohmann::json::array({"db"}));
  ASSERT_EQ(output["source_status"].size(), 1u);
  EXPECT_EQ(output["source_status"][0]["status"], "not_configured");
  EXPECT_EQ(output["answer"]["schema"], "status_metric_v1_json");
  EXPECT_TRUE(output["answer"]["content"]["value"].is_null());
}

TEST_F(ChatCli, SameQuestionSameOutput) {
  const std::string command = chat("\"Design the new authentication module\" --json");

  const CommandOutcome first = run_command(command);
  const CommandOutcome second = run_command(command);

  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(first.output, second.output);
}

TEST_F(ChatCli, TextOutputNamesThePlanAndEachSourceNotConfigured) {
  const CommandOutcome run = run_command(chat("\"Why is the api-gateway returning 502 errors?\""));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("request type: TROUBLESHOOTING (QUALITY)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("sources=db, neo4j, doc"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("source neo4j: not_configured - not configured: "), std::string::npos)
      << run.output;
}

TEST_F(ChatCli, AClarificationIsAnsweredWithTheAnswerFlag) {
  const CommandOutcome run = run_command(chat("\"What's our rate?\" --answer velocity --json"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["clarifications"][0]["answer"], "velocity");
  EXPECT_EQ(output["user_query"], "What's our rate?\n\nvelocity");
  EXPECT_EQ(output["answer"]["schema"], "status_metric_v1_json");
}

TEST_F(ChatCli, WithoutATerminalTheClarificationIsPrinted) {
  const CommandOutcome run = run_command(chat("\"What's our rate?\" --json"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["answer"]["schema"], "clarification_v1");
  EXPECT_EQ(output["answer"]["content"]["question"].get<std::string>().rfind("Which metric do you mean", 0),
            0u);
  EXPECT_FALSE(output.contains("source_status"));
}

TEST_F(ChatCli, InteractiveModeNeedsATerminal) {
  const CommandOutcome run = run_command(chat("--interactive", true));

  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("interactive mode needs a terminal"), std::string::npos) << run.output;
}

TEST_F(ChatCli, NoQuestionMeansInteractiveMode) {
  const CommandOutcome run = run_command(chat("", true));

  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("interactive mode needs a terminal"), std::string::npos) << run.output;
}

TEST_F(ChatCli, MetricsFollowTheAnswer) {
  const CommandOutcome run = run_command(chat("\"Which issues are overdue?\" --metrics"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("analyst_plan_success_total 1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("analyst_source_selection{request_type=\"STATUS_LIST\",source=\"db\"} 1"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("analyst_questions_generated_total 0"), std::string::npos) << run.output;
}

TEST_F(ChatCli, BadProjectAndDbFlagsAreUsageErrors) {
  const CommandOutcome no_project =
      run_command(planfirst("chat --project /nonexistent/orbit \"hi\"") + " </dev/null 2>&1");
  const CommandOutcome bad_db = run_command(chat("\"hi\" --db mysql://x", true));

  EXPECT_EQ(no_project.exit_code, 2);
  EXPECT_NE(no_project.output.find("--project"), std::string::npos) << no_project.output;
  EXPECT_EQ(bad_db.exit_code, 2);
  EXPECT_NE(bad_db.output.find("--db"), std::string::npos) << bad_db.output;
}

TEST_F(ChatCli, ANonJsonModelReplyFallsBackToTheSafePlan) {
  test_support::OpenAiTestServer server;
  server.script_chat({test_support::ScriptedReply::chat("I think you want the db."),
                      test_support::ScriptedReply::chat("nothing to cite")});

  const CommandOutcome run =
      run_command(chat("\"What's the sprint completion rate?\" --json --llm " + server.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["analyst_plan"]["intent"], "parse_error");
  // seed 000 §2: the fallback passes the plan's own guard, so a STATUS_* one keeps db.
  EXPECT_EQ(output["analyst_plan"]["required_sources"], nlohmann::json::array({"policy", "db"}));
  EXPECT_EQ(output["route_reason"].get<std::string>().rfind("analyst_plan_fallback:", 0), 0u);
}

// seed 000 §8: a model that fails (here an HTTP error) leaves the plan to the rules, recorded as a
// fallback with its reason.
TEST_F(ChatCli, AModelErrorIsRecordedAsAFallbackWithItsReason) {
  test_support::OpenAiTestServer server;
  server.script_chat(
      {test_support::ScriptedReply::error(404, "no such model"), test_support::ScriptedReply::chat("x")});

  const CommandOutcome run =
      run_command(chat("\"Which issues are overdue?\" --json --llm " + server.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["plan_review"]["fell_back"], true);
  EXPECT_EQ(output["plan_review"]["fallback_reason"], "model_error");
  EXPECT_EQ(output["route_reason"].get<std::string>().rfind("analyst_plan_fallback:model_error:", 0), 0u)
      << output["route_reason"];
  EXPECT_EQ(output["analyst_plan"]["required_sources"], nlohmann::json::array({"db"}));
}

TEST_F(ChatCli, EachNodeRunsAloneThroughGraphNode) {
  const std::string state = project_
                                .write("state.json", R"({"user_query": "Who owns the payments-connector?",
      "request_type": "KNOWLEDGE_QA", "track": "QUALITY", "route_reason": "router:test"})")
                                .string();

  const CommandOutcome router =
      run_command("(XDG_CACHE_HOME=" + cache_.path().string() + " " +
                  planfirst("graph node analyst router --state " + state) + " 2>/dev/null)");
  const CommandOutcome plan =
      run_command("(XDG_CACHE_HOME=" + cache_.path().string() + " " +
                  planfirst("graph node analyst analyst_plan --state " + state) + " 2>/dev/null)");

  ASSERT_EQ(router.exit_code, 0) << router.output;
  EXPECT_EQ(parsed(router)["request_type"], "KNOWLEDGE_QA");
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_EQ(parsed(plan)["analyst_plan"]["required_sources"], nlohmann::json::array({"doc", "neo4j"}));
}

}  // namespace
}  // namespace planfirst::e2e

namespace planfirst::e2e {
namespace {

// planfirst chat over a copy of examples/project (its status database and indexes are built in the
// copy, not in the source tree), with a private cache.
class ChatOnExampleProject : public ::testing::Test {
 protected:
  ChatOnExampleProject() {
    std::filesystem::copy(source("examples/project"), project_.path() / "orbit",
                          std::filesystem::copy_options::recursive);
  }
  CommandOutcome chat(const std::string& question, const std::string& flags = "") const {
    return run_command("(XDG_CACHE_HOME=" + cache_.path().string() + " " +
                       planfirst("chat --project " + (project_.path() / "orbit").string() + " \"" + question +
                                 "\" --json " + flags) +
                       " 2>/dev/null)");
  }
  static std::vector<std::string> called(const nlohmann::json& output) {
    std::vector<std::string> sources;
    for (const auto& status : output["source_status"]) sources.push_back(status["source"]);
    return sources;
  }

  test_support::TempDir project_;
  test_support::TempDir cache_;
};

TEST_F(ChatOnExampleProject, ASprintMetricComesFromTheStatusDatabaseWithItsSql) {
  const nlohmann::json output = parsed(chat("What's the sprint completion rate for sprint 12?"));

  EXPECT_EQ(called(output), std::vector<std::string>{"db"});
  EXPECT_EQ(output["source_status"][0]["status"], "ok") << output["source_status"];
  const nlohmann::json& content = output["answer"]["content"];
  EXPECT_EQ(content["metric"], "sprint_completion_rate");
  ASSERT_TRUE(content["value"].is_number()) << content;
  EXPECT_GE(content["value"].get<double>(), 0.0);
  EXPECT_LE(content["value"].get<double>(), 100.0);
  EXPECT_NE(content["period"].get<std::string>().find("Sprint 12"), std::string::npos) << content;
  EXPECT_NE(content["sql"].get<std::string>().find("$1"), std::string::npos) << content;  // bound, not pasted
}

TEST_F(ChatOnExampleProject, AMetricByPriorityAnswersWithItsBreakdown) {
  const nlohmann::json content = parsed(chat("how many open bugs by priority?"))["answer"]["content"];

  ASSERT_EQ(content["breakdown"].size(), 4u) << content;
  EXPECT_EQ(content["evidence"].size(), 5u);  // the total and its four rows
  double total = 0;
  for (const auto& row : content["breakdown"]) total += std::stod(row["value"].get<std::string>());
  EXPECT_EQ(content["value"].get<double>(), total);
  EXPECT_EQ(content["computed"], "sum of open_bugs over 4 rows (P1, P2, P3, P4)");
}

TEST_F(ChatOnExampleProject, APolicyQuestionCitesThePolicySection) {
  const nlohmann::json output = parsed(chat("How do I ship a hotfix?"));

  EXPECT_EQ(output["request_type"], "HOWTO_POLICY");
  EXPECT_EQ(called(output), (std::vector<std::string>{"policy", "doc"}));
  const std::string text = output["answer"]["content"].is_string()
                               ? output["answer"]["content"].get<std::string>()
                               : output["answer"].dump();
  EXPECT_NE(text.find("[policy:release-process.md#Hotfixes]"), std::string::npos) << text;
}

TEST_F(ChatOnExampleProject, RerankReordersThePolicyHitsWithTheEmbedder) {
  const nlohmann::json plain = parsed(chat("How do I ship a hotfix?"));
  const nlohmann::json reranked = parsed(chat("How do I ship a hotfix?", "--rerank"));

  ASSERT_FALSE(reranked["evidence"].empty()) << reranked;
  EXPECT_EQ(reranked["evidence"][0]["id"], "policy:release-process.md#Hotfixes");
  EXPECT_EQ(reranked["evidence"].size(), plain["evidence"].size());
  EXPECT_NE(reranked["evidence"][0]["score"], plain["evidence"][0]["score"]);  // blended with similarity
}

// The headline is the aggregate the question asks for, never the breakdown's first row.
TEST_F(ChatOnExampleProject, TheHeadlineIsTheAggregateOfTheBreakdown) {
  const nlohmann::json velocity =
      parsed(chat("What was the velocity over the last 3 sprints?"))["answer"]["content"];
  const nlohmann::json wip = parsed(chat("how much work is in progress right now?"))["answer"]["content"];

  ASSERT_EQ(velocity["breakdown"].size(), 3u) << velocity;
  double points = 0;
  for (const auto& row : velocity["breakdown"]) points += std::stod(row["value"].get<std::string>());
  EXPECT_NEAR(velocity["value"].get<double>(), points / 3, 0.006);
  ASSERT_GT(wip["breakdown"].size(), 1u) << wip;
  double in_progress = 0;
  for (const auto& row : wip["breakdown"]) in_progress += std::stod(row["value"].get<std::string>());
  EXPECT_EQ(wip["value"].get<double>(), in_progress);
  EXPECT_EQ(wip["metric"], "work_in_progress");
}

TEST_F(ChatOnExampleProject, OurVelocityIsTheFigureWithItsDefinitionTheSameOnAnyDay) {
  const nlohmann::json output = parsed(chat("What is our velocity?"));
  const nlohmann::json pinned = parsed(chat("What is our velocity?", "--as-of 2026-11-25"));
  const nlohmann::json& content = output["answer"]["content"];

  EXPECT_EQ(output["request_type"], "STATUS_METRIC");
  EXPECT_EQ(content["metric"], "velocity") << content;
  ASSERT_EQ(content["breakdown"].size(), 3u) << content;
  EXPECT_NE(content["breakdown"][0]["label"].get<std::string>().find("Sprint 11"), std::string::npos);
  EXPECT_NE(content["definition"].get<std::string>().find("Story points completed"), std::string::npos);
  EXPECT_EQ(output["answer"], pinned["answer"]);  // the project's day, whatever today is
}

TEST_F(ChatOnExampleProject, CommitQuestionsAreAnsweredByTheCommitCountNotAnotherMetric) {
  const nlohmann::json content = parsed(chat("How many commits were made in November?"))["answer"]["content"];

  EXPECT_EQ(content["metric"], "commits") << content;
  EXPECT_EQ(content["period"], "2026-11-01 .. 2026-11-30");
  EXPECT_TRUE(content["value"].is_number()) << content;
}

TEST_F(ChatOnExampleProject, AListShowsEveryRowAndHowManyThereAre) {
  const nlohmann::json output = parsed(chat("Which issues are assigned to Priya?"));
  const std::string text = output["answer"]["content"].get<std::string>();

  std::size_t listed = 0;
  for (const auto& item : output["evidence"]) listed += item["source"] == "db";
  EXPECT_NE(text.find(std::to_string(listed) + " issues (list_person_issues"), std::string::npos) << text;
  std::size_t lines = 0;
  for (std::size_t at = text.find("\n- ORB-"); at != std::string::npos; at = text.find("\n- ORB-", at + 1))
    ++lines;
  EXPECT_EQ(lines, listed);
}

TEST_F(ChatOnExampleProject, PeriodsCountBackFromTheProjectsAsOfDay) {
  const nlohmann::json by_project = parsed(chat("How many overdue items are there?"));
  const nlohmann::json by_flag = parsed(chat("How many overdue items are there?", "--as-of 2026-11-25"));
  const nlohmann::json later = parsed(chat("How many overdue items are there?", "--as-of 2027-01-15"));

  EXPECT_EQ(by_project["as_of"]["date"], "2026-11-25");
  EXPECT_EQ(by_project["as_of"]["origin"], "project");
  EXPECT_EQ(by_project["answer"]["content"]["period"], "as of 2026-11-25");
  EXPECT_EQ(by_project["answer"], by_flag["answer"]);
  EXPECT_EQ(later["as_of"]["origin"], "flag");
  EXPECT_EQ(later["answer"]["content"]["period"], "as of 2027-01-15");
}

TEST_F(ChatOnExampleProject, TheTextAnswerSaysWhichDayItIsRelativeToAndWhoSetIt) {
  const std::string project = (project_.path() / "orbit").string();
  const CommandOutcome run =
      run_command("(XDG_CACHE_HOME=" + cache_.path().string() + " " +
                  planfirst("chat --project " + project + " 'How many overdue items?'") + " 2>/dev/null)");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("as of: 2026-11-25 (as_of in " + project + "/planfirst.toml)"), std::string::npos)
      << run.output;
}

TEST_F(ChatOnExampleProject, WithoutTheProjectSettingTodayIsTheReferenceDay) {
  std::filesystem::remove(project_.path() / "orbit" / "planfirst.toml");

  const nlohmann::json output = parsed(chat("How many overdue items are there?"));

  EXPECT_EQ(output["as_of"]["origin"], "clock");
  EXPECT_EQ(output["answer"]["content"]["period"], "as of " + output["as_of"]["date"].get<std::string>());
}

TEST_F(ChatOnExampleProject, ABrokenProjectSettingIsAnInputErrorNamingTheLine) {
  test_support::TempDir broken;
  broken.write("planfirst.toml", "[project]\nas_of = \"soon\"\n");

  const CommandOutcome run =
      run_command(planfirst("chat --project " + broken.path().string() + " 'velocity?'"));

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("planfirst.toml:2: project.as_of must be a day"), std::string::npos)
      << run.output;
}

TEST_F(ChatOnExampleProject, ADependencyQuestionWalksTheProjectGraph) {
  const nlohmann::json output = parsed(chat("what depends on billing-engine?"));

  bool graph_answered = false;
  for (const auto& status : output["source_status"]) {
    if (status["source"] == "neo4j")
      graph_answered = status["status"] == "ok" && status["items"].get<int>() > 0;
  }
  EXPECT_TRUE(graph_answered) << output["source_status"];
  std::set<std::string> dependents;
  for (const auto& item : output["evidence"]) {
    if (item["source"] == "neo4j") dependents.insert(item["fields"]["component"].get<std::string>());
  }
  // The example project's dependency arrows (its README): two direct dependents, one transitive.
  EXPECT_EQ(dependents, (std::set<std::string>{"api-gateway", "reporting-pipeline", "web-dashboard"}));
}

// Issue 31, row "Why are customers being charged twice?" (it answered "No evidence was retrieved"):
// seed 000 §3 gives TROUBLESHOOTING db and neo4j and forbids doc only for STATUS_*, so its plans
// search the documents too, where the post-incident review answers it.
TEST_F(ChatOnExampleProject, ATroubleshootingQuestionCitesThePostIncidentReview) {
  const nlohmann::json output = parsed(chat("Why are customers being charged twice?"));

  EXPECT_EQ(output["request_type"], "TROUBLESHOOTING");
  EXPECT_EQ(called(output), (std::vector<std::string>{"db", "neo4j", "doc"}));
  const std::string text = output["answer"]["content"].get<std::string>();
  EXPECT_NE(text.find("[doc:post-incident-review-duplicate-charges.md#"), std::string::npos) << text;
  EXPECT_EQ(text.find("No evidence was retrieved"), std::string::npos) << text;
}

// Issue 31, row "What's the weather in Paris?" (it answered with 8 policy snippets): a question that
// names nothing of the project is out of scope: CASUAL, nothing retrieved, and the answer says so.
TEST_F(ChatOnExampleProject, AQuestionOutsideTheProjectIsOutOfScopeWithoutEvidence) {
  for (const char* question : {"What's the weather in Paris?", "Who won the World Cup in 2018?"}) {
    const nlohmann::json output = parsed(chat(question));

    EXPECT_EQ(output["request_type"], "CASUAL") << question;
    EXPECT_EQ(output["router"]["out_of_scope"], true) << question;
    EXPECT_FALSE(output.contains("source_status")) << question;
    EXPECT_FALSE(output.contains("evidence")) << question;
    EXPECT_NE(output["answer"]["content"].get<std::string>().find("out of scope for this project"),
              std::string::npos)
        << output["answer"];
  }
}

}  // namespace
}  // namespace planfirst::e2e
