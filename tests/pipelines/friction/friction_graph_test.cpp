// The friction graph end to end on generated contacts: three checkpoints, figures against direct SQL
// on the same file, resume after an interrupt, byte-identical outputs on repeat, bad input, QA.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/asset_store.hpp"
#include "core/number_text.hpp"
#include "graph/sqlite_checkpointer.hpp"
#include "pipelines/friction/driver_figures.hpp"
#include "pipelines/friction/friction_fixtures.hpp"
#include "pipelines/friction/friction_nodes.hpp"

namespace planfirst::friction {
namespace {

using core::Json;
using testing::friction_graph;
using testing::read_file;
using testing::run_input;
using testing::run_to_end;
using testing::sql_integer;

class FrictionGraph : public testing::SampleContactsTest {};

const Json* task_by_id(const Json& state, const std::string& id) {
  for (const Json& task : state["plan_tasks"]) {
    if (task["id"] == id) return &task;
  }
  return nullptr;
}

TEST_F(FrictionGraph, RunsThroughAllThreeCheckpointsToAReportAndADriversFile) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;

  const testing::Completed run = run_to_end(runner, "t1", run_input(contacts(), out("full")));

  ASSERT_EQ(run.result.status, graph::RunStatus::kDone)
      << (run.result.error ? run.result.error->describe() : "");
  EXPECT_EQ(run.interrupts, (std::vector<std::string>{"data_discovery", "data_prep", "synthesizer"}));
  const Json& state = run.result.state.json();
  EXPECT_EQ(state["plan_steps_completed"], 5);
  EXPECT_EQ(state["plan_steps_total"], 5);
  EXPECT_EQ(state["analysis_complete"], true);
  EXPECT_EQ(state["requires_user_input"], false);
  EXPECT_EQ(state["checkpoint_message"], "");
  EXPECT_EQ(state["last_completed_node"], "supervisor");
  for (const Json& task : state["plan_tasks"]) EXPECT_EQ(task["status"], "done") << task.dump();
  const Json* analysis = task_by_id(state, "3");
  ASSERT_NE(analysis, nullptr);
  ASSERT_EQ((*analysis)["sub_agents"].size(), 4u);
  for (const Json& agent : (*analysis)["sub_agents"]) EXPECT_EQ(agent["status"], "done");
  EXPECT_TRUE(std::filesystem::exists(state["report_file_path"].get<std::string>()));
  EXPECT_TRUE(std::filesystem::exists(state["data_file_path"].get<std::string>()));
  const std::string html = read_file(state["report_file_path"].get<std::string>());
  EXPECT_NE(html.find("Impact x Ease"), std::string::npos);
  EXPECT_NE(html.find("App login failure"), std::string::npos);
  std::vector<std::string> names;
  for (const Json& line : state["reasoning"]) names.push_back(line["step_name"]);
  for (const char* name :
       {"Data Discovery Agent", "Data Preparation Agent", "Friction Agent: Digital",
        "Friction Agent: Operations", "Friction Agent: Communication", "Friction Agent: Policy",
        "Synthesizer Agent", "Critique Agent", "Reporting Agent"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

// The generator writes one contact reason per driver; the rules must find each reason's contacts and
// every figure must equal what direct SQL on the raw file says.
TEST_F(FrictionGraph, EveryDriverFigureEqualsDirectSqlOnTheData) {
  testing::MemoryRunner memory;
  graph::Runner& stored = memory.runner;

  const testing::Completed run = run_to_end(stored, "t1", run_input(contacts(), out("sql")));

  ASSERT_EQ(run.result.status, graph::RunStatus::kDone);
  const Json& synthesis = run.result.state.json()["synthesis"];
  const std::map<std::string, std::string>& reason_of = testing::generated_reasons();
  const testing::DirectSql sql(contacts());
  const std::string file = "contacts";
  EXPECT_EQ(synthesis["total_contacts"], sql.integer("SELECT count(*) FROM " + file));
  ASSERT_EQ(synthesis["drivers"].size(), reason_of.size());
  for (const Json& driver : synthesis["drivers"]) {
    const std::string where =
        " FROM " + file + " WHERE contact_reason = '" + reason_of.at(driver["id"]) + "'";
    EXPECT_EQ(driver["contacts"], sql.integer("SELECT count(*)" + where)) << driver["id"];
    EXPECT_EQ(driver["repeats"], sql.integer("SELECT count_if(repeat_contact)" + where)) << driver["id"];
    EXPECT_EQ(driver["transferred"], sql.integer("SELECT count_if(transfers > 0)" + where)) << driver["id"];
    EXPECT_EQ(driver["resolved"], sql.integer("SELECT count_if(resolution = 'resolved')" + where))
        << driver["id"];
    EXPECT_EQ(driver["handle_seconds"], sql.integer("SELECT sum(handle_time_sec)::BIGINT" + where))
        << driver["id"];
  }
  EXPECT_EQ(run.result.state.json()["prep"]["unattributed"],
            sql.integer("SELECT count(*) FROM " + file +
                        " WHERE contact_reason IN ('Plan change', 'Address update', 'General enquiry')"));
}

// "X + Y = N% of total friction": the two largest lenses' share of the contacts some driver matched
// (routine requests are no friction), as direct SQL on the raw file counts them.
TEST_F(FrictionGraph, TheTwoLargestLensesShareIsOfTheFrictionContacts) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;

  const Json state = run_to_end(runner, "t1", run_input(contacts(), out("lens"), false)).result.state.json();

  const testing::DirectSql sql(contacts());
  const std::string lens_of =
      "CASE WHEN contact_reason IN ('Login issue', 'Payment failed', 'Password reset', 'Website search') "
      "THEN 'Digital' WHEN contact_reason IN ('Order status', 'Technician appointment', 'Callback missing', "
      "'Outage report') THEN 'Operations' WHEN contact_reason IN ('Bill explanation', 'Notification "
      "confusion') THEN 'Communication' WHEN contact_reason IN ('Late fee', 'Refund request', 'Cancellation "
      "fee') THEN 'Policy' END";
  const std::string lenses = "(SELECT " + lens_of + " AS lens, count(*) AS n FROM contacts GROUP BY 1)";
  const std::int64_t friction =
      sql.integer("SELECT sum(n)::BIGINT FROM " + lenses + " WHERE lens IS NOT NULL");
  const std::int64_t top_two = sql.integer("SELECT sum(n)::BIGINT FROM (SELECT n FROM " + lenses +
                                           " WHERE lens IS NOT NULL ORDER BY n DESC LIMIT 2)");
  const std::string expected =
      "= " + percent(static_cast<double>(top_two) / static_cast<double>(friction)) + " of total friction (" +
      core::format_integer(friction, 1000) + " contacts matched a driver, of " +
      core::format_integer(sql.integer("SELECT count(*) FROM contacts"), 1000) + " analysed).";
  const std::string line = state["synthesis"]["lens_line"];
  EXPECT_NE(line.find(expected), std::string::npos) << line << "\nexpected: " << expected;
  ASSERT_LT(friction, kSampleRows);  // the sample holds routine requests, so the denominators differ
}

// The critique recounts the synthesis from the prepared file: it passes the run's own claims and
// names a figure changed after the fact, and a ranking out of order.
TEST_F(FrictionGraph, TheCritiqueNamesEveryClaimTheDataDoesNotBear) {
  testing::MemoryRunner memory;
  Json state =
      run_to_end(memory.runner, "t1", run_input(contacts(), out("critique"), false)).result.state.json();
  core::Result<std::shared_ptr<const FrictionServices>> services =
      FrictionServices::load(core::AssetStore(), false);
  ASSERT_TRUE(services) << services.error().describe();
  const graph::NodeFunction critique = critique_node(*services);
  auto verdict = [&](const Json& claims) {
    core::Result<graph::Delta> delta = critique(graph::StateView(claims), graph::NodeContext{});
    if (!delta) return delta.error().describe();
    return delta->json()["reasoning"][0]["step_text"].get<std::string>();
  };

  const std::string honest = verdict(state);
  Json& drivers = state["synthesis"]["drivers"];
  const std::string label = drivers[1]["label"];
  drivers[1]["repeats"] = drivers[1]["repeats"].get<std::int64_t>() + 1;
  drivers[1]["score"] = drivers[0]["score"].get<double>() + 1;
  const std::string tampered = verdict(state);

  EXPECT_NE(honest.find(": all hold."), std::string::npos) << honest;
  EXPECT_NE(tampered.find("2 do not hold"), std::string::npos) << tampered;
  EXPECT_NE(tampered.find(label + " repeats: claimed"), std::string::npos) << tampered;
  EXPECT_NE(tampered.find("ranking: " + label + " outscores"), std::string::npos) << tampered;
}

TEST_F(FrictionGraph, ARunLoadsTheContactsFileOnce) {
  core::Result<std::shared_ptr<const FrictionServices>> services =
      FrictionServices::load(core::AssetStore(), false);
  ASSERT_TRUE(services) << services.error().describe();
  const std::shared_ptr<data::DatasetPool> pool = (*services)->datasets;
  core::Result<graph::CompiledGraph> compiled = build_friction_graph(*services, testing::shipped_contracts());
  ASSERT_TRUE(compiled) << compiled.error().describe();
  graph::MemoryCheckpointer store;
  graph::RunnerOptions options;
  options.checkpointer = &store;
  graph::Runner runner(std::move(*compiled), options);

  const testing::Completed run = run_to_end(runner, "t1", run_input(contacts(), out("once"), false));

  ASSERT_EQ(run.result.status, graph::RunStatus::kDone);
  EXPECT_EQ(pool->opens(), 1u);  // data_discovery's loading serves data_prep too
}

TEST_F(FrictionGraph, RanksByImpactTimesEaseAsTheFormulaSays) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;

  const Json state = run_to_end(runner, "t1", run_input(contacts(), out("rank"), false)).result.state.json();

  const Json& drivers = state["synthesis"]["drivers"];
  std::int64_t largest = 0;
  for (const Json& d : drivers) largest = std::max(largest, d["handle_seconds"].get<std::int64_t>());
  for (std::size_t i = 0; i < drivers.size(); ++i) {
    const double impact = 10.0 * drivers[i]["handle_seconds"].get<double>() / static_cast<double>(largest);
    EXPECT_DOUBLE_EQ(drivers[i]["impact"].get<double>(), impact);
    EXPECT_DOUBLE_EQ(drivers[i]["score"].get<double>(), impact * drivers[i]["ease"].get<int>() / 10.0);
    EXPECT_EQ(drivers[i]["rank"], i + 1);
    if (i > 0) {
      EXPECT_GE(drivers[i - 1]["score"].get<double>(), drivers[i]["score"].get<double>());
    }
  }
  std::vector<std::string> names;
  for (const Json& line : state["reasoning"]) names.push_back(line["step_name"]);
  EXPECT_EQ(std::find(names.begin(), names.end(), "Critique Agent"), names.end());
}

TEST_F(FrictionGraph, ResumesInANewRunnerFromTheStoredCheckpointAfterAnInterrupt) {
  const std::filesystem::path db = out("checkpoints.sqlite");
  std::string checkpoint;
  {
    core::Result<std::unique_ptr<graph::SqliteCheckpointer>> store =
        graph::SqliteCheckpointer::open(db.string());
    ASSERT_TRUE(store) << store.error().describe();
    graph::RunnerOptions options;
    options.checkpointer = store->get();
    graph::Runner runner(friction_graph(), options);
    core::Result<graph::RunResult> paused =
        runner.run("t1", graph::JsonValue(run_input(contacts(), out("resume"))));
    ASSERT_TRUE(paused) << paused.error().describe();
    ASSERT_EQ(paused->status, graph::RunStatus::kInterrupted);
    EXPECT_EQ(paused->interrupt_node, "data_discovery");
    EXPECT_EQ(paused->prompt, "Confirm scope and columns?");
    checkpoint = paused->checkpoint_id;
  }
  core::Result<std::unique_ptr<graph::SqliteCheckpointer>> store =
      graph::SqliteCheckpointer::open(db.string());
  ASSERT_TRUE(store) << store.error().describe();
  graph::RunnerOptions options;
  options.checkpointer = store->get();
  graph::Runner runner(friction_graph(), options);

  core::Result<graph::RunResult> next = runner.resume("t1", checkpoint, "approve");
  core::Result<graph::RunResult> stale = runner.resume("t1", checkpoint, "approve");

  ASSERT_TRUE(next) << next.error().describe();
  EXPECT_EQ(next->status, graph::RunStatus::kInterrupted);
  EXPECT_EQ(next->interrupt_node, "data_prep");
  EXPECT_EQ(next->prompt, "Confirm buckets and filters?");
  EXPECT_EQ(next->state.json()["plan_steps_completed"], 2);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, core::ErrorCode::kConflict);
}

// Seed 003 §7.3-§7.4: the state names the checkpoint its open prompt belongs to, and the last node that
// completed; an answered prompt's id is gone from the state, and a fork asks under its own id.
TEST_F(FrictionGraph, TheStateNamesTheOpenPromptsCheckpointAndTheLastCompletedNode) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;
  core::Result<graph::RunResult> result =
      runner.run("t1", graph::JsonValue(run_input(contacts(), out("ids"), false)));
  std::vector<std::string> asked;
  std::string first;
  while (result && result->status == graph::RunStatus::kInterrupted) {
    const Json& state = result->state.json();
    EXPECT_EQ(state["checkpoint_id"], result->checkpoint_id) << result->interrupt_node;
    EXPECT_EQ(state["last_completed_node"], result->interrupt_node);
    EXPECT_EQ(state["requires_user_input"], true);
    if (first.empty()) first = result->checkpoint_id;
    asked.push_back(result->checkpoint_id);
    result = runner.resume("t1", result->checkpoint_id, "yes");
  }

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(asked.size(), 3u);
  EXPECT_EQ(result->state.json()["checkpoint_id"], "");
  EXPECT_EQ(result->state.json()["last_completed_node"], "supervisor");
  core::Result<std::string> forked = runner.fork("t1", first, "t2");
  ASSERT_TRUE(forked) << forked.error().describe();
  core::Result<graph::JsonValue> copy = runner.state("t2");
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->json()["checkpoint_id"], *forked);
  core::Result<graph::RunResult> resumed = runner.resume("t2", *forked, "yes");
  ASSERT_TRUE(resumed) << resumed.error().describe();
  EXPECT_EQ(resumed->interrupt_node, "data_prep");
  EXPECT_EQ(resumed->state.json()["checkpoint_id"], resumed->checkpoint_id);
}

