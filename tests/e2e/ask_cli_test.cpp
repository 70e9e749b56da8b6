// planfirst ask / plan / resume as a user runs them: the seed 002 walkthrough on the bundled sales
// example, the confirmation checkpoint and its resume, the renderer two asks share, and the errors
// a user can cause. Plans no
// rule produces (a wrong-case column, a column the data lacks) run through `planfirst graph node`
// on the state `planfirst plan --json` printed, edited.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"
#include "support/unix_socket.hpp"

namespace planfirst::e2e {
namespace {

constexpr const char* kWalkthrough = "\"get revenue totals by region and product type over time\"";

class AskCli : public ::testing::Test {
 protected:
  std::string out() const { return (dir_.path() / "out").string(); }
  std::string store() const { return "sqlite:" + (dir_.path() / "checkpoints.sqlite").string(); }
  CommandOutcome ask(const std::string& data, const std::string& question,
                     const std::string& extra = "") const {
    return run_command(planfirst("ask " + data + " " + question + " --out " + out() + " --checkpointer " +
                                 store() + " " + extra));
  }
  // The state `planfirst plan --json` prints for `question` on the sales example, writing to out().
  nlohmann::json planned(const std::string& question) const;
  // The params of the plan's step that runs `tool`.
  static nlohmann::json& step_param(nlohmann::json& state, const std::string& tool);
  static nlohmann::json read_json(const std::filesystem::path& file);
  test_support::TempDir dir_;
};

// The state after `node` of the autoviz graph ran on `state`: its delta's keys replace the state's.
nlohmann::json after_node(const test_support::TempDir& dir, const std::string& node, nlohmann::json state) {
  const std::filesystem::path file = dir.write(node + "_state.json", state.dump());
  const CommandOutcome run =
      run_command(planfirst("graph node autoviz " + node + " --state " + file.string()));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json delta = parsed(run);
  for (const auto& [key, value] : delta.items()) state[key] = value;
  return state;
}

const nlohmann::json& step_with_tool(const nlohmann::json& steps, const std::string& tool) {
  static const nlohmann::json kNone;
  for (const auto& step : steps) {
    if (step["tool"] == tool) return step;
  }
  ADD_FAILURE() << "no " << tool << " step in " << steps;
  return kNone;
}

// Whether scripts/bootstrap installed vl2svg and node is on PATH, so ask draws SVGs.
bool vl2svg_installed() {
  return std::filesystem::exists(source("third_party/node/node_modules/vega-lite/bin/vl2svg")) &&
         run_command("command -v node").exit_code == 0;
}

nlohmann::json AskCli::planned(const std::string& question) const {
  const CommandOutcome run = run_command(planfirst("plan " + source("examples/sales.csv") + " " + question +
                                                   " --json --checkpointer " + store()));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  nlohmann::json state = parsed(run);
  state["out_dir"] = out();
  return state;
}

nlohmann::json& AskCli::step_param(nlohmann::json& state, const std::string& tool) {
  for (auto& step : state["plan"]["steps"]) {
    if (step["tool"] == tool) return step["params"];
  }
  ADD_FAILURE() << "no " << tool << " step in " << state["plan"];
  return state["plan"];
}

nlohmann::json AskCli::read_json(const std::filesystem::path& file) {
  nlohmann::json json = nlohmann::json::parse(read_text(file), nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << file;
  return json;
}

TEST_F(AskCli, TheSeedWalkthroughPlansCoversAndProducesALineChartAndATable) {
  const CommandOutcome run = ask(source("examples/sales.csv"), kWalkthrough, "--json");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  EXPECT_EQ(result["requirements"], nlohmann::json::parse(R"({"metrics": ["revenue"],
      "group_by": ["region", "product_category"], "time": {"column": "date", "grain": "unknown"},
      "analysis": ["total", "compare", "trend"], "outputs": ["chart", "table"], "constraints": []})"));
  std::set<std::string> tools;
  for (const auto& tool : result["tools"]) tools.insert(tool["tool"].get<std::string>());
  for (const char* seed_tool :  // seed §3's final subset
       {"parse_datetime", "aggregate", "plot_line", "compute_summary_stats", "segment_metric", "plot_bar"}) {
    EXPECT_TRUE(tools.count(seed_tool)) << seed_tool;
  }
  EXPECT_TRUE(result["coverage"]["complete"].get<bool>());
  for (const auto& line : result["coverage"]["lines"]) EXPECT_TRUE(line["covered"].get<bool>()) << line;
  bool line_chart_by_category = false;
  for (const auto& step : result["plan"]["steps"]) {
    EXPECT_NE(step["tool"], "detect_anomalies");
    EXPECT_NE(step["tool"], "plot_histogram");
    if (step["tool"] == "plot_line") line_chart_by_category = step["params"]["color"] == "product_category";
  }
  EXPECT_TRUE(line_chart_by_category) << result["plan"];
  EXPECT_EQ(result["outcome"], "done");
  for (const char* file :
       {"plan.json", "report.md", "report.html", "plot_line.vl.json", "result.csv", "result.md"}) {
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out()) / file)) << file;
  }
  const std::string page = read_text(std::filesystem::path(out()) / "report.html");
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find(" src="), std::string::npos);  // nothing loaded from elsewhere
  if (vl2svg_installed()) {
    const std::string svg = read_text(std::filesystem::path(out()) / "plot_line.svg");
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(page.find("<figure>" + svg), std::string::npos) << "report.html does not inline plot_line.svg";
  } else {
    EXPECT_NE(page.find("SVG skipped: "), std::string::npos);
    EXPECT_NE(page.find("<summary>Vega-Lite spec (plot_line.vl.json)</summary>"), std::string::npos);
  }
}

