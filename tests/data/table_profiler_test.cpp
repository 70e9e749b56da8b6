#include "data/table_profiler.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "data/duckdb_database.hpp"
#include "data/postgres_database.hpp"
#include "data/sqlite_database.hpp"
#include "support/postgres_server.hpp"

namespace planfirst::data {
namespace {

using test_support::PostgresServer;

// A small, realistic orders table: 24 rows over 12 days, 12 customers, 4 regions, every third
// customer inactive, a free-text note on four rows of five. `types` are the engine's column types.
struct OrderTypes {
  std::string date, id, money, text, flag;
};

core::Result<void> create_orders(Database& db, const OrderTypes& t) {
  if (auto created =
          db.exec("CREATE TABLE orders (order_date " + t.date + ", customer_id " + t.id + ", revenue " +
                  t.money + ", region " + t.text + ", is_active " + t.flag + ", notes " + t.text + ")");
      !created) {
    return created;
  }
  const char* regions[] = {"North", "South", "East", "West"};
  const char* topics[] = {"asked for a faster delivery slot", "reported a damaged box on arrival",
                          "wants the invoice sent to accounting", "called to change the shipping address"};
  for (int i = 0; i < 24; ++i) {
    char day[16];
    std::snprintf(day, sizeof day, "2024-01-%02d", 1 + i / 2);
    const Value note = i % 5 == 0 ? Value() : Value("Customer " + std::to_string(i) + " " + topics[i % 4]);
    auto inserted =
        db.query("INSERT INTO orders VALUES ($1, $2, $3, $4, $5, $6)",
                 {Value(day), Value(101 + (i * 7) % 12), Value(50.0 + (i * 37) % 250 + 0.25 * (i % 4)),
                  Value(regions[i % 4]), Value(i % 3 != 0), note});
    if (!inserted) return inserted.error();
  }
  return core::ok();
}

const OrderTypes kDuckDbTypes{"VARCHAR", "INTEGER", "DECIMAL(10,2)", "VARCHAR", "BOOLEAN"};
const OrderTypes kSqliteTypes{"TEXT", "INTEGER", "REAL", "TEXT", "BOOLEAN"};
const OrderTypes kPostgresTypes{"text", "integer", "numeric(10,2)", "text", "boolean"};

std::unique_ptr<DuckDbDatabase> orders_in_duckdb() {
  auto db = DuckDbDatabase::open(":memory:");
  EXPECT_TRUE(db.has_value()) << db.error().describe();
  if (!db) return nullptr;
  auto created = create_orders(**db, kDuckDbTypes);
  EXPECT_TRUE(created.has_value()) << created.error().describe();
  return created ? std::move(db).value() : nullptr;
}

void expect_order_roles(const SchemaProfile& profile) {
  const std::vector<std::pair<std::string, ColumnRole>> expected{
      {"order_date", ColumnRole::kTemporal}, {"customer_id", ColumnRole::kIdentifier},
      {"revenue", ColumnRole::kMeasure},     {"region", ColumnRole::kCategorical},
      {"is_active", ColumnRole::kBoolean},   {"notes", ColumnRole::kText}};
  ASSERT_EQ(profile.columns.size(), expected.size());
  for (const auto& [name, role] : expected) {
    const ColumnProfile* column = profile.find(name);
    ASSERT_NE(column, nullptr) << name;
    EXPECT_EQ(column->role, role) << name << " is " << to_string(column->role);
  }
}

TEST(ProfileTable, InfersTheRolesAnAnalystWould) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);

  auto profile = profile_table(*db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  EXPECT_EQ(profile->row_count, 24);
  expect_order_roles(*profile);
}

TEST(ProfileTable, MeasuresNullsDistinctValuesAndRanges) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);

  auto profile = profile_table(*db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  const ColumnProfile& notes = *profile->find("notes");
  EXPECT_EQ(notes.null_count, 5);
  EXPECT_EQ(notes.null_rate, 0.2083);
  const ColumnProfile& customer = *profile->find("customer_id");
  EXPECT_EQ(customer.distinct_count, 12);
  EXPECT_EQ(customer.min, "101");
  EXPECT_EQ(customer.max, "112");
  EXPECT_EQ(profile->find("revenue")->sql_type, "DECIMAL(10,2)");
  EXPECT_EQ(profile->find("is_active")->min, std::nullopt);
}

