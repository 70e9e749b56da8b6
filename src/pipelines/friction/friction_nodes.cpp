#include "pipelines/friction/friction_nodes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/join.hpp"
#include "core/number_text.hpp"
#include "data/table_profiler.hpp"
#include "graph/compiled_graph.hpp"
#include "pipelines/friction/checkpoint_answer.hpp"
#include "pipelines/friction/column_mapping.hpp"
#include "pipelines/friction/contact_queries.hpp"
#include "pipelines/friction/driver_figures.hpp"
#include "pipelines/friction/friction_report.hpp"
#include "pipelines/friction/qa_answer.hpp"
#include "pipelines/friction/report_focus.hpp"

namespace planfirst::friction {
namespace {

using core::Json;
using graph::Delta;
using graph::NodeContext;
using graph::StateView;

constexpr int kSteps = 5;

std::string integer(std::int64_t n) {
  return core::format_integer(n, 1000);
}

// The state's object `key`, or an empty object when it is absent or not an object.
Json member_object(const StateView& state, std::string_view key) {
  const Json& value = state.member_or_null(key);
  return value.is_object() ? value : Json::object();
}

Json reasoning(std::string step_name, std::string step_text) {
  return Json::array({{{"step_name", std::move(step_name)}, {"step_text", std::move(step_text)}}});
}

Json task(const char* id, const char* title, const char* status) {
  return {{"id", id}, {"title", title}, {"status", status}};
}

// The fields every worker's delta carries (seed §2, §3): control, and no stale checkpoint.
Json worker_fields(const char* node, Json reasoning_lines, std::string next = "supervisor") {
  return {{"reasoning", std::move(reasoning_lines)},
          {"requires_user_input", false},
          {"checkpoint_message", ""},
          {"checkpoint_prompt", ""},
          {"next_agent", std::move(next)},
          {"last_completed_node", node}};
}

// A decision node's delta (seed §3): it asks, with a message and a prompt.
Json checkpoint_fields(const char* node, Json reasoning_lines, std::string message, std::string prompt) {
  return {{"reasoning", std::move(reasoning_lines)},
          {"requires_user_input", true},
          {"checkpoint_message", std::move(message)},
          {"checkpoint_prompt", std::move(prompt)},
          {"next_agent", "supervisor"},
          {"last_completed_node", node}};
}

core::Result<std::string> dataset_path(const StateView& state) {
  const std::string path = state.string_or("dataset_path", "");
  if (path.empty()) {
    return core::invalid_argument(
        "no dataset_path in the state: start the run with an input such as {\"dataset_path\": "
        "\"contacts.csv\"}",
        "/dataset_path");
  }
  return path;
}

std::filesystem::path output_dir(const StateView& state) {
  return std::filesystem::path(state.string_or("output_dir", kDefaultOutputDir));
}

const std::string* last_human_message(const StateView& state) {
  const Json& messages = state.member_or_null("messages");
  if (!messages.is_array() || messages.empty()) return nullptr;
  const Json& last = messages.back();
  if (last.value("role", "") != "human" || !last.contains("content") || !last["content"].is_string())
    return nullptr;
  return last["content"].get_ptr<const std::string*>();
}

std::string channel_list(const std::vector<std::pair<std::string, std::int64_t>>& channels,
                         std::int64_t total) {
  std::vector<std::string> parts;
  for (const auto& [name, n] : channels)
    parts.push_back(name + " " + percent(total > 0 ? static_cast<double>(n) / total : 0));
  return core::join(parts);
}

Json pairs_json(const std::vector<std::pair<std::string, std::int64_t>>& pairs, const char* name) {
  Json out = Json::array();
  for (const auto& [key, n] : pairs) out.push_back({{name, key}, {"contacts", n}});
  return out;
}

std::string date_part(const std::string& timestamp) {
  return timestamp.substr(0, 10);
}

// --- supervisor ---------------------------------------------------------------------------

std::string choose_next(const StateView& state) {
  const std::string* asked = last_human_message(state);
  if (state.bool_or("analysis_complete", false))
    return asked != nullptr ? "qa_agent" : std::string(graph::kEnd);
  switch (state.int_or("plan_steps_completed", 0)) {
    case 0: return "data_discovery";
    case 1: return "data_prep";
    case 2: return "friction";
    case 3: return "synthesizer";
    case 4: return state.bool_or("critique_enabled", false) ? "critique" : "reporting";
    default: return std::string(graph::kEnd);
  }
}

Json initial_plan() {
  Json delta = worker_fields("supervisor",
                             reasoning("Supervisor",
                                       "Planned 5 steps: discovery, preparation, friction analysis over 4 "
                                       "lenses, synthesis, reporting."),
                             "data_discovery");
  delta["plan_tasks"] =
      Json::array({task("1", "Data Discovery", "in_progress"), task("2", "Data Preparation", "todo"),
                   task("3", "Friction Analysis", "todo"), task("4", "Synthesis", "todo"),
                   task("5", "Reporting", "todo")});
  delta["plan_steps_total"] = kSteps;
  delta["plan_steps_completed"] = 0;
  return delta;
}

// The task a refusal leaves unfinished, by the step the run reached.
Json blocked_task(std::int64_t completed) {
  static const char* const kTitles[] = {"Data Discovery", "Data Preparation", "Friction Analysis",
                                        "Synthesis", "Reporting"};
  const std::int64_t index = std::clamp<std::int64_t>(completed, 0, kSteps - 1);
  return task(std::to_string(index + 1).c_str(), kTitles[index], "blocked");
}

// --- data_discovery -----------------------------------------------------------------------

Json columns_json(const data::SchemaProfile& profile) {
  Json out = Json::array();
  for (const data::ColumnProfile& c : profile.columns) {
    out.push_back({{"name", c.name},
                   {"type", std::string(data::to_string(c.type))},
                   {"role", std::string(data::to_string(c.role))}});
  }
  return out;
}

core::Result<std::map<std::string, std::string>> overrides(const StateView& state) {
  std::map<std::string, std::string> out;
  const Json& columns = state.member_or_null("columns");
  if (columns.is_null()) return out;
  if (!columns.is_object())
    return core::invalid_argument("columns must map fields to column names", "/columns");
  for (const auto& [role, column] : columns.items()) {
    if (!column.is_string()) return core::invalid_argument("expected a column name", "/columns/" + role);
    out[role] = column.get<std::string>();
  }
  return out;
}

std::string mapping_line(const ColumnMapping& mapping, const FrictionRules& rules) {
  std::vector<std::string> parts;
  for (const ColumnRole& role : rules.roles) {
    if (const std::string* column = mapping.column(role.role)) parts.push_back(role.title + " = " + *column);
  }
  return core::join(parts);
}

core::Result<Delta> discover(const FrictionServices& services, const StateView& state,
                             const NodeContext& ctx) {
  core::Result<std::string> path = dataset_path(state);
  if (!path) return path.error();
  ctx.report_progress("profiling " + *path);
  core::Result<data::DatasetLease> opened = services.datasets->acquire(*path);
  if (!opened) return opened.error();
  core::Result<data::SchemaProfile> profile = data::profile_table(opened->db(), opened->table());
  if (!profile) return profile.error();
  core::Result<std::map<std::string, std::string>> chosen = overrides(state);
  if (!chosen) return chosen.error();
  core::Result<ColumnMapping> mapping = map_columns(*profile, services.rules, *chosen);
  if (!mapping) {
    core::Error error = mapping.error();
    error.message = *path + ": " + error.message;
    return error;
  }
  core::Result<TableFacts> facts = table_facts(opened->db(), opened->table(), *mapping);
  if (!facts) return facts.error();
  choose_handle_time_unit(*mapping, services.rules, facts->median_handle_time);

  const std::string period = date_part(facts->period_from) + " to " + date_part(facts->period_to);
  const std::string scope =
      fmt::format("{} contacts, {} channels ({}), {}", integer(facts->rows), facts->channels.size(),
                  channel_list(facts->channels, facts->rows), period);
  const std::string columns = mapping_line(*mapping, services.rules);
  Json delta = checkpoint_fields(
      "data_discovery",
      reasoning("Data Discovery Agent",
                fmt::format("Profiled {} with DuckDB: {}. Key columns: {}; handle time in {} ({}).",
                            std::filesystem::path(*path).filename().string(), scope, columns,
                            mapping->handle_time_unit, mapping->handle_time_unit_reason)),
      fmt::format("**Data Discovery Complete**\nScope: {}.\nColumns: {}.", scope, columns),
      "Confirm scope and columns?");
  delta["plan_tasks"] =
      Json::array({task("1", "Data Discovery", "done"), task("2", "Data Preparation", "in_progress")});
  delta["plan_steps_completed"] = 1;
  delta["dataset"] = {{"path", *path},
                      {"table", opened->table()},
                      {"row_count", facts->rows},
                      {"columns", columns_json(*profile)},
                      {"mapping", mapping->to_json()},
                      {"period", {{"from", facts->period_from}, {"to", facts->period_to}}},
                      {"channels", pairs_json(facts->channels, "channel")}};
  delta["checkpoint_message"] = delta["checkpoint_message"].get<std::string>() + "\n" +
                                answer_help("data_discovery", services.rules, delta["dataset"]);
  return Delta(std::move(delta));
}

// --- data_prep ----------------------------------------------------------------------------

core::Result<Delta> prepare(const FrictionServices& services, const StateView& state,
                            const NodeContext& ctx) {
  core::Result<std::string> path = dataset_path(state);
  if (!path) return path.error();
  const Json& dataset = state.member_or_null("dataset");
  if (!dataset.is_object())
    return core::failed_precondition("data_prep needs data_discovery's dataset", "/dataset");
  core::Result<ColumnMapping> mapping = ColumnMapping::from_json(dataset.value("mapping", Json::object()));
  if (!mapping) return mapping.error();
  core::Result<PrepFilters> filters = PrepFilters::from_json(state.member_or_null("filters"));
  if (!filters) return filters.error();
  ctx.report_progress("preparing contacts from " + *path);
  core::Result<data::DatasetLease> opened = services.datasets->acquire(*path, dataset.value("table", ""));
  if (!opened) return opened.error();
  const std::filesystem::path parquet = output_dir(state) / "prepared" / "contacts.parquet";
  core::Result<PrepSummary> summary =
      prepare_contacts(opened->db(), opened->table(), *mapping, services.rules, *filters, parquet);
  if (!summary) return summary.error();

  const std::int64_t kept = summary->rows_kept;
  Json lenses = Json::array();
  std::vector<std::string> buckets;
  for (const auto& [lens_name, n] : summary->lens_contacts) {
    const Lens* lens = services.rules.lens(lens_name);
    lenses.push_back({{"lens", lens_name}, {"title", lens->title}, {"contacts", n}});
    buckets.push_back(
        fmt::format("{} {} ({})", lens->title, integer(n), percent(static_cast<double>(n) / kept)));
  }
  buckets.push_back(fmt::format("unattributed {} ({})", integer(summary->unclassified),
                                percent(static_cast<double>(summary->unclassified) / kept)));
  const std::int64_t dropped = summary->rows_in - kept;
  const std::string filter_text = filters->to_json().empty() ? "none" : filters->to_json().dump();
  const std::string kept_text = fmt::format(
      "Kept {} of {} contacts ({} dropped: {} without an id, {} without a readable timestamp, {} without a "
      "handle "
      "time, {} outside the filters), {} to {}",
      integer(kept), integer(summary->rows_in), integer(dropped), integer(summary->missing_id),
      integer(summary->bad_timestamp), integer(summary->bad_handle_time), integer(summary->outside_filters),
      date_part(summary->period_from), date_part(summary->period_to));
  Json delta = checkpoint_fields(
      "data_prep",
      reasoning("Data Preparation Agent", fmt::format("{}. Buckets by lens: {}. Filters: {}.", kept_text,
                                                      core::join(buckets), filter_text)),
      fmt::format("**Data Preparation Complete**\n{}.\nBuckets: {}.\nFilters: {}.\n{}", kept_text,
                  core::join(buckets), filter_text, answer_help("data_prep", services.rules, dataset)),
      "Confirm buckets and filters?");
  delta["plan_tasks"] =
      Json::array({task("2", "Data Preparation", "done"), task("3", "Friction Analysis", "in_progress")});
  delta["plan_steps_completed"] = 2;
  delta["prep"] = {{"prepared_path", parquet.string()},
                   {"filters", filters->to_json()},
                   {"rows_in", summary->rows_in},
                   {"missing_id", summary->missing_id},
                   {"bad_timestamp", summary->bad_timestamp},
                   {"bad_handle_time", summary->bad_handle_time},
                   {"outside_filters", summary->outside_filters},
                   {"rows_kept", kept},
                   {"unattributed", summary->unclassified},
                   {"period_from", summary->period_from},
                   {"period_to", summary->period_to},
                   {"lenses", std::move(lenses)},
                   {"channels", pairs_json(summary->channels, "channel")}};
  return Delta(std::move(delta));
}

core::Result<std::filesystem::path> prepared_path(const StateView& state, const char* node) {
  const Json& prep = state.member_or_null("prep");
  if (!prep.is_object() || !prep.contains("prepared_path")) {
    return core::failed_precondition(std::string(node) + " needs data_prep's prepared contacts", "/prep");
  }
  return std::filesystem::path(prep["prepared_path"].get<std::string>());
}

std::int64_t total_contacts(const StateView& state) {
  return member_object(state, "prep").value("rows_kept", std::int64_t{0});
}

// --- friction (fan-out over the lenses) -----------------------------------------------------

core::Result<Delta> run_lens(const FrictionServices& services, const StateView& state,
                             const NodeContext& ctx) {
  const Json& input = ctx.branch_input->json();
  const Lens* lens = services.rules.lens(input.value("lens", ""));
  if (lens == nullptr) return core::invalid_argument("unknown lens", input.dump());
  core::Result<std::filesystem::path> parquet = prepared_path(state, "friction");
  if (!parquet) return parquet.error();
  core::Result<std::vector<DriverFigures>> drivers = lens_drivers(*parquet, *lens);
  if (!drivers) return drivers.error();
  const std::int64_t total = total_contacts(state);
  std::int64_t contacts = 0;
  Json figures = Json::array();
  for (const DriverFigures& d : *drivers) {
    contacts += d.contacts;
    figures.push_back(d.to_json(total));
  }
  std::string text = fmt::format("{} drivers, {} contacts ({} of all).", drivers->size(), integer(contacts),
                                 percent(total > 0 ? static_cast<double>(contacts) / total : 0));
  if (!drivers->empty()) {
    const DriverFigures& largest =
        *std::max_element(drivers->begin(), drivers->end(), [](const auto& a, const auto& b) {
          return a.contacts != b.contacts ? a.contacts < b.contacts : a.id > b.id;
        });
    text += fmt::format(
        " Largest: {} with {} contacts ({} of all), repeat rate {}, average handle {:.1f} min, transfer rate "
        "{}.",
        largest.label, integer(largest.contacts), percent(largest.share(total)),
        percent(largest.repeat_rate()), largest.avg_handle_minutes(), percent(largest.transfer_rate()));
  }
  return Delta(Json{{"reasoning", reasoning("Friction Agent: " + lens->title, text)},
                    {"friction_findings", Json::array({{{"id", lens->id},
                                                        {"lens", lens->lens},
                                                        {"title", lens->title},
                                                        {"contacts", contacts},
                                                        {"drivers", std::move(figures)}}})}});
}

// --- synthesizer --------------------------------------------------------------------------

core::Result<std::vector<DriverFigures>> findings_drivers(const StateView& state) {
  std::vector<DriverFigures> drivers;
  const Json& findings = state.member_or_null("friction_findings");
  if (!findings.is_array() || findings.empty()) {
    return core::failed_precondition("synthesizer needs the friction sub-agents' findings",
                                     "/friction_findings");
  }
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Json& list = findings[i].value("drivers", Json::array());
    for (std::size_t j = 0; j < list.size(); ++j) {
      core::Result<DriverFigures> d = DriverFigures::from_json(
          list[j], "/friction_findings/" + std::to_string(i) + "/drivers/" + std::to_string(j));
      if (!d) return d.error();
      drivers.push_back(std::move(*d));
    }
  }
  return drivers;
}

core::Result<Delta> synthesize(const FrictionServices& services, const StateView& state, const NodeContext&) {
  core::Result<std::vector<DriverFigures>> drivers = findings_drivers(state);
  if (!drivers) return drivers.error();
  if (drivers->empty())
    return core::failed_precondition("no contact matched any driver of the lenses", "/friction_findings");
  rank_drivers(*drivers);
  const std::int64_t total = total_contacts(state);
  std::int64_t friction = 0;  // contacts some driver matched: the total friction
  for (const DriverFigures& d : *drivers) friction += d.contacts;
  std::vector<std::pair<const Lens*, std::int64_t>> lens_totals;
  for (const Lens& lens : services.rules.lenses) {
    std::int64_t n = 0;
    for (const DriverFigures& d : *drivers) n += d.lens == lens.lens ? d.contacts : 0;
    lens_totals.emplace_back(&lens, n);
  }
  std::vector<std::pair<const Lens*, std::int64_t>> by_size = lens_totals;
  std::stable_sort(by_size.begin(), by_size.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  by_size.resize(std::min<std::size_t>(2, by_size.size()));  // the two largest lenses
  std::int64_t top_two = 0;
  std::vector<std::string> top_titles;
  for (const auto& [lens, n] : by_size) {
    top_two += n;
    top_titles.push_back(lens->title);
  }
  const double top_two_share = friction > 0 ? static_cast<double>(top_two) / friction : 0;
  const std::string pair = core::join(top_titles, " + ");
  core::Result<ReportFocus> focus = ReportFocus::from_json(state.member_or_null("focus"));
  if (!focus) return focus.error();
  const std::vector<DriverFigures> shown = focus->select(*drivers);
  if (shown.empty())
    return core::failed_precondition("the report's focus keeps no driver of this analysis", "/focus");
  const DriverFigures& top = drivers->front();
  const DriverFigures& lead = shown.front();  // the report's first driver
  Json report_drivers = Json::array();
  std::vector<std::string> shown_labels;
  for (const DriverFigures& d : shown) {
    report_drivers.push_back(d.id);
    shown_labels.push_back(fmt::format("{} ({})", d.label, one_decimal(d.score)));
  }
  const std::string focus_line = focus->empty() ? std::string()
                                                : fmt::format("\nReport focus: {}: {} of {} drivers: {}.",
                                                              focus->describe(services.rules), shown.size(),
                                                              drivers->size(), core::join(shown_labels));

  Json lenses = Json::array();
  for (const auto& [lens, n] : lens_totals) {
    lenses.push_back({{"lens", lens->lens},
                      {"title", lens->title},
                      {"contacts", n},
                      {"share", total > 0 ? static_cast<double>(n) / total : 0}});
  }
  Json ranked = Json::array();
  for (const DriverFigures& d : *drivers) ranked.push_back(d.to_json(total));
  const std::string headline =
      fmt::format("Top driver{}: {} (Impact x Ease: {}), {} contacts, {} of all contacts, repeat rate {}.",
                  focus->empty() ? "" : " of the focus (" + focus->describe(services.rules) + ")", lead.label,
                  one_decimal(lead.score), integer(lead.contacts), percent(lead.share(total)),
                  percent(lead.repeat_rate()));
  const std::string lens_line =
      fmt::format("{} = {} of total friction ({} contacts matched a driver, of {} analysed).", pair,
                  percent(top_two_share), integer(friction), integer(total));
  Json delta = checkpoint_fields(
      "synthesizer",
      reasoning(
          "Synthesizer Agent",
          fmt::format(
              "Merging {} agent outputs. Top driver: '{}' (Impact x Ease: {}). {} = {} of total friction.",
              services.rules.lenses.size(), top.label, one_decimal(top.score), pair, percent(top_two_share))),
      fmt::format("**Synthesis Complete**\nDominant driver: **{}** (Impact x Ease: {}). `{}` -> {} of total "
                  "friction.\n"
                  "Impact x Ease: {}.{}\n{}",
                  top.label, one_decimal(top.score), pair, percent(top_two_share), kImpactEaseFormula,
                  focus_line, answer_help("synthesizer", services.rules, Json::object())),
      "Proceed to Report Generation?");
  delta["plan_tasks"] =
      Json::array({task("3", "Friction Analysis", "done"), task("4", "Synthesis", "in_progress")});
  delta["plan_steps_completed"] = 4;
  delta["synthesis"] = {{"total_contacts", total},
                        {"formula", kImpactEaseFormula},
                        {"drivers", std::move(ranked)},
                        {"lenses", std::move(lenses)},
                        {"top_driver", lead.id},
                        {"headline", headline},
                        {"lens_line", lens_line},
                        {"focus", focus->to_json()},
                        {"report_drivers", std::move(report_drivers)}};
  return Delta(std::move(delta));
}

core::Result<std::vector<DriverFigures>> ranked_drivers(const StateView& state) {
  const Json list = member_object(state, "synthesis").value("drivers", Json::array());
  if (list.empty())
    return core::failed_precondition("the synthesizer's ranking is missing", "/synthesis/drivers");
  std::vector<DriverFigures> drivers;
  for (std::size_t i = 0; i < list.size(); ++i) {
    core::Result<DriverFigures> d =
        DriverFigures::from_json(list[i], "/synthesis/drivers/" + std::to_string(i));
    if (!d) return d.error();
    drivers.push_back(std::move(*d));
  }
  return drivers;
}

// The ranked drivers the synthesis chose for the report (synthesis.report_drivers), in rank order; all
// of them when it names none.
std::vector<DriverFigures> report_drivers(std::vector<DriverFigures> ranked, const Json& synthesis) {
  const Json ids = synthesis.value("report_drivers", Json::array());
  if (ids.empty()) return ranked;
  std::vector<DriverFigures> kept;
  for (DriverFigures& d : ranked) {
    if (std::find(ids.begin(), ids.end(), Json(d.id)) != ids.end()) kept.push_back(std::move(d));
  }
  return kept;
}

// --- critique -----------------------------------------------------------------------------

core::Result<std::string> check_claims(const StateView& state) {
  core::Result<std::filesystem::path> parquet = prepared_path(state, "critique");
  if (!parquet) return parquet.error();
  core::Result<std::vector<DriverFigures>> drivers = ranked_drivers(state);
  if (!drivers) return drivers.error();
  int checked = 0;
  std::vector<std::string> failed;
  core::Result<Recount> recount = recount_drivers(*parquet);
  if (!recount) return recount.error();
  const std::int64_t total = recount->contacts;
  ++checked;
  if (total != total_contacts(state)) {
    failed.push_back(fmt::format("total contacts: claimed {}, data {}", total_contacts(state), total));
  }
  std::int64_t attributed = 0;
  for (const DriverFigures& d : *drivers) {
    const DriverFigures data = recount->driver(d.id);
    attributed += d.contacts;
    for (auto [name, claimed, actual] : {std::tuple{"contacts", d.contacts, data.contacts},
                                         {"repeats", d.repeats, data.repeats},
                                         {"transferred", d.transferred, data.transferred},
                                         {"resolved", d.resolved, data.resolved},
                                         {"handle seconds", d.handle_seconds, data.handle_seconds}}) {
      ++checked;
      if (claimed != actual)
        failed.push_back(fmt::format("{} {}: claimed {}, data {}", d.label, name, claimed, actual));
    }
  }
  ++checked;
  const std::int64_t unattributed = member_object(state, "prep").value("unattributed", std::int64_t{0});
  if (attributed + unattributed != total) {
    failed.push_back(fmt::format("drivers + unattributed = {}, data {}", attributed + unattributed, total));
  }
  ++checked;
  for (std::size_t i = 1; i < drivers->size(); ++i) {
    if ((*drivers)[i].score > (*drivers)[i - 1].score) {
      failed.push_back("ranking: " + (*drivers)[i].label + " outscores the driver ranked above it");
      break;
    }
  }
  if (failed.empty()) {
    return fmt::format("Checked {} claims of the synthesis against the prepared data with SQL: all hold.",
                       checked);
  }
  return fmt::format("Checked {} claims against the prepared data: {} do not hold: {}.", checked,
                     failed.size(), core::join(failed, "; "));
}

const Json* critique_line(const StateView& state) {
  const Json& lines = state.member_or_null("reasoning");
  if (!lines.is_array()) return nullptr;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (it->value("step_name", "") == "Critique Agent") return &(*it)["step_text"];
  }
  return nullptr;
}

// --- reporting ----------------------------------------------------------------------------

core::Result<Delta> report(const FrictionServices& services, const StateView& state, const NodeContext& ctx) {
  core::Result<std::filesystem::path> parquet = prepared_path(state, "reporting");
  if (!parquet) return parquet.error();
  ReportInput input;
  input.dataset_path = state.string_or("dataset_path", "");
  input.total_contacts = total_contacts(state);
  core::Result<std::vector<DriverFigures>> drivers = ranked_drivers(state);
  if (!drivers) return drivers.error();
  input.drivers = report_drivers(std::move(*drivers), member_object(state, "synthesis"));
  input.dataset = member_object(state, "dataset");
  input.prep = member_object(state, "prep");
  input.synthesis = member_object(state, "synthesis");
  if (state.bool_or("critique_enabled", false)) {
    if (const Json* line = critique_line(state)) input.critique = line->get<std::string>();
  }
  core::Result<std::vector<MonthCount>> months = monthly_lens_contacts(*parquet);
  if (!months) return months.error();
  input.months = std::move(*months);
  ctx.report_progress("writing the report");
  core::Result<ReportFiles> files =
      write_report(output_dir(state), input, services.assets, services.renderer.get());
  if (!files) return files.error();

  Json charts = Json::array();
  for (const std::filesystem::path& chart : files->charts) charts.push_back(chart.string());
  const DriverFigures& top = input.drivers.front();
  const std::string done = fmt::format(
      "Analysis complete. Dominant friction driver: {} (Impact x Ease {}). Report: {}; drivers: {}.",
      top.label, one_decimal(top.score), files->report.string(), files->drivers.string());
  Json delta = worker_fields(
      "reporting",
      reasoning("Reporting Agent",
                fmt::format("Wrote the friction report ({} drivers, {} charts) and the drivers CSV.",
                            input.drivers.size(), files->charts.size())));
  delta["plan_tasks"] = Json::array({task("4", "Synthesis", "done"), task("5", "Reporting", "done")});
  delta["plan_steps_completed"] = kSteps;
  delta["messages"] = Json::array({{{"role", "ai"}, {"content", done}}});
  delta["analysis_complete"] = true;
  delta["phase"] = "qa";
  delta["report_file_path"] = files->report.string();
  delta["data_file_path"] = files->drivers.string();
  delta["artifacts"] = {{"report", files->report.string()},
                        {"drivers_csv", files->drivers.string()},
                        {"charts", std::move(charts)},
                        {"notices", files->notices}};
  return Delta(std::move(delta));
}

}  // namespace

