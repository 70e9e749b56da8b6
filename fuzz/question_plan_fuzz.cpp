// Fuzzes the offline planner with an arbitrary question over a fixed table: reading the question
// into requirements and planning them must never crash or throw, must give the same bytes twice,
// and every error must carry a message.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pipelines/autoviz/planning/rule_plan_adapter.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"

namespace {

using namespace planfirst;

data::ColumnProfile column(std::string name, data::ColumnType type, data::ColumnRole role,
                           std::vector<std::string> values = {}) {
  data::ColumnProfile c;
  c.name = std::move(name);
  c.type = type;
  c.role = role;
  c.samples = values;
  c.values = std::move(values);
  c.distinct_count = static_cast<std::int64_t>(c.values.size());
  return c;
}

// A table with a column of each role, abbreviated names and short-written values.
data::SchemaProfile faculty() {
  data::SchemaProfile profile;
  profile.table = "faculty";
  profile.row_count = 6;
  using data::ColumnRole;
  using data::ColumnType;
  profile.columns = {column("FacID", ColumnType::kInteger, ColumnRole::kIdentifier),
                     column("cust_name", ColumnType::kText, ColumnRole::kCategorical, {"Ada", "Bo"}),
                     column("Rank", ColumnType::kText, ColumnRole::kCategorical, {"AsstProf", "Professor"}),
                     column("Degree", ColumnType::kText, ColumnRole::kCategorical, {"Ph.D.", "MSc"}),
                     column("Sex", ColumnType::kText, ColumnRole::kCategorical, {"F", "M"}),
                     column("hire_date", ColumnType::kDate, ColumnRole::kTemporal),
                     column("Year", ColumnType::kInteger, ColumnRole::kTemporal),
                     column("salary_amt", ColumnType::kDouble, ColumnRole::kMeasure),
                     column("abandoned_yn", ColumnType::kInteger, ColumnRole::kBoolean),
                     column("Room", ColumnType::kText, ColumnRole::kCategorical, {"224", "224B", "288"}),
                     column("level", ColumnType::kInteger, ColumnRole::kCategorical)};
  profile.columns[5].min = "2001-01-01";
  profile.columns[5].max = "2004-06-30";
  profile.columns[5].span = data::TemporalSpan{"2001-01-01", "2004-06-30", 1276, 6, 0.0047, 0.0047};
  profile.columns[6].min = "1999";
  profile.columns[6].max = "2004";
  return profile;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto extractor = autoviz::RuleRequirementExtractor::load(core::AssetStore());
  static const auto adapter = autoviz::RulePlanAdapter::load(core::AssetStore());
  static const data::SchemaProfile profile = faculty();
  if (!extractor || !adapter) __builtin_trap();
  const std::string_view question(reinterpret_cast<const char*>(data), size);
  const auto first = extractor->extract(question, profile);
  const auto second = extractor->extract(question, profile);
  if (first.has_value() != second.has_value()) __builtin_trap();
  if (!first) {
    if (first.error().message.empty() || first.error().describe() != second.error().describe())
      __builtin_trap();
    return 0;
  }
  const std::string requirements = first->requirements.to_json().dump();
  if (requirements != second->requirements.to_json().dump()) __builtin_trap();
  const auto plan = adapter->plan(question, first->requirements, profile, {});
  const auto again = adapter->plan(question, second->requirements, profile, {});
  if (plan.has_value() != again.has_value()) __builtin_trap();
  if (!plan) {
    if (plan.error().message.empty()) __builtin_trap();
    return 0;
  }
  if (plan->to_json().dump() != again->to_json().dump()) __builtin_trap();
  return 0;
}
