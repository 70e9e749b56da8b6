#include <gmock/gmock.h>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(ToolTest, LoadDatasetMakesTheFileTheCurrentRelation) {
  const std::filesystem::path path = dir_ / "monthly sales.csv";
  std::ofstream(path, std::ios::binary) << kSalesCsv;

  core::Result<ToolOutput> output = run("load_dataset", {{"path", path.string()}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(ctx_->relation, "monthly_sales");
  EXPECT_THAT(rows_of(*output->table), ElementsAre("monthly_sales|5"));
}

TEST_F(ToolTest, LoadDatasetNamesAMissingFile) {
  core::Result<ToolOutput> output = run("load_dataset", {{"path", (dir_ / "nope.csv").string()}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().code, core::ErrorCode::kNotFound);
  EXPECT_THAT(output.error().message, HasSubstr("load_dataset"));
}

TEST_F(ToolTest, LoadDatasetRefusesAFormatTheExtensionContradicts) {
  core::Result<ToolOutput> output = run("load_dataset", {{"path", "x.csv"}, {"format", "parquet"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "load_dataset.format");
}

TEST_F(ToolTest, LoadDatasetCopiesATableOfADuckDbFile) {
  const std::filesystem::path path = dir_ / "shop.duckdb";
  {
    std::unique_ptr<data::DuckDbDatabase> file = std::move(*data::DuckDbDatabase::open(path.string()));
    ASSERT_TRUE(file->exec("CREATE TABLE orders AS SELECT 1 AS id UNION ALL SELECT 2").has_value());
  }

  core::Result<ToolOutput> output = run("load_dataset", {{"path", path.string()}, {"table", "orders"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_THAT(rows_of(*output->table), ElementsAre("orders|2"));
  EXPECT_EQ(ctx_->relation, "orders");
}

TEST_F(ToolTest, InferSchemaGivesEachColumnItsTypeAndRole) {
  load(kSalesCsv);

  EXPECT_THAT(rows("infer_schema", core::Json::object()),
              ElementsAre("date|DATE|temporal|0|5", "region|VARCHAR|categorical|0|2",
                          "product|VARCHAR|categorical|0|2", "units|BIGINT|measure|1|4",
                          "revenue|DOUBLE|measure|0|5"));
  EXPECT_EQ(ctx_->relation, "sales");
}

TEST_F(ToolTest, InferSchemaOnASample) {
  load(kSalesCsv);

  EXPECT_EQ(rows("infer_schema", {{"sample_rows", 2}})[3], "units|BIGINT|measure|0|2");
}

TEST_F(ToolTest, InferSchemaBeforeAnyLoadIsAFailedPrecondition) {
  core::Result<ToolOutput> output = run("infer_schema", core::Json::object());

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().code, core::ErrorCode::kFailedPrecondition);
}

}  // namespace
}  // namespace planfirst::autoviz