TEST(ProfileTable, AColumnRepeatsWhenSomeValueStandsInMoreThanOneRow) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);
  auto profile = profile_table(*db, "orders");
  ASSERT_TRUE(profile) << profile.error().describe();

  EXPECT_TRUE(profile->repeats(*profile->find("customer_id"))) << "12 customers over 24 rows";
  EXPECT_FALSE(profile->repeats(*profile->find("notes"))) << "19 different notes and 5 nulls: one row each";
  ColumnProfile unprofiled = *profile->find("region");
  unprofiled.distinct_count = 0;
  EXPECT_FALSE(profile->repeats(unprofiled)) << "no distinct values counted";
}

TEST(ProfileTable, SamplesAreTheMostFrequentValuesWithTiesInValueOrder) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->exec("INSERT INTO orders (region) VALUES ('West')"));

  auto profile = profile_table(*db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  EXPECT_EQ(profile->find("region")->samples, (std::vector<std::string>{"West", "East", "North", "South"}));
  EXPECT_EQ(profile->find("is_active")->samples, (std::vector<std::string>{"true", "false"}));
}

TEST(ProfileTable, AFewDistinctTextsAreAllListedBeyondTheSamples) {
  auto db = DuckDbDatabase::open(":memory:");
  ASSERT_TRUE(db) << db.error().describe();
  ASSERT_TRUE(
      (*db)->exec("CREATE TABLE t AS SELECT 'city' || (i % 7) AS city, 'name' || i AS name, i AS n "
                  "FROM range(60) AS r(i)"));

  auto profile = profile_table(**db, "t");

  ASSERT_TRUE(profile) << profile.error().describe();
  const ColumnProfile& city = *profile->find("city");
  EXPECT_EQ(city.samples, (std::vector<std::string>{"city0", "city1", "city2", "city3", "city4"}));
  EXPECT_EQ(city.values,
            (std::vector<std::string>{"city0", "city1", "city2", "city3", "city4", "city5", "city6"}));
  EXPECT_TRUE(profile->find("name")->values.empty()) << "60 distinct names are more than the list holds";
  EXPECT_TRUE(profile->find("n")->values.empty()) << "numbers are not listed";
}

TEST(ProfileTable, DateStringsGetASpanAndDensity) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);

  auto profile = profile_table(*db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  const ColumnProfile& date = *profile->find("order_date");
  ASSERT_TRUE(date.span.has_value());
  EXPECT_EQ(date.span->first, "2024-01-01");
  EXPECT_EQ(date.span->last, "2024-01-12");
  EXPECT_EQ(date.span->days, 11);
  EXPECT_EQ(date.span->days_with_data, 12);
  EXPECT_EQ(date.span->rows_per_day, 2.0);
  EXPECT_EQ(date.span->coverage, 1.0);
  EXPECT_EQ(date.min, "2024-01-01");
}

TEST(ProfileTable, DatesSpelledWithTheMonthsFullNameAreTemporal) {
  auto db = DuckDbDatabase::open(":memory:");
  ASSERT_TRUE(db) << db.error().describe();
  ASSERT_TRUE(
      (*db)->exec("CREATE TABLE flight AS SELECT * FROM (VALUES ('March 1, 1963'), ('August 16, 1963'), "
                  "('4 July 1964')) AS t(Date)"));

  auto profile = profile_table(**db, "flight");

  ASSERT_TRUE(profile) << profile.error().describe();
  const ColumnProfile& date = *profile->find("Date");
  EXPECT_EQ(date.role, ColumnRole::kTemporal);
  ASSERT_TRUE(date.span.has_value());
  EXPECT_EQ(date.span->first, "1963-03-01");
  EXPECT_EQ(date.span->last, "1964-07-04");
}