bool is_refusal(std::string_view answer) {
  std::string word;
  for (char c : answer) {
    if (std::isalpha(static_cast<unsigned char>(c)) == 0) break;
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (const char* refusal : {"no", "stop", "cancel", "reject", "abort"}) {
    if (word == refusal) return true;
  }
  return false;
}

graph::NodeFunction supervisor_node(Services) {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    if (!state.has("plan_tasks")) return Delta(initial_plan());
    const std::int64_t completed = state.int_or("plan_steps_completed", 0);
    const std::string* answer = last_human_message(state);
    if (!state.bool_or("analysis_complete", false) && answer != nullptr && is_refusal(*answer)) {
      Json delta = worker_fields(
          "supervisor",
          reasoning("Supervisor", fmt::format("Stopped after step {} of {}: the answer was \"{}\".",
                                              completed, kSteps, *answer)),
          std::string(graph::kEnd));
      delta["plan_tasks"] = Json::array({blocked_task(completed)});
      delta["messages"] = Json::array(
          {{{"role", "ai"},
            {"content", fmt::format("Stopped at your answer after step {} of {}.", completed, kSteps)}}});
      return Delta(std::move(delta));
    }
    const std::string next = choose_next(state);
    return Delta(
        worker_fields("supervisor",
                      reasoning("Supervisor", fmt::format("Step {} of {} done; routing to {}.", completed,
                                                          state.int_or("plan_steps_total", kSteps), next)),
                      next));
  };
}

