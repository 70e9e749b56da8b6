#include "pipelines/autoviz/eval/nl2vis_score.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>

#include "core/ascii_case.hpp"
#include "pipelines/autoviz/tools/tool_vega_lite.hpp"

namespace planfirst::autoviz {
namespace {

using core::ascii_lower;
using core::iequals_ascii;

const std::vector<std::string> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                          "jul", "aug", "sep", "oct", "nov", "dec"};
const std::vector<std::string> kDays = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

std::string cell_key(const core::Json& cell) {
  if (cell.is_null()) return "null";
  if (cell.is_number()) {
    const double rounded = std::round(cell.get<double>() * 10000.0) / 10000.0;
    return std::to_string(rounded == 0 ? 0.0 : rounded);
  }
  if (cell.is_boolean()) return cell.get<bool>() ? "1" : "0";
  std::string text = cell.is_string() ? cell.get<std::string>() : cell.dump();
  static const std::regex date(R"((\d{4})-(\d{2})-(\d{2})([ T].*)?)");
  static const std::regex prefixed_name(R"(\d+-([A-Za-z]+))");
  std::smatch m;
  if (std::regex_match(text, m, date)) {
    if (m[2] == "01" && m[3] == "01") return cell_key(core::Json(std::stod(m[1])));  // a year bin
    return std::string(m[1]) + "-" + std::string(m[2]) + "-" + std::string(m[3]);
  }
  if (std::regex_match(text, m, prefixed_name)) text = m[1];
  const std::string low = ascii_lower(text);
  if (low.size() >= 3) {
    const std::string head = low.substr(0, 3);
    const bool named = std::find(kMonths.begin(), kMonths.end(), head) != kMonths.end() ||
                       std::find(kDays.begin(), kDays.end(), head) != kDays.end();
    if (named &&
        std::all_of(low.begin(), low.end(),
                    [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) &&
        low.size() <= 9) {
      return head;
    }
  }
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size()) return cell_key(core::Json(number));
  return text;
}

std::string atom_key(const FilterAtom& atom) {
  std::string op = atom.op;
  std::vector<std::string> values;
  for (const ParamScalar& item : atom.value.items) {
    values.push_back(
        ascii_lower(cell_key(ParamValue{{item}, false}.to_json())));  // values compare without case
  }
  if (op == "in" && values.size() == 1) op = "=";
  if (op != "between" && op != "not_between") std::sort(values.begin(), values.end());  // any of a set
  std::string key = ascii_lower(atom.column) + " " + op;
  for (const std::string& v : values) key += " " + v;
  return key;
}

bool same_filters(const std::vector<FilterAtom>& a, const std::vector<FilterAtom>& b) {
  std::vector<std::string> ka, kb;
  for (const FilterAtom& atom : a) ka.push_back(atom_key(atom));
  for (const FilterAtom& atom : b) kb.push_back(atom_key(atom));
  std::sort(ka.begin(), ka.end());
  std::sort(kb.begin(), kb.end());
  return ka == kb;
}

std::string row_key(const core::Json& row) {
  std::string key;
  for (const core::Json& cell : row) key += cell_key(cell) + "\x1f";
  return key;
}

}  // namespace

std::map<std::string, bool> score_components(const ChartSpec& p, const Nl2visCase& target) {
  const ChartSpec& t = target.target;
  const bool plain_count = t.aggregate == "count" && !t.distinct;
  std::map<std::string, bool> scores;
  scores["chart"] = p.chart == t.chart;
  scores["x"] = iequals_ascii(p.x, t.x);
  scores["y"] =
      p.aggregate == t.aggregate && p.distinct == t.distinct && (plain_count || iequals_ascii(p.y, t.y));
  scores["grouping"] = iequals_ascii(p.color, t.color);
  scores["bin"] = p.bin == t.bin;
  scores["sort"] = p.sort.has_value() == t.sort.has_value() && (!t.sort || *p.sort == *t.sort);
  scores["limit"] = p.limit == t.limit;
  scores["filter"] = target.filter_error.empty() && same_filters(p.filters, t.filters);
  return scores;
}

