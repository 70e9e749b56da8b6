#include "pipelines/friction/contact_queries.hpp"

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/date_parse.hpp"
#include "core/join.hpp"
#include "data/sql_quoting.hpp"

namespace planfirst::friction {
namespace {

using data::quote_identifier;
using data::quote_literal;

std::string literal_list(const std::vector<std::string>& values) {
  std::vector<std::string> quoted;
  for (const std::string& v : values) quoted.push_back(quote_literal(v));
  return "(" + core::join(quoted, ", ") + ")";
}

std::string column_text(const ColumnMapping& mapping, const std::string& role) {
  const std::string* column = mapping.column(role);
  return column == nullptr ? "NULL" : "CAST(" + quote_identifier(*column) + " AS VARCHAR)";
}

// A contact's channel as data_discovery lists it and data_prep filters on it: trimmed, "(none)" when empty.
std::string channel_sql(const ColumnMapping& mapping) {
  return "coalesce(NULLIF(trim(" + column_text(mapping, "channel") + "), ''), '(none)')";
}

std::string flag_expression(const ColumnMapping& mapping, const std::string& role,
                            const std::vector<std::string>& yes) {
  return "coalesce(lower(trim(" + column_text(mapping, role) + ")) IN " + literal_list(yes) + ", false)";
}

// The driver a contact's reason and summary name: the first rule (in file order) one of whose phrases
// occurs in them, else NULL.
std::string driver_case(const FrictionRules& rules) {
  std::string sql = "CASE";
  for (const Lens& lens : rules.lenses) {
    for (const DriverRule& driver : lens.drivers) {
      std::vector<std::string> tests;
      for (const std::string& phrase : driver.match)
        tests.push_back("contains(friction_text, " + quote_literal(phrase) + ")");
      sql += " WHEN " + core::join(tests, " OR ") + " THEN " + quote_literal(driver.id);
    }
  }
  return sql + " END";
}

std::string lens_case(const FrictionRules& rules) {
  std::string sql = "CASE driver_id";
  for (const Lens& lens : rules.lenses) {
    for (const DriverRule& driver : lens.drivers)
      sql += " WHEN " + quote_literal(driver.id) + " THEN " + quote_literal(lens.lens);
  }
  return sql + " END";
}

// The user's table with every role as one typed column.
std::string typed_select(const std::string& table, const ColumnMapping& mapping, const FrictionRules& rules) {
  const std::string seconds = mapping.handle_time_unit == "minutes" ? " * 60" : "";
  const std::string* transfers = mapping.column("transfers");
  const std::string transfers_sql =
      transfers == nullptr
          ? "0"
          : "coalesce(TRY_CAST(" + quote_identifier(*transfers) + " AS BIGINT), CASE WHEN " +
                flag_expression(mapping, "transfers", rules.true_values) + " THEN 1 ELSE 0 END)";
  return "SELECT NULLIF(trim(" + column_text(mapping, "contact_id") + "), '') AS contact_id, TRY_CAST(" +
         column_text(mapping, "timestamp") + " AS TIMESTAMP) AS contact_ts, " + channel_sql(mapping) +
         " AS channel, coalesce(" + column_text(mapping, "reason") + ", '') AS reason, coalesce(" +
         column_text(mapping, "summary") + ", '') AS summary, CAST(round(TRY_CAST(" +
         column_text(mapping, "handle_time") + " AS DOUBLE)" + seconds + ") AS BIGINT) AS handle_seconds, " +
         transfers_sql + " AS transfers, " + flag_expression(mapping, "repeat", rules.true_values) +
         " AS is_repeat, coalesce(" + column_text(mapping, "resolution") + ", '') AS resolution, " +
         flag_expression(mapping, "resolution", rules.resolved_values) + " AS resolved FROM " +
         quote_identifier(table);
}

// A typed row data_prep can use: it has an id, a readable timestamp and a handle time.
constexpr std::string_view kUsable =
    "contact_id IS NOT NULL AND contact_ts IS NOT NULL AND handle_seconds >= 0";

std::string filter_sql(const PrepFilters& filters) {
  std::vector<std::string> conditions = {"TRUE"};
  if (!filters.channels.empty()) conditions.push_back("channel IN " + literal_list(filters.channels));
  if (!filters.from.empty())
    conditions.push_back("contact_ts >= CAST(" + quote_literal(filters.from) + " AS DATE)");
  if (!filters.to.empty()) {
    conditions.push_back("contact_ts < CAST(" + quote_literal(filters.to) + " AS DATE) + INTERVAL 1 DAY");
  }
  return core::join(conditions, " AND ");
}

std::int64_t int_at(const data::QueryResult& result, std::size_t row, std::size_t column) {
  const data::Value& v = result.at(row, column);
  return v.is_null()                           ? 0
         : v.kind() == data::Value::Kind::kInt ? v.as_int()
                                               : static_cast<std::int64_t>(v.as_double());
}

std::string text_at(const data::QueryResult& result, std::size_t row, std::size_t column) {
  const data::Value& v = result.at(row, column);
  return v.is_null() ? "" : v.kind() == data::Value::Kind::kText ? v.as_text() : v.to_string();
}

std::vector<std::pair<std::string, std::int64_t>> pairs(const data::QueryResult& result) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (std::size_t r = 0; r < result.row_count(); ++r)
    out.emplace_back(text_at(result, r, 0), int_at(result, r, 1));
  return out;
}

core::Result<std::unique_ptr<data::DuckDbDatabase>> memory_db() {
  return data::DuckDbDatabase::open(":memory:");
}

const char* kDriverCounts =
    "count(*)::BIGINT, count_if(is_repeat)::BIGINT, count_if(transfers > 0)::BIGINT, "
    "count_if(resolved)::BIGINT, "
    "coalesce(sum(handle_seconds), 0)::BIGINT";

void read_counts(const data::QueryResult& result, std::size_t row, std::size_t first, DriverFigures& d) {
  d.contacts = int_at(result, row, first);
  d.repeats = int_at(result, row, first + 1);
  d.transferred = int_at(result, row, first + 2);
  d.resolved = int_at(result, row, first + 3);
  d.handle_seconds = int_at(result, row, first + 4);
}

}  // namespace

