// `planfirst threads` as a user runs it on a SQLite checkpointer holding runs of the `autoviz`
// graph asked to confirm its plan: list, show, history and prune, an unknown thread (exit 3), and a
// thread whose plan was approved, whose head shows the executed plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/graph_cli_session.hpp"

namespace planfirst::e2e {
namespace {

using nlohmann::json;

// The rows of a `threads history` table (header dropped), newest first.
std::vector<std::string> history_rows(const std::string& output) {
  std::istringstream lines(output);
  std::string line;
  std::vector<std::string> rows;
  std::getline(lines, line);  // STEP CHECKPOINT NODE STATUS CREATED
  while (std::getline(lines, line)) rows.push_back(line);
  return rows;
}

// The state `threads show` prints after its "state:" line.
json shown_state(const std::string& output) {
  const std::size_t at = output.find("\nstate:\n");
  if (at == std::string::npos) return {};
  return json::parse(output.substr(at + 8), nullptr, false);
}

// Runs THREAD and approves at every checkpoint; the interrupting nodes, in order.
std::vector<std::string> run_to_the_end(const GraphCliSession& session, const std::string& thread,
                                        json& last) {
  std::vector<std::string> pauses;
  last = last_json_line(session.run(thread).output);
  while (last.value("status", "") == "interrupted" && pauses.size() < 10) {
    pauses.push_back(last.value("interrupt_node", ""));
    last = last_json_line(session.resume(thread, last.value("checkpoint_id", "?")).output);
  }
  return pauses;
}

TEST(ThreadsCli, ListShowsEveryThreadWithItsStatus) {
  GraphCliSession session;
  json done;
  run_to_the_end(session, "finished", done);
  ASSERT_EQ(session.run("paused").exit_code, 0);

  const CommandOutcome list = session.threads("list");

  ASSERT_EQ(list.exit_code, 0) << list.output;
  std::vector<std::string> rows = history_rows(list.output);
  ASSERT_EQ(rows.size(), 2u) << list.output;
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows[0].rfind("finished ", 0), 0u) << list.output;
  EXPECT_NE(rows[0].find(" done "), std::string::npos) << list.output;
  EXPECT_EQ(rows[1].rfind("paused ", 0), 0u) << list.output;
  EXPECT_NE(rows[1].find(" interrupted "), std::string::npos) << list.output;
}

TEST(ThreadsCli, ShowPrintsTheHeadCheckpointAndTheStateAwaitingAnAnswer) {
  GraphCliSession session;
  const json paused = last_json_line(session.run("T").output);

  const CommandOutcome show = session.threads("show T");

  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("head:         " + paused.value("checkpoint_id", "?")), std::string::npos)
      << show.output;
  EXPECT_NE(show.output.find("status:       interrupted"), std::string::npos) << show.output;
  const json state = shown_state(show.output);
  EXPECT_EQ(state["requires_user_input"], true) << show.output;
  EXPECT_EQ(state["checkpoint_prompt"], kApprovalPrompt) << show.output;
}

TEST(ThreadsCli, HistoryListsEveryCheckpointNewestFirst) {
  GraphCliSession session;
  const json first = last_json_line(session.run("T").output);
  const json second =
      last_json_line(session.resume("T", first.value("checkpoint_id", "?"), "per month").output);

  const CommandOutcome history = session.threads("history T");

  ASSERT_EQ(history.exit_code, 0) << history.output;
  const std::vector<std::string> rows = history_rows(history.output);
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(second.value("step", 0)) + 1) << history.output;
  EXPECT_NE(rows.front().find(second.value("checkpoint_id", "?")), std::string::npos) << history.output;
  EXPECT_EQ(rows.back().rfind("0 ", 0), 0u) << history.output;
  std::size_t found_first = 0;
  for (const std::string& row : rows)
    found_first += row.find(first.value("checkpoint_id", "?")) != std::string::npos;
  EXPECT_EQ(found_first, 1u) << history.output;
}

TEST(ThreadsCli, PruneKeepsTheNewestCheckpointsAndTheHeadsState) {
  GraphCliSession session;
  const json first = last_json_line(session.run("T").output);
  const json second =
      last_json_line(session.resume("T", first.value("checkpoint_id", "?"), "per month").output);
  const json state_before = shown_state(session.threads("show T").output);
  const std::size_t rows_before = history_rows(session.threads("history T").output).size();

  const CommandOutcome prune = session.threads("prune T --keep-last 2");

  ASSERT_EQ(prune.exit_code, 0) << prune.output;
  EXPECT_NE(prune.output.find("removed " + std::to_string(rows_before - 2) + " checkpoints, kept 2"),
            std::string::npos)
      << prune.output;
  const std::vector<std::string> rows = history_rows(session.threads("history T").output);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_NE(rows.front().find(second.value("checkpoint_id", "?")), std::string::npos);
  EXPECT_EQ(shown_state(session.threads("show T").output), state_before);
  const CommandOutcome resumed = session.resume("T", second.value("checkpoint_id", "?"));
  EXPECT_EQ(last_json_line(resumed.output)["status"], "done") << resumed.output;
}

TEST(ThreadsCli, AnUnknownThreadIsExit3ForShowHistoryAndPrune) {
  GraphCliSession session;
  ASSERT_EQ(session.run("T").exit_code, 0);

  for (const char* command : {"show nosuch", "history nosuch", "prune nosuch --keep-last 1"}) {
    const CommandOutcome outcome = session.threads(command);

    EXPECT_EQ(outcome.exit_code, 3) << command << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find("no thread 'nosuch'"), std::string::npos) << command << "\n"
                                                                            << outcome.output;
  }
}

TEST(ThreadsCli, ShowOnAStoreNotYetCreatedIsExit3AndCreatesNothing) {
  GraphCliSession session;

  const CommandOutcome show = session.threads("show T");

  EXPECT_EQ(show.exit_code, 3) << show.output;
  EXPECT_FALSE(std::filesystem::exists(session.file("checkpoints.sqlite")));
}

TEST(ThreadsCli, AThreadWhosePlanWasApprovedShowsTheExecutedPlan) {
  GraphCliSession session;
  json last;

  const std::vector<std::string> pauses = run_to_the_end(session, "T", last);
  const CommandOutcome show = session.threads("show T");

  EXPECT_EQ(pauses, (std::vector<std::string>{"confirm"}));
  EXPECT_EQ(last["status"], "done") << last.dump();
  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("status:       done"), std::string::npos) << show.output;
  const json state = shown_state(show.output);
  EXPECT_EQ(state["question"], kRunQuestion) << show.output;
  EXPECT_EQ(state["confirmed"], true) << show.output;
  EXPECT_EQ(state["requires_user_input"], false) << show.output;
  EXPECT_TRUE(state.contains("execution")) << show.output;
}

}  // namespace
}  // namespace planfirst::e2e
