#include "pipelines/autoviz/tools/step_executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/metrics.hpp"
#include "data/database.hpp"
#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/tools/tool_library.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz {
namespace {

// `error` as the step's: the message names the step, and a tool's "TOOL.PARAM" becomes a pointer.
core::Error step_error(const StepSite& site, const core::Error& error) {
  std::string where = error.where;
  const std::string param_prefix = site.tool + ".";
  if (where.starts_with(param_prefix)) {
    where = site.pointer(where.substr(param_prefix.size()));
  } else if (!where.starts_with("/steps/")) {
    where = fmt::format("/steps/{}", site.index);
  }
  return {error.code, fmt::format("step '{}' ({}): {}", site.step_id, site.tool, error.message),
          std::move(where)};
}

std::optional<core::Error> schema_violations(const StepSite& site, const contracts::Contract& contract,
                                             const Params& params) {
  const contracts::ValidationReport report = contract.validate(params_to_json(params));
  if (report.ok()) return std::nullopt;
  std::string lines;
  for (const contracts::Violation& violation : report.violations()) {
    lines += fmt::format("{}{}{} [{}] {}", lines.empty() ? "" : "; ", site.params_pointer(),
                         violation.pointer, violation.keyword, violation.message);
  }
  return core::invalid_argument(fmt::format("step '{}' ({}): params do not match the tool's schema: {}",
                                            site.step_id, site.tool, lines),
                                site.params_pointer() + report.violations().front().pointer);
}

std::map<std::string, std::string, std::less<>> step_relations(const std::vector<StepReport>& done) {
  std::map<std::string, std::string, std::less<>> relations;
  for (const StepReport& step : done) {
    if (step.output && !step.output->relation.empty()) relations[step.step_id] = step.output->relation;
  }
  return relations;
}

std::string repair_kind(const ToolRepair& repair) {
  if (repair.reason == "column-name casing") return "column_casing";
  if (repair.param == "grain" && repair.before == "auto") return "auto_grain";
  return "tool";
}

// Logs the repairs the tool made and applies them to `params`, so they read as the step ran.
void collect_tool_repairs(const StepSite& site, const ToolContext& ctx, std::size_t first, Params& params,
                          std::vector<StepRepair>& log) {
  for (std::size_t i = first; i < ctx.repairs.size(); ++i) {
    const ToolRepair& made = ctx.repairs[i];
    log.push_back(
        {site.step_id, site.tool, made.param, made.before, made.after, made.reason, repair_kind(made)});
    auto param = params.find(made.param);
    if (param == params.end()) continue;
    for (ParamScalar& item : param->second.items) {
      if (const std::string* text = std::get_if<std::string>(&item);
          text != nullptr && *text == made.before) {
        item = made.after;
      }
    }
  }
}

std::optional<std::string> chosen_grain(const StepSite& site, const StepReport& report) {
  if (site.tool != "time_bucket") return std::nullopt;
  for (auto it = report.repairs.rbegin(); it != report.repairs.rend(); ++it) {
    if (it->param == "grain") return it->after;
  }
  auto grain = report.params.find("grain");
  return grain == report.params.end() ? std::string("auto") : describe_value(grain->second);
}

// A table step that produced no rows: the error names the last filter before it, if any.
core::Error empty_result(const StepSite& site, const std::vector<StepReport>& done) {
  auto filter = std::find_if(done.rbegin(), done.rend(), [](const StepReport& step) {
    return step.tool == "filter_rows" || step.tool == "handle_missing";
  });
  const std::string cause =
      filter == done.rend()
          ? std::string("its input is empty")
          : fmt::format("the rows were filtered away by step '{}' ({})", filter->step_id, filter->tool);
  return core::failed_precondition(
      fmt::format("step '{}' ({}): the result is empty; {}", site.step_id, site.tool, cause),
      fmt::format("/steps/{}", site.index));
}

// The output's fields as the step's JSON carries them: the chart spec and the table's rows inline.
void add_output(const ToolOutput& output, core::Json& json) {
  json["relation"] = output.relation;
  json["sql"] = output.sql;
  if (!output.chart.empty()) {
    core::Json chart = core::Json::parse(output.chart, nullptr, false);
    json["chart"] = chart.is_discarded() ? core::Json(output.chart) : std::move(chart);
  }
  if (output.sampled) json["sampled"] = {{"shown", output.sampled->shown}, {"of", output.sampled->of}};
  if (output.table) {
    json["table"] = output.table->to_json();
    json["columns"] = output.table->columns_json();
    json["truncated"] = output.truncated;
    if (output.row_count) json["row_count"] = *output.row_count;
  }
  core::Json files = core::Json::array();
  for (const std::filesystem::path& file : output.files) files.push_back(file.string());
  json["files"] = std::move(files);
}

StepReport planned(const PlanStep& step, StepStatus status) {
  StepReport report;
  report.step_id = step.step_id;
  report.tool = step.tool;
  report.status = status;
  report.params = step.params;
  return report;
}

core::Json step_json(const StepReport& step) {
  core::Json repairs = core::Json::array();
  for (const StepRepair& repair : step.repairs) repairs.push_back(repair.to_json());
  core::Json json{{"step_id", step.step_id},
                  {"tool", step.tool},
                  {"status", to_string(step.status)},
                  {"params", params_to_json(step.params)},
                  {"input", step.input},
                  {"repairs", std::move(repairs)}};
  if (step.grain) json["grain"] = *step.grain;
  if (step.output) add_output(*step.output, json);
  if (step.error) json["error"] = step.error->describe();
  return json;
}

std::string_view plan_outcome(const ExecutionReport& report) {
  if (!report.replan.empty()) return "replan";
  if (!report.ok()) return "failed";
  return report.repair_count() > 0 ? "repaired" : "ok";
}

}  // namespace