graph::NodeFunction data_discovery_node(Services services) {
  return
      [services](const StateView& state, const NodeContext& ctx) { return discover(*services, state, ctx); };
}

graph::NodeFunction data_prep_node(Services services) {
  return
      [services](const StateView& state, const NodeContext& ctx) { return prepare(*services, state, ctx); };
}

graph::FanOutSpec friction_fan_out(Services services) {
  graph::FanOutSpec spec;
  spec.name = "friction";
  spec.writes = {"plan_tasks", "plan_steps_completed", "friction_findings"};
  spec.plan = [services](const StateView&,
                         const NodeContext&) -> core::Result<std::vector<graph::JsonValue>> {
    std::vector<graph::JsonValue> inputs;
    for (const Lens& lens : services->rules.lenses) {
      inputs.emplace_back(Json{{"id", lens.id}, {"lens", lens.lens}, {"title", lens.title}});
    }
    return inputs;
  };
  spec.branch = [services](const StateView& state, const NodeContext& ctx) {
    return run_lens(*services, state, ctx);
  };
  spec.combine = [services](const StateView&, const std::vector<graph::BranchOutcome>& outcomes,
                            const NodeContext&) -> core::Result<Delta> {
    Json sub_agents = Json::array();
    int failed = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      Json agent{{"id", outcomes[i].name}, {"status", outcomes[i].error ? "blocked" : "done"}};
      if (i < services->rules.lenses.size()) agent["title"] = services->rules.lenses[i].title;
      if (outcomes[i].error) {
        agent["summary"] = outcomes[i].error->describe();
        ++failed;
      }
      sub_agents.push_back(std::move(agent));
    }
    if (failed > 0) {
      return core::internal_error(fmt::format("{} of {} lens sub-agents failed", failed, outcomes.size()),
                                  "friction");
    }
    Json delta = worker_fields(
        "friction",
        reasoning(
            "Friction Orchestrator",
            fmt::format(
                "Collected {} lens sub-agents' drivers, each computed with SQL on the prepared contacts.",
                outcomes.size())),
        "synthesizer");
    Json analysis = task("3", "Friction Analysis", "in_progress");
    analysis["sub_agents"] = std::move(sub_agents);
    delta["plan_tasks"] = Json::array({std::move(analysis)});
    delta["plan_steps_completed"] = 3;
    return Delta(std::move(delta));
  };
  return spec;
}