// The files in `dir` whose names end with `suffix`.
std::vector<std::filesystem::path> files_ending(const std::filesystem::path& dir, const std::string& suffix) {
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().filename().string().ends_with(suffix)) found.push_back(entry.path());
  }
  return found;
}

TEST_F(AskCli, TwoAsksShareOneRendererThatExitsWhenIdle) {
  if (!vl2svg_installed()) GTEST_SKIP() << "node or vega not installed: no SVGs";
  const std::filesystem::path runtime = dir_.path() / "runtime";  // as $XDG_RUNTIME_DIR, which exists
  std::filesystem::create_directories(runtime);
  // The renderer must outlive the gap between the two asks on a loaded machine (one ask's start-up
  // there takes seconds), and then exit on its own well within the wait below.
  const std::string ask_line = "XDG_RUNTIME_DIR=" + runtime.string() +
                               " PLANFIRST_RENDER_KEEP_ALIVE_SECONDS=20 " +
                               planfirst("ask " + source("examples/sales.csv") +
                                         " \"total revenue by region\" --checkpointer memory: --out ");

  const CommandOutcome first = run_command(ask_line + (dir_.path() / "a").string());
  const std::vector<std::filesystem::path> sockets = files_ending(runtime / "planfirst", ".sock");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(sockets.size(), 1u) << "the renderer did not outlive the first ask";
  const auto served_first = test_support::socket_identity(sockets[0]);
  const CommandOutcome second = run_command(ask_line + (dir_.path() / "b").string());
  const auto served_second = test_support::socket_identity(sockets[0]);

  ASSERT_EQ(second.exit_code, 0) << second.output;
  ASSERT_TRUE(served_first.has_value()) << "no socket file at " << sockets[0];
  EXPECT_EQ(served_second, served_first) << "the second ask started a renderer of its own";
  const std::vector<std::filesystem::path> svgs_a = files_ending(dir_.path() / "a", ".svg");
  const std::vector<std::filesystem::path> svgs_b = files_ending(dir_.path() / "b", ".svg");
  ASSERT_EQ(svgs_a.size(), 1u);
  ASSERT_EQ(svgs_b.size(), 1u);
  EXPECT_EQ(read_text(svgs_b[0]), read_text(svgs_a[0]));
  EXPECT_TRUE(test_support::disappears_within(sockets[0], std::chrono::seconds(60)))
      << "the renderer did not exit when idle";
}

