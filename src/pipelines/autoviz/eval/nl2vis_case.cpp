#include "pipelines/autoviz/eval/nl2vis_case.hpp"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "pipelines/autoviz/eval/sql_filter.hpp"

namespace planfirst::autoviz {
namespace {

std::string text_or_empty(const core::Json& record, const char* key) {
  auto it = record.find(key);
  return it == record.end() || !it->is_string() ? std::string() : it->get<std::string>();
}

bool bool_or_false(const core::Json& record, const char* key) {
  auto it = record.find(key);
  return it != record.end() && it->is_boolean() && it->get<bool>();
}

// "bin" as the planner's grain names: nvBench's month and weekday bins are cyclic.
std::string grain_of_bin(const std::string& bin) {
  if (bin == "month") return "month_of_year";
  if (bin == "weekday") return "day_of_week";
  return bin;
}

core::Result<Nl2visCase> read_case(const core::Json& record, const std::filesystem::path& folder) {
  for (const char* key : {"id", "question", "table_csv", "chart", "x", "y", "expected"}) {
    if (!record.contains(key))
      return core::invalid_argument(std::string("missing field \"") + key + "\"", key);
  }
  Nl2visCase c;
  c.id = text_or_empty(record, "id");
  c.db_id = text_or_empty(record, "db_id");
  c.question = text_or_empty(record, "question");
  for (const core::Json& paraphrase : record.value("paraphrases", core::Json::array())) {
    if (paraphrase.is_string()) c.paraphrases.push_back(paraphrase.get<std::string>());
  }
  c.table_csv = folder / text_or_empty(record, "table_csv");
  c.hardness = text_or_empty(record, "hardness");
  c.nvbench_chart = text_or_empty(record, "nvbench_chart");
  ChartSpec& t = c.target;
  t.chart = text_or_empty(record, "chart");
  t.x = text_or_empty(record, "x");
  t.y = text_or_empty(record, "y");
  t.aggregate = text_or_empty(record, "aggregate");
  t.distinct = bool_or_false(record, "distinct");
  t.color = text_or_empty(record, "color");
  t.bin = grain_of_bin(text_or_empty(record, "bin"));
  if (auto sort = record.find("sort"); sort != record.end() && sort->is_object()) {
    const std::string order = text_or_empty(*sort, "order");
    t.sort = ChartSort{text_or_empty(*sort, "by"), order.empty() ? "asc" : order};
  }
  if (auto limit = record.find("limit"); limit != record.end() && limit->is_number_integer()) {
    t.limit = limit->get<std::int64_t>();
  }
  for (const char* key : {"filters", "having"}) {
    const std::string where = text_or_empty(record, key);
    if (where.empty()) continue;
    core::Result<std::vector<FilterAtom>> atoms = parse_sql_filter(where);
    if (!atoms) {
      c.filter_error = atoms.error().message;
      continue;
    }
    t.filters.insert(t.filters.end(), atoms->begin(), atoms->end());
    if (std::string(key) == "having") c.filter_error = "HAVING is not a row filter";
  }
  const core::Json& expected = record.at("expected");
  auto rows = expected.is_object() ? expected.find("rows") : expected.end();
  if (!expected.is_object() || rows == expected.end() || !rows->is_array()) {
    return core::invalid_argument("\"expected\" must be an object with \"rows\"", "expected");
  }
  c.expected_rows = *rows;
  c.zero_filled = bool_or_false(expected, "zero_filled");
  return c;
}

}  // namespace

core::Result<Nl2visCase> parse_nl2vis_record(std::string_view line, const std::filesystem::path& folder) {
  const core::Json record = core::Json::parse(line, nullptr, false);
  if (record.is_discarded() || !record.is_object()) return core::invalid_argument("not a JSON object");
  return read_case(record, folder);
}

core::Result<std::vector<Nl2visCase>> load_nl2vis_cases(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return core::not_found("cannot open " + file.string(), file.string());
  std::vector<Nl2visCase> cases;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = file.string() + ":" + std::to_string(number);
    core::Result<Nl2visCase> c = parse_nl2vis_record(line, file.parent_path());
    if (!c) {
      return core::invalid_argument(where + ": " + c.error().message,
                                    c.error().where.empty() ? where : where + " " + c.error().where);
    }
    cases.push_back(std::move(*c));
  }
  return cases;
}

std::vector<Nl2visCase> paraphrase_cases(const std::vector<Nl2visCase>& cases) {
  std::vector<Nl2visCase> out;
  for (const Nl2visCase& c : cases) {
    for (std::size_t k = 0; k < c.paraphrases.size(); ++k) {
      Nl2visCase variant = c;
      variant.id = c.id + "#" + std::to_string(k + 1);
      variant.question = c.paraphrases[k];
      variant.paraphrases.clear();
      out.push_back(std::move(variant));
    }
  }
  return out;
}

DatabaseSplit split_by_database(std::vector<Nl2visCase>& cases) {
  std::set<std::string> ids;
  for (const Nl2visCase& c : cases) ids.insert(c.db_id);
  DatabaseSplit split;
  std::map<std::string, std::string> half;
  for (const std::string& id : ids) {
    const bool a = split.a.size() == split.b.size();
    (a ? split.a : split.b).push_back(id);
    half[id] = a ? "A" : "B";
  }
  for (Nl2visCase& c : cases) c.half = half[c.db_id];
  return split;
}

}  // namespace planfirst::autoviz
