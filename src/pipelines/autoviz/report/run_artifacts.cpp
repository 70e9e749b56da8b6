#include "pipelines/autoviz/report/run_artifacts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/file_text.hpp"
#include "core/json_member.hpp"
#include "pipelines/autoviz/report/run_manifest.hpp"
#include "pipelines/autoviz/tools/tool_table_text.hpp"

namespace planfirst::autoviz {
namespace {

namespace fs = std::filesystem;
using core::Json;
using core::member_or_null;

// A step id as a file name: letters, digits, '-', '_' and '.' kept, anything else as '_'.
std::string file_stem(const std::string& step_id) {
  std::string stem;
  for (char c : step_id)
    stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  if (stem.empty() || stem.front() == '.') stem.insert(0, "step");
  return stem;
}

class FolderWriter {  // writes files atomically into one folder and remembers their paths
 public:
  explicit FolderWriter(fs::path dir) : dir_(std::move(dir)) {}

  core::Result<void> create() {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) return core::invalid_argument("cannot create the output folder: " + ec.message(), dir_.string());
    return core::ok();
  }

  core::Result<void> write(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    if (core::Result<void> written = core::write_file_atomically(path, bytes); !written) {
      return core::invalid_argument(written.error().message, written.error().where);
    }
    written_.push_back(path);
    return core::ok();
  }

  // Lists `name`, written earlier (by file_outputs), among this run's files at this point.
  void note(const std::string& name) { written_.push_back(dir_ / name); }

  const fs::path& dir() const { return dir_; }
  std::vector<fs::path> take() { return std::move(written_); }