TEST(ProfileTable, TimestampsWithTimesKeepThemInTheSpanWithOrWithoutATimeZone) {
  auto db = DuckDbDatabase::open(":memory:");
  ASSERT_TRUE(db) << db.error().describe();
  ASSERT_TRUE((*db)->exec("SET TimeZone = 'UTC'"));
  ASSERT_TRUE(
      (*db)->exec("CREATE TABLE visits AS SELECT TIMESTAMP '2024-03-01 08:30:00' + INTERVAL (range) HOUR "
                  "AS seen_at, CAST(seen_at AS TIMESTAMPTZ) AS seen_at_utc FROM range(72)"));

  auto profile = profile_table(**db, "visits");

  ASSERT_TRUE(profile) << profile.error().describe();
  for (const char* column : {"seen_at", "seen_at_utc"}) {
    const std::string zone = std::string(column) == "seen_at_utc" ? "+00" : "";
    const ColumnProfile& seen = *profile->find(column);
    EXPECT_EQ(seen.role, ColumnRole::kTemporal) << column;
    ASSERT_TRUE(seen.span.has_value()) << column;
    EXPECT_EQ(seen.span->first, "2024-03-01 08:30:00" + zone);
    EXPECT_EQ(seen.span->last, "2024-03-04 07:30:00" + zone);
    EXPECT_EQ(seen.span->days, 3) << column;
    EXPECT_EQ(seen.span->days_with_data, 4) << column;
  }
}

TEST(ProfileTable, AColumnWithOnlyNullsHasNoDistinctValuesRangeOrSamples) {
  auto db = DuckDbDatabase::open(":memory:");
  ASSERT_TRUE(db.has_value()) << db.error().describe();
  ASSERT_TRUE(
      (*db)->exec("CREATE TABLE t AS SELECT i, CAST(NULL AS VARCHAR) AS note, CAST(NULL AS DOUBLE) AS x "
                  "FROM range(3) AS r(i)"));

  auto profile = profile_table(**db, "t");

  ASSERT_TRUE(profile) << profile.error().describe();
  for (const char* name : {"note", "x"}) {
    const ColumnProfile& column = *profile->find(name);
    EXPECT_EQ(column.null_count, 3) << name;
    EXPECT_EQ(column.null_rate, 1.0) << name;
    EXPECT_EQ(column.distinct_count, 0) << name;
    EXPECT_EQ(column.min, std::nullopt) << name;
    EXPECT_EQ(column.max, std::nullopt) << name;
    EXPECT_TRUE(column.samples.empty()) << name;
  }
}

TEST(ProfileTable, CountsRangeAndSamplesComeFromTheSameGroupsOnEveryEngine) {
  auto duckdb = orders_in_duckdb();
  ASSERT_NE(duckdb, nullptr);
  auto sqlite = SqliteDatabase::open(":memory:");
  ASSERT_TRUE(sqlite.has_value()) << sqlite.error().describe();
  ASSERT_TRUE(create_orders(**sqlite, kSqliteTypes));

  auto from_duckdb = profile_table(*duckdb, "orders");
  auto from_sqlite = profile_table(**sqlite, "orders");

  ASSERT_TRUE(from_duckdb) << from_duckdb.error().describe();
  ASSERT_TRUE(from_sqlite) << from_sqlite.error().describe();
  for (const char* name : {"customer_id", "region", "notes"}) {
    const ColumnProfile& a = *from_duckdb->find(name);
    const ColumnProfile& b = *from_sqlite->find(name);
    EXPECT_EQ(a.null_count, b.null_count) << name;
    EXPECT_EQ(a.distinct_count, b.distinct_count) << name;
    EXPECT_EQ(a.min, b.min) << name;
    EXPECT_EQ(a.max, b.max) << name;
    EXPECT_EQ(a.samples, b.samples) << name;
  }
  EXPECT_EQ(from_duckdb->find("region")->samples,
            (std::vector<std::string>{"East", "North", "South", "West"}));
  EXPECT_EQ(from_duckdb->find("customer_id")->samples,
            (std::vector<std::string>{"101", "102", "103", "104", "105"}));  // two rows each: value order
}

TEST(ProfileTable, ProfilingTwiceGivesTheSameBytes) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);

  auto first = profile_table(*db, "orders");
  auto second = profile_table(*db, "orders");

  ASSERT_TRUE(first) << first.error().describe();
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_EQ(first->to_json().dump(), second->to_json().dump());
  EXPECT_EQ(first->to_table(), second->to_table());
}

