#include "data/table_loader.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "data/duckdb_database.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::data {
namespace {

using test_support::TempDir;

std::unique_ptr<DuckDbDatabase> open_memory() {
  core::Result<std::unique_ptr<DuckDbDatabase>> db = DuckDbDatabase::open(":memory:");
  EXPECT_TRUE(db.has_value()) << db.error().describe();
  return db ? std::move(db).value() : nullptr;
}

// The error loading `file` into a new in-memory database gives; a test failure, and an error with
// no message, when it loads.
core::Error load_error(const std::filesystem::path& file) {
  std::unique_ptr<DuckDbDatabase> db = open_memory();
  if (db == nullptr) return {};
  core::Result<void> loaded = load_table(*db, file, table_name_for(file));
  EXPECT_FALSE(loaded) << file << " loaded";
  return loaded ? core::Error{} : loaded.error();
}

TEST(LoadTable, LoadsACsvWithSniffedTypes) {
  TempDir dir;
  const auto csv = dir.write("sales.csv",
                             "order_id,date,region,revenue\n"
                             "1,2024-01-01,North,10.50\n"
                             "2,2024-01-02,\"South, coastal\",20.25\n");
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto loaded = load_table(*db, csv, "sales");

  ASSERT_TRUE(loaded) << loaded.error().describe();
  auto result = db->query("SELECT * FROM sales ORDER BY order_id");
  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->row_count(), 2u);
  EXPECT_EQ(result->column(0).type, ColumnType::kInteger);
  EXPECT_EQ(result->column(1).type, ColumnType::kDate);
  EXPECT_EQ(result->column(3).type, ColumnType::kDouble);
  EXPECT_EQ(result->at(1, 2), Value("South, coastal"));
}

TEST(LoadTable, AFieldReadingNullIsMissingSoANumberColumnStaysNumeric) {
  TempDir dir;
  const auto csv =
      dir.write("wine.csv", "id,grape,cases\n1,Merlot,300\n2,NULL,NULL\n3,Syrah,\n4,Zinfandel,500\n");
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto loaded = load_table(*db, csv, "wine");

  ASSERT_TRUE(loaded) << loaded.error().describe();
  auto result = db->query("SELECT grape, cases FROM wine ORDER BY id");
  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->column(1).type, ColumnType::kInteger);
  EXPECT_TRUE(result->at(1, 0).is_null());
  EXPECT_TRUE(result->at(1, 1).is_null());
  EXPECT_TRUE(result->at(2, 1).is_null());
  EXPECT_EQ(result->at(3, 1), Value(std::int64_t{500}));
}

// The column's values, in `order`, as text.
std::vector<std::string> values_of(DuckDbDatabase& db, const std::string& table, const std::string& column,
                                   const std::string& order) {
  std::vector<std::string> values;
  auto result = db.query("SELECT \"" + column + "\" FROM " + table + " ORDER BY " + order);
  EXPECT_TRUE(result) << result.error().describe();
  if (!result) return values;
  EXPECT_EQ(result->column(0).type, ColumnType::kDouble) << column;
  for (const Value& value : result->column(0).values) values.push_back(value.to_string());
  return values;
}

TEST(LoadTable, NumbersWithADecimalCommaAreReadAsNumbers) {
  TempDir dir;
  const auto csv =
      dir.write("umsatz.csv",
                "Datum;Region;Umsatz;Menge\n2024-01-03;Nord;1.234,56;1,5\n2024-01-04;Sued;99,5;2\n"
                "2024-02-01;Nord;12.000;\n2024-02-03;Sued; 7 ;3,25\n");
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto loaded = load_table(*db, csv, "umsatz");

  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(values_of(*db, "umsatz", "Umsatz", "Datum"),
            (std::vector<std::string>{"1234.56", "99.5", "12000", "7"}));
  EXPECT_EQ(values_of(*db, "umsatz", "Menge", "Datum"),
            (std::vector<std::string>{"1.5", "2", "NULL", "3.25"}));
}