 private:
  fs::path dir_;
  std::vector<fs::path> written_;
};

// A path the step wrote, relative to the output folder when it lies inside it.
std::string relative_name(const fs::path& file, const fs::path& dir) {
  const fs::path relative = file.lexically_normal().lexically_relative(dir.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") return file.generic_string();
  return relative.generic_string();
}

// "aggregate (template, score 0.467)", from a narrowed tool as the state holds it.
std::string tool_line(const Json& tool) {
  if (!tool.is_object()) return tool.dump();
  std::string line = tool.value("tool", std::string("?")) + " (" + tool.value("source", std::string("?"));
  if (const Json& score = member_or_null(tool, "score"); score.is_number())
    line += fmt::format(", score {:.3f}", score.get<double>());
  return line + ")";
}

// The text the SVG renderer is given for a chart as the state holds it: its compact dump, the text
// the tool gave and start_chart started.
std::string render_text(const Json& chart) {
  return chart.dump();
}

// The chart's Vega-Lite spec as its file holds it.
std::string spec_text(const Json& chart) {
  return chart.dump(2) + "\n";
}

// Writes the chart's spec (unless file_outputs already did: `written`) and its SVG.
core::Result<void> write_chart(FolderWriter& folder, const SvgRenderer& renderer, const std::string& stem,
                               const Json& chart, bool written, StepArtifacts& artifacts) {
  artifacts.chart_file = stem + ".vl.json";
  artifacts.spec = spec_text(chart);
  if (written) {
    folder.note(artifacts.chart_file);
  } else if (core::Result<void> spec = folder.write(artifacts.chart_file, artifacts.spec); !spec) {
    return spec;
  }
  core::Result<std::string> svg = renderer.render(render_text(chart));
  if (!svg) {
    artifacts.notices.push_back("SVG skipped: " + svg.error().message);
    return core::ok();
  }
  artifacts.svg_file = stem + ".svg";
  artifacts.svg = std::move(*svg);
  return folder.write(artifacts.svg_file, artifacts.svg);
}

// The chart a step filed during execution (its "chart_file"), read back; the pointer of the field
// at fault when the file is gone or not a spec.
core::Result<Json> filed_chart(const Json& step, std::size_t index, const fs::path& dir) {
  const std::string where = fmt::format("/execution/steps/{}/chart_file", index);
  const Json& name = member_or_null(step, "chart_file");
  if (!name.is_string()) return core::invalid_argument("not a file name", where);
  core::Result<std::string> text = core::read_file_text(dir / name.get<std::string>());
  if (!text) return core::invalid_argument("the chart's spec cannot be read: " + text.error().message, where);
  Json chart = Json::parse(*text, nullptr, false);
  if (chart.is_discarded()) return core::invalid_argument("the chart's spec is not JSON", where);
  return chart;
}

// The files a later step saved from `step`'s relation (save_table), relative to the folder.
std::vector<std::string> saved_by_later_step(const Json& steps, std::size_t index, const fs::path& dir) {
  const Json& relation = member_or_null(steps[index], "relation");
  std::vector<std::string> names;
  if (!relation.is_string() || relation.get<std::string>().empty()) return names;
  for (std::size_t i = index + 1; i < steps.size() && names.empty(); ++i) {
    if (member_or_null(steps[i], "input") != relation) continue;
    for (const Json& file : member_or_null(steps[i], "files")) {
      if (file.is_string()) names.push_back(relative_name(file.get<std::string>(), dir));
    }
  }
  return names;
}

// Step `index`'s table as a QueryResult (its rows as the state holds them), or the JSON pointer of
// the rows at fault.
core::Result<data::QueryResult> step_table(const Json& steps, std::size_t index) {
  const Json& step = steps[index];
  core::Result<data::QueryResult> table =
      data::QueryResult::from_json(member_or_null(step, "columns"), member_or_null(step, "table"));
  if (!table) {  // from_json names rows "/rows/..."; the state holds them under "table"
    std::string where = table.error().where;
    if (where.starts_with("/rows")) where.replace(0, 5, "/table");
    return core::invalid_argument(table.error().message, fmt::format("/execution/steps/{}{}", index, where));
  }
  return table;
}

// Whether step `index`'s whole table goes to <step>.csv and <step>.md: it wrote no files, no later
// step saved its relation, and it is whole (a truncated table is only shown, never filed as if
// complete).
bool files_own_table(const Json& steps, std::size_t index, const fs::path& dir) {
  const Json& step = steps[index];
  if (!member_or_null(step, "files").empty() || member_or_null(step, "truncated") == true) return false;
  return saved_by_later_step(steps, index, dir).empty();
}

// Writes <stem>.csv and <stem>.md of `table` and returns their names.
core::Result<std::vector<std::string>> write_table_files(FolderWriter& folder, const std::string& stem,
                                                         const data::QueryResult& table) {
  std::vector<std::string> names = {stem + ".csv", stem + ".md"};
  if (core::Result<void> csv = folder.write(names[0], table_to_csv(table)); !csv) return csv.error();
  if (core::Result<void> md = folder.write(names[1], table_to_markdown(table)); !md) return md.error();
  return names;
}

// The first kReportRows rows of a step's table as the state holds them, with its count of rows.
void keep_preview(Json& step) {
  Json& rows = step["table"];
  if (!step.contains("row_count") && member_or_null(step, "truncated") != true)
    step["row_count"] = rows.size();
  if (rows.size() > kReportRows) rows.erase(rows.begin() + kReportRows, rows.end());
}

// A step's chart and table into the folder. What file_outputs already filed ("chart_file",
// "table_files") is read back or kept; a state holding specs and whole tables has them filed here,
// by the same rule.
core::Result<StepArtifacts> write_step(FolderWriter& folder, const SvgRenderer& renderer, const Json& steps,
                                       std::size_t index) {
  const Json& step = steps[index];
  StepArtifacts artifacts;
  const std::string stem = file_stem(step.value("step_id", std::string()));
  for (const Json& file : member_or_null(step, "files")) {
    if (file.is_string()) artifacts.files.push_back(relative_name(file.get<std::string>(), folder.dir()));
  }
  if (const Json& chart = member_or_null(step, "chart"); !chart.is_null()) {
    if (core::Result<void> written = write_chart(folder, renderer, stem, chart, false, artifacts); !written)
      return written.error();
  } else if (step.contains("chart_file")) {
    core::Result<Json> filed = filed_chart(step, index, folder.dir());
    if (!filed) return filed.error();
    if (core::Result<void> written = write_chart(folder, renderer, stem, *filed, true, artifacts); !written)
      return written.error();
  }
  if (member_or_null(step, "table").is_null()) return artifacts;
  core::Result<data::QueryResult> table = step_table(steps, index);
  if (!table) return table.error();
  artifacts.table = std::move(*table);
  if (const Json& filed = member_or_null(step, "table_files"); filed.is_array()) {
    for (std::size_t i = 0; i < filed.size(); ++i) {
      if (!filed[i].is_string())
        return core::invalid_argument("not a file name",
                                      fmt::format("/execution/steps/{}/table_files/{}", index, i));
      artifacts.table_files.push_back(filed[i].get<std::string>());
      folder.note(artifacts.table_files.back());
    }
    if (artifacts.table_files.empty() && artifacts.files.empty() && member_or_null(step, "truncated") != true)
      artifacts.table_files = saved_by_later_step(steps, index, folder.dir());
    return artifacts;
  }
  if (!artifacts.files.empty() || member_or_null(step, "truncated") == true) return artifacts;
  artifacts.table_files = saved_by_later_step(steps, index, folder.dir());
  if (!artifacts.table_files.empty()) return artifacts;
  core::Result<std::vector<std::string>> names = write_table_files(folder, stem, *artifacts.table);
  if (!names) return names.error();
  artifacts.table_files = std::move(*names);
  return artifacts;
}

// `object` without the members named in `left_out`, copied member by member, so what is left out
// (a step's rows, the execution's steps) is never copied.
Json without(const Json& object, std::initializer_list<std::string_view> left_out) {
  Json kept = Json::object();
  for (const auto& [key, value] : object.items()) {
    if (std::find(left_out.begin(), left_out.end(), key) == left_out.end()) kept[key] = value;
  }
  return kept;
}

// The step as plan.json gives it: no rows, no spec; the files named relative to the folder.
Json plan_step(const Json& executed, const StepArtifacts& artifacts) {
  Json step = without(executed, {"table", "chart", "chart_file", "chart_points", "table_files",
                                 "row_count"});  // "rows" counts the rows
  if (executed.contains("table")) step["rows"] = executed.value("row_count", executed["table"].size());
  if (step.contains("files")) step["files"] = artifacts.files;
  if (!artifacts.chart_file.empty()) step["chart_file"] = artifacts.chart_file;
  if (!artifacts.svg_file.empty()) step["svg_file"] = artifacts.svg_file;
  if (!artifacts.table_files.empty()) step["table_files"] = artifacts.table_files;
  if (!artifacts.notices.empty()) step["notices"] = artifacts.notices;
  return step;
}

std::string plan_json(const Json& state, const std::vector<StepArtifacts>& artifacts,
                      const std::vector<std::string>& notices) {
  Json document = Json::object();
  for (const char* key : {"question", "dataset", "table", "intent", "requirements", "tools", "plan",
                          "adaptation", "coverage", "strategies"}) {
    if (state.contains(key)) document[key] = state[key];  // adaptation, strategies: when a model was asked
  }
  Json execution = member_or_null(state, "execution").is_object() ? without(state["execution"], {"steps"})
                                                                  : Json::object();
  Json steps = Json::array();
  Json repairs = Json::array();
  const Json& executed = member_or_null(member_or_null(state, "execution"), "steps");
  for (std::size_t i = 0; i < artifacts.size(); ++i) {
    steps.push_back(plan_step(executed[i], artifacts[i]));
    for (const Json& repair : member_or_null(executed[i], "repairs")) repairs.push_back(repair);
  }
  execution["steps"] = std::move(steps);
  document["execution"] = std::move(execution);
  document["repairs"] = std::move(repairs);
  document["notices"] = notices;
  return document.dump(2) + "\n";
}

std::string question_of(const Json& state) {
  const Json& question = member_or_null(state, "question");
  return question.is_string() ? question.get<std::string>() : std::string();
}

}  // namespace

core::Result<std::vector<fs::path>> file_outputs(const fs::path& output_dir, Json& execution) {
  Json& steps = execution["steps"];
  if (!steps.is_array()) return std::vector<fs::path>();
  FolderWriter folder(output_dir);
  if (core::Result<void> created = folder.create(); !created) return created.error();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Json& step = steps[i];
    if (!step.is_object()) continue;
    const std::string stem = file_stem(step.value("step_id", std::string()));
    if (const Json& chart = member_or_null(step, "chart"); !chart.is_null()) {
      const Json& values = member_or_null(member_or_null(chart, "data"), "values");
      if (core::Result<void> spec = folder.write(stem + ".vl.json", spec_text(chart)); !spec)
        return spec.error();
      step["chart_file"] = stem + ".vl.json";
      if (values.is_array()) step["chart_points"] = values.size();
      step.erase("chart");
    }
    if (member_or_null(step, "table").is_null() || step.contains("table_files")) continue;
    std::vector<std::string> names;
    if (files_own_table(steps, i, output_dir)) {
      core::Result<data::QueryResult> table = step_table(steps, i);
      if (!table) return table.error();
      core::Result<std::vector<std::string>> written = write_table_files(folder, stem, *table);
      if (!written) return written.error();
      names = std::move(*written);
    }
    keep_preview(step);
    step["table_files"] = std::move(names);
  }
  return folder.take();
}

