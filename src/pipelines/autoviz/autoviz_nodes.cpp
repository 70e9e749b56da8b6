#include "pipelines/autoviz/autoviz_nodes.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/ascii_case.hpp"
#include "core/join.hpp"
#include "data/dataset.hpp"
#include "data/schema_profile.hpp"
#include "data/table_profiler.hpp"
#include "graph/compiled_graph.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/planning/coverage_checker.hpp"
#include "pipelines/autoviz/report/run_artifacts.hpp"
#include "pipelines/autoviz/report/run_manifest.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/tools/step_executor.hpp"
#include "pipelines/autoviz/tools/tool_context.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;
using graph::Delta;
using graph::NodeContext;
using graph::StateView;

// A delta with `fields` and the node's reasoning line; workers never ask for input.
Delta step_delta(std::string_view step_name, std::string text, Json fields = Json::object()) {
  fields["reasoning"] = Json::array({Json{{"step_name", step_name}, {"step_text", std::move(text)}}});
  return graph::worker_delta(std::move(fields));
}

// The stage whose model server could not be reached, from the state's "strategies"; "" when none:
// the later stages of the run plan by the rules at once instead of waiting for it again.
std::string unreachable_stage(const StateView& state) {
  for (const Json& record : state.member_or_null("strategies")) {
    if (record.is_object() && record.value("unreachable", false)) return record.value("stage", "");
  }
  return {};
}

// A stage that planned by the rules without asking the model, as `unreachable_stage` found it.
void record_skipped_model(const AutovizServices& services, const std::string& unreachable,
                          StrategyRecord& strategy) {
  if (unreachable.empty() || services.model == nullptr) return;
  strategy.model = services.model->name();
  strategy.fallback = "not asked: the model's server could not be reached at the " + unreachable + " stage";
}

// A stage's strategy, in its reasoning line and the state's "strategies", once a model was asked:
// offline runs keep the delta they always had.
void record_strategy(std::string_view stage, const StrategyRecord& strategy, std::string& text,
                     Json& fields) {
  if (!strategy.asked_model()) return;
  text += " Strategy: " + strategy.describe() + ".";
  fields["strategies"] = Json::array({strategy.to_json(stage)});
}

core::Result<Requirements> state_requirements(const StateView& state) {
  return Requirements::from_json(state.member_or_null("requirements"));
}

core::Result<Plan> state_plan(const StateView& state) {
  return Plan::from_json(state.member_or_null("plan"));
}

core::Result<data::SchemaProfile> state_profile(const StateView& state) {
  return data::SchemaProfile::from_json(state.member_or_null("profile"));
}

// The base template the intent selected.
core::Result<const PlanTemplate*> state_template(const StateView& state, const AutovizServices& services) {
  const std::string template_name = state.member_or_null("intent").value("template", "");
  const PlanTemplate* base = services.templates.find(template_name);
  if (base == nullptr) return core::not_found("unknown template \"" + template_name + "\"", template_name);
  return base;
}

// The semantic repairs the last execution sent back ("totals.metrics = profit (metric)"), when the
// run came back to planning for them; empty otherwise.
std::string refused_repairs(const StateView& state) {
  if (state.string_or("outcome", "") != "replan") return {};
  std::string refused;
  for (const Json& request : state.member_or_null("replan").value("replan", Json::array())) {
    refused += (refused.empty() ? "" : ", ") + request.value("step_id", "") + "." +
               request.value("param", "") + " = " + request.value("value", "") + " (" +
               request.value("change", "") + ")";
  }
  return refused;
}

// Whether the run goes on to write its files (and so render its charts).
bool writes_files(const StateView& state) {
  return !state.bool_or("plan_only", false) && state.bool_or("write_files", true);
}

