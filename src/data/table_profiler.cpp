#include "data/table_profiler.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "data/database.hpp"
#include "data/sql_quoting.hpp"
#include "data/text_timestamp.hpp"

namespace planfirst::data {
namespace {

using core::Result;

constexpr int kSampleCount = 5;

// The SQL that differs between engines; everything else the profiler writes is standard.
struct Dialect {
  enum class Engine { kDuckDb, kSqlite, kPostgres } engine;

  std::string text(const std::string& e) const { return "CAST(" + e + " AS TEXT)"; }

  // A timestamp parsed from text, or NULL when the text is not a date or timestamp.
  std::string parse_timestamp(const std::string& x) const {
    switch (engine) {
      case Engine::kDuckDb: return duckdb_text_timestamp(x);
      case Engine::kSqlite:
        return "(CASE WHEN " + x + " GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN datetime(" + x +
               ") END)";
      case Engine::kPostgres:
        return "(CASE WHEN " + x +
               " ~ '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?$' "
               "THEN CAST(" +
               x + " AS TIMESTAMP) END)";
    }
    return "NULL";
  }

  std::string day(const std::string& e) const {
    return engine == Engine::kSqlite ? "date(" + e + ")" : "CAST(" + e + " AS DATE)";
  }

  std::string day_diff(const std::string& from, const std::string& to) const {
    switch (engine) {
      case Engine::kDuckDb: return "date_diff('day', " + day(from) + ", " + day(to) + ")";
      case Engine::kSqlite:
        return "CAST(julianday(" + day(to) + ") - julianday(" + day(from) + ") AS INTEGER)";
      case Engine::kPostgres: return "(" + day(to) + " - " + day(from) + ")";
    }
    return "0";
  }

  // Whether a timestamp has a time of day other than midnight.
  std::string has_time(const std::string& e) const {
    if (engine == Engine::kSqlite) return "time(" + e + ") <> '00:00:00'";
    // DuckDB casts TIMESTAMP WITH TIME ZONE to TIME only through a local TIMESTAMP.
    if (engine == Engine::kDuckDb)
      return "CAST(CAST(" + e + " AS TIMESTAMP) AS TIME) <> CAST('00:00:00' AS TIME)";
    return "CAST(" + e + " AS TIME) <> CAST('00:00:00' AS TIME)";
  }

  std::string year_start(const std::string& e) const {
    if (engine == Engine::kSqlite) return "date(printf('%04d-01-01', " + e + "))";
    return "make_date(CAST(" + e + " AS INTEGER), 1, 1)";
  }
};

std::optional<Dialect> dialect_for(std::string_view engine) {
  if (engine == "duckdb") return Dialect{Dialect::Engine::kDuckDb};
  if (engine == "sqlite") return Dialect{Dialect::Engine::kSqlite};
  if (engine == "postgresql") return Dialect{Dialect::Engine::kPostgres};
  return std::nullopt;
}

double rounded(double value) {
  return std::round(value * 10000.0) / 10000.0;
}

std::int64_t integer_at(const QueryResult& result, std::size_t column) {
  const Value& value = result.at(0, column);
  if (value.kind() == Value::Kind::kInt) return value.as_int();
  if (value.kind() == Value::Kind::kDouble) return static_cast<std::int64_t>(value.as_double());
  return 0;  // SUM over no rows is NULL
}

std::optional<double> number_at(const QueryResult& result, std::size_t column) {
  const Value& value = result.at(0, column);
  if (value.kind() == Value::Kind::kInt) return static_cast<double>(value.as_int());
  if (value.kind() == Value::Kind::kDouble) return value.as_double();
  return std::nullopt;
}

std::optional<std::string> text_at(const QueryResult& result, std::size_t column) {
  const Value& value = result.at(0, column);
  if (value.is_null()) return std::nullopt;
  return value.to_string();
}

// Profiles one column of `table`; `column` carries its name and type.
class ColumnProfiler {
 public:
  ColumnProfiler(Database& db, const Dialect& dialect, const std::string& table, std::int64_t row_count)
      : db_(db), dialect_(dialect), table_(table), row_count_(row_count) {}