void keep_table_previews(Json& execution) {
  if (!member_or_null(execution, "steps").is_array()) return;
  for (Json& step : execution["steps"]) {
    if (!step.is_object() || member_or_null(step, "table").is_null() || step.contains("table_files"))
      continue;
    keep_preview(step);
    step["table_files"] = Json::array();
  }
}

void RunArtifacts::start_chart(std::string_view chart) const {
  if (renderer_.available()) renderer_.start(std::string(chart));
}

core::Result<RunFiles> RunArtifacts::write(const fs::path& output_dir, const Json& state) const {
  core::Result<Requirements> requirements = Requirements::from_json(member_or_null(state, "requirements"));
  if (!requirements)
    return core::invalid_argument(requirements.error().message, "/requirements" + requirements.error().where);
  core::Result<CoverageReport> coverage = CoverageReport::from_json(member_or_null(state, "coverage"));
  if (!coverage)
    return core::invalid_argument(coverage.error().message, "/coverage" + coverage.error().where);
  FolderWriter folder(output_dir);
  if (core::Result<void> created = folder.create(); !created) return created.error();
  ReportContent content{state, std::move(*requirements), std::move(*coverage), {}, {}};
  for (const Json& tool : member_or_null(state, "tools")) content.tools.push_back(tool_line(tool));
  RunFiles run;
  const Json& steps = member_or_null(member_or_null(state, "execution"), "steps");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    core::Result<StepArtifacts> artifacts = write_step(folder, renderer_, steps, i);
    if (!artifacts) return artifacts.error();
    for (const Json& file : member_or_null(steps[i], "files")) {
      if (file.is_string()) run.files.emplace_back(file.get<std::string>());
    }
    for (const std::string& notice : artifacts->notices)
      run.notices.push_back(steps[i].value("step_id", "") + ": " + notice);
    content.steps.push_back(std::move(*artifacts));
  }
  if (core::Result<void> plan = folder.write("plan.json", plan_json(state, content.steps, run.notices));
      !plan) {
    return plan.error();
  }
  if (core::Result<void> md = folder.write("report.md", report_markdown(content)); !md) return md.error();
  core::Result<std::string> html = report_html(content, templates_);
  if (!html) return html.error();
  if (core::Result<void> page = folder.write("report.html", *html); !page) return page.error();
  for (fs::path& path : folder.take()) run.files.push_back(std::move(path));
  if (core::Result<void> recorded = record_run_files(output_dir, question_of(state), run.files); !recorded) {
    return core::invalid_argument(recorded.error().message, recorded.error().where);
  }
  return run;
}

}  // namespace planfirst::autoviz