core::Result<core::Json> drawn_rows(const core::Json& spec) {
  const core::Json values = spec.contains("data") ? spec["data"].value("values", core::Json()) : core::Json();
  const core::Json encoding = spec.value("encoding", core::Json::object());
  if (!values.is_array()) return core::invalid_argument("the chart has no inline data", "data.values");
  std::vector<std::string> fields;
  const bool arc = encoding.contains("theta");
  for (const char* channel :
       arc ? std::vector<const char*>{"color", "theta"} : std::vector<const char*>{"x", "y", "color"}) {
    if (!encoding.contains(channel)) continue;
    const std::string field = encoding[channel].value("field", "");
    if (field.empty())
      return core::invalid_argument(std::string("encoding.") + channel + " has no field", channel);
    fields.push_back(column_of_field(field));
  }
  if (fields.size() < 2) return core::invalid_argument("the chart encodes fewer than two fields", "encoding");
  core::Json rows = core::Json::array();
  for (const core::Json& value : values) {
    core::Json row = core::Json::array();
    for (const std::string& field : fields) row.push_back(value.value(field, core::Json()));
    rows.push_back(std::move(row));
  }
  return rows;
}

bool rows_match(const core::Json& drawn, const Nl2visCase& target) {
  std::map<std::string, int> pending;
  for (const core::Json& row : drawn) ++pending[row_key(row)];
  for (const core::Json& row : target.expected_rows) {
    auto it = pending.find(row_key(row));
    if (it != pending.end() && it->second > 0) {
      --it->second;
      continue;
    }
    const bool optional =
        target.zero_filled && row.size() >= 2 && row[1].is_number() && row[1].get<double>() == 0;
    if (!optional) return false;
  }
  return std::all_of(pending.begin(), pending.end(), [](const auto& entry) { return entry.second == 0; });
}

double rounded_rate(int k, int n) {
  return n == 0 ? 0.0 : std::round(10000.0 * k / n) / 10000.0;
}

void Nl2visTally::count(Counts& counts, const std::map<std::string, bool>& components, bool execution) {
  ++counts.n;
  bool exact = true;
  for (const auto& [name, ok] : components) {
    counts.components[name] += ok ? 1 : 0;
    exact = exact && ok;
  }
  counts.exact += exact ? 1 : 0;
  counts.execution += execution ? 1 : 0;
}

void Nl2visTally::add(const std::vector<std::string>& groups, const std::map<std::string, bool>& components,
                      bool execution) {
  count(overall_, components, execution);
  if (groups_.size() < groups.size()) groups_.resize(groups.size());
  for (std::size_t i = 0; i < groups.size(); ++i) count(groups_[i][groups[i]], components, execution);
}

core::Json Nl2visTally::counts_json(const Counts& counts) {
  const auto rate = [&](int k) { return rounded_rate(k, counts.n); };
  core::Json components = core::Json::object();
  for (const std::string& name : kNl2visComponents) {
    auto it = counts.components.find(name);
    components[name] = rate(it == counts.components.end() ? 0 : it->second);
  }
  return {{"n", counts.n},
          {"exact", counts.exact},
          {"exact_rate", rate(counts.exact)},
          {"execution", counts.execution},
          {"execution_rate", rate(counts.execution)},
          {"components", components}};
}

core::Json Nl2visTally::to_json(const std::vector<std::string>& kinds) const {
  core::Json out = {{"overall", counts_json(overall_)}};
  for (std::size_t i = 0; i < groups_.size() && i < kinds.size(); ++i) {
    core::Json by = core::Json::object();
    for (const auto& [name, counts] : groups_[i]) by[name] = counts_json(counts);
    out["by_" + kinds[i]] = by;
  }
  return out;
}

}  // namespace planfirst::autoviz
