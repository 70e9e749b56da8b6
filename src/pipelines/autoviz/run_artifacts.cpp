#include "pipelines/autoviz/run_artifacts.hpp"

#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "pipelines/autoviz/report_writer.hpp"
#include "pipelines/autoviz/svg_renderer.hpp"
#include "pipelines/autoviz/tool_table_text.hpp"

namespace planfirst::autoviz {
namespace {

namespace fs = std::filesystem;
using core::Json;

// A step id as a file name: letters, digits, '-', '_' and '.' kept, anything else as '_'.
std::string file_stem(const std::string& step_id) {
  std::string stem;
  for (char c : step_id) stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
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
    const fs::path temp = dir_ / ("." + name + ".tmp-" + std::to_string(::getpid()));
    {
      std::ofstream out(temp, std::ios::binary | std::ios::trunc);
      out << bytes;
      out.close();
      if (!out) return fail(temp, path, "cannot write");
    }
    std::error_code ec;
    fs::rename(temp, path, ec);
    if (ec) return fail(temp, path, "cannot rename into place: " + ec.message());
    written_.push_back(path);
    return core::ok();
  }

  const fs::path& dir() const { return dir_; }
  std::vector<fs::path> take() { return std::move(written_); }

 private:
  static core::Error fail(const fs::path& temp, const fs::path& path, const std::string& why) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return core::invalid_argument(why, path.string());
  }

  fs::path dir_;
  std::vector<fs::path> written_;
};

// A path the step wrote, relative to the output folder when it lies inside it.
std::string relative_name(const fs::path& file, const fs::path& dir) {
  const fs::path relative = file.lexically_normal().lexically_relative(dir.lexically_normal());
  if (file.is_relative() || relative.empty() || *relative.begin() == "..") return file.generic_string();
  return relative.generic_string();
}

core::Result<Json> parse_tools(const std::string& text) {
  if (text.empty()) return Json::array();
  Json tools = Json::parse(text, nullptr, false);
  if (!tools.is_array()) return core::invalid_argument("not a JSON array", "considered_tools");
  return tools;
}

std::string tool_line(const Json& tool) {
  if (!tool.is_object()) return tool.dump();
  std::string line = tool.value("tool", tool.value("name", std::string("?")));
  if (tool.contains("score")) line += " (score " + tool.at("score").dump();
  else line += " (";
  if (const auto sources = tool.find("sources"); sources != tool.end() && sources->is_array()) {
    std::string names;
    for (const Json& source : *sources) names += (names.empty() ? "" : ", ") + (source.is_string() ? source.get<std::string>() : source.dump());
    line += (tool.contains("score") ? "; " : "") + names;
  }
  return line + ")";
}

core::Result<void> write_chart(FolderWriter& folder, const SvgRenderer& renderer, const StepRecord& step,
                               StepArtifacts& artifacts) {
  const std::string stem = file_stem(step.step_id);
  artifacts.chart_file = stem + ".vl.json";
  if (core::Result<void> spec = folder.write(artifacts.chart_file, step.output.chart); !spec) return spec;
  core::Result<std::string> svg = renderer.render(step.output.chart);
  if (!svg) {
    artifacts.notices.push_back("SVG skipped: " + svg.error().message);
    return core::ok();
  }
  artifacts.svg_file = stem + ".svg";
  artifacts.svg = std::move(*svg);
  return folder.write(artifacts.svg_file, artifacts.svg);
}

core::Result<void> write_table(FolderWriter& folder, const StepRecord& step, StepArtifacts& artifacts) {
  const std::string stem = file_stem(step.step_id);
  artifacts.table_files = {stem + ".csv", stem + ".md"};
  if (core::Result<void> csv = folder.write(artifacts.table_files[0], table_to_csv(*step.output.table)); !csv) return csv;
  return folder.write(artifacts.table_files[1], table_to_markdown(*step.output.table));
}

core::Result<StepArtifacts> write_step(FolderWriter& folder, const SvgRenderer& renderer, const StepRecord& step) {
  StepArtifacts artifacts;
  for (const fs::path& file : step.output.files) artifacts.files.push_back(relative_name(file, folder.dir()));
  if (!step.output.chart.empty()) {
    if (core::Result<void> chart = write_chart(folder, renderer, step, artifacts); !chart) return chart.error();
  }
  if (step.output.table && artifacts.files.empty()) {
    if (core::Result<void> table = write_table(folder, step, artifacts); !table) return table.error();
  }
  return artifacts;
}

