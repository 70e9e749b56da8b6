// find_answer over states shaped as the execute node leaves them: which step answers, how its rows
// are counted, and the description it builds from the steps that ran.
#include "pipelines/autoviz/report/answer.hpp"

#include <gmock/gmock.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "pipelines/autoviz/report/display_table.hpp"

namespace planfirst::autoviz {
namespace {

using Json = nlohmann::json;

Json step(const std::string& id, const std::string& tool, Json params) {
  return {{"step_id", id},
          {"tool", tool},
          {"status", "ok"},
          {"params", std::move(params)},
          {"repairs", Json::array()}};
}

// `step` with a table: `columns` as [name, type] pairs and `rows` as arrays in their order.
Json with_table(Json step, const std::vector<std::pair<std::string, std::string>>& columns,
                const Json& rows) {
  Json described = Json::array();
  for (const auto& [name, type] : columns)
    described.push_back({{"name", name}, {"type", type}, {"sql_type", ""}});
  Json objects = Json::array();
  for (const Json& row : rows) {
    Json object = Json::object();
    for (std::size_t c = 0; c < columns.size(); ++c) object[columns[c].first] = row[c];
    objects.push_back(object);
  }
  step["columns"] = described;
  step["table"] = objects;
  step["truncated"] = false;
  return step;
}

// A vector, not a Json: a braced list of one step must stay a list of one.
Json state_of(const std::vector<Json>& steps) {
  Json list = Json::array();
  for (const Json& step : steps) list.push_back(step);
  return {{"question", "q"}, {"execution", {{"steps", list}}}};
}

const Json kYear = step("from", "filter_rows", {{"column", "date"}, {"op", ">="}, {"value", "2024-01-01"}});
const Json kYearEnd = step("to", "filter_rows", {{"column", "date"}, {"op", "<"}, {"value", "2025-01-01"}});
const Json kWest = step("west", "filter_rows", {{"column", "region"}, {"op", "="}, {"value", "West"}});

TEST(Answer, ACountOfOneNumberIsSaidWithItsFiltersAndACalendarYearMerged) {
  const Json count = with_table(
      step("count", "aggregate", {{"agg_func", "count"}, {"metrics", {"*"}}, {"group_by", Json::array()}}),
      {{"count", "integer"}}, Json::array({Json::array({7726})}));

  const std::optional<Answer> answer = find_answer(state_of({kYear, kYearEnd, kWest, count}));

  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->step_id, "count");
  EXPECT_EQ(answer->value, "7,726");
  EXPECT_EQ(answer->headline(), "Answer: 7,726 (count of rows where date in 2024 and region = West)");
}

TEST(Answer, ATableIsDescribedByItsAggregateKeysAndFiltersWithItsRowCount) {
  const Json totals = with_table(
      step("totals", "aggregate", {{"agg_func", "sum"}, {"metrics", {"revenue"}}, {"group_by", {"region"}}}),
      {{"region", "text"}, {"revenue", "double"}},
      Json::array({Json::array({"East", 12.345}), Json::array({"West", 10})}));
  Json saved = totals;
  saved["step_id"] = "save";
  saved["tool"] = "save_table";
  saved["params"] = {{"name", "result"}};
  saved["row_count"] = 14;  // it counted all rows; the state keeps two

  const std::optional<Answer> answer = find_answer(state_of({kYear, kYearEnd, totals, saved}));

  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->step_id, "save");
  EXPECT_FALSE(answer->value.has_value());
  EXPECT_EQ(answer->headline(), "Answer: sum of revenue by region where date in 2024 (14 rows)");
  EXPECT_EQ(answer->rows_line(10), "showing 2 of 14 rows");
}

TEST(Answer, AMonthAGrainARankingAndOtherFiltersAreNamed) {
  const Json month = step("from", "filter_rows", {{"column", "day"}, {"op", ">="}, {"value", "2024-03-01"}});
  const Json month_end = step("to", "filter_rows", {{"column", "day"}, {"op", "<"}, {"value", "2024-04-01"}});
  const Json in =
      step("in", "filter_rows", {{"column", "channel"}, {"op", "in"}, {"value", {"Online", "Retail"}}});
  Json bucket = step("bucket", "time_bucket", {{"column", "day"}, {"grain", "auto"}});
  bucket["grain"] = "week";
  const Json mean = step("mean", "aggregate",
                         {{"agg_func", "avg"}, {"metrics", {"units"}}, {"group_by", {"day", "channel"}}});
  const Json top =
      with_table(step("top", "sort_limit", {{"by", "units"}, {"direction", "desc"}, {"limit", 3}}),
                 {{"day", "date"}, {"channel", "text"}, {"units", "double"}},
                 Json::array({Json::array({"2024-03-04", "Online", 2.5})}));

  const std::optional<Answer> answer = find_answer(state_of({month, month_end, in, bucket, mean, top}));

  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(
      answer->description,
      "average of units for day 2024-03-04 and channel Online where day in 2024-03 and channel in (Online, "
      "Retail), top 3 by units");
}