TEST_F(FrictionGraph, SameInputGivesByteIdenticalDriversCsvAndReport) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;

  const Json first = run_to_end(runner, "a", run_input(contacts(), out("same"))).result.state.json();
  const std::string first_csv = read_file(first["data_file_path"].get<std::string>());
  const std::string first_html = read_file(first["report_file_path"].get<std::string>());
  const Json second = run_to_end(runner, "b", run_input(contacts(), out("same"))).result.state.json();

  EXPECT_FALSE(first_csv.empty());
  EXPECT_EQ(read_file(second["data_file_path"].get<std::string>()), first_csv);
  EXPECT_EQ(read_file(second["report_file_path"].get<std::string>()), first_html);
  EXPECT_EQ(second["synthesis"], first["synthesis"]);
}

TEST_F(FrictionGraph, MissingRequiredColumnsFailTheRunNamingEachOne) {
  const std::filesystem::path bad = out("no_flags.csv");
  {
    std::ofstream csv(bad);
    csv << "contact_id,contact_timestamp,channel,contact_reason,handle_time_sec,transfers\n"
           "C1,2025-01-01 10:00:00,phone,Login issue,300,0\nC2,2025-01-02 11:00:00,chat,Late fee,200,1\n";
  }
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;

  core::Result<graph::RunResult> result = runner.run("t1", graph::JsonValue(run_input(bad, out("bad"))));

  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->status, graph::RunStatus::kFailed);
  ASSERT_TRUE(result->error.has_value());
  EXPECT_EQ(result->error->code, core::ErrorCode::kInvalidArgument);
  const std::string message = result->error->message;
  EXPECT_NE(message.find("repeat-contact flag"), std::string::npos) << message;
  EXPECT_NE(message.find("resolution"), std::string::npos) << message;
  EXPECT_EQ(message.find("channel ("), std::string::npos) << message;
  EXPECT_NE(message.find("no_flags.csv"), std::string::npos) << message;
}

