// The repairs of seed 002 §7, decided before a step runs. Safe repairs change a step's params
// without changing what it computes and are logged with their provenance: a missing default filled
// from the tool's schema, a scalar wrapped where the schema expects a list, and the time grain the
// requirements name explicitly (it wins over the plan's). A column the data lacks, beyond a casing
// slip, would need a semantic repair (another metric, grouping or time column): that is never
// guessed; it becomes a ReplanRequest for planning. Free functions over values; no state.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "data/query_result.hpp"
#include "pipelines/autoviz/param_value.hpp"

namespace planfirst::autoviz {
struct Requirements;

struct StepRepair {     // one safe repair, with its provenance
  std::string step_id;  // "aggregate"
  std::string tool;     // "aggregate"
  std::string param;    // "metrics"
  std::string before;   // "Revenue"; "(none)" when the param was absent
  std::string after;    // "revenue"
  std::string reason;   // "column-name casing"
  std::string
      kind;  // missing_df, column_casing, default_param, scalar_to_list, explicit_grain, auto_grain, tool
  // False for auto_grain: resolving the plan's "auto" is recorded, but changes nothing the plan said.
  bool changes_plan() const { return kind != "auto_grain"; }
  core::Json to_json() const;
};

struct ReplanRequest {  // a semantic repair refused: what planning would have to change
  std::string step_id;
  std::string tool;
  std::string param;                   // "metrics"
  std::string pointer;                 // "/steps/2/params/metrics/0"
  std::string value;                   // "profit"
  std::string change;                  // metric, group_by, time or column
  std::vector<std::string> available;  // the columns the step's input has
  std::string reason;
  core::Json to_json() const;
};

// Where a repair or a request points: the step's id and tool and its position in the plan.
struct StepSite {
  std::string step_id;
  std::string tool;
  std::size_t index = 0;                              // in the plan, for pointers "/steps/<index>/params/..."
  std::string params_pointer() const;                 // "/steps/2/params"
  std::string pointer(std::string_view param) const;  // "/steps/2/params/agg_func"
};

// A ParamValue as a repair logs it: a string as itself, anything else as JSON.
std::string describe_value(const ParamValue& value);

// A "df" or "input" key the schema does not declare: the relation the step reads. An earlier step's
// id reads that step's output (`outputs`: step id -> relation); anything else reads the current
// relation. Either way the key is removed and the choice logged.
void resolve_input(const StepSite& site, const core::Json& schema,
                   const std::map<std::string, std::string, std::less<>>& outputs, std::string& relation,
                   Params& params, std::vector<StepRepair>& log);
// Wraps scalars given for params whose schema type is "array".
void wrap_scalars(const StepSite& site, const core::Json& schema, Params& params,
                  std::vector<StepRepair>& log);
// Fills absent params that have a "default" in the schema.
void fill_defaults(const StepSite& site, const core::Json& schema, Params& params,
                   std::vector<StepRepair>& log);
// time_bucket on the required time column: the requirements' explicit grain replaces the plan's
// (cyclic grains, month_of_year and day_of_week, are kept: they ask another question).
void apply_explicit_grain(const StepSite& site, const Requirements& requirements, Params& params,
                          std::vector<StepRepair>& log);

// The params naming columns of the step's input that `columns` lacks, other than by letter case
// (the tools repair casing themselves); empty when every column is there.
std::vector<ReplanRequest> missing_columns(const StepSite& site, const Params& params,
                                           const std::vector<data::Column>& columns);

}  // namespace planfirst::autoviz