TEST(Answer, BoundsThatAreNotOneCalendarPeriodStayAsTheyAre) {
  const Json from = step("from", "filter_rows", {{"column", "date"}, {"op", ">="}, {"value", "2024-01-01"}});
  const Json to = step("to", "filter_rows", {{"column", "date"}, {"op", "<"}, {"value", "2024-07-01"}});
  const Json rows =
      with_table(step("rows", "filter_rows", {{"column", "units"}, {"op", "between"}, {"value", {2, 5}}}),
                 {{"units", "integer"}, {"region", "text"}},
                 Json::array({Json::array({2, "North"}), Json::array({3, "South"})}));

  const std::optional<Answer> answer = find_answer(state_of({from, to, rows}));

  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->headline(),
            "Answer: rows where date >= 2024-01-01 and date < 2024-07-01 and units between 2 and 5 (2 rows)");
}

TEST(Answer, CoefficientsAndAKeptChangeAreNamedAsComputed) {
  const Json coefficients =
      with_table(step("corr", "compute_correlations", {{"columns", {"units", "cost"}}, {"method", "both"}}),
                 {{"column_x", "text"},
                  {"column_y", "text"},
                  {"pearson", "double"},
                  {"spearman", "double"},
                  {"n", "integer"}},
                 Json::array({Json::array({"units", "cost", 0.47, 0.42, 59599})}));
  const Json changes =
      step("changes", "compare_periods",
           {{"date_column", "date"}, {"metric", "units"}, {"grain", "year"}, {"group_by", {"region"}}});
  const Json kept =
      with_table(step("kept", "filter_rows", {{"column", "change_pct"}, {"op", "!="}, {"value", nullptr}}),
                 {{"region", "text"}, {"change_pct", "double"}}, Json::array({Json::array({"East", 42.5})}));

  EXPECT_EQ(find_answer(state_of({coefficients}))->headline(),
            "Answer: Pearson and Spearman correlation of units and cost, with n (1 row)");
  EXPECT_EQ(
      find_answer(state_of({changes, kept}))->headline(),
      "Answer: 42.5 (change in units from the year before for region East where change_pct has a value)");
}

TEST(Answer, AFilterOnAnAggregateIsNamedByItsAggregate) {
  const Json averages =
      step("avg", "aggregate", {{"agg_func", "avg"}, {"metrics", {"salary"}}, {"group_by", {"dept"}}});
  const Json kept =
      with_table(step("kept", "filter_rows", {{"column", "salary"}, {"op", ">"}, {"value", 55000}}),
                 {{"dept", "text"}, {"salary", "double"}},
                 Json::array({Json::array({"Ops", 55019.0}), Json::array({"Sales", 55038.0})}));
  const Json rows = step("rows", "filter_rows", {{"column", "salary"}, {"op", ">"}, {"value", 50000}});

  EXPECT_EQ(find_answer(state_of({averages, kept}))->headline(),
            "Answer: average of salary by dept where average of salary > 55000 (2 rows)")
      << "the groups kept, not the rows";
  EXPECT_EQ(find_answer(state_of({rows, averages, kept}))->headline(),
            "Answer: average of salary by dept where salary > 50000 and average of salary > 55000 (2 rows)");
}

TEST(DisplayTable, AColumnWithALargeNumberGroupsAllItsNumbers) {
  auto table = data::QueryResult::from_json(
      Json::array({{{"name", "year"}, {"type", "integer"}, {"sql_type", ""}},
                   {{"name", "change"}, {"type", "integer"}, {"sql_type", ""}}}),
      Json::array({{{"year", 2023}, {"change", 6190}}, {{"year", 2024}, {"change", 12390}}}));
  ASSERT_TRUE(table) << table.error().describe();

  const DisplayTable display = DisplayTable::of(*table, 10);

  EXPECT_EQ(display.rows, (std::vector<std::vector<std::string>>{{"2023", "6,190"}, {"2024", "12,390"}}))
      << "years stay 2024; 6,190 is grouped as 12,390 beside it is";
}

TEST(Answer, ATruncatedTableWithoutACountSaysItHoldsMore) {
  Json rows = with_table(step("rows", "filter_rows", {{"column", "region"}, {"op", "="}, {"value", "West"}}),
                         {{"region", "text"}}, Json::array({Json::array({"West"}), Json::array({"West"})}));
  rows["truncated"] = true;

  const std::optional<Answer> answer = find_answer(state_of({rows}));

  ASSERT_TRUE(answer.has_value());
  EXPECT_FALSE(answer->row_count.has_value());
  EXPECT_EQ(answer->rows_line(1), "showing 1 of more than 2 rows");
}

TEST(Answer, NoneWhenAStepFailedOrOnlyAChartWasDrawn) {
  Json failed = kWest;
  failed["status"] = "failed";
  Json chart = step("plot", "plot_scatter", {{"x", "a"}, {"y", "b"}});
  chart["chart"] = Json::object();

  EXPECT_FALSE(find_answer(state_of({kYear, failed})).has_value());
  EXPECT_FALSE(find_answer(state_of({chart})).has_value());
  EXPECT_FALSE(find_answer(Json::object()).has_value());
}

TEST(Answer, ASampledChartStepGetsANote) {
  Json chart = step("plot", "plot_scatter", {{"x", "a"}, {"y", "b"}});
  chart["sampled"] = {{"shown", 5000}, {"of", 655360}};

  EXPECT_EQ(sample_note(chart), "Showing 5,000 of 655,360 points, sampled.");
  EXPECT_EQ(sample_note(kWest), "");
}

}  // namespace
}  // namespace planfirst::autoviz
