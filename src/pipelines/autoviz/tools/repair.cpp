#include "pipelines/autoviz/tools/repair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/ascii_case.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/row_count.hpp"

namespace planfirst::autoviz {
namespace {

constexpr std::string_view kAbsent = "(none)";

// The params that name a column of the step's input, and what changing that column would change.
struct ColumnParam {
  std::string_view param;
  std::string_view change;
};
constexpr std::array<ColumnParam, 14> kColumnParams = {{{"metrics", "metric"},
                                                        {"metric", "metric"},
                                                        {"y", "metric"},
                                                        {"size", "metric"},
                                                        {"group_by", "group_by"},
                                                        {"segment_by", "group_by"},
                                                        {"color", "group_by"},
                                                        {"facet", "group_by"},
                                                        {"category", "group_by"},
                                                        {"date_column", "time"},
                                                        {"x", "column"},
                                                        {"by", "column"},
                                                        {"column", "column"},
                                                        {"columns", "column"}}};

// "value" names a column only for the charts; elsewhere (filter_rows, handle_missing) it is data.
bool names_columns(std::string_view tool, std::string_view param) {
  if (param == "value") return tool.starts_with("plot_");
  return std::any_of(kColumnParams.begin(), kColumnParams.end(),
                     [&](const ColumnParam& known) { return known.param == param; });
}

std::string change_of(std::string_view tool, std::string_view param) {
  if (param == "value") return "metric";
  if (param == "column" && (tool == "time_bucket" || tool == "parse_datetime")) return "time";
  for (const ColumnParam& known : kColumnParams) {
    if (known.param == param) return std::string(known.change);
  }
  return "column";
}

// Exact, or one column that differs only in letter case (the tool's own safe repair).
bool resolves(std::string_view name, const std::vector<data::Column>& columns) {
  const std::string lowered = core::ascii_lower(name);
  std::size_t folded = 0;
  for (const data::Column& column : columns) {
    if (column.name == name) return true;
    if (core::ascii_lower(column.name) == lowered) ++folded;
  }
  return folded == 1;
}

std::vector<std::string> column_names(const std::vector<data::Column>& columns) {
  std::vector<std::string> names;
  for (const data::Column& column : columns) names.push_back(column.name);
  return names;
}

void log_repair(const StepSite& site, std::vector<StepRepair>& log, std::string param, std::string before,
                std::string after, std::string reason, std::string kind) {
  log.push_back({site.step_id, site.tool, std::move(param), std::move(before), std::move(after),
                 std::move(reason), std::move(kind)});
}

const core::Json& properties_of(const core::Json& schema) {
  static const core::Json kNone = core::Json::object();
  auto it = schema.find("properties");
  return it != schema.end() && it->is_object() ? *it : kNone;
}

}  // namespace

core::Json StepRepair::to_json() const {
  return {{"step_id", step_id}, {"tool", tool},     {"param", param}, {"before", before},
          {"after", after},     {"reason", reason}, {"kind", kind}};
}

core::Json ReplanRequest::to_json() const {
  return {{"step_id", step_id}, {"tool", tool},     {"param", param},         {"pointer", pointer},
          {"value", value},     {"change", change}, {"available", available}, {"reason", reason}};
}

std::string StepSite::params_pointer() const {
  return fmt::format("/steps/{}/params", index);
}

std::string StepSite::pointer(std::string_view param) const {
  return fmt::format("{}/{}", params_pointer(), param);
}

std::string describe_value(const ParamValue& value) {
  if (!value.is_list && value.items.size() == 1) {
    if (const std::string* text = std::get_if<std::string>(&value.items[0])) return *text;
  }
  return value.to_json().dump();
}

void resolve_input(const StepSite& site, const core::Json& schema,
                   const std::map<std::string, std::string, std::less<>>& outputs, std::string& relation,
                   Params& params, std::vector<StepRepair>& log) {
  for (std::string_view key : {"df", "input"}) {
    auto named = params.find(key);
    if (named == params.end() || properties_of(schema).contains(key)) continue;
    const std::string name = describe_value(named->second);
    std::string reason =
        fmt::format("missing df: '{}' names no earlier step; the step reads the current relation", name);
    if (auto output = outputs.find(name); output != outputs.end()) {
      relation = output->second;
      reason = fmt::format("df names step '{}': the step reads its relation", name);
    }
    log_repair(site, log, std::string(key), name, relation, std::move(reason), "missing_df");
    params.erase(named);
  }
}

void wrap_scalars(const StepSite& site, const core::Json& schema, Params& params,
                  std::vector<StepRepair>& log) {
  const core::Json& properties = properties_of(schema);
  for (auto& [name, value] : params) {
    auto property = properties.find(name);
    if (value.is_list || property == properties.end() || property->value("type", core::Json()) != "array")
      continue;
    const std::string before = describe_value(value);
    value.is_list = true;
    log_repair(site, log, name, before, value.to_json().dump(), "a scalar where the schema expects a list",
               "scalar_to_list");
  }
}

void fill_defaults(const StepSite& site, const core::Json& schema, Params& params,
                   std::vector<StepRepair>& log) {
  for (const auto& [name, property] : properties_of(schema).items()) {
    if (params.contains(name) || !property.is_object() || !property.contains("default")) continue;
    core::Result<ParamValue> value = ParamValue::from_json(property["default"], site.pointer(name));
    if (!value) continue;  // an object default: the tool applies its own
    log_repair(site, log, name, std::string(kAbsent), describe_value(*value),
               "default param from the tool's schema", "default_param");
    params.emplace(name, std::move(*value));
  }
}

void apply_explicit_grain(const StepSite& site, const Requirements& requirements, Params& params,
                          std::vector<StepRepair>& log) {
  const std::string& wanted = requirements.time.grain;
  if (site.tool != "time_bucket" || wanted == "unknown" || wanted.empty()) return;
  const std::string column = text_param(params, "column");
  if (requirements.time.column && !core::iequals_ascii(*requirements.time.column, column)) return;
  const std::string planned = text_param(params, "grain");
  if (planned == wanted || planned == "month_of_year" || planned == "day_of_week") return;
  log_repair(site, log, "grain", planned.empty() ? std::string(kAbsent) : planned, wanted,
             "explicit grain in the requirements wins over the plan's", "explicit_grain");
  params["grain"] = ParamValue{{wanted}, false};
}

// aggregate's row count (row_count.hpp) names no column.
bool is_row_count(const StepSite& site, std::string_view param, std::string_view column,
                  const Params& params) {
  return site.tool == "aggregate" && param == "metrics" &&
         counts_rows(text_param(params, "agg_func"), column);
}

std::vector<ReplanRequest> missing_columns(const StepSite& site, const Params& params,
                                           const std::vector<data::Column>& columns) {
  std::vector<ReplanRequest> requests;
  for (const auto& [name, value] : params) {
    if (!names_columns(site.tool, name)) continue;
    for (std::size_t i = 0; i < value.items.size(); ++i) {
      const std::string* column = std::get_if<std::string>(&value.items[i]);
      if (column == nullptr || resolves(*column, columns) || is_row_count(site, name, *column, params))
        continue;
      const std::string change = change_of(site.tool, name);
      requests.push_back(
          {site.step_id, site.tool, name,
           value.is_list ? fmt::format("{}/{}", site.pointer(name), i) : site.pointer(name), *column, change,
           column_names(columns),
           fmt::format("column '{}' is not in the data; another {} is a semantic change for planning",
                       *column, change)});
    }
  }
  return requests;
}

}  // namespace planfirst::autoviz