TEST_F(AskCli, AStepNamingAColumnInTheWrongCaseIsRepairedAndLoggedInPlanJson) {
  nlohmann::json state = planned("\"total revenue by region\"");
  nlohmann::json& aggregate = step_param(state, "aggregate");
  aggregate["metrics"] = {"REVENUE"};

  state = after_node(dir_, "report", after_node(dir_, "execute", state));

  EXPECT_EQ(state["outcome"], "done");
  const nlohmann::json plan_json = read_json(std::filesystem::path(out()) / "plan.json");
  const nlohmann::json& step = step_with_tool(plan_json["execution"]["steps"], "aggregate");
  EXPECT_EQ(step["status"], "repaired");
  EXPECT_EQ(step["params"]["metrics"], nlohmann::json::array({"revenue"}));
  EXPECT_EQ(step["repairs"], nlohmann::json::parse(R"([{"step_id": "aggregate", "tool": "aggregate",
      "param": "metrics", "before": "REVENUE", "after": "revenue", "reason": "column-name casing",
      "kind": "column_casing"}])"));
}

TEST_F(AskCli, AStepNamingAColumnTheDataLacksGoesBackToPlanningWithinTheBudget) {
  nlohmann::json state = planned("\"total revenue by region\"");
  step_param(state, "aggregate")["metrics"] = {"profit"};

  const nlohmann::json replanned = after_node(dir_, "execute", state);
  state["planning_attempts"] = 3;  // the first plan and both retries used
  const nlohmann::json exhausted = after_node(dir_, "execute", state);

  EXPECT_EQ(replanned["outcome"], "replan");
  const nlohmann::json& request = replanned["replan"]["replan"][0];
  EXPECT_EQ(request["value"], "profit");
  EXPECT_EQ(request["change"], "metric");
  EXPECT_EQ(request["pointer"], "/steps/0/params/metrics/0");
  EXPECT_EQ(step_with_tool(replanned["execution"]["steps"], "plot_bar")["status"], "skipped");
  const nlohmann::json adapted = after_node(dir_, "adapt", after_node(dir_, "profile", replanned));
  EXPECT_NE(adapted["reasoning"][0]["step_text"].get<std::string>().find(
                "execution refused aggregate.metrics = profit (metric)"),
            std::string::npos)
      << adapted["reasoning"];
  EXPECT_EQ(step_with_tool(adapted["plan"]["steps"], "aggregate")["params"]["metrics"],
            nlohmann::json::array({"revenue"}));
  EXPECT_EQ(exhausted["outcome"], "execution_failed");
  EXPECT_TRUE(exhausted["replan"].is_null());
}

TEST_F(AskCli, PlanStopsAfterTheCoverageCheckAndRunsNothing) {
  const CommandOutcome run = run_command(planfirst("plan " + source("examples/sales.csv") + " " +
                                                   kWalkthrough + " --json --checkpointer " + store()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  EXPECT_TRUE(result["coverage"]["complete"].get<bool>());
  EXPECT_FALSE(result.contains("execution"));
}

TEST_F(AskCli, WriteFilesFalseExecutesThePlanAndWritesNoReport) {
  const nlohmann::json input{{"question", "revenue by region"},
                             {"dataset", source("examples/sales.csv")},
                             {"out_dir", out()},
                             {"write_files", false}};
  const std::filesystem::path file = dir_.write("input.json", input.dump());
  const CommandOutcome run =
      run_command(planfirst("graph run autoviz --input " + file.string() + " --checkpointer " + store()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("\"status\":\"done\""), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("\"last_completed_node\":\"execute\""), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out()) / "report.md")) << run.output;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out()) / "plan.json")) << run.output;
}

TEST_F(AskCli, AQuestionWithOneNumberForAnswerWritesItAsATable) {
  const CommandOutcome run =
      ask(source("examples/sales.csv"), "\"How many orders were placed in the West region?\"");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(read_text(std::filesystem::path(out()) / "result.csv"), "count\n14248\n");
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out()) / "plot_bar.vl.json"))
      << "one number draws no chart";
}