// The input's "outputs" (the outputs its caller always wants, e.g. a chart for nl2vis) joined to
// those the question asks for, in the contract's order; a label outside its set is refused.
core::Result<void> add_wanted_outputs(const StateView& state, const AutovizServices& services,
                                      Requirements& requirements) {
  const Json& wanted = state.member_or_null("outputs");
  if (wanted.is_null()) return core::ok();
  const std::vector<std::string>& known = services.output_labels;
  const std::string choices = "one of: " + core::join(known);
  if (!wanted.is_array())
    return core::invalid_argument("the input's outputs must be a list of labels, " + choices, "outputs");
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (!wanted[i].is_string() ||
        std::find(known.begin(), known.end(), wanted[i].get<std::string>()) == known.end()) {
      return core::invalid_argument(
          "the input's outputs[" + std::to_string(i) + "] is " + wanted[i].dump() + ", not " + choices,
          "outputs/" + std::to_string(i));
    }
  }
  std::vector<std::string> joined;
  for (const std::string& label : known) {
    const bool asked = std::find(requirements.outputs.begin(), requirements.outputs.end(), label) !=
                       requirements.outputs.end();
    if (asked || std::find(wanted.begin(), wanted.end(), label) != wanted.end()) joined.push_back(label);
  }
  requirements.outputs = std::move(joined);
  return core::ok();
}

}  // namespace

graph::NodeFunction profile_node(Services services) {
  return [services](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    if (writes_files(state)) services->artifacts->prepare();  // node starts while the run plans
    const std::string dataset = state.string_or("dataset", "");
    const std::string table = state.string_or("table", "");
    const std::optional<data::ProfileKey> key = services->profiles.key(dataset, table);
    std::optional<data::CachedProfile> profiled = key ? services->profiles.find(*key) : std::nullopt;
    const bool cached = profiled.has_value();
    if (!cached) {
      context.report_progress("profiling " + dataset);
      core::Result<data::DatasetLease> opened = services->datasets->acquire(dataset, table);
      if (!opened) return opened.error();
      core::Result<data::SchemaProfile> profile = data::profile_table(opened->db(), opened->table());
      if (!profile) return profile.error();
      profiled = data::CachedProfile{opened->table(), std::move(*profile)};
      if (key) services->profiles.store(*key, *profiled);
    }
    const data::SchemaProfile& profile = profiled->profile;
    if (profile.row_count == 0) {  // every plan would end in an empty result
      return core::invalid_argument(
          "table " + profiled->table + " has no rows, so there is nothing to analyse", dataset);
    }
    return step_delta("profile",
                      "Profiled " + profiled->table + ": " + std::to_string(profile.row_count) + " rows, " +
                          std::to_string(profile.columns.size()) + " columns" +
                          (cached ? " (the file is unchanged since it was last profiled)." : "."),
                      Json{{"profile", profile.to_json()}, {"table", profiled->table}});
  };
}

graph::NodeFunction intent_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<data::SchemaProfile> profile = state_profile(state);
    if (!profile) return profile.error();
    const std::string unreachable = unreachable_stage(state);
    core::Result<IntentChoice> choice =
        services->intent_classifier(unreachable.empty()).classify(state.string_or("question", ""), *profile);
    if (!choice) return choice.error();
    record_skipped_model(*services, unreachable, choice->strategy);
    Json intent = choice->to_json();
    intent["template"] = choice->template_name;
    intent["evidence"] = choice->evidence;
    std::string text = "Intent " + choice->intent + " (confidence " +
                       std::to_string(choice->confidence).substr(0, 4) + "), template " +
                       choice->template_name + ".";
    Json fields{{"intent", std::move(intent)}};
    record_strategy("intent", choice->strategy, text, fields);
    return step_delta("intent", std::move(text), std::move(fields));
  };
}