std::string_view to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kOk: return "ok";
    case StepStatus::kRepaired: return "repaired";
    case StepStatus::kFailed: return "failed";
    case StepStatus::kSkipped: return "skipped";
  }
  return "unknown";
}

bool ExecutionReport::ok() const {
  return std::all_of(steps.begin(), steps.end(), [](const StepReport& step) {
    return step.status == StepStatus::kOk || step.status == StepStatus::kRepaired;
  });
}

const StepReport* ExecutionReport::failed_step() const {
  auto it = std::find_if(steps.begin(), steps.end(),
                         [](const StepReport& step) { return step.status == StepStatus::kFailed; });
  return it == steps.end() ? nullptr : &*it;
}

std::size_t ExecutionReport::repair_count() const {
  std::size_t count = 0;
  for (const StepReport& step : steps) {
    count += std::count_if(step.repairs.begin(), step.repairs.end(),
                           [](const StepRepair& repair) { return repair.changes_plan(); });
  }
  return count;
}

core::Json ExecutionReport::replan_payload() const {
  core::Json requests = core::Json::array();
  for (const ReplanRequest& request : replan) requests.push_back(request.to_json());
  return {{"replan", std::move(requests)}};
}

core::Json ExecutionReport::to_json() const {
  core::Json out = replan_payload();
  core::Json list = core::Json::array();
  for (const StepReport& step : steps) list.push_back(step_json(step));
  out["steps"] = std::move(list);
  out["ok"] = ok();
  out["repair_count"] = repair_count();
  return out;
}

core::Result<StepExecutor> StepExecutor::create(const ToolRegistry& registry, const ToolLibrary& library,
                                                core::MetricsRegistry* metrics) {
  std::map<std::string, Schema, std::less<>> schemas;
  for (const ToolSpec& tool : registry.tools()) {
    core::Result<contracts::Contract> contract = contracts::Contract::compile(tool.name, tool.params_schema);
    if (!contract) {
      return core::invalid_argument(
          fmt::format("tool '{}': params schema: {}", tool.name, contract.error().message), tool.name);
    }
    schemas.emplace(tool.name, Schema{std::move(*contract), tool.inputs});
  }
  return StepExecutor(std::move(schemas), library, metrics);
}

ExecutionReport StepExecutor::execute(const Plan& plan, const Requirements& requirements, ToolContext& ctx,
                                      const std::function<void(const PlanStep&)>& on_step,
                                      const std::function<void(const StepReport&)>& on_done) const {
  ExecutionReport report;
  bool stopped = false;
  prepare_previews(ctx);
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& step = plan.steps[i];
    if (stopped) {
      report.steps.push_back(planned(step, StepStatus::kSkipped));
      continue;
    }
    if (on_step) on_step(step);
    StepReport ran = run_step(step, i, requirements, ctx, report.steps, report.replan);
    stopped = ran.status == StepStatus::kFailed;
    if (on_done && ran.output) on_done(ran);
    report.steps.push_back(std::move(ran));
  }
  count(report);
  return report;
}

StepReport StepExecutor::run_step(const PlanStep& step, std::size_t index, const Requirements& requirements,
                                  ToolContext& ctx, const std::vector<StepReport>& done,
                                  std::vector<ReplanRequest>& replan) const {
  const StepSite site{step.step_id, step.tool, index};
  StepReport report = planned(step, StepStatus::kFailed);
  auto schema = schemas_.find(step.tool);
  if (schema == schemas_.end()) {
    report.error = step_error(site, core::not_found("the tool registry has no such tool"));
    return report;
  }
  if (!prepare_params(site, schema->second, requirements, ctx, done, report)) return report;
  if (std::find(schema->second.inputs.begin(), schema->second.inputs.end(), "df") !=
          schema->second.inputs.end() &&
      !ctx.relation.empty()) {
    report.input = ctx.relation;
    if (!check_columns(site, ctx, report, replan)) return report;
  }
  run_tool(site, ctx, done, report);
  return report;
}

