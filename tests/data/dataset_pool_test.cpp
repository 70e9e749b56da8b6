#include "data/dataset_pool.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace planfirst::data {
namespace {

using test_support::TempDir;

// Marks the lease's database with a temporary table, so a later lease can tell whether it got the same one.
void mark(const DatasetLease& lease) {
  ASSERT_TRUE(lease.db().exec("CREATE TEMP TABLE pool_mark AS SELECT 1 AS x"));
}

bool marked(const DatasetLease& lease) {
  return lease.db().query("SELECT x FROM pool_mark").has_value();
}

// A run that read `path`: leases it, marks its database and gives it back, or retires it.
void read_and_mark(DatasetPool& pool, const std::filesystem::path& path, bool retire = false) {
  core::Result<DatasetLease> lease = pool.acquire(path);
  ASSERT_TRUE(lease) << lease.error().describe();
  mark(*lease);
  if (retire) lease->retire();
}

std::string make_database(const TempDir& dir, const std::string& sql) {
  const std::string path = (dir.path() / "shop.duckdb").string();
  auto db = DuckDbDatabase::open(path);
  EXPECT_TRUE(db) << db.error().describe();
  EXPECT_TRUE((*db)->exec(sql));
  return path;
}

TEST(DatasetPool, ADatasetGivenBackIsLeasedAgainForTheSameFile) {
  TempDir dir;
  const auto csv = dir.write("sales.csv", "region,revenue\nWest,10\nEast,20\n");
  DatasetPool pool;
  {
    core::Result<DatasetLease> first = pool.acquire(csv);
    ASSERT_TRUE(first) << first.error().describe();
    EXPECT_EQ(first->table(), "sales");
    mark(*first);
  }
  EXPECT_EQ(pool.idle_count(), 1u);

  core::Result<DatasetLease> again = pool.acquire(csv, "sales");  // the table the first lease resolved

  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_TRUE(marked(*again));
  EXPECT_EQ(pool.idle_count(), 0u);
  EXPECT_EQ(pool.opens(), 1u);
}

TEST(DatasetPool, AChangedFileIsOpenedAgain) {
  TempDir dir;
  const auto csv = dir.write("sales.csv", "region,revenue\nWest,10\n");
  DatasetPool pool;
  read_and_mark(pool, csv);
  dir.write("sales.csv", "region,revenue\nWest,10\nEast,20\nNorth,30\n");

  core::Result<DatasetLease> after = pool.acquire(csv);

  ASSERT_TRUE(after) << after.error().describe();
  EXPECT_FALSE(marked(*after));
  core::Result<QueryResult> rows = after->db().query("SELECT count(*) FROM sales");
  ASSERT_TRUE(rows) << rows.error().describe();
  EXPECT_EQ(rows->at(0, 0).to_string(), "3");
}

TEST(DatasetPool, LeasesHeldAtOnceHaveTheirOwnDatabases) {
  TempDir dir;
  const auto csv = dir.write("sales.csv", "region,revenue\nWest,10\n");
  DatasetPool pool;

  core::Result<DatasetLease> first = pool.acquire(csv);
  core::Result<DatasetLease> second = pool.acquire(csv);

  ASSERT_TRUE(first) << first.error().describe();
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_NE(&first->db(), &second->db());
  EXPECT_EQ(pool.opens(), 2u);
}

TEST(DatasetPool, APrefetchedDatabaseFileServesEveryTableItHoldsChosenAtAcquire) {
  TempDir dir;
  const std::string path =
      make_database(dir, "CREATE TABLE orders(id INTEGER); CREATE TABLE users(id INTEGER);");
  DatasetPool pool;
  pool.prefetch(path);

  {
    core::Result<DatasetLease> users = pool.acquire(path, "users");
    ASSERT_TRUE(users) << users.error().describe();
    EXPECT_EQ(users->table(), "users");
  }
  core::Result<DatasetLease> orders = pool.acquire(path, "orders");
  ASSERT_TRUE(orders) << orders.error().describe();
  EXPECT_EQ(orders->table(), "orders");
  EXPECT_EQ(pool.opens(), 1u);
  core::Result<DatasetLease> ambiguous = pool.acquire(path);

  ASSERT_FALSE(ambiguous);
  EXPECT_EQ(ambiguous.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(ambiguous.error().message.find("orders, users"), std::string::npos) << ambiguous.error().message;
}

TEST(DatasetPool, ErrorsAreOpenDatasetsAndAFailedChoiceKeepsTheFileOpen) {
  TempDir dir;
  const std::string path = make_database(dir, "CREATE TABLE orders(id INTEGER);");
  DatasetPool pool;
  pool.prefetch(dir.path() / "missing.csv");

  core::Result<DatasetLease> missing = pool.acquire(dir.path() / "missing.csv");
  core::Result<DatasetLease> unknown = pool.acquire(path, "items");

  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, core::ErrorCode::kNotFound);
  EXPECT_EQ(missing.error().message, open_dataset(dir.path() / "missing.csv").error().message);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(unknown.error().message.find("no table \"items\"; tables: orders"), std::string::npos)
      << unknown.error().message;
  EXPECT_EQ(pool.idle_count(), 1u);
  core::Result<DatasetLease> orders = pool.acquire(path, "orders");
  ASSERT_TRUE(orders) << orders.error().describe();
  EXPECT_EQ(pool.idle_count(), 0u);
  EXPECT_EQ(pool.opens(), 3u);  // the prefetch, the missing file again, the database once
}

TEST(DatasetPool, ARetiredDatasetIsNotKept) {
  TempDir dir;
  const auto csv = dir.write("sales.csv", "region,revenue\nWest,10\n");
  DatasetPool pool;
  read_and_mark(pool, csv, /*retire=*/true);
  EXPECT_EQ(pool.idle_count(), 0u);

  core::Result<DatasetLease> fresh = pool.acquire(csv);
  ASSERT_TRUE(fresh) << fresh.error().describe();
  EXPECT_FALSE(marked(*fresh));
}

TEST(DatasetPool, KeepsAtMostItsIdleLimit) {
  TempDir dir;
  const auto first_csv = dir.write("a.csv", "x\n1\n");
  const auto second_csv = dir.write("b.csv", "x\n2\n");
  DatasetPool pool(1);
  {
    core::Result<DatasetLease> a = pool.acquire(first_csv);
    core::Result<DatasetLease> b = pool.acquire(second_csv);
    ASSERT_TRUE(a && b);
    mark(*b);
  }  // b is given back first, then a: a stays

  EXPECT_EQ(pool.idle_count(), 1u);
  core::Result<DatasetLease> b = pool.acquire(second_csv);
  ASSERT_TRUE(b) << b.error().describe();
  EXPECT_FALSE(marked(*b));
}

}  // namespace
}  // namespace planfirst::data