graph::NodeFunction requirements_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<data::SchemaProfile> profile = state_profile(state);
    if (!profile) return profile.error();
    const std::string unreachable = unreachable_stage(state);
    core::Result<ExtractedRequirements> extracted = services->requirement_extractor(unreachable.empty())
                                                        .extract(state.string_or("question", ""), *profile);
    if (!extracted) return extracted.error();
    record_skipped_model(*services, unreachable, extracted->strategy);
    if (core::Result<void> added = add_wanted_outputs(state, *services, extracted->requirements); !added) {
      return added.error();
    }
    Json json = extracted->requirements.to_json();
    std::string text = "Requirements: " + json.dump() + ".";
    Json fields{{"requirements", std::move(json)}};
    record_strategy("requirements", extracted->strategy, text, fields);
    return step_delta("requirements", std::move(text), std::move(fields));
  };
}

graph::NodeFunction narrow_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<Requirements> requirements = state_requirements(state);
    if (!requirements) return requirements.error();
    core::Result<const PlanTemplate*> base = state_template(state, *services);
    if (!base) return base.error();
    core::Result<std::vector<NarrowedTool>> tools = services->narrower->narrow(*requirements, **base);
    if (!tools) return tools.error();
    Json list = Json::array();
    std::string names;
    for (const NarrowedTool& tool : *tools) {
      list.push_back(tool.to_json());
      names += (names.empty() ? "" : ", ") + tool.tool + " (" + tool.source + ")";
    }
    return step_delta("narrow", "Tools: " + names + ".", Json{{"tools", std::move(list)}});
  };
}

graph::NodeFunction adapt_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<Requirements> requirements = state_requirements(state);
    if (!requirements) return requirements.error();
    core::Result<data::SchemaProfile> profile = state_profile(state);
    if (!profile) return profile.error();
    core::Result<const PlanTemplate*> base = state_template(state, *services);
    if (!base) return base.error();
    const Json& tools_before = state.member_or_null("tools");
    Json narrowed = tools_before.is_array() ? tools_before : Json::array();
    std::vector<std::string> allowed;
    for (const Json& tool : narrowed) allowed.push_back(tool.value("tool", ""));
    const std::string question = state.string_or("question", "");
    const std::string refused = refused_repairs(state);
    std::string feedback = state.string_or("retry_payload", "");  // what the model strategy is told
    if (!refused.empty()) {
      feedback += (feedback.empty() ? "" : "\n") +
                  ("Execution refused, as the step's input lacks the column: " + refused);
    }
    const std::string unreachable = unreachable_stage(state);
    core::Result<AdaptedPlan> adapted =
        services->plan_adapter(unreachable.empty())
            .adapt({question, *requirements, *profile, **base, allowed, feedback});
    if (!adapted) return adapted.error();
    record_skipped_model(*services, unreachable, adapted->strategy);
    for (const std::string& tool : adapted->discovered) {
      narrowed.push_back(NarrowedTool{tool, "discovery", 0, "needed by the plan"}.to_json());
    }
    std::string tools;
    for (const PlanStep& step : adapted->plan.steps) tools += (tools.empty() ? "" : " -> ") + step.tool;
    std::string text = "Plan: " + tools + ".";
    if (!refused.empty()) {
      text = "Planning again: execution refused " + refused + ". " + text;
      if (state.member_or_null("plan") == adapted->plan.to_json()) {
        text += adapted->strategy.strategy == "llm" ? " The model gives the same plan."
                                                    : " The rules give the same plan.";
      }
    }
    Json fields{{"plan", adapted->plan.to_json()},
                {"tools", std::move(narrowed)},
                {"planning_attempts", state.int_or("planning_attempts", 0) + 1}};
    if (adapted->strategy.asked_model()) {
      fields["adaptation"] = adapted->adaptation ? adapted->adaptation->to_json() : Json();
    }
    record_strategy("adapt", adapted->strategy, text, fields);
    return step_delta("adapt", std::move(text), std::move(fields));
  };
}