TEST(LoadTable, NumbersWithThousandsCommasAreReadAsNumbersAndIdsStayText) {
  TempDir dir;
  const auto csv = dir.write(
      "orders.csv", "code,amount,note\n00123,\"1,234.50\",1.2.3\n00456,\"12,000\",a\n00789,7.25,b\n");
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto loaded = load_table(*db, csv, "orders");

  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(values_of(*db, "orders", "amount", "code"),
            (std::vector<std::string>{"1234.5", "12000", "7.25"}));
  auto text = db->query("SELECT code, note FROM orders ORDER BY code");
  ASSERT_TRUE(text) << text.error().describe();
  EXPECT_EQ(text->at(0, 0), Value("00123")) << "digits alone are no grouped number";
  EXPECT_EQ(text->at(0, 1), Value("1.2.3"));
}

TEST(LoadTable, AFileThatIsNotUtf8QuotesItsFirstBadLineAndSaysHowToReEncode) {
  TempDir dir;
  std::string rows = "name,city\n";
  for (int i = 0; i < 50; ++i) rows += "Anna,Berlin\n";
  const auto csv = dir.write("people.csv", rows + "Jos\xE9,Madrid\nBo,Oslo\n");

  const core::Error error = load_error(csv);

  EXPECT_EQ(error.where, csv.string() + ":52");
  EXPECT_NE(error.message.find("line 52 is not UTF-8 (byte 4 of the line): Jos\\xE9,Madrid;"),
            std::string::npos)
      << error.message;
  EXPECT_NE(error.message.find("iconv -f latin1 -t utf-8 people.csv"), std::string::npos) << error.message;
}

TEST(LoadTable, LoadsATabSeparatedFile) {
  TempDir dir;
  const auto tsv = dir.write("t.tsv", "a\tb\n1\tx\n2\ty\n");
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto loaded = load_table(*db, tsv, "t");

  ASSERT_TRUE(loaded) << loaded.error().describe();
  auto result = db->query("SELECT b FROM t ORDER BY a");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->at(1, 0), Value("y"));
}

TEST(LoadTable, AnEmptyFileFailsInsteadOfMakingUpAColumn) {
  TempDir dir;
  const auto csv = dir.write("empty.csv", "");

  const core::Error error = load_error(csv);

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(error.where, csv.string());
  EXPECT_EQ(error.message, "the file is empty: it holds no header and no rows");
}

TEST(LoadTable, RaggedCsvRowFailsNamingTheFileAndLine) {
  TempDir dir;
  const auto csv = dir.write("ragged.csv", "a,b,c\n1,2,3\n4,5,6\n7,8,9,10\n11,12,13\n");

  const core::Error error = load_error(csv);

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(error.where, csv.string() + ":4");
  const std::string described = error.describe();
  EXPECT_NE(described.find("ragged.csv"), std::string::npos) << described;
  EXPECT_NE(described.find("line 4"), std::string::npos) << described;
  EXPECT_NE(described.find("Expected Number of Columns: 3 Found: 4"), std::string::npos) << described;
}

// The sniffer once took a wide last row for the data and skipped every line above it.
TEST(LoadTable, RaggedLastRowFailsInsteadOfDroppingTheRowsAboveIt) {
  TempDir dir;
  const auto csv = dir.write("ragged_tail.csv", "a,b,c\n1,2,3\n4,5,6\n7,8,9,10\n");

  const core::Error error = load_error(csv);

  EXPECT_EQ(error.where, csv.string() + ":4");
}

TEST(LoadTable, UnterminatedQuoteFailsNamingTheFileAndLine) {
  TempDir dir;
  const auto csv = dir.write("quote.csv", "name,qty\nchair,2\n\"desk, large,4\nlamp,1\n");

  const core::Error error = load_error(csv);

  EXPECT_EQ(error.where, csv.string() + ":3");
  const std::string described = error.describe();
  EXPECT_NE(described.find("line 3"), std::string::npos) << described;
  EXPECT_NE(described.find("unterminated quote"), std::string::npos) << described;
}

TEST(LoadTable, BadRowBeyondTheSnifferSampleStillNamesItsLine) {
  TempDir dir;
  std::string text = "a,b,c\n";
  for (int i = 1; i <= 30000; ++i)
    text += std::to_string(i) + ",x" + std::to_string(i) + "," + std::to_string(2 * i) + "\n";
  text += "1,2,3,4\n5,6,7\n";
  const auto csv = dir.write("late.csv", text);

  const core::Error error = load_error(csv);

  EXPECT_EQ(error.where, csv.string() + ":30002");
  EXPECT_NE(error.message.find("line 30002"), std::string::npos) << error.message;
}