TEST(ProfileTable, JsonCarriesVersionAndEveryColumnField) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);

  auto profile = profile_table(*db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  const core::Json json = profile->to_json();
  EXPECT_EQ(json["version"], kSchemaProfileVersion);
  EXPECT_EQ(json["table"], "orders");
  EXPECT_EQ(json["row_count"], 24);
  const core::Json& date = json["columns"][0];
  EXPECT_EQ(date["name"], "order_date");
  EXPECT_EQ(date["role"], "temporal");
  EXPECT_EQ(date["type"], "text");
  EXPECT_EQ(date["span"]["days"], 11);
  EXPECT_FALSE(json["columns"][1].contains("span"));
  for (const char* key : {"sql_type", "null_count", "null_rate", "distinct_count", "min", "max", "samples"}) {
    EXPECT_TRUE(date.contains(key)) << key;
  }
}

TEST(ProfileTable, TableRenderingHasOneLinePerColumnAndTheSpans) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);

  auto profile = profile_table(*db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  const std::string table = profile->to_table();
  EXPECT_TRUE(table.starts_with("table orders: 24 rows, 6 columns\n")) << table;
  EXPECT_NE(table.find("customer_id  INTEGER        identifier"), std::string::npos) << table;
  EXPECT_NE(table.find("  order_date: 2024-01-01 .. 2024-01-12, 11 days, 2.00 rows/day"), std::string::npos)
      << table;
}

TEST(ProfileTable, MissingTableIsNotFound) {
  auto db = DuckDbDatabase::open(":memory:");
  ASSERT_TRUE(db) << db.error().describe();

  auto profile = profile_table(**db, "nowhere");

  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().code, core::ErrorCode::kNotFound);
}

TEST(ProfileTable, SqliteTableGetsTheSameRoles) {
  auto db = SqliteDatabase::open(":memory:");
  ASSERT_TRUE(db) << db.error().describe();
  ASSERT_TRUE(create_orders(**db, kSqliteTypes));

  auto profile = profile_table(**db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  expect_order_roles(*profile);
  ASSERT_TRUE(profile->find("order_date")->span.has_value());
  EXPECT_EQ(profile->find("order_date")->span->days, 11);
}

TEST(ProfileTable, PostgresTableGetsTheSameRoles) {
  std::string failure;
  PostgresServer* server = PostgresServer::shared(&failure);
  ASSERT_NE(server, nullptr) << "cannot start PostgreSQL: " << failure;
  auto db = PostgresDatabase::connect(server->uri());
  ASSERT_TRUE(db) << db.error().describe();
  ASSERT_TRUE((*db)->exec("DROP TABLE IF EXISTS orders"));
  ASSERT_TRUE(create_orders(**db, kPostgresTypes));

  auto profile = profile_table(**db, "orders");

  ASSERT_TRUE(profile) << profile.error().describe();
  expect_order_roles(*profile);
  ASSERT_TRUE(profile->find("order_date")->span.has_value());
  EXPECT_EQ(profile->find("order_date")->span->last, "2024-01-12");
  EXPECT_EQ(profile->find("region")->samples, (std::vector<std::string>{"East", "North", "South", "West"}));
}

TEST(ProfileTable, JsonRoundTripsToTheSameProfile) {
  auto db = orders_in_duckdb();
  ASSERT_NE(db, nullptr);
  auto profile = profile_table(*db, "orders");
  ASSERT_TRUE(profile) << profile.error().describe();

  core::Result<SchemaProfile> read = SchemaProfile::from_json(profile->to_json());

  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->to_json().dump(), profile->to_json().dump());
}

TEST(ProfileTable, AVersionOneProfileWithoutValueListsStillReads) {
  core::Json json = core::Json::parse(R"({"version": 1, "table": "t", "row_count": 1,
      "columns": [{"name": "a", "sql_type": "VARCHAR", "type": "text", "role": "categorical", "null_count": 0,
                   "null_rate": 0, "distinct_count": 1, "min": "x", "max": "x", "samples": ["x"]}]})");

  core::Result<SchemaProfile> read = SchemaProfile::from_json(json);

  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->columns.front().samples, (std::vector<std::string>{"x"}));
  EXPECT_TRUE(read->columns.front().values.empty());
}

TEST(ProfileTable, JsonMissingAFieldIsRefusedNamingIt) {
  core::Json json = core::Json::parse(R"({"version": 1, "table": "t", "row_count": 1,
      "columns": [{"name": "a", "sql_type": "INTEGER", "type": "integer", "role": "measure"}]})");

  core::Result<SchemaProfile> read = SchemaProfile::from_json(json);

  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(read.error().message.find("null_count"), std::string::npos) << read.error().message;
}

}  // namespace
}  // namespace planfirst::data
