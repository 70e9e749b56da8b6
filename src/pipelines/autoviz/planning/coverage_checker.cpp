#include "pipelines/autoviz/planning/coverage_checker.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "core/join.hpp"
#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/json_fields.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/requirements.hpp"

namespace planfirst::autoviz {
namespace {

struct RequirementItem {
  std::string field;   // "group_by"
  std::string value;   // "region"
  std::string label;   // the capability map's key: "group_by", "analysis:total", "constraints:filter"
  std::string column;  // the column a covering step must name, or empty
  std::string output =
      {};  // a filter on each group's aggregate ("avg(price)"): the column the aggregate writes
  std::string key() const { return field + "=" + value; }
};

bool contains(const std::vector<std::string>& list, std::string_view value) {
  return std::ranges::find(list, value) != list.end();
}

std::vector<RequirementItem> items_of(const Requirements& r) {
  std::vector<RequirementItem> items;
  for (const std::string& metric : r.metrics) items.push_back({"metrics", metric, "metrics", metric});
  for (const std::string& column : r.group_by) items.push_back({"group_by", column, "group_by", column});
  if (r.time.column) items.push_back({"time", *r.time.column, "time", *r.time.column});
  for (const std::string& label : r.analysis) items.push_back({"analysis", label, "analysis:" + label, ""});
  for (const std::string& label : r.outputs) items.push_back({"outputs", label, "outputs:" + label, ""});
  for (const Constraint& c : r.constraints) {
    const bool is_limit = c.type == "limit";
    const std::optional<GroupFilterColumn> aggregate =
        c.type == "filter" ? group_filter_column(c.column) : std::nullopt;
    items.push_back({"constraints", c.type + ":" + (is_limit ? std::to_string(c.n) : c.column),
                     "constraints:" + c.type, is_limit ? "" : c.column,
                     aggregate ? group_filter_output(*aggregate) : ""});
  }
  return items;
}

// Whether citation `cited` ("analysis:total", "group_by", "group_by:region") names a requirement
// of `r`.
bool cites_existing(const Requirements& r, std::string_view cited) {
  const std::size_t colon = cited.find(':');
  const std::string_view head = cited.substr(0, colon);
  const std::optional<std::string_view> tail =
      colon == std::string_view::npos ? std::nullopt : std::optional(cited.substr(colon + 1));
  auto in = [&](const std::vector<std::string>& list) {
    return tail ? contains(list, *tail) : !list.empty();
  };
  if (head == "analysis") return tail && contains(r.analysis, *tail);
  if (head == "outputs") return tail && contains(r.outputs, *tail);
  if (head == "metrics") return in(r.metrics);
  if (head == "group_by") return in(r.group_by);
  if (head == "time") return r.time.column && (!tail || *tail == *r.time.column);
  if (head == "constraints") {
    if (!tail) return !r.constraints.empty();
    return std::ranges::any_of(r.constraints,
                               [&](const Constraint& c) { return c.type == *tail || c.column == *tail; });
  }
  return false;
}

bool names_column(const PlanStep& step, std::string_view column) {
  return std::ranges::any_of(step.params, [&](const auto& param) { return param.second.mentions(column); });
}

}  // namespace

CoverageReport CoverageChecker::check(const Requirements& requirements, const Plan& plan) const {
  CoverageReport report;
  // Each step's capabilities, canonical; unknown tools declare none.
  std::vector<std::set<std::string, std::less<>>> step_capabilities;
  for (const PlanStep& step : plan.steps) {
    std::set<std::string, std::less<>> capabilities;
    if (const ToolSpec* tool = tools_.find(step.tool)) {
      for (const std::string& declared : tool->capabilities) {
        if (std::optional<std::string> canonical = capabilities_.canonical(declared))
          capabilities.insert(*canonical);
      }
    } else {
      report.unknown_tools.push_back(step.step_id);
    }
    step_capabilities.push_back(std::move(capabilities));
    if (std::ranges::none_of(step.satisfies,
                             [&](const std::string& cited) { return cites_existing(requirements, cited); })) {
      report.unjustified.push_back(step.step_id);
    }
  }

  std::set<std::string, std::less<>> unmapped;
  for (const RequirementItem& item : items_of(requirements)) {
    const CapabilityRule rule = capabilities_.rule_for(item.label);
    if (rule.core_fallback) unmapped.insert(item.label);
    CoverageLine line{item.key(), {}, true};
    std::vector<bool> used(plan.steps.size(), false);
    for (const std::vector<std::string>& group : rule.all_of) {
      bool group_met = false;
      for (std::size_t i = 0; i < plan.steps.size(); ++i) {
        const bool capable = std::ranges::any_of(
            group, [&](const std::string& c) { return step_capabilities[i].contains(c); });
        const bool named = item.column.empty() || names_column(plan.steps[i], item.column) ||
                           (!item.output.empty() && names_column(plan.steps[i], item.output));
        if (!capable || (rule.names_column && !named)) continue;
        group_met = true;
        used[i] = true;
      }
      line.covered = line.covered && group_met;
    }
    for (std::size_t i = 0; i < plan.steps.size(); ++i) {
      if (used[i]) line.steps.push_back(plan.steps[i].step_id);
    }
    if (!line.covered) report.missing.push_back(line.requirement);
    report.lines.push_back(std::move(line));
  }
  report.unmapped.assign(unmapped.begin(), unmapped.end());
  std::ranges::sort(report.unjustified);
  std::ranges::sort(report.unknown_tools);
  return report;
}

std::string CoverageReport::retry_payload() const {
  std::vector<std::string> lines;
  if (!missing.empty()) {
    // "group_by=region", "group_by=product_category" -> "group_by=[region, product_category]"
    std::vector<std::string> fields;
    std::vector<std::vector<std::string>> values;
    for (const std::string& key : missing) {
      const std::size_t eq = key.find('=');
      const std::string field = key.substr(0, eq);
      if (fields.empty() || fields.back() != field) {
        fields.push_back(field);
        values.emplace_back();
      }
      values.back().push_back(key.substr(eq + 1));
    }
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < fields.size(); ++i)
      parts.push_back(fields[i] + "=[" + core::join(values[i], ", ") + "]");
    lines.push_back("Missing coverage: " + core::join(parts, ", "));
  }
  if (!unjustified.empty()) lines.push_back("Remove unjustified steps: " + core::join(unjustified, ", "));
  if (!unknown_tools.empty())
    lines.push_back("Replace steps whose tool is unknown: " + core::join(unknown_tools, ", "));
  return core::join(lines, "\n");
}