TEST_F(FrictionGraph, ARefusalAtACheckpointEndsTheRunWithTheTaskBlocked) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;
  core::Result<graph::RunResult> paused =
      runner.run("t1", graph::JsonValue(run_input(contacts(), out("refuse"))));
  ASSERT_TRUE(paused && paused->status == graph::RunStatus::kInterrupted);

  core::Result<graph::RunResult> result = runner.resume("t1", paused->checkpoint_id, "no");

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->status, graph::RunStatus::kDone);
  const Json& state = result->state.json();
  EXPECT_EQ(state["plan_steps_completed"], 1);
  EXPECT_FALSE(state.contains("prep"));
  EXPECT_EQ((*task_by_id(state, "2"))["status"], "blocked");
}

TEST_F(FrictionGraph, QaAgentAnswersFromTheDriversFileAndCitesIt) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;
  const Json done = run_to_end(runner, "t1", run_input(contacts(), out("qa"), false)).result.state.json();
  const std::string csv = done["data_file_path"];
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
  ASSERT_TRUE(db);
  core::Result<data::QueryResult> top =
      (*db)->query("SELECT driver FROM read_csv('" + csv + "') ORDER BY repeat_rate DESC LIMIT 1");
  ASSERT_TRUE(top) << top.error().describe();

  core::Result<graph::RunResult> answered = runner.run(
      "t1",
      graph::JsonValue(Json{
          {"messages", {{{"role", "human"}, {"content", "Which driver has the highest repeat rate?"}}}}}));

  ASSERT_TRUE(answered) << answered.error().describe();
  EXPECT_EQ(answered->status, graph::RunStatus::kDone);
  const std::string answer = answered->state.json()["messages"].back()["content"];
  EXPECT_EQ(answer.find("Highest repeat rate: " + top->at(0, 0).as_text()), 0u) << answer;
  EXPECT_NE(answer.find(csv + " (rows "), std::string::npos) << answer;
  EXPECT_EQ(answered->state.json()["last_completed_node"], "supervisor");
}