namespace {

// Runs `plan` on the leased dataset, a chart rendering while the later steps run.
ExecutionReport run_plan(const Services& services, const StateView& state, const NodeContext& context,
                         const Plan& plan, const Requirements& requirements,
                         const data::DatasetLease& dataset) {
  ToolContext tools(dataset.db(), dataset.table(), state.string_or("out_dir", "planfirst-out"));
  if (core::Result<data::SchemaProfile> profile = state_profile(state)) {
    adopt_profile_spans(tools, *profile);
  }
  const bool renders = writes_files(state);
  return services->executor->execute(
      plan, requirements, tools,
      [&context](const PlanStep& step) { context.report_progress("running " + step.step_id); },
      [&](const StepReport& step) {
        if (renders && !step.output->chart.empty()) services->artifacts->start_chart(step.output->chart);
      });
}

// What the state keeps of the charts and tables `execution` holds: when the run writes files, each
// chart spec and whole table is filed in `out_dir` and recorded as the run's with the steps' own
// files; the state keeps the files' names, the counts and the first rows the reports show, never
// whole tables or chart data.
core::Result<void> keep_references(const StateView& state, const std::string& out_dir, Json& execution) {
  if (!writes_files(state)) {
    keep_table_previews(execution);
    return core::ok();
  }
  core::Result<std::vector<std::filesystem::path>> filed = file_outputs(out_dir, execution);
  if (!filed) return filed.error();
  std::vector<std::filesystem::path> files;
  for (const Json& step : execution["steps"]) {
    for (const Json& file : step.value("files", Json::array())) {
      if (file.is_string()) files.emplace_back(file.get<std::string>());
    }
  }
  files.insert(files.end(), filed->begin(), filed->end());
  return record_run_files(out_dir, state.string_or("question", ""), files);
}

}  // namespace

graph::NodeFunction execute_node(Services services) {
  return [services](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    core::Result<Plan> plan = state_plan(state);
    if (!plan) return plan.error();
    core::Result<Requirements> requirements = state_requirements(state);
    if (!requirements) return requirements.error();
    core::Result<data::DatasetLease> dataset =
        services->datasets->acquire(state.string_or("dataset", ""), state.string_or("table", ""));
    if (!dataset) return dataset.error();
    const std::string out_dir = state.string_or("out_dir", "planfirst-out");
    std::string replaced;  // what became of the files a previous run left in out_dir
    if (writes_files(state)) {
      core::Result<PreviousRun> previous = clear_previous_run(out_dir);
      if (!previous) return previous.error();
      replaced = describe(*previous, out_dir);
      if (!replaced.empty()) context.report_progress(replaced);
    }
    const ExecutionReport report = run_plan(services, state, context, *plan, *requirements, *dataset);
    if (report.replan.empty()) dataset->retire();  // closes while the report is written
    Json execution = report.to_json();
    if (core::Result<void> kept = keep_references(state, out_dir, execution); !kept) return kept.error();
    Json fields{{"replan", nullptr}, {"outcome", "executed"}};
    fields["execution"] = std::move(execution);  // moved in: a braced list would copy every step
    std::string text = "Ran " + std::to_string(report.steps.size()) + " steps";
    if (report.repair_count() > 0)
      text += ", " + std::to_string(report.repair_count()) + " safe repairs logged";
    text += ".";
    if (!replaced.empty()) {
      replaced[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(replaced[0])));
      text += " " + replaced + ".";
    }
    if (const StepReport* failed = report.failed_step(); failed != nullptr) {
      text = failed->error ? failed->error->describe() : "Step " + failed->step_id + " failed.";
      const int attempts = state.int_or("planning_attempts", 0);
      if (!report.replan.empty() && attempts <= kMaxPlanningRetries) {
        fields["replan"] = report.replan_payload();
        fields["outcome"] = "replan";
        text += " Back to planning (attempt " + std::to_string(attempts + 1) + " of " +
                std::to_string(kMaxPlanningRetries + 1) + ").";
      } else {
        fields["outcome"] = "execution_failed";
        if (!report.replan.empty()) text += " No planning attempts left.";
      }
    }
    return step_delta("execute", std::move(text), std::move(fields));
  };
}