  Result<ColumnProfile> profile(const Column& column) {
    ColumnProfile profile;
    profile.name = column.name;
    profile.sql_type = column.sql_type;
    profile.type = column.type;
    const std::string quoted = quote_identifier(column.name);
    const bool textual = column.type == ColumnType::kText || column.type == ColumnType::kOther;
    const std::string value = column.type == ColumnType::kOther ? dialect_.text(quoted) : quoted;

    ColumnStats stats;
    stats.name = column.name;
    stats.type = column.type;
    stats.row_count = row_count_;
    if (Result<void> measured = measure(value, column.type, textual, profile, stats); !measured)
      return measured.error();

    profile.role = infer_role(stats);
    if (profile.role == ColumnRole::kTemporal && stats.non_null_count > 0) {
      std::string moment = quoted;
      if (textual) moment = dialect_.parse_timestamp(dialect_.text(quoted));
      if (column.type == ColumnType::kInteger) moment = dialect_.year_start(quoted);
      const bool may_have_time = column.type != ColumnType::kDate && column.type != ColumnType::kInteger;
      if (Result<void> span = measure_span(moment, may_have_time, textual, profile); !span)
        return span.error();
    }
    return profile;
  }

 private:
  Result<QueryResult> run(const std::string& sql) { return db_.query(sql); }

  // The column grouped once, by value, each group with how often it occurs ("v", "n"), and every
  // measure read off the groups: the counts, the range, the most frequent values (the samples, ties
  // in value order) and, for text, the length, word, date-like and boolean-like sums over the rows
  // (each distinct text parsed once). The measures are window aggregates over all groups, on each
  // of the (at most kValueListSize) rows the samples and the value list keep, so a column of 10M rows is read
  // once instead of once per measure.
  Result<void> measure(const std::string& value, ColumnType type, bool textual, ColumnProfile& profile,
                       ColumnStats& stats) {
    // PostgreSQL has no min/max for booleans, and they say nothing the samples do not.
    const bool ranged = type != ColumnType::kBoolean;
    std::string measures = "count(*) OVER (), CAST(sum(n) OVER () AS BIGINT)";
    if (ranged) measures += ", min(v) OVER (), max(v) OVER ()";
    if (textual) measures += text_sums(dialect_.text("v"));
    const std::string sql = "SELECT v, " + measures + " FROM (SELECT " + value +
                            " AS v, count(*) AS n FROM " + table_ + " WHERE " + value +
                            " IS NOT NULL GROUP BY " + value + ") AS g ORDER BY n DESC, v LIMIT " +
                            std::to_string(textual ? kValueListSize : kSampleCount);
    Result<QueryResult> result = run(sql);
    if (!result) return result.error();
    std::vector<std::string> most_frequent;
    for (const Value& v : result->column(0).values) most_frequent.push_back(v.to_string());
    const bool any = result->row_count() > 0;  // no groups: every value is NULL
    stats.distinct_count = any ? integer_at(*result, 1) : 0;
    const auto sampled =
        most_frequent.begin() + std::min<std::ptrdiff_t>(kSampleCount, std::ssize(most_frequent));
    profile.samples.assign(most_frequent.begin(), sampled);
    if (textual && stats.distinct_count <= kValueListSize) profile.values = std::move(most_frequent);
    stats.non_null_count = any ? integer_at(*result, 2) : 0;
    profile.null_count = row_count_ - stats.non_null_count;
    profile.null_rate = row_count_ == 0 ? 0.0 : rounded(static_cast<double>(profile.null_count) / row_count_);
    profile.distinct_count = stats.distinct_count;
    if (ranged && any) {
      profile.min = text_at(*result, 3);
      profile.max = text_at(*result, 4);
      if (is_numeric(type)) {
        stats.min_number = number_at(*result, 3);
        stats.max_number = number_at(*result, 4);
      }
    }
    if (textual && any) {
      constexpr std::size_t kTextSums = 5;  // text is ranged: v, the two counts, min and max come first
      stats.total_chars = integer_at(*result, kTextSums);
      stats.total_words = integer_at(*result, kTextSums + 1);
      stats.date_like_count = integer_at(*result, kTextSums + 2);
      stats.boolean_like_count = integer_at(*result, kTextSums + 3);
    }
    return core::ok();
  }