std::string CoverageReport::describe() const {
  std::vector<std::string> text;
  for (const CoverageLine& line : lines) {
    text.push_back(line.requirement + " -> " + core::join(line.steps, " + ") +
                   (line.steps.empty() ? "" : " ") + (line.covered ? "(OK)" : "(MISSING)"));
  }
  for (const std::string& label : unmapped)
    text.push_back("Warning: no capability rule for " + label + "; the core set stood in");
  if (const std::string payload = retry_payload(); !payload.empty()) text.push_back(payload);
  return core::join(text, "\n");
}

core::Json CoverageReport::to_json() const {
  core::Json json_lines = core::Json::array();
  for (const CoverageLine& line : lines) {
    json_lines.push_back(
        {{"requirement", line.requirement}, {"steps", line.steps}, {"covered", line.covered}});
  }
  return {{"complete", complete()},
          {"lines", json_lines},
          {"missing", missing},
          {"unjustified", unjustified},
          {"unknown_tools", unknown_tools},
          {"unmapped", unmapped},
          {"retry_payload", retry_payload()}};
}

core::Result<CoverageReport> CoverageReport::from_json(const core::Json& json) {
  if (core::Result<void> shape =
          check_object(json, "", {"lines", "missing", "unjustified", "unknown_tools", "unmapped"},
                       {"complete", "retry_payload"});
      !shape) {
    return shape.error();
  }
  const core::Json& lines = json.at("lines");
  if (!lines.is_array()) return core::invalid_argument("expected a list of lines", "/lines");
  CoverageReport report;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string where = "/lines/" + std::to_string(i);
    const core::Json& line = lines[i];
    if (core::Result<void> shape = check_object(line, where, {"requirement", "steps", "covered"}); !shape) {
      return shape.error();
    }
    core::Result<std::string> requirement = string_field(line, "requirement", where);
    if (!requirement) return requirement.error();
    core::Result<std::vector<std::string>> steps = string_list_field(line, "steps", where);
    if (!steps) return steps.error();
    const core::Json& covered = line.at("covered");
    if (!covered.is_boolean()) return core::invalid_argument("expected a boolean", where + "/covered");
    report.lines.push_back({std::move(*requirement), std::move(*steps), covered.get<bool>()});
  }
  for (auto [key, list] :
       {std::pair{"missing", &report.missing}, std::pair{"unjustified", &report.unjustified},
        std::pair{"unknown_tools", &report.unknown_tools}, std::pair{"unmapped", &report.unmapped}}) {
    core::Result<std::vector<std::string>> names = string_list_field(json, key, "");
    if (!names) return names.error();
    *list = std::move(*names);
  }
  return report;
}

}  // namespace planfirst::autoviz