core::Result<PrepFilters> PrepFilters::from_json(const core::Json& json) {
  PrepFilters filters;
  if (json.is_null()) return filters;
  if (!json.is_object()) return core::invalid_argument("filters must be an object", "/filters");
  if (json.contains("channels")) {
    if (!json["channels"].is_array())
      return core::invalid_argument("expected a list of channels", "/filters/channels");
    for (const core::Json& c : json["channels"]) {
      if (!c.is_string()) return core::invalid_argument("expected a channel name", "/filters/channels");
      filters.channels.push_back(c.get<std::string>());
    }
  }
  for (auto [key, field] : {std::pair{"from", &filters.from}, {"to", &filters.to}}) {
    if (!json.contains(key)) continue;
    const core::Json& v = json[key];
    const std::string text = v.is_string() ? v.get<std::string>() : "";
    const std::string where = std::string("/filters/") + key;
    const bool date = text.size() == 10 && text[4] == '-' && text[7] == '-';
    if (!date) return core::invalid_argument("expected a date YYYY-MM-DD", where);
    core::Result<core::ParsedDate> day = core::parse_date(text);
    if (!day || day->format != core::DateFormat::kIsoDate)
      return core::invalid_argument("\"" + text + "\" is no day of the calendar", where);
    *field = text;
  }
  if (!filters.from.empty() && !filters.to.empty() && filters.from > filters.to)
    return core::invalid_argument("\"from\" is after \"to\"", "/filters/from");
  return filters;
}

core::Json PrepFilters::to_json() const {
  core::Json json = core::Json::object();
  if (!channels.empty()) json["channels"] = channels;
  if (!from.empty()) json["from"] = from;
  if (!to.empty()) json["to"] = to;
  return json;
}

std::string parquet_source(const std::filesystem::path& parquet) {
  return "read_parquet(" + quote_literal(parquet.string()) + ")";
}

