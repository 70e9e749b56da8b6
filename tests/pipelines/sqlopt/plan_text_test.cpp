#include "pipelines/sqlopt/plan_text.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "pipelines/sqlopt/plan_reader.hpp"

namespace planfirst::sqlopt {
namespace {

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(PlanText, CompactsCounts) {
  EXPECT_EQ(compact_count(950), "950");
  EXPECT_EQ(compact_count(1234), "1.2K");
  EXPECT_EQ(compact_count(4500000), "4.5M");
  EXPECT_EQ(compact_count(2e9), "2.0B");
}

TEST(PlanText, CollapsesProjectionsAndShowsRowsOfScans) {
  const PlanTree plan = *read_plan(core::Json::parse(R"({"children": [{"operator_type": "PROJECTION",
    "operator_cardinality": 90, "operator_timing": 0.001, "children": [{"operator_type": "TABLE_SCAN",
    "operator_cardinality": 90, "operator_rows_scanned": 1000, "operator_timing": 0.003,
    "extra_info": {"Table": "orders", "Filters": "amount>5", "Estimated Cardinality": "200"}}]}]})"));

  const std::string text = render_plan_tree(plan);

  EXPECT_EQ(text,
            "duckdb plan, 4.0 ms total\n"
            "TABLE_SCAN orders filter amount>5 | 90 of 1.0K rows (est 200) | 3.0 ms 75%\n");
}

TEST(PlanText, CutsAt150LinesWithAMarker) {
  std::string json = R"({"children": [{"operator_type": "UNION", "operator_cardinality": 1, "children": [)";
  for (int i = 0; i < 200; ++i)
    json += std::string(i ? "," : "") +
            R"({"operator_type": "TABLE_SCAN", "operator_cardinality": 1, "extra_info": {"Table": "t"}})";
  json += "]}]}";
  const PlanTree plan = *read_plan(core::Json::parse(json));

  const std::string text = render_plan_tree(plan);

  EXPECT_EQ(line_count(text), 151u);
  EXPECT_NE(text.find("... 52 more lines not shown (150-line cap)"), std::string::npos);
  EXPECT_EQ(text, render_plan_tree(plan));
}

}  // namespace
}  // namespace planfirst::sqlopt
