#include "pipelines/autoviz/understand/llm_requirement_extractor.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/row_count.hpp"

namespace planfirst::autoviz {

std::vector<contracts::Violation> unknown_columns(const Requirements& requirements,
                                                  const data::SchemaProfile& profile) {
  std::string columns;
  for (const data::ColumnProfile& column : profile.columns) {
    columns += (columns.empty() ? "" : ", ") + column.name;
  }
  std::vector<contracts::Violation> faults;
  auto check = [&](const std::string& name, std::string pointer) {
    if (profile.find(name) != nullptr) return;
    faults.push_back(
        {std::move(pointer), "column",
         "\"" + name + "\" is not a column of " + profile.table + "; the columns are: " + columns});
  };
  for (std::size_t i = 0; i < requirements.metrics.size(); ++i) {
    check(requirements.metrics[i], "/metrics/" + std::to_string(i));
  }
  for (std::size_t i = 0; i < requirements.group_by.size(); ++i) {
    check(requirements.group_by[i], "/group_by/" + std::to_string(i));
  }
  if (requirements.time.column) check(*requirements.time.column, "/time/column");
  for (std::size_t i = 0; i < requirements.constraints.size(); ++i) {
    const Constraint& constraint = requirements.constraints[i];
    // A sort may also name the column an aggregate counting rows writes ("sort by the count").
    if (constraint.type == "sort" && constraint.column == kRowCountColumn) continue;
    const std::optional<GroupFilterColumn> aggregate = group_filter_of(constraint, profile);
    if (aggregate) {  // "avg(price)": the aggregate of a column; count(*) of the rows
      if (aggregate->metric != kCountRowsMetric)
        check(aggregate->metric, "/constraints/" + std::to_string(i) + "/column");
    } else if (constraint.type != "limit") {
      check(constraint.column, "/constraints/" + std::to_string(i) + "/column");
    }
  }
  return faults;
}

core::Result<ExtractedRequirements> LlmRequirementExtractor::extract(
    std::string_view question, const data::SchemaProfile& profile) const {
  std::optional<Requirements> accepted;
  const llm::ReplyCheck names_known_columns = [&](const core::Json& reply) {
    core::Result<Requirements> parsed = Requirements::from_json(reply);
    if (!parsed)
      return std::vector<contracts::Violation>{
          {parsed.error().where, "requirements", parsed.error().message}};
    std::vector<contracts::Violation> faults = unknown_columns(*parsed, profile);
    if (faults.empty()) accepted = std::move(*parsed);
    return faults;
  };
  StageModel::Answer answer = model_.ask(
      kPrompt, {{"question", std::string(question)}, {"dataset_schema", dataset_schema_text(profile)}},
      names_known_columns);
  if (answer.json && accepted) return ExtractedRequirements{std::move(*accepted), std::move(answer.record)};
  core::Result<ExtractedRequirements> extracted = rules_.extract(question, profile);
  if (extracted) extracted->strategy = std::move(answer.record);
  return extracted;
}

}  // namespace planfirst::autoviz