TEST_F(AskCli, GroupsAreKeptByTheirCountOrAverageAfterTheAggregation) {
  const std::string flights = dir_.write("flight.csv",
                                         "flno,origin,price\n1,Chicago,100\n2,Chicago,200\n3,Boston,700\n"
                                         "4,Denver,400\n5,Denver,100\n6,Denver,150\n")
                                  .string();
  const std::filesystem::path result = std::filesystem::path(out()) / "result.csv";

  const CommandOutcome counted = ask(flights, "\"Which origins have more than 1 flight?\"");
  ASSERT_EQ(counted.exit_code, 0) << counted.output;
  EXPECT_EQ(read_text(result), "origin,count\nChicago,2\nDenver,3\n");
  const CommandOutcome averaged = ask(flights, "\"Which origins have an average price above 200?\"");
  ASSERT_EQ(averaged.exit_code, 0) << averaged.output;
  EXPECT_EQ(read_text(result), "origin,price\nBoston,700\nDenver,216.66666666666666\n");
  const CommandOutcome two = ask(flights, "\"total price per origin for origins with at least 2 flights\"");
  EXPECT_EQ(two.exit_code, 3) << two.output;
  EXPECT_NE(two.output.find("count(*)"), std::string::npos)
      << "the threshold is refused, not dropped: " << two.output;
}

TEST_F(AskCli, TheThingAnIdIdentifiesIsRankedAndAComparisonOfNothingIsRefused) {
  const std::string flights =
      dir_.write("flight.csv",
                 "flno,origin,distance,price,aircraft_id\n1,Chicago,2300,100,1\n2,Chicago,900,200,1\n"
                 "3,Boston,2100,700,2\n4,Denver,2500,400,2\n5,Denver,2400,100,2\n")
          .string();
  const std::filesystem::path result = std::filesystem::path(out()) / "result.csv";

  const CommandOutcome ranked = ask(flights, "\"the 1 aircraft with the most flights\"");
  ASSERT_EQ(ranked.exit_code, 0) << ranked.output;
  EXPECT_EQ(read_text(result), "aircraft_id,count\n2,3\n");
  const CommandOutcome miles =
      ask(flights, "\"How many flights longer than 2000 miles does each origin have?\"");
  ASSERT_EQ(miles.exit_code, 0) << miles.output;
  EXPECT_EQ(read_text(result), "origin,count\nBoston,1\nChicago,1\nDenver,2\n");
  const CommandOutcome unnamed = ask(flights, "\"How many flights over 2000 does each origin have?\"");
  EXPECT_EQ(unnamed.exit_code, 3) << unnamed.output;
  EXPECT_NE(unnamed.output.find("'over 2000'"), std::string::npos)
      << "distance or price, refused, not dropped: " << unnamed.output;
}

TEST_F(AskCli, WhatAnEntitySoldOrAddsUpToIsAFilterOnItsTotal) {
  const std::string sales =
      dir_.write("sales.csv",
                 "order_id,product,units\n1,Desk,60\n2,Desk,50\n3,Lamp,120\n4,Chair,30\n"
                 "5,Chair,40\n6,Chair,35\n")
          .string();
  const std::filesystem::path result = std::filesystem::path(out()) / "result.csv";

  const CommandOutcome sold = ask(sales, "\"Which products sold more than 100 units?\"");
  ASSERT_EQ(sold.exit_code, 0) << sold.output;
  EXPECT_EQ(read_text(result),
            "product,units\nChair,105\nDesk,110\nLamp,120\n");  // no single order of Desk is
  const CommandOutcome total = ask(sales, "\"products with more than 108 units in total\"");
  ASSERT_EQ(total.exit_code, 0) << total.output;
  EXPECT_EQ(read_text(result), "product,units\nDesk,110\nLamp,120\n");
  const CommandOutcome orders = ask(sales, "\"orders with more than 55 units\"");
  ASSERT_EQ(orders.exit_code, 0) << orders.output;
  EXPECT_EQ(read_text(result).find("Chair"), std::string::npos);  // rows, not totals: 60 and 120 only
}