Json coverage_json(const CoverageReport& coverage) {
  Json lines = Json::array();
  for (const CoverageLine& line : coverage.lines) {
    lines.push_back({{"requirement", line.requirement}, {"steps", line.steps}, {"covered", line.covered}});
  }
  return {{"complete", coverage.complete()}, {"lines", lines}, {"missing", coverage.missing},
          {"unjustified", coverage.unjustified}, {"unknown_tools", coverage.unknown_tools},
          {"unmapped", coverage.unmapped}, {"retry_payload", coverage.retry_payload()}};
}

Json repair_json(const std::string& step_id, const ToolRepair& repair) {
  return {{"step_id", step_id}, {"tool", repair.tool}, {"param", repair.param},
          {"before", repair.before}, {"after", repair.after}, {"reason", repair.reason}};
}

Json table_json(const ToolOutput& output) {
  Json columns = Json::array();
  for (const data::Column& column : output.table->columns()) {
    columns.push_back({{"name", column.name}, {"type", std::string(data::to_string(column.type))}});
  }
  return {{"columns", columns}, {"rows", output.table->row_count()}, {"truncated", output.truncated}};
}

Json step_json(const StepRecord& step, const StepArtifacts& artifacts) {
  Json repairs = Json::array();
  for (const ToolRepair& repair : step.repairs) repairs.push_back(repair_json(step.step_id, repair));
  Json json = {{"step_id", step.step_id}, {"tool", step.tool}, {"satisfies", step.satisfies},
               {"status", std::string(to_string(step.status))}, {"error", step.error},
               {"sql", step.output.sql}, {"relation", step.output.relation}, {"repairs", repairs},
               {"files", artifacts.files}, {"notices", artifacts.notices}};
  json["table"] = step.output.table ? table_json(step.output) : Json();
  json["table_files"] = artifacts.table_files;
  json["chart_file"] = artifacts.chart_file.empty() ? Json() : Json(artifacts.chart_file);
  json["svg_file"] = artifacts.svg_file.empty() ? Json() : Json(artifacts.svg_file);
  return json;
}

std::string plan_json(const RunRecord& record, const Json& tools, const std::vector<StepArtifacts>& artifacts) {
  Json steps = Json::array();
  Json repairs = Json::array();
  Json notices = Json::array();
  for (std::size_t i = 0; i < record.steps.size(); ++i) {
    steps.push_back(step_json(record.steps[i], artifacts[i]));
    for (const ToolRepair& repair : record.steps[i].repairs) repairs.push_back(repair_json(record.steps[i].step_id, repair));
    for (const std::string& notice : artifacts[i].notices) notices.push_back(record.steps[i].step_id + ": " + notice);
  }
  const Json json = {{"question", record.question}, {"dataset", record.dataset},
                     {"requirements", record.requirements.to_json()}, {"considered_tools", tools},
                     {"plan", record.plan.to_json()}, {"coverage", coverage_json(record.coverage)},
                     {"steps", steps}, {"repairs", repairs}, {"notices", notices}};
  return json.dump(2) + "\n";
}

}  // namespace

std::string_view to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kOk: return "ok";
    case StepStatus::kFailed: return "failed";
    case StepStatus::kSkipped: return "skipped";
  }
  return "ok";
}

core::Result<std::vector<fs::path>> RunArtifacts::write(const fs::path& output_dir, const RunRecord& record) const {
  core::Result<Json> tools = parse_tools(record.considered_tools);
  if (!tools) return tools.error();
  FolderWriter folder(output_dir);
  if (core::Result<void> created = folder.create(); !created) return created.error();
  ReportContent content{record, {}, {}};
  for (const Json& tool : *tools) content.tools.push_back(tool_line(tool));
  for (const StepRecord& step : record.steps) {
    core::Result<StepArtifacts> artifacts = write_step(folder, renderer_, step);
    if (!artifacts) return artifacts.error();
    content.steps.push_back(std::move(*artifacts));
  }
  if (core::Result<void> plan = folder.write("plan.json", plan_json(record, *tools, content.steps)); !plan) return plan.error();
  if (core::Result<void> md = folder.write("report.md", report_markdown(content)); !md) return md.error();
  core::Result<std::string> html = report_html(content, assets_);
  if (!html) return html.error();
  if (core::Result<void> page = folder.write("report.html", *html); !page) return page.error();
  return folder.take();
}

}  // namespace planfirst::autoviz