graph::NodeFunction report_node(Services services) {
  return [services](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    const std::string out_dir = state.string_or("out_dir", "planfirst-out");
    context.report_progress("writing the run's files to " + out_dir);
    core::Result<RunFiles> run = services->artifacts->write(out_dir, state.json());
    if (!run) return run.error();
    Json files = Json::array();
    for (const std::filesystem::path& file : run->files) files.push_back(file.string());
    std::string text = "The run's " + std::to_string(files.size()) + " files are in " + out_dir + ".";
    for (const std::string& notice : run->notices) text += " " + notice + ".";
    const std::string outcome =
        state.string_or("outcome", "") == "executed" ? "done" : state.string_or("outcome", "");
    return step_delta("report", std::move(text), Json{{"artifacts", std::move(files)}, {"outcome", outcome}});
  };
}

graph::NodeFunction coverage_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<Requirements> requirements = state_requirements(state);
    if (!requirements) return requirements.error();
    core::Result<Plan> plan = state_plan(state);
    if (!plan) return plan.error();
    const CoverageReport report =
        CoverageChecker(services->capabilities, services->tools).check(*requirements, *plan);
    const bool retry = !report.complete() && state.int_or("planning_attempts", 0) <= kMaxPlanningRetries;
    Json fields{{"coverage", report.to_json()}, {"retry_payload", report.retry_payload()}};
    if (!report.complete() && !retry) fields["outcome"] = "coverage_failed";
    return step_delta(
        "coverage",
        report.complete() ? "Every requirement is covered and every step justified." : report.retry_payload(),
        std::move(fields));
  };
}

graph::NodeFunction confirm_node() {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    Json fields{
        {"checkpoint_message", "Plan ready for " + state.string_or("question", "") + "\n" +
                                   state.member_or_null("coverage").value("retry_payload", "")},
        {"checkpoint_prompt", "Approve the plan? Answer 'approve', or say in plain words what to change."}};
    Delta delta = step_delta("confirm", "Waiting for the plan to be approved.", std::move(fields));
    delta.json()["requires_user_input"] = true;
    return delta;
  };
}

graph::NodeFunction review_node() {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    const Json& messages = state.member_or_null("messages");
    const std::string answer =
        messages.is_array() && !messages.empty() ? messages.back().value("content", "") : "";
    const std::string word = core::ascii_lower(answer);
    if (word == "approve" || word == "approved" || word == "yes" || word == "ok") {
      return step_delta("review", "Plan approved.", Json{{"confirmed", true}});
    }
    const std::string question = state.string_or("question", "") + " (" + answer + ")";
    return step_delta(
        "review", "Plan change requested: " + answer + "; planning again.",
        Json{{"confirmed", false}, {"question", question}, {"retry_payload", ""}, {"planning_attempts", 0}});
  };
}

graph::Router after_coverage() {
  return [](const StateView& state) -> core::Result<std::string> {
    const Json& coverage = state.member_or_null("coverage");
    if (!coverage.value("complete", false)) {
      return state.string_or("outcome", "") == "coverage_failed" ? std::string(graph::kEnd)
                                                                 : std::string("narrow");
    }
    if (state.bool_or("plan_only", false)) return std::string(graph::kEnd);
    return std::string(state.bool_or("confirm", false) && !state.bool_or("confirmed", false) ? "confirm"
                                                                                             : "execute");
  };
}

graph::Router after_review() {
  return [](const StateView& state) -> core::Result<std::string> {
    return std::string(state.bool_or("confirmed", false) ? "execute" : "requirements");
  };
}

graph::Router after_execute() {
  return [](const StateView& state) -> core::Result<std::string> {
    if (state.string_or("outcome", "") == "replan") return std::string("adapt");
    return state.bool_or("write_files", true) ? std::string("report") : std::string(graph::kEnd);
  };
}

}  // namespace planfirst::autoviz
