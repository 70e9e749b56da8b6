#include <gmock/gmock.h>

#include <algorithm>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ToolLibrary, NamesEveryToolOnce) {
  const std::vector<std::string> names = ToolLibrary::builtin().names();

  EXPECT_EQ(names.size(), 27u);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_THAT(*ToolLibrary::builtin().params("aggregate"), ElementsAre("group_by", "agg_func", "metrics"));
  EXPECT_EQ(ToolLibrary::builtin().params("pivot"), nullptr);
}

TEST_F(ToolTest, RunRefusesAnUnknownTool) {
  core::Result<ToolOutput> output = run("pivot", core::Json::object());

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().code, core::ErrorCode::kNotFound);
  EXPECT_THAT(output.error().message,
              HasSubstr("unknown tool 'pivot'; the library has: aggregate, cast_types"));
}

TEST_F(ToolTest, RunRefusesAParamTheToolDoesNotTake) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("sort_limit", {{"by", "revenue"}, {"top", 3}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "sort_limit.top");
  EXPECT_THAT(output.error().message, HasSubstr("sort_limit accepts: by, direction, limit"));
}

// The seed's walkthrough on examples/sales.csv: every step's output, twice, byte for byte.
std::string walkthrough(const std::filesystem::path& out) {
  std::unique_ptr<data::DuckDbDatabase> db = std::move(*data::DuckDbDatabase::open(":memory:"));
  ToolContext ctx(*db, "", out);
  const ToolLibrary& library = ToolLibrary::builtin();
  const std::vector<std::pair<std::string, core::Json>> steps = {
      {"load_dataset", {{"path", std::string(PLANFIRST_SOURCE_DIR) + "/examples/sales.csv"}}},
      {"parse_datetime", {{"column", "date"}}},
      {"time_bucket", {{"column", "date"}}},
      {"aggregate",
       {{"group_by", {"date", "region", "product_category"}}, {"agg_func", "sum"}, {"metrics", {"revenue"}}}},
      {"plot_line", {{"x", "date"}, {"y", "revenue"}, {"color", "product_category"}, {"facet", "region"}}},
      {"compute_summary_stats", {{"columns", {"revenue"}}, {"group_by", {"region"}}}},
      {"save_table", {{"name", "summary"}}},
  };
  std::string bytes;
  for (const auto& [tool, params] : steps) {
    core::Result<ToolOutput> output = library.run(ctx, tool, params);
    EXPECT_TRUE(output.has_value()) << tool << ": " << output.error().describe();
    if (!output) return bytes;
    bytes += tool + "\n" + output->sql + "\n" + output->chart + "\n";
    if (output->table) bytes += output->table->to_json().dump() + "\n";
  }
  for (const ToolRepair& repair : ctx.repairs)
    bytes += repair.tool + repair.param + repair.after + repair.reason + "\n";
  std::ifstream csv(out / "summary.csv");
  return bytes + std::string(std::istreambuf_iterator<char>(csv), {});
}

TEST_F(ToolTest, TheSeedWalkthroughOnSalesGivesTheSameBytesTwice) {
  const std::string first = walkthrough(dir_ / "first");
  const std::string second = walkthrough(dir_ / "second");

  EXPECT_EQ(first, second);
  EXPECT_THAT(first, HasSubstr("time_bucketgrainmonth"));  // two years of daily rows: monthly
  EXPECT_THAT(first, HasSubstr(R"("mark":{"point":true,"type":"line"})"));
  EXPECT_THAT(first, HasSubstr("region,column,count,mean,std,min,max,median,sum\n"));
}

}  // namespace
}  // namespace planfirst::autoviz
