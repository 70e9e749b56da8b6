#include "data/dataset.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace planfirst::data {
namespace {

using test_support::TempDir;

TEST(OpenDataset, LoadsACsvIntoATableNamedAfterTheFile) {
  TempDir dir;
  const auto csv = dir.write("monthly sales.csv", "region,revenue\nWest,10\nEast,20\n");

  core::Result<OpenedDataset> dataset = open_dataset(csv);

  ASSERT_TRUE(dataset) << dataset.error().describe();
  EXPECT_EQ(dataset->table, "monthly_sales");
  core::Result<QueryResult> rows = dataset->db->query("SELECT count(*) FROM monthly_sales");
  ASSERT_TRUE(rows) << rows.error().describe();
  EXPECT_EQ(rows->at(0, 0).to_string(), "2");
}

TEST(OpenDataset, AMissingFileIsNotFoundNamingIt) {
  core::Result<OpenedDataset> dataset = open_dataset("/nonexistent/orders.csv");

  ASSERT_FALSE(dataset);
  EXPECT_EQ(dataset.error().code, core::ErrorCode::kNotFound);
  EXPECT_EQ(dataset.error().where, "/nonexistent/orders.csv");
}

TEST(OpenDataset, ADatabaseWithSeveralTablesAsksWhichListingThem) {
  TempDir dir;
  const std::string path = (dir.path() / "shop.duckdb").string();
  {
    auto db = DuckDbDatabase::open(path);
    ASSERT_TRUE(db) << db.error().describe();
    ASSERT_TRUE((*db)->exec("CREATE TABLE orders(id INTEGER); CREATE TABLE users(id INTEGER);"));
  }

  core::Result<OpenedDataset> ambiguous = open_dataset(path);
  core::Result<OpenedDataset> chosen = open_dataset(path, "users");
  core::Result<OpenedDataset> unknown = open_dataset(path, "items");

  ASSERT_FALSE(ambiguous);
  EXPECT_EQ(ambiguous.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(ambiguous.error().message.find("orders, users"), std::string::npos) << ambiguous.error().message;
  ASSERT_TRUE(chosen) << chosen.error().describe();
  EXPECT_EQ(chosen->table, "users");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(unknown.error().message.find("no table \"items\"; tables: orders, users"), std::string::npos)
      << unknown.error().message;
}

TEST(OpenDataset, ANamedViewOpensAndNamesMatchAsDuckDbMatchesThem) {
  TempDir dir;
  const std::string path = (dir.path() / "shop.duckdb").string();
  {
    auto db = DuckDbDatabase::open(path);
    ASSERT_TRUE(db) << db.error().describe();
    ASSERT_TRUE(
        (*db)->exec("CREATE TABLE orders(id INTEGER); INSERT INTO orders VALUES (1), (2); "
                    "CREATE VIEW big_orders AS SELECT * FROM orders WHERE id > 1;"));
  }

  core::Result<OpenedDataset> view = open_dataset(path, "big_orders");
  core::Result<OpenedDataset> upper = open_dataset(path, "ORDERS");

  ASSERT_TRUE(view) << view.error().describe();
  EXPECT_EQ(view->table, "big_orders");
  core::Result<QueryResult> rows = view->db->query("SELECT count(*) FROM big_orders");
  ASSERT_TRUE(rows) << rows.error().describe();
  EXPECT_EQ(rows->at(0, 0).to_string(), "1");
  ASSERT_TRUE(upper) << upper.error().describe();
  EXPECT_EQ(upper->table, "ORDERS");
}

TEST(OpenDataset, ANameOutsideTheFilesTablesIsNoTableEvenWhenDuckDbCouldReadIt) {
  TempDir dir;
  const std::string path = (dir.path() / "shop.duckdb").string();
  const auto csv = dir.write("orders.csv", "id\n1\n");
  {
    auto db = DuckDbDatabase::open(path);
    ASSERT_TRUE(db) << db.error().describe();
    ASSERT_TRUE((*db)->exec("CREATE TABLE orders(id INTEGER);"));
  }

  core::Result<OpenedDataset> file = open_dataset(path, csv.string());       // a CSV read by its path
  core::Result<OpenedDataset> system = open_dataset(path, "duckdb_tables");  // a system view

  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(file.error().message.find("tables: orders"), std::string::npos) << file.error().message;
  ASSERT_FALSE(system);
  EXPECT_EQ(system.error().code, core::ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace planfirst::data