TEST_F(AskCli, TheDistributionOfAColumnIsAHistogramWhoseTableIsTheBins) {
  const std::string orders =
      dir_.write("orders.csv", "order_id,revenue\n1,0\n2,1\n3,2\n4,9\n5,10\n6,19\n7,20\n").string();
  const std::filesystem::path result = std::filesystem::path(out()) / "result.csv";

  const CommandOutcome run = ask(orders, "\"distribution of order revenue\"");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out()) / "plot_histogram.svg"));
  const std::string bins = read_text(result);
  EXPECT_EQ(bins.rfind("column,bin_start,bin_end,count\n", 0), 0u) << bins;  // not the 7 rows themselves
  std::size_t counted = 0, at = 0;
  for (std::size_t line = bins.find('\n'); line + 1 < bins.size(); line = bins.find('\n', line + 1)) {
    at = bins.rfind(',', bins.find('\n', line + 1));
    counted += std::stoul(bins.substr(at + 1));
  }
  EXPECT_EQ(counted, 7u);  // every row in some bin
}

TEST_F(AskCli, ACorrelationQuestionGivesBothCoefficientsAndNBesideTheScatter) {
  // y rises with x except for one row, so Pearson and Spearman differ; z is blank once
  const std::string points =
      dir_.write("points.csv", "id,x,y,z\n1,1,1,4\n2,2,3,\n3,3,2,1\n4,4,5,2\n5,5,40,8\n").string();

  const CommandOutcome run = ask(points, "\"Is there a correlation between x and y?\"");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out()) / "plot_scatter.svg"));
  // direct SQL: corr(x, y) over the 5 rows; Spearman over ranks 1..5 against 1,3,2,4,5
  EXPECT_EQ(read_text(std::filesystem::path(out()) / "result.csv"),
            "column_x,column_y,pearson,spearman,n\nx,y,0.7563342337,0.9,5\n");
}

// Units per region and year: East 15 (2023), 30 (2024); West 20, 25; East's 2022 row is outside.
constexpr const char* kUnitsOf2023And2024 =
    "date,region,units\n2023-03-01,East,10\n2023-07-01,East,5\n2024-02-01,East,30\n"
    "2023-05-01,West,20\n2024-06-01,West,10\n2024-09-01,West,15\n";
const std::string kUnitsByYear = std::string(kUnitsOf2023And2024) + "2022-12-01,East,100\n";

TEST_F(AskCli, TwoNamedYearsComparedAreBothKeptAndSplitByYear) {
  const std::string units = dir_.write("orders.csv", kUnitsByYear).string();

  for (const char* question :
       {"\"units by region in 2023 compared to 2024\"", "\"compare 2023 vs 2024 units by region\""}) {
    const CommandOutcome run = ask(units, question);

    ASSERT_EQ(run.exit_code, 0) << question << "\n" << run.output;
    EXPECT_EQ(read_text(std::filesystem::path(out()) / "result.csv"),
              "date,region,units\n2023-01-01,East,15\n2023-01-01,West,20\n2024-01-01,East,30\n"
              "2024-01-01,West,25\n")
        << question;
  }
}

TEST_F(AskCli, YearOverYearOnTwoYearsDrawsEachGroupsOneChangeAsBars) {
  const std::string units = dir_.write("orders.csv", kUnitsOf2023And2024).string();

  const CommandOutcome run = ask(units, "\"units by region year over year\"");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out()) / "plot_bar.svg")) << run.output;
  const std::string result = read_text(std::filesystem::path(out()) / "result.csv");
  EXPECT_EQ(result.rfind("region,date,units,previous,change,change_pct\nEast,2024-01-01,30,15,15,100", 0), 0u)
      << result;
  EXPECT_NE(result.find("\nWest,2024-01-01,25,20,5,25"), std::string::npos) << result;
  EXPECT_EQ(result.find("2023-01-01"), std::string::npos) << "the first year has no change to draw";
}