TEST_F(FrictionGraph, FiltersNarrowTheScopeAndAreCounted) {
  testing::MemoryRunner memory;
  graph::Runner& runner = memory.runner;
  Json input = run_input(contacts(), out("filtered"), false);
  input["filters"] = {{"channels", {"phone"}}, {"from", "2025-03-01"}, {"to", "2025-03-31"}};

  const Json state = run_to_end(runner, "t1", input).result.state.json();

  const std::string file = "read_csv('" + contacts().string() + "')";
  const std::int64_t kept =
      sql_integer("SELECT count(*) FROM " + file +
                  " WHERE channel = 'phone' AND contact_timestamp >= DATE '2025-03-01' AND "
                  "contact_timestamp < DATE '2025-04-01'");
  EXPECT_EQ(state["prep"]["rows_kept"], kept);
  EXPECT_EQ(state["prep"]["outside_filters"], kSampleRows - kept);
  EXPECT_EQ(state["synthesis"]["total_contacts"], kept);
}

TEST_F(FrictionGraph, InputFiltersOnADayTheCalendarLacksFailTheRunNamingTheField) {
  testing::MemoryRunner memory;
  Json input = run_input(contacts(), out("no_such_day"), false);
  input["filters"] = {{"from", "2025-02-30"}};

  const graph::RunResult result = testing::pause_at(memory.runner, "t1", input, "data_discovery");
  core::Result<graph::RunResult> prepared = memory.runner.resume("t1", result.checkpoint_id, "yes");

  ASSERT_TRUE(prepared) << prepared.error().describe();
  ASSERT_EQ(prepared->status, graph::RunStatus::kFailed);
  ASSERT_TRUE(prepared->error.has_value());
  EXPECT_EQ(prepared->error->code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(prepared->error->where, "/filters/from") << prepared->error->describe();
  EXPECT_NE(prepared->error->message.find("\"2025-02-30\" is no day of the calendar"), std::string::npos)
      << prepared->error->describe();
}

}  // namespace
}  // namespace planfirst::friction
