// `planfirst graph` as a user runs it on a registered pipeline graph (`autoviz`, asked to confirm its
// plan): list, Mermaid, one node on a state file, and a run on a SQLite checkpointer that pauses at
// the approval, resumes from the head, refuses a stale checkpoint id and streams its events as JSON
// Lines. Seed 003's §6 emulation is a test fixture of the runtime; the friction graph a user runs analyses
// data.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/graph_cli_session.hpp"

namespace planfirst::e2e {
namespace {

using nlohmann::json;

const std::vector<std::string> kAutovizNodes = {"profile",  "intent",  "requirements", "narrow",  "adapt",
                                                "coverage", "confirm", "review",       "execute", "report"};

std::size_t count_lines(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

TEST(GraphCli, ListNamesEveryPipelinesGraphWithItsNodesAndMarksTheDecisionNodes) {
  GraphCliSession session;

  const CommandOutcome list = session.planfirst("graph list");

  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_EQ(list.output.rfind("analyst ", 0), 0u)
      << list.output;  // sorted: analyst, autoviz, friction, retrieval
  EXPECT_NE(list.output.find("\nautoviz "), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("\nfriction "), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("\nretrieval "), std::string::npos) << list.output;
  for (const char* node : {"data_discovery (decision)", "data_prep (decision)", "friction (fan-out)",
                           "synthesizer (decision)", " critique", " reporting", " qa_agent"}) {
    EXPECT_NE(list.output.find(node), std::string::npos) << node << "\n" << list.output;
  }
  EXPECT_NE(list.output.find("clarify (decision)"), std::string::npos) << list.output;
  for (const std::string& node : kAutovizNodes) {
    EXPECT_NE(list.output.find(" " + node), std::string::npos) << node << "\n" << list.output;
  }
  EXPECT_NE(list.output.find("confirm (decision)"), std::string::npos) << list.output;
  EXPECT_EQ(list.output.find("profile (decision)"), std::string::npos) << list.output;
  EXPECT_EQ(list.output.find("review (decision)"), std::string::npos) << list.output;
}

TEST(GraphCli, MermaidIsAFlowchartNamingEveryNode) {
  GraphCliSession session;

  const CommandOutcome mermaid = session.planfirst("graph mermaid autoviz");

  ASSERT_EQ(mermaid.exit_code, 0) << mermaid.output;
  EXPECT_EQ(mermaid.output.rfind("flowchart ", 0), 0u) << mermaid.output;
  for (const std::string& node : kAutovizNodes) {
    EXPECT_NE(mermaid.output.find("  " + node), std::string::npos) << node << "\n" << mermaid.output;
  }
  EXPECT_NE(mermaid.output.find("confirm --> review"), std::string::npos) << mermaid.output;
}

TEST(GraphCli, MermaidOfAnUnknownGraphIsAUsageError) {
  GraphCliSession session;

  const CommandOutcome mermaid = session.planfirst("graph mermaid nosuchgraph");

  EXPECT_EQ(mermaid.exit_code, 2) << mermaid.output;
  EXPECT_NE(mermaid.output.find("nosuchgraph"), std::string::npos) << mermaid.output;
}

// The seed's §6 emulation is a fixture of the runtime: the friction graph a user runs analyses data
// and has none to analyse without a dataset_path.
TEST(GraphCli, TheFrictionGraphWithoutADatasetFailsNamingTheInputItNeeds) {
  GraphCliSession session;

  const CommandOutcome run = session.planfirst("graph run friction --checkpointer " + session.checkpointer());

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("dataset_path"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("12,480"), std::string::npos) << run.output;
}

TEST(GraphCli, NodePrintsTheConfirmNodesValidatedDelta) {
  GraphCliSession session;
  std::ofstream(session.file("state.json"))
      << json{{"question", kRunQuestion}, {"coverage", {{"complete", true}}}}.dump();

  const CommandOutcome node =
      session.planfirst("graph node autoviz confirm --state " + session.file("state.json").string());

  ASSERT_EQ(node.exit_code, 0) << node.output;
  const json delta = json::parse(node.output);
  EXPECT_EQ(delta["checkpoint_prompt"], kApprovalPrompt) << node.output;
  EXPECT_EQ(delta["requires_user_input"], true) << node.output;
  EXPECT_EQ(
      delta["checkpoint_message"].get<std::string>().rfind(std::string("Plan ready for ") + kRunQuestion, 0),
      0u)
      << node.output;
}

TEST(GraphCli, NodeThatFailsPrintsItsErrorAndNoDelta) {
  GraphCliSession session;
  std::ofstream(session.file("empty.csv")) << "region,revenue\n";
  std::ofstream(session.file("bad_state.json"))
      << json{{"question", kRunQuestion}, {"dataset", session.file("empty.csv").string()}}.dump();

  const CommandOutcome node =
      session.planfirst("graph node autoviz profile --state " + session.file("bad_state.json").string());

  EXPECT_EQ(node.exit_code, 1) << node.output;
  EXPECT_NE(node.output.find("has no rows"), std::string::npos) << node.output;
  EXPECT_EQ(node.output.find("\"profile\""), std::string::npos) << "no delta printed\n" << node.output;
}

TEST(GraphCli, NodeTheGraphLacksIsAUsageErrorNamingIt) {
  GraphCliSession session;
  std::ofstream(session.file("state.json")) << json{{"question", kRunQuestion}}.dump();

  const CommandOutcome node =
      session.planfirst("graph node autoviz confirmm --state " + session.file("state.json").string());

  EXPECT_EQ(node.exit_code, 2) << node.output;
  EXPECT_NE(node.output.find("\"confirmm\""), std::string::npos) << node.output;
}

TEST(GraphCli, RunPausesAtTheFirstCheckpointWithMessagePromptCheckpointAndResumeCommand) {
  GraphCliSession session;

  const CommandOutcome run = session.run("T");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json summary = last_json_line(run.output);
  EXPECT_EQ(summary["status"], "interrupted") << run.output;
  EXPECT_EQ(summary["thread_id"], "T");
  EXPECT_EQ(summary["interrupt_node"], "confirm");
  EXPECT_EQ(summary["prompt"], kApprovalPrompt);
  EXPECT_NE(summary.value("message", "").find(std::string("Plan ready for ") + kRunQuestion),
            std::string::npos)
      << run.output;
  const std::string checkpoint = summary.value("checkpoint_id", "");
  ASSERT_FALSE(checkpoint.empty()) << run.output;
  EXPECT_EQ(summary["resume"], "planfirst graph resume autoviz --thread T --checkpoint " + checkpoint +
                                   " --checkpointer " + session.checkpointer() + " --answer ANSWER");
}

TEST(GraphCli, ThePrintedResumeCommandContinuesTheRun) {
  GraphCliSession session;
  const json paused = last_json_line(session.run("T").output);
  std::string command = paused.value("resume", "");
  ASSERT_EQ(command.rfind("planfirst ", 0), 0u) << paused.dump();
  command.replace(0, std::string("planfirst").size(), binary("planfirst"));
  command.replace(command.rfind("ANSWER"), 6, "approve");

  const CommandOutcome resumed = run_command(command);

  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(last_json_line(resumed.output)["status"], "done") << resumed.output;
  EXPECT_EQ(last_json_line(resumed.output)["last_completed_node"], "execute") << resumed.output;
}

TEST(GraphCli, ResumeWithAChangeFromTheHeadPlansAgainUpToTheNextApproval) {
  GraphCliSession session;
  const json first = last_json_line(session.run("T").output);

  const CommandOutcome resume =
      session.resume("T", first.value("checkpoint_id", "?"), "per product category");

  ASSERT_EQ(resume.exit_code, 0) << resume.output;
  const json second = last_json_line(resume.output);
  EXPECT_EQ(second["status"], "interrupted") << resume.output;
  EXPECT_EQ(second["interrupt_node"], "confirm");
  EXPECT_NE(second.value("message", "").find("(per product category)"), std::string::npos) << resume.output;
  EXPECT_NE(second["checkpoint_id"], first["checkpoint_id"]);
  EXPECT_GT(second.value("step", 0), first.value("step", 0));
}

TEST(GraphCli, ResumeWithAStaleCheckpointFailsNamingTheHeadAndDoesNotFork) {
  GraphCliSession session;
  const json first = last_json_line(session.run("T").output);
  const json second =
      last_json_line(session.resume("T", first.value("checkpoint_id", "?"), "per month").output);
  const CommandOutcome history_before = session.threads("history T");

  const CommandOutcome stale = session.resume("T", first.value("checkpoint_id", "?"));

  EXPECT_EQ(stale.exit_code, 1) << stale.output;
  EXPECT_NE(stale.output.find("stale checkpoint " + first.value("checkpoint_id", "?")), std::string::npos)
      << stale.output;
  EXPECT_NE(stale.output.find("the head is " + second.value("checkpoint_id", "?")), std::string::npos)
      << stale.output;
  EXPECT_EQ(session.threads("history T").output, history_before.output);
}

TEST(GraphCli, ResumeOfAnUnknownThreadIsAnInputError) {
  GraphCliSession session;
  const json first = last_json_line(session.run("T").output);

  const CommandOutcome resume = session.resume("nosuch", first.value("checkpoint_id", "?"));

  EXPECT_EQ(resume.exit_code, 3) << resume.output;
  EXPECT_NE(resume.output.find("nosuch"), std::string::npos) << resume.output;
}

TEST(GraphCli, EventsArePrintedAsJsonLinesWithThreadAndCheckpointIds) {
  GraphCliSession session;

  const CommandOutcome run = session.run("T", "--events");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::istringstream lines(run.output);
  std::string line;
  std::vector<json> events;
  while (std::getline(lines, line)) {
    const json parsed = json::parse(line, nullptr, false);
    ASSERT_TRUE(parsed.is_object()) << "not JSON: " << line;
    if (parsed.contains("event")) events.push_back(parsed);
  }
  const json summary = last_json_line(run.output);
  std::vector<std::string> started;
  std::size_t ends = 0;
  std::vector<json> interrupts;
  for (const json& event : events) {
    EXPECT_EQ(event["thread_id"], "T") << event.dump();
    EXPECT_FALSE(event.value("checkpoint_id", "").empty()) << event.dump();
    if (event["event"] == "node_start") started.push_back(event["node"]);
    if (event["event"] == "node_end") ++ends;
    if (event["event"] == "interrupt") interrupts.push_back(event);
  }
  EXPECT_EQ(started, (std::vector<std::string>{"profile", "intent", "requirements", "narrow", "adapt",
                                               "coverage", "confirm"}));
  EXPECT_EQ(ends, started.size());
  ASSERT_EQ(interrupts.size(), 1u) << run.output;
  EXPECT_EQ(interrupts[0]["node"], "confirm");
  EXPECT_EQ(interrupts[0]["checkpoint_id"], summary["checkpoint_id"]);
  EXPECT_EQ(interrupts[0]["data"]["prompt"], kApprovalPrompt);
  EXPECT_EQ(count_lines(run.output), events.size() + 1) << "events, then the summary line\n" << run.output;
}

}  // namespace
}  // namespace planfirst::e2e