TEST_F(AskCli, YearOverYearInANamedYearComparesItWithTheYearBefore) {
  const std::string units = dir_.write("orders.csv", kUnitsByYear).string();

  const CommandOutcome run = ask(units, "\"units by region year over year in 2024\"");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string result = read_text(std::filesystem::path(out()) / "result.csv");
  EXPECT_EQ(result.rfind("region,date,units,previous,change,change_pct\nEast,2024-01-01,30,15,15,100", 0), 0u)
      << result;
  EXPECT_NE(result.find("\nWest,2024-01-01,25,20,5,25"), std::string::npos) << result;
  EXPECT_EQ(std::count(result.begin(), result.end(), '\n'), 3) << "2024 only, each against 2023";
}

TEST_F(AskCli, AmountsWithADecimalCommaAreSummedAsNumbers) {
  const std::string umsatz =
      dir_.write("umsatz.csv",
                 "Datum;Region;Umsatz\n2024-01-03;Nord;1.234,56\n2024-01-04;Sued;99,5\n"
                 "2024-02-01;Nord;12.000\n2024-02-03;Sued;7\n")
          .string();

  const CommandOutcome run = ask(umsatz, "\"total Umsatz by Region\"");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  // 1,234.56 + 12,000 and 99.5 + 7, not a count of rows per text value
  EXPECT_EQ(read_text(std::filesystem::path(out()) / "result.csv"),
            "Region,Umsatz\nNord,13234.56\nSued,106.5\n");
}

TEST_F(AskCli, UniqueDistinctAndDifferentCountDistinctValuesOfTheColumnTheyName) {
  const std::string events = dir_.write("events.csv",
                                        "event_id,session_id,country\n1,S1,DE\n2,S1,DE\n3,S2,DE\n4,S3,FR\n"
                                        "5,S3,FR\n6,S3,FR\n7,S4,US\n")
                                 .string();
  const std::filesystem::path result = std::filesystem::path(out()) / "result.csv";

  const CommandOutcome distinct = ask(events, "\"count distinct sessions by country\"");
  ASSERT_EQ(distinct.exit_code, 0) << distinct.output;
  EXPECT_EQ(read_text(result), "country,session_id\nDE,2\nFR,1\nUS,1\n");  // rows: 3, 3, 1
  const CommandOutcome unique = ask(events, "\"how many unique sessions per country\"");
  ASSERT_EQ(unique.exit_code, 0) << unique.output;
  EXPECT_EQ(read_text(result), "country,session_id\nDE,2\nFR,1\nUS,1\n");
  const CommandOutcome different = ask(events, "\"number of different countries\"");
  ASSERT_EQ(different.exit_code, 0) << different.output;
  EXPECT_EQ(read_text(result), "country\n3\n");
}

TEST_F(AskCli, OutputsInTheInputJoinThoseTheQuestionAsksFor) {
  nlohmann::json state = after_node(
      dir_, "profile",
      {{"question", "list each region and its total revenue"}, {"dataset", source("examples/sales.csv")}});
  ASSERT_EQ(after_node(dir_, "requirements", state)["requirements"]["outputs"],
            nlohmann::json::parse(R"(["table"])"));

  state["outputs"] = {"chart"};
  const nlohmann::json joined = after_node(dir_, "requirements", state);
  state["outputs"] = {"movie"};
  const std::filesystem::path file = dir_.write("bad_outputs.json", state.dump());
  const CommandOutcome refused =
      run_command(planfirst("graph node autoviz requirements --state " + file.string()));

  EXPECT_EQ(joined["requirements"]["outputs"], nlohmann::json::parse(R"(["chart", "table"])"));
  EXPECT_NE(refused.exit_code, 0) << refused.output;
  EXPECT_NE(refused.output.find("outputs[0] is \"movie\", not one of: chart, table, report"),
            std::string::npos)
      << refused.output;
}

