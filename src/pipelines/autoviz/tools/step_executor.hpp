// StepExecutor runs a plan's steps in order on a ToolContext (seed 002 §7). Before each tool runs
// its params are repaired where that is safe (a df/input key resolved to a relation, the
// requirements' explicit grain, scalars wrapped into lists, schema defaults filled) and validated
// against the tool's params JSON Schema, violations named by pointer ("/steps/2/params/agg_func").
// A param naming a column the step's input lacks, beyond letter case, is a semantic repair: it is
// refused and returned as a ReplanRequest. Execution stops at the first failed step; the steps
// before it keep their outputs and the rest are reported skipped. Every repair, the executor's and
// the tools' own (casing, the grain "auto" resolves to), is logged with its step. Compiled once;
// execute() is const, so threads may share an executor, each with its own context.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/contract.hpp"
#include "core/error.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/param_value.hpp"
#include "pipelines/autoviz/tools/repair.hpp"
#include "pipelines/autoviz/tools/tool_context.hpp"
#include "pipelines/autoviz/tools/tool_output.hpp"

namespace planfirst::core {
class MetricsRegistry;
}

namespace planfirst::autoviz {
class ToolLibrary;
class ToolRegistry;
struct Plan;
struct PlanStep;
struct Requirements;

// kRepaired: ran after a repair that changed its params; kSkipped: an earlier step failed.
enum class StepStatus { kOk, kRepaired, kFailed, kSkipped };
std::string_view to_string(StepStatus status);  // "ok", "repaired", "failed", "skipped"

struct StepReport {
  std::string step_id;
  std::string tool;
  StepStatus status = StepStatus::kSkipped;
  Params params;                     // as run; as planned when the step did not run
  std::string input;                 // the relation the step read; empty when none
  std::vector<StepRepair> repairs;   // the executor's, then the tool's, in the order made
  std::optional<ToolOutput> output;  // ok and repaired steps
  std::optional<std::string> grain;  // time_bucket: the grain the step ran with
  std::optional<core::Error> error;  // failed steps: message names the step; where is a pointer
};

struct ExecutionReport {
  std::vector<StepReport> steps;      // one per plan step, in plan order
  std::vector<ReplanRequest> replan;  // semantic repairs refused; non-empty only when a step failed

  bool ok() const;                        // every step ok or repaired
  const StepReport* failed_step() const;  // nullptr when none failed
  std::size_t repair_count() const;       // repairs that changed a plan's params (not auto_grain)
  // {"replan", "steps", "ok", "repair_count"}; each step gives step_id, tool, status, params, input,
  // repairs (each with its provenance), grain when bucketed, error (Error::describe()) when failed,
  // and for a step that ran its relation, sql, chart (the spec), table (rows as objects), columns
  // (names and types in order), truncated and files. Same run, same bytes.
  core::Json to_json() const;
  // {"replan": [...requests...]}: what goes back to plan adaptation.
  core::Json replan_payload() const;
};

class StepExecutor {
 public:
  // Compiles every tool's params schema. REQUIRES: `library` (and `metrics` when given) outlive the
  // executor. kInvalidArgument naming the tool whose schema does not compile.
  static core::Result<StepExecutor> create(const ToolRegistry& registry, const ToolLibrary& library,
                                           core::MetricsRegistry* metrics = nullptr);

  // Counters, when a registry was given: autoviz_steps_total{tool,status},
  // autoviz_repairs_total{kind}, autoviz_replans_total{change} and
  // autoviz_plans_executed_total{outcome=ok|repaired|failed|replan} (the plan repair rate's inputs).
  // `on_step`, when set, is called before each step that runs; `on_done` after each step that ran
  // and produced an output, with its report.
  ExecutionReport execute(const Plan& plan, const Requirements& requirements, ToolContext& ctx,
                          const std::function<void(const PlanStep&)>& on_step = {},
                          const std::function<void(const StepReport&)>& on_done = {}) const;

  // What execution would refuse in the params of `step`, the plan's `index`-th, before reading any
  // data: the schema's violations after the safe repairs that need none (an input key dropped,
  // the explicit grain, scalars wrapped, defaults filled), as execute() reports them. Nothing when
  // they pass or the tool is unknown (the coverage check names unknown tools).
  std::optional<core::Error> check_params(const PlanStep& step, std::size_t index,
                                          const Requirements& requirements) const;

 private:
  struct Schema {
    contracts::Contract contract;
    std::vector<std::string> inputs;  // the ToolSpec's, e.g. {"df"}
  };
  StepExecutor(std::map<std::string, Schema, std::less<>> schemas, const ToolLibrary& library,
               core::MetricsRegistry* metrics)
      : schemas_(std::move(schemas)), library_(library), metrics_(metrics) {}

  StepReport run_step(const PlanStep& step, std::size_t index, const Requirements& requirements,
                      ToolContext& ctx, const std::vector<StepReport>& done,
                      std::vector<ReplanRequest>& replan) const;
  // The safe repairs, in order; an input key reads `outputs`' relation into `relation`.
  void repair_params(const StepSite& site, const Schema& schema, const Requirements& requirements,
                     const std::map<std::string, std::string, std::less<>>& outputs, std::string& relation,
                     Params& params, std::vector<StepRepair>& log) const;
  // Safe repairs, then the schema; false (report.error set) when the params stay invalid.
  bool prepare_params(const StepSite& site, const Schema& schema, const Requirements& requirements,
                      ToolContext& ctx, const std::vector<StepReport>& done, StepReport& report) const;
  // False (report.error set, requests appended) when a param names a column the input lacks.
  bool check_columns(const StepSite& site, ToolContext& ctx, StepReport& report,
                     std::vector<ReplanRequest>& replan) const;
  void run_tool(const StepSite& site, ToolContext& ctx, const std::vector<StepReport>& done,
                StepReport& report) const;
  void count(const ExecutionReport& report) const;

  std::map<std::string, Schema, std::less<>> schemas_;  // by tool name
  const ToolLibrary& library_;
  core::MetricsRegistry* metrics_;
};

}  // namespace planfirst::autoviz