std::optional<core::Error> StepExecutor::check_params(const PlanStep& step, std::size_t index,
                                                      const Requirements& requirements) const {
  auto schema = schemas_.find(step.tool);
  if (schema == schemas_.end()) return std::nullopt;
  const StepSite site{step.step_id, step.tool, index};
  Params params = step.params;
  std::string relation;
  std::vector<StepRepair> repairs;
  repair_params(site, schema->second, requirements, {}, relation, params, repairs);
  return schema_violations(site, schema->second.contract, params);
}

void StepExecutor::repair_params(const StepSite& site, const Schema& schema, const Requirements& requirements,
                                 const std::map<std::string, std::string, std::less<>>& outputs,
                                 std::string& relation, Params& params, std::vector<StepRepair>& log) const {
  const core::Json& json_schema = schema.contract.schema();
  resolve_input(site, json_schema, outputs, relation, params, log);
  apply_explicit_grain(site, requirements, params, log);
  wrap_scalars(site, json_schema, params, log);
  fill_defaults(site, json_schema, params, log);
}

bool StepExecutor::prepare_params(const StepSite& site, const Schema& schema,
                                  const Requirements& requirements, ToolContext& ctx,
                                  const std::vector<StepReport>& done, StepReport& report) const {
  repair_params(site, schema, requirements, step_relations(done), ctx.relation, report.params,
                report.repairs);
  report.error = schema_violations(site, schema.contract, report.params);
  return !report.error;
}

bool StepExecutor::check_columns(const StepSite& site, ToolContext& ctx, StepReport& report,
                                 std::vector<ReplanRequest>& replan) const {
  core::Result<std::vector<data::Column>> columns = relation_columns(ctx, ctx.relation);
  if (!columns) {
    report.error = step_error(site, columns.error());
    return false;
  }
  std::vector<ReplanRequest> missing = missing_columns(site, report.params, *columns);
  if (missing.empty()) return true;
  report.error = core::failed_precondition(fmt::format("step '{}' ({}): {}; sent back to planning",
                                                       site.step_id, site.tool, missing.front().reason),
                                           missing.front().pointer);
  replan.insert(replan.end(), missing.begin(), missing.end());
  return false;
}

void StepExecutor::run_tool(const StepSite& site, ToolContext& ctx, const std::vector<StepReport>& done,
                            StepReport& report) const {
  const std::size_t first_repair = ctx.repairs.size();
  const std::string previous = ctx.relation;
  core::Result<ToolOutput> output = library_.run(ctx, site.tool, params_to_json(report.params));
  collect_tool_repairs(site, ctx, first_repair, report.params, report.repairs);
  if (!output) {
    report.error = step_error(site, output.error());
    return;
  }
  if (output->table && !output->relation.empty() && output->table->row_count() == 0) {
    ctx.relation = previous;
    report.error = empty_result(site, done);
    return;
  }
  if (output->truncated && !output->row_count && !output->relation.empty()) {
    // The state keeps a few rows of a table; the count says how many the relation holds.
    core::Result<data::QueryResult> counted =
        ctx.db.query("SELECT count(*) FROM " + data::quote_identifier(output->relation));
    if (counted && counted->row_count() == 1 && !counted->at(0, 0).is_null()) {
      output->row_count = static_cast<std::size_t>(counted->at(0, 0).as_int());
    }
  }
  report.grain = chosen_grain(site, report);
  report.output = std::move(*output);
  report.status = std::any_of(report.repairs.begin(), report.repairs.end(),
                              [](const StepRepair& repair) { return repair.changes_plan(); })
                      ? StepStatus::kRepaired
                      : StepStatus::kOk;
}

void StepExecutor::count(const ExecutionReport& report) const {
  if (metrics_ == nullptr) return;
  for (const StepReport& step : report.steps) {
    metrics_
        ->counter("autoviz_steps_total",
                  {{"tool", step.tool}, {"status", std::string(to_string(step.status))}})
        .inc();
    for (const StepRepair& repair : step.repairs)
      metrics_->counter("autoviz_repairs_total", {{"kind", repair.kind}}).inc();
  }
  for (const ReplanRequest& request : report.replan) {
    metrics_->counter("autoviz_replans_total", {{"change", request.change}}).inc();
  }
  metrics_->counter("autoviz_plans_executed_total", {{"outcome", std::string(plan_outcome(report))}}).inc();
}

}  // namespace planfirst::autoviz