TEST_F(AskCli, ConfirmPausesWithTheResumeCommandAndApproveFinishesTheRun) {
  const CommandOutcome paused =
      ask(source("examples/sales.csv"), kWalkthrough, "--confirm --json --thread t1");

  ASSERT_EQ(paused.exit_code, 0) << paused.output;
  const nlohmann::json pause = parsed(paused);
  ASSERT_EQ(pause["status"], "interrupted") << pause;
  EXPECT_FALSE(pause.contains("execution"));
  const std::string checkpoint = pause["checkpoint_id"].get<std::string>();
  EXPECT_NE(pause["resume"].get<std::string>().find("--checkpoint " + checkpoint), std::string::npos);

  const CommandOutcome done = run_command(planfirst("resume --thread t1 --checkpoint " + checkpoint +
                                                    " --answer approve --json --checkpointer " + store()));

  ASSERT_EQ(done.exit_code, 0) << done.output;
  EXPECT_EQ(parsed(done)["outcome"], "done");
}

TEST_F(AskCli, AQuestionNamingNoColumnListsTheColumns) {
  const CommandOutcome run = ask(source("examples/sales.csv"), "\"what is the weather like\"");

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("weather"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("product_category"), std::string::npos) << run.output;
}

TEST_F(AskCli, ABlankQuestionIsAUsageError) {
  const CommandOutcome run = ask(source("examples/sales.csv"), "\"  \"");
  const CommandOutcome chat = run_command(planfirst("chat --project " + source("examples/project") + " ' '"));

  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("the question is empty"), std::string::npos) << run.output;
  EXPECT_EQ(chat.exit_code, 2) << chat.output;
  EXPECT_NE(chat.output.find("the question is empty"), std::string::npos) << chat.output;
}

TEST_F(AskCli, TextThatIsNotUtf8IsAUsageErrorNamingTheByte) {
  const CommandOutcome question =
      ask(source("examples/sales.csv"), "\"$(printf 'revenue by region \\377')\"");
  const CommandOutcome retrieve = run_command(planfirst("retrieve \"$(printf 'open issues \\303')\""));
  const CommandOutcome answer =
      run_command(planfirst("resume --thread t --checkpoint c --answer \"$(printf 'ok \\355\\240\\200')\""));

  EXPECT_EQ(question.exit_code, 2) << question.output;
  EXPECT_NE(question.output.find("not valid UTF-8 at byte 18"), std::string::npos) << question.output;
  EXPECT_EQ(retrieve.exit_code, 2) << retrieve.output;
  EXPECT_NE(retrieve.output.find("not valid UTF-8 at byte 12"), std::string::npos) << retrieve.output;
  EXPECT_EQ(answer.exit_code, 2) << answer.output;
  EXPECT_NE(answer.output.find("not valid UTF-8 at byte 3"), std::string::npos)
      << "a surrogate: " << answer.output;
  for (const char* command : {"tools search \"$(printf 'rev\\377')\"", "embed \"$(printf 'a\\377')\" b"}) {
    const CommandOutcome run = run_command(planfirst(command));
    EXPECT_EQ(run.exit_code, 2) << command << ": " << run.output;
    EXPECT_NE(run.output.find("not valid UTF-8"), std::string::npos) << command << ": " << run.output;
  }
}

TEST_F(AskCli, AMissingDatasetIsAnInputErrorNamingIt) {
  const CommandOutcome run = ask("/nonexistent/sales.csv", kWalkthrough);

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("/nonexistent/sales.csv"), std::string::npos) << run.output;
}

// An empty file was read as one column named column0, and a header with no rows was planned and
// then failed at its first step: both are input errors before planning, and nothing is written.
TEST_F(AskCli, AnEmptyFileOrATableWithNoRowsIsAnInputError) {
  const std::filesystem::path empty = dir_.write("empty.csv", "");
  const CommandOutcome blank = ask(empty.string(), "'count of x'");
  EXPECT_EQ(blank.exit_code, 3) << blank.output;
  EXPECT_NE(blank.output.find("empty.csv: the file is empty: it holds no header and no rows"),
            std::string::npos)
      << blank.output;

  const std::filesystem::path header = dir_.write("header.csv", "region,revenue\n");
  const CommandOutcome headed = ask(header.string(), "'revenue by region'");
  EXPECT_EQ(headed.exit_code, 3) << headed.output;
  EXPECT_NE(headed.output.find("table header has no rows, so there is nothing to analyse"), std::string::npos)
      << headed.output;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "out" / "plan.json"));
}

}  // namespace
}  // namespace planfirst::e2e
