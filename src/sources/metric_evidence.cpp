#include "sources/metric_evidence.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/join.hpp"

namespace planfirst::sources {
namespace {

std::string cell(const data::Value& value) {
  if (value.is_null()) return "";
  if (value.kind() == data::Value::Kind::kDouble && std::isfinite(value.as_double())) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value.as_double());
    std::string text = buffer;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
  }
  return value.to_string();
}

Provenance provenance_of(const MetricRun& run) {
  Provenance provenance;
  provenance.source = "db";
  provenance.locator = run.catalog + "#" + run.entry.name + "/" + run.query.id;
  provenance.query = run.sql;
  const std::string bound = run.binding.describe(run.query);
  if (!bound.empty())
    provenance.query += (run.sql.ends_with('\n') ? "" : "\n") + std::string("-- bound: ") + bound;
  provenance.fetched_at = run.fetched_at;
  return provenance;
}

std::vector<std::pair<std::string, std::string>> common_fields(const MetricRun& run) {
  std::vector<std::pair<std::string, std::string>> fields{
      {"metric", run.entry.name}, {"kind", run.entry.kind},       {"query", run.query.id},
      {"unit", run.entry.unit},   {"period", run.binding.period}, {"database", run.database}};
  std::vector<std::string> notes = run.binding.notes;
  if (std::string note = run.binding.statistic_note(run.query, run.entry.name); !note.empty())
    notes.push_back(std::move(note));
  if (!notes.empty()) fields.emplace_back("note", core::join(notes, "; "));
  if (run.entry.kind == "metric") fields.emplace_back("definition", run.entry.description);
  if (!run.query.statistics.empty()) {
    const std::string& column = run.binding.value_column(run.query);
    for (const auto& [statistic, named] : run.query.statistics) {
      if (named == column) fields.emplace_back("computed", "the " + statistic + " (" + column + ")");
    }
  }
  return fields;
}

bool is_headline_query(const MetricRun& run) {
  return run.entry.headline != "first" && &run.query == &run.entry.queries.front();
}

// A number in a value cell: integers, doubles, and the decimal text some engines return for NUMERIC.
std::optional<double> number(const data::Value& value) {
  switch (value.kind()) {
    case data::Value::Kind::kInt: return static_cast<double>(value.as_int());
    case data::Value::Kind::kDouble: return value.as_double();
    case data::Value::Kind::kText: {
      double parsed = 0;
      const std::string& text = value.as_text();
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
      if (error == std::errc() && end == text.data() + text.size()) return parsed;
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

// The entry's figure over the rows' values: their sum or mean, with the rows it came from.
EvidenceItem headline_item(const MetricRun& run, const data::Column& value, const data::Column* label) {
  double total = 0;
  std::size_t counted = 0;
  std::vector<std::string> labels;
  for (std::size_t row = 0; row < value.values.size(); ++row) {
    if (label != nullptr) labels.push_back(cell(label->values[row]));
    const std::optional<double> cell_number = number(value.values[row]);
    if (!cell_number) continue;
    total += *cell_number;
    ++counted;
  }
  const bool mean = run.entry.headline == "mean";
  const std::string unit = run.entry.headline_unit.empty() ? run.entry.unit : run.entry.headline_unit;
  const std::string shown = counted == 0 ? "" : cell(data::Value(mean ? total / counted : total));
  EvidenceItem item;
  item.source = "db";
  item.id = "db:" + run.entry.name + "/" + run.query.id + "/" + run.entry.headline;
  item.fields = common_fields(run);
  for (auto& [key, field] : item.fields) {
    if (key == "unit") field = unit;
  }
  const std::string computed = std::string(mean ? "mean" : "sum") + " of " + value.name + " over " +
                               std::to_string(counted) + (counted == 1 ? " row" : " rows") +
                               (labels.empty() ? "" : " (" + core::join(labels, ", ") + ")");
  item.fields.emplace_back("headline", run.entry.headline);
  item.fields.emplace_back("computed", computed);
  item.fields.emplace_back("value", shown);
  item.title = run.entry.name + " = " + (shown.empty() ? "n/a" : shown + " " + unit);
  item.snippet = run.entry.name + " (" + run.binding.period + "): " + computed + " = " + shown;
  item.provenance = provenance_of(run);
  return item;
}

}  // namespace

std::vector<EvidenceItem> metric_evidence(const MetricRun& run, const data::QueryResult& rows) {
  std::vector<EvidenceItem> items;
  const std::string prefix = "db:" + run.entry.name + "/" + run.query.id + "/";
  const data::Column* label = rows.find_column(run.query.label_column);
  const data::Column* value = rows.find_column(run.binding.value_column(run.query));
  const data::Column* title = rows.find_column("title");
  if (value != nullptr && rows.row_count() > 0 && is_headline_query(run))
    items.push_back(headline_item(run, *value, label));
  for (std::size_t row = 0; row < rows.row_count(); ++row) {
    EvidenceItem item;
    item.source = "db";
    const std::string name = label != nullptr ? cell(label->values[row]) : std::to_string(row + 1);
    item.id = prefix + name;
    item.fields = common_fields(run);
    std::string columns;
    for (const data::Column& column : rows.columns()) {
      item.fields.emplace_back(column.name, cell(column.values[row]));
      columns += (columns.empty() ? "" : ", ") + column.name + "=" + cell(column.values[row]);
    }
    if (value != nullptr) {
      const std::string shown = cell(value->values[row]);
      item.fields.emplace_back("value", shown);
      item.title =
          run.entry.name + ": " + name + " = " + (shown.empty() ? "n/a" : shown + " " + run.entry.unit);
    } else {
      item.title = title != nullptr ? name + ": " + cell(title->values[row]) : run.entry.name + ": " + name;
    }
    item.snippet = run.entry.name + " (" + run.binding.period + "): " + columns;
    item.provenance = provenance_of(run);
    items.push_back(std::move(item));
  }
  if (items.empty()) {
    EvidenceItem none;
    none.source = "db";
    none.id = prefix + "none";
    none.title = run.entry.name + ": no rows";
    none.snippet = run.entry.name + " (" + run.binding.period + "): no rows matched";
    none.fields = common_fields(run);
    none.provenance = provenance_of(run);
    items.push_back(std::move(none));
  }
  return items;
}

}  // namespace planfirst::sources