graph::NodeFunction synthesizer_node(Services services) {
  return [services](const StateView& state, const NodeContext& ctx) {
    return synthesize(*services, state, ctx);
  };
}

graph::NodeFunction critique_node(Services) {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<std::string> verdict = check_claims(state);
    if (!verdict) return verdict.error();
    return Delta(worker_fields("critique", reasoning("Critique Agent", *verdict), "reporting"));
  };
}

graph::NodeFunction reporting_node(Services services) {
  return [services](const StateView& state, const NodeContext& ctx) { return report(*services, state, ctx); };
}

graph::NodeFunction qa_agent_node(Services) {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    const std::string* question = last_human_message(state);
    const std::string drivers =
        member_object(state, "artifacts").value("drivers_csv", state.string_or("data_file_path", ""));
    if (question == nullptr || drivers.empty()) {
      return core::failed_precondition("qa_agent needs a finished analysis and a question", "/messages");
    }
    core::Result<QaAnswer> answer =
        answer_question(*question, drivers, state.string_or("report_file_path", ""));
    if (!answer) return answer.error();
    Json delta = worker_fields("qa_agent", reasoning("QA Agent", "Answered from " + drivers + "."));
    delta["messages"] = Json::array({{{"role", "ai"}, {"content", answer->text}}});
    return Delta(std::move(delta));
  };
}

}  // namespace planfirst::friction