core::Result<TableFacts> table_facts(data::DuckDbDatabase& db, const std::string& table,
                                     const ColumnMapping& mapping) {
  TableFacts facts;
  const std::string source = quote_identifier(table);
  core::Result<data::QueryResult> summary =
      db.query("SELECT count(*)::BIGINT, CAST(min(TRY_CAST(" + column_text(mapping, "timestamp") +
               " AS TIMESTAMP)) AS VARCHAR), " + "CAST(max(TRY_CAST(" + column_text(mapping, "timestamp") +
               " AS TIMESTAMP)) AS VARCHAR), " + "coalesce(quantile_disc(TRY_CAST(" +
               column_text(mapping, "handle_time") + " AS DOUBLE), 0.5), 0)::DOUBLE FROM " + source);
  if (!summary) return summary.error();
  facts.rows = int_at(*summary, 0, 0);
  facts.period_from = text_at(*summary, 0, 1);
  facts.period_to = text_at(*summary, 0, 2);
  facts.median_handle_time = summary->at(0, 3).is_null() ? 0 : summary->at(0, 3).as_double();
  core::Result<data::QueryResult> channels =
      db.query("SELECT " + channel_sql(mapping) + " AS channel, count(*)::BIGINT AS n FROM " + source +
               " GROUP BY ALL ORDER BY n DESC, channel");
  if (!channels) return channels.error();
  facts.channels = pairs(*channels);
  return facts;
}

core::Result<std::int64_t> count_kept(data::DuckDbDatabase& db, const std::string& table,
                                      const ColumnMapping& mapping, const FrictionRules& rules,
                                      const PrepFilters& filters) {
  core::Result<data::QueryResult> kept =
      db.query("SELECT count(*)::BIGINT FROM (" + typed_select(table, mapping, rules) + ") WHERE " +
               std::string(kUsable) + " AND " + filter_sql(filters));
  if (!kept) return kept.error();
  return int_at(*kept, 0, 0);
}

core::Result<PrepSummary> prepare_contacts(data::DuckDbDatabase& db, const std::string& table,
                                           const ColumnMapping& mapping, const FrictionRules& rules,
                                           const PrepFilters& filters, const std::filesystem::path& parquet) {
  core::Result<void> typed =
      db.exec("CREATE OR REPLACE TEMP TABLE friction_typed AS " + typed_select(table, mapping, rules));
  if (!typed) return typed.error();
  const std::string filter = filter_sql(filters);
  core::Result<data::QueryResult> counts = db.query(
      "SELECT count(*)::BIGINT, count_if(contact_id IS NULL)::BIGINT, "
      "count_if(contact_id IS NOT NULL AND contact_ts IS NULL)::BIGINT, "
      "count_if(contact_id IS NOT NULL AND contact_ts IS NOT NULL AND coalesce(handle_seconds < 0, "
      "true))::BIGINT, "
      "count_if(" +
      std::string(kUsable) + " AND NOT (" + filter + "))::BIGINT FROM friction_typed");
  if (!counts) return counts.error();
  PrepSummary summary;
  summary.rows_in = int_at(*counts, 0, 0);
  summary.missing_id = int_at(*counts, 0, 1);
  summary.bad_timestamp = int_at(*counts, 0, 2);
  summary.bad_handle_time = int_at(*counts, 0, 3);
  summary.outside_filters = int_at(*counts, 0, 4);
  const std::string prepared =
      "SELECT contact_id, contact_ts, strftime(contact_ts, '%Y-%m') AS month, channel, reason, summary, "
      "handle_seconds, "
      "transfers, is_repeat, resolution, resolved, coalesce(" +
      lens_case(rules) +
      ", 'unattributed') AS lens, "
      "coalesce(driver_id, 'unattributed') AS driver_id FROM (SELECT *, " +
      driver_case(rules) +
      " AS driver_id FROM (SELECT *, lower(reason || ' ' || summary) AS friction_text FROM friction_typed "
      "WHERE " +
      std::string(kUsable) + " AND " + filter + ")) ORDER BY contact_ts, contact_id";
  core::Result<void> table_made = db.exec("CREATE OR REPLACE TEMP TABLE friction_prepared AS " + prepared);
  if (!table_made) return table_made.error();
  core::Result<data::QueryResult> kept = db.query(
      "SELECT count(*)::BIGINT, count_if(lens = 'unattributed')::BIGINT, CAST(min(contact_ts) AS VARCHAR), "
      "CAST(max(contact_ts) AS VARCHAR) FROM friction_prepared");
  if (!kept) return kept.error();
  summary.rows_kept = int_at(*kept, 0, 0);
  summary.unclassified = int_at(*kept, 0, 1);
  summary.period_from = text_at(*kept, 0, 2);
  summary.period_to = text_at(*kept, 0, 3);
  if (summary.rows_kept == 0) {
    return core::invalid_argument(
        "no contact is left after preparation: " + std::to_string(summary.missing_id) + " without an id, " +
            std::to_string(summary.bad_timestamp) + " without a readable timestamp, " +
            std::to_string(summary.bad_handle_time) + " without a handle time, " +
            std::to_string(summary.outside_filters) + " outside the filters " + filters.to_json().dump(),
        "filters");
  }
  core::Result<data::QueryResult> lenses = db.query(
      "SELECT lens, count(*)::BIGINT FROM friction_prepared WHERE lens <> 'unattributed' GROUP BY lens");
  if (!lenses) return lenses.error();
  for (const Lens& lens : rules.lenses) {
    std::int64_t n = 0;
    for (const auto& [name, count] : pairs(*lenses)) {
      if (name == lens.lens) n = count;
    }
    summary.lens_contacts.emplace_back(lens.lens, n);
  }
  core::Result<data::QueryResult> channels = db.query(
      "SELECT channel, count(*)::BIGINT AS n FROM friction_prepared GROUP BY channel ORDER BY n DESC, "
      "channel");
  if (!channels) return channels.error();
  summary.channels = pairs(*channels);
  std::error_code ec;
  std::filesystem::create_directories(parquet.parent_path(), ec);
  core::Result<void> copied =
      db.exec("COPY friction_prepared TO " + quote_literal(parquet.string()) + " (FORMAT PARQUET)");
  if (!copied) return copied.error();
  // The database may be pooled for the next run on the file: leave it as it was.
  core::Result<void> dropped = db.exec("DROP TABLE friction_prepared; DROP TABLE friction_typed");
  if (!dropped) return dropped.error();
  return summary;
}