  // ", sum(...) OVER (), ..." over the groups: characters, words, date-like and boolean-like texts,
  // each group weighted by its row count n.
  std::string text_sums(const std::string& x) const {
    return ", sum(length(" + x + ") * n) OVER (), sum((length(" + x + ") - length(replace(" + x +
           ", ' ', '')) + 1) * n) OVER (), sum(CASE WHEN " + dialect_.parse_timestamp(x) +
           " IS NOT NULL THEN n ELSE 0 END) OVER (), sum(CASE WHEN lower(" + x +
           ") IN ('true', 'false', 'yes', 'no', 't', 'f', 'y', 'n') THEN n ELSE 0 END) OVER ()";
  }

  Result<void> measure_span(const std::string& moment, bool may_have_time, bool replaces_range,
                            ColumnProfile& profile) {
    const std::string timed =
        may_have_time ? "sum(CASE WHEN " + dialect_.has_time("t") + " THEN 1 ELSE 0 END)" : "0";
    const std::string sql = "SELECT min(t), max(t), min(" + dialect_.day("t") + "), max(" +
                            dialect_.day("t") + "), " + dialect_.day_diff("min(t)", "max(t)") +
                            ", count(DISTINCT " + dialect_.day("t") + "), count(t), " + timed +
                            " FROM (SELECT " + moment + " AS t FROM " + table_ + ") AS s WHERE t IS NOT NULL";
    Result<QueryResult> result = run(sql);
    if (!result) return result.error();
    const std::int64_t values = integer_at(*result, 6);
    if (values == 0) return core::ok();
    const bool timed_values = integer_at(*result, 7) > 0;
    TemporalSpan span;
    span.first = text_at(*result, timed_values ? 0 : 2).value_or("");
    span.last = text_at(*result, timed_values ? 1 : 3).value_or("");
    span.days = integer_at(*result, 4);
    span.days_with_data = integer_at(*result, 5);
    span.rows_per_day = rounded(static_cast<double>(values) / static_cast<double>(span.days + 1));
    span.coverage = rounded(static_cast<double>(span.days_with_data) / static_cast<double>(span.days + 1));
    if (replaces_range) {
      profile.min = span.first;
      profile.max = span.last;
    }
    profile.span = std::move(span);
    return core::ok();
  }

  Database& db_;
  const Dialect& dialect_;
  const std::string& table_;
  std::int64_t row_count_;
};

}  // namespace

Result<SchemaProfile> profile_table(Database& db, std::string_view table) {
  const std::optional<Dialect> dialect = dialect_for(db.engine());
  if (!dialect) return core::invalid_argument("cannot profile tables on engine " + std::string(db.engine()));
  const std::string quoted = quote_identifier(table);

  Result<QueryResult> shape = db.query("SELECT * FROM " + quoted + " LIMIT 0");
  if (!shape) {
    core::Error error = std::move(shape).error();
    if (error.where.empty()) error.where = std::string(table);
    return error;
  }
  Result<QueryResult> count = db.query("SELECT count(*) FROM " + quoted);
  if (!count) return count.error();

  SchemaProfile profile;
  profile.table = std::string(table);
  profile.row_count = integer_at(*count, 0);
  ColumnProfiler profiler(db, *dialect, quoted, profile.row_count);
  for (const Column& column : shape->columns()) {
    Result<ColumnProfile> column_profile = profiler.profile(column);
    if (!column_profile) return column_profile.error();
    profile.columns.push_back(std::move(column_profile).value());
  }
  return profile;
}

}  // namespace planfirst::data