TEST(LoadTable, ValueOfTheWrongTypeNamesLineAndColumn) {
  TempDir dir;
  std::string text = "id,amount\n";
  for (int i = 1; i <= 30000; ++i) text += std::to_string(i) + "," + std::to_string(i % 100) + "\n";
  text += "30001,lots\n";
  const auto csv = dir.write("typed.csv", text);

  const core::Error error = load_error(csv);

  EXPECT_EQ(error.where, csv.string() + ":30002");
  EXPECT_NE(error.message.find("column \"amount\""), std::string::npos) << error.message;
}

TEST(LoadTable, MissingFileIsNotFoundNamingTheFile) {
  TempDir dir;
  const auto missing = dir.path() / "absent.csv";

  const core::Error error = load_error(missing);

  EXPECT_EQ(error.code, core::ErrorCode::kNotFound);
  EXPECT_NE(error.describe().find(missing.string()), std::string::npos) << error.describe();
}

TEST(LoadTable, UnsupportedExtensionIsInvalidArgument) {
  TempDir dir;
  const auto xlsx = dir.write("book.xlsx", "not really");

  const core::Error error = load_error(xlsx);

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(error.message.find(".xlsx"), std::string::npos) << error.message;
}

TEST(LoadTable, LoadsParquetWrittenByDuckDb) {
  TempDir dir;
  const auto parquet = dir.path() / "events.parquet";
  auto writer = open_memory();
  ASSERT_NE(writer, nullptr);
  ASSERT_TRUE(writer->exec("COPY (SELECT range AS id, 'e' || range AS name FROM range(10)) TO '" +
                           parquet.string() + "' (FORMAT PARQUET)"));
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto loaded = load_table(*db, parquet, "events");

  ASSERT_TRUE(loaded) << loaded.error().describe();
  auto result = db->query("SELECT count(*), max(name) FROM events");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->at(0, 0), Value(10));
  EXPECT_EQ(result->at(0, 1), Value("e9"));
}

TEST(LoadTable, CorruptParquetFailsNamingTheFile) {
  TempDir dir;
  const auto parquet = dir.write("broken.parquet", "this is not parquet");

  const core::Error error = load_error(parquet);

  EXPECT_EQ(error.where, parquet.string());
}

TEST(LoadTable, LoadsJsonArraysAndNewlineDelimitedJson) {
  TempDir dir;
  const auto array = dir.write("a.json", R"([{"id": 1, "tag": "x"}, {"id": 2, "tag": null}])");
  const auto lines = dir.write("b.jsonl", "{\"id\": 3, \"tag\": \"z\"}\n{\"id\": 4, \"tag\": \"w\"}\n");
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto first = load_table(*db, array, "a");
  auto second = load_table(*db, lines, "b");

  ASSERT_TRUE(first) << first.error().describe();
  ASSERT_TRUE(second) << second.error().describe();
  auto result = db->query("SELECT id, tag FROM a UNION ALL SELECT id, tag FROM b ORDER BY id");
  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->row_count(), 4u);
  EXPECT_TRUE(result->at(1, 1).is_null());
  EXPECT_EQ(result->at(3, 1), Value("w"));
}

TEST(LoadTable, MalformedJsonFailsNamingTheFile) {
  TempDir dir;
  const auto json = dir.write("bad.json", R"([{"a": 1}, {"a": 2,])");

  const core::Error error = load_error(json);

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(error.describe().find("bad.json"), std::string::npos) << error.describe();
}

TEST(TableNameFor, UsesTheStemWithSafeCharacters) {
  EXPECT_EQ(table_name_for("/data/sales.csv"), "sales");
  EXPECT_EQ(table_name_for("monthly sales-2024.csv.gz"), "monthly_sales_2024");
  EXPECT_EQ(table_name_for("2024.parquet"), "t_2024");
}

TEST(FileFormat, ChoosesTheReaderByExtension) {
  EXPECT_EQ(*file_format("a.CSV"), FileFormat::kCsv);
  EXPECT_EQ(*file_format("a.tsv.gz"), FileFormat::kCsv);
  EXPECT_EQ(*file_format("a.parquet"), FileFormat::kParquet);
  EXPECT_EQ(*file_format("a.ndjson"), FileFormat::kJson);
  EXPECT_FALSE(file_format("a.txt"));
}

}  // namespace
}  // namespace planfirst::data