core::Result<std::vector<DriverFigures>> lens_drivers(const std::filesystem::path& parquet,
                                                      const Lens& lens) {
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = memory_db();
  if (!db) return db.error();
  core::Result<data::QueryResult> result =
      (*db)->query(std::string("SELECT driver_id, ") + kDriverCounts + " FROM " + parquet_source(parquet) +
                   " WHERE lens = " + quote_literal(lens.lens) + " GROUP BY driver_id ORDER BY driver_id");
  if (!result) return result.error();
  std::vector<DriverFigures> drivers;
  for (const DriverRule& rule : lens.drivers) {
    for (std::size_t r = 0; r < result->row_count(); ++r) {
      if (text_at(*result, r, 0) != rule.id) continue;
      DriverFigures d;
      d.lens = lens.lens;
      d.lens_title = lens.title;
      d.id = rule.id;
      d.label = rule.label;
      d.ease = rule.ease;
      read_counts(*result, r, 1, d);
      drivers.push_back(std::move(d));
    }
  }
  return drivers;
}

core::Result<std::vector<MonthCount>> monthly_lens_contacts(const std::filesystem::path& parquet) {
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = memory_db();
  if (!db) return db.error();
  core::Result<data::QueryResult> result =
      (*db)->query("SELECT month, lens, count(*)::BIGINT FROM " + parquet_source(parquet) +
                   " GROUP BY month, lens ORDER BY month, lens");
  if (!result) return result.error();
  std::vector<MonthCount> months;
  for (std::size_t r = 0; r < result->row_count(); ++r) {
    months.push_back({text_at(*result, r, 0), text_at(*result, r, 1), int_at(*result, r, 2)});
  }
  return months;
}

DriverFigures Recount::driver(const std::string& id) const {
  auto it = drivers.find(id);
  if (it != drivers.end()) return it->second;
  DriverFigures none;
  none.id = id;
  return none;
}

core::Result<Recount> recount_drivers(const std::filesystem::path& parquet) {
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = memory_db();
  if (!db) return db.error();
  core::Result<data::QueryResult> result =
      (*db)->query(std::string("SELECT driver_id, ") + kDriverCounts + " FROM " + parquet_source(parquet) +
                   " GROUP BY driver_id ORDER BY driver_id");
  if (!result) return result.error();
  Recount recount;
  for (std::size_t r = 0; r < result->row_count(); ++r) {
    DriverFigures d;
    d.id = text_at(*result, r, 0);
    read_counts(*result, r, 1, d);
    recount.contacts += d.contacts;
    recount.drivers[d.id] = std::move(d);
  }
  return recount;
}

}  // namespace planfirst::friction
