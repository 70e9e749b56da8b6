// `planfirst graph` as a user runs it on the registered seed 003 graph (`friction`): list, Mermaid,
// one node on a state file, and a run on a SQLite checkpointer that pauses at a checkpoint, resumes
// from the head, refuses a stale checkpoint id and streams its events as JSON Lines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/friction_session.hpp"

namespace planfirst::e2e {
namespace {

using nlohmann::json;

const std::vector<std::string> kFrictionNodes = {"supervisor", "data_discovery", "data_prep", "friction",
                                                 "synthesizer", "critique",       "reporting", "qa_agent"};

json read_json_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

std::size_t count_lines(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

TEST(GraphCli, ListNamesFrictionWithItsNodesAndMarksTheDecisionNodes) {
  FrictionSession session;

  const CommandOutcome list = session.planfirst("graph list");

  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("\nfriction "), std::string::npos) << list.output;  // sorted after analyst, autoviz
  EXPECT_EQ(list.output.rfind("analyst ", 0), 0u) << list.output;
  EXPECT_NE(list.output.find("\nautoviz "), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("clarify (decision)"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("confirm (decision)"), std::string::npos) << list.output;
  for (const std::string& node : kFrictionNodes) {
    EXPECT_NE(list.output.find(" " + node), std::string::npos) << node << "\n" << list.output;
  }
  EXPECT_NE(list.output.find("data_discovery (decision)"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("data_prep (decision)"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("synthesizer (decision)"), std::string::npos) << list.output;
  EXPECT_EQ(list.output.find("supervisor (decision)"), std::string::npos) << list.output;
  EXPECT_EQ(list.output.find("reporting (decision)"), std::string::npos) << list.output;
}

TEST(GraphCli, MermaidIsAFlowchartNamingEveryNode) {
  FrictionSession session;

  const CommandOutcome mermaid = session.planfirst("graph mermaid friction");

  ASSERT_EQ(mermaid.exit_code, 0) << mermaid.output;
  EXPECT_EQ(mermaid.output.rfind("flowchart ", 0), 0u) << mermaid.output;
  for (const std::string& node : kFrictionNodes) {
    EXPECT_NE(mermaid.output.find("  " + node), std::string::npos) << node << "\n" << mermaid.output;
  }
  EXPECT_NE(mermaid.output.find("friction --> synthesizer"), std::string::npos) << mermaid.output;
}

TEST(GraphCli, MermaidOfAnUnknownGraphIsAUsageError) {
  FrictionSession session;

  const CommandOutcome mermaid = session.planfirst("graph mermaid nosuchgraph");

  EXPECT_EQ(mermaid.exit_code, 2) << mermaid.output;
  EXPECT_NE(mermaid.output.find("nosuchgraph"), std::string::npos) << mermaid.output;
}

TEST(GraphCli, NodePrintsTheSynthesizersValidatedDeltaAsInSeedSection6) {
  FrictionSession session;
  const json expected = read_json_file(source("assets/graphs/friction/synthesizer.json"));

  const CommandOutcome node = session.planfirst("graph node friction synthesizer --state " +
                                                source("tests/graph/cases/seed003_synthesizer_input.json"));

  ASSERT_EQ(node.exit_code, 0) << node.output;
  EXPECT_EQ(json::parse(node.output), expected) << node.output;
}

TEST(GraphCli, NodeOnAStateOutsideTheContractFailsNamingTheNodeAndThePointer) {
  FrictionSession session;
  std::ofstream(session.file("bad_state.json")) << R"({"phase": "analysis", "plan_steps_completed": "four"})";

  const CommandOutcome node =
      session.planfirst("graph node friction synthesizer --state " + session.file("bad_state.json").string());

  EXPECT_EQ(node.exit_code, 1) << node.output;
  EXPECT_NE(node.output.find("synthesizer"), std::string::npos) << node.output;
  EXPECT_NE(node.output.find("/plan_steps_completed"), std::string::npos) << node.output;
  EXPECT_EQ(node.output.find("\"checkpoint_prompt\""), std::string::npos) << "no delta printed\n" << node.output;
}

TEST(GraphCli, NodeTheGraphLacksIsAUsageErrorNamingIt) {
  FrictionSession session;

  const CommandOutcome node = session.planfirst("graph node friction synthesiser --state " +
                                                source("tests/graph/cases/seed003_synthesizer_input.json"));

  EXPECT_EQ(node.exit_code, 2) << node.output;
  EXPECT_NE(node.output.find("\"synthesiser\""), std::string::npos) << node.output;
}

TEST(GraphCli, RunPausesAtTheFirstCheckpointWithMessagePromptCheckpointAndResumeCommand) {
  FrictionSession session;

  const CommandOutcome run = session.run("T");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json summary = last_json_line(run.output);
  EXPECT_EQ(summary["status"], "interrupted") << run.output;
  EXPECT_EQ(summary["thread_id"], "T");
  EXPECT_EQ(summary["interrupt_node"], "data_discovery");
  EXPECT_EQ(summary["prompt"], "Confirm scope and columns?");
  EXPECT_NE(summary.value("message", "").find("Data Discovery Complete"), std::string::npos) << run.output;
  const std::string checkpoint = summary.value("checkpoint_id", "");
  ASSERT_FALSE(checkpoint.empty()) << run.output;
  EXPECT_EQ(summary["resume"], "planfirst graph resume friction --thread T --checkpoint " + checkpoint +
                                   " --checkpointer " + session.checkpointer() + " --answer ANSWER");
}

TEST(GraphCli, ThePrintedResumeCommandContinuesTheRun) {
  FrictionSession session;
  const json paused = last_json_line(session.run("T").output);
  std::string command = paused.value("resume", "");
  ASSERT_EQ(command.rfind("planfirst ", 0), 0u) << paused.dump();
  command.replace(0, std::string("planfirst").size(), binary("planfirst"));
  command.replace(command.rfind("ANSWER"), 6, "yes");

  const CommandOutcome resumed = run_command(command);

  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(last_json_line(resumed.output)["interrupt_node"], "data_prep") << resumed.output;
}

TEST(GraphCli, ResumeWithTheHeadContinuesToTheNextCheckpoint) {
  FrictionSession session;
  const json first = last_json_line(session.run("T").output);

  const CommandOutcome resume = session.resume("T", first.value("checkpoint_id", "?"));

  ASSERT_EQ(resume.exit_code, 0) << resume.output;
  const json second = last_json_line(resume.output);
  EXPECT_EQ(second["status"], "interrupted") << resume.output;
  EXPECT_EQ(second["interrupt_node"], "data_prep");
  EXPECT_EQ(second["prompt"], "Confirm buckets and filters?");
  EXPECT_NE(second["checkpoint_id"], first["checkpoint_id"]);
  EXPECT_GT(second.value("step", 0), first.value("step", 0));
}

TEST(GraphCli, ResumeWithAStaleCheckpointFailsNamingTheHeadAndDoesNotFork) {
  FrictionSession session;
  const json first = last_json_line(session.run("T").output);
  const json second = last_json_line(session.resume("T", first.value("checkpoint_id", "?")).output);
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
  FrictionSession session;
  const json first = last_json_line(session.run("T").output);

  const CommandOutcome resume = session.resume("nosuch", first.value("checkpoint_id", "?"));

  EXPECT_EQ(resume.exit_code, 3) << resume.output;
  EXPECT_NE(resume.output.find("nosuch"), std::string::npos) << resume.output;
}

TEST(GraphCli, EventsArePrintedAsJsonLinesWithThreadAndCheckpointIds) {
  FrictionSession session;

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
  EXPECT_EQ(started, (std::vector<std::string>{"supervisor", "data_discovery"}));
  EXPECT_EQ(ends, started.size());
  ASSERT_EQ(interrupts.size(), 1u) << run.output;
  EXPECT_EQ(interrupts[0]["node"], "data_discovery");
  EXPECT_EQ(interrupts[0]["checkpoint_id"], summary["checkpoint_id"]);
  EXPECT_EQ(interrupts[0]["data"]["prompt"], "Confirm scope and columns?");
  EXPECT_EQ(count_lines(run.output), events.size() + 1) << "events, then the summary line\n" << run.output;
}

}  // namespace
}  // namespace planfirst::e2e
