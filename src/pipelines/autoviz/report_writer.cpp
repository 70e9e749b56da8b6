#include "pipelines/autoviz/report_writer.hpp"

#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

#include "pipelines/autoviz/tool_table_text.hpp"

namespace planfirst::autoviz {
namespace {

namespace mstch = kainjow::mustache;

std::string joined(const std::vector<std::string>& items, const std::string& none = "(none)") {
  if (items.empty()) return none;
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string time_line(const TimeRequirement& time) {
  if (!time.column) return "time: (none)";
  return "time: " + *time.column + " (grain " + time.grain + ")";
}

std::vector<std::string> coverage_lines(const CoverageReport& coverage) {
  std::vector<std::string> lines;
  const std::string text = coverage.describe();
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Markdown prose: '<' and '&' as entities, so a question never becomes markup.
std::string md_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string md_list(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += "- " + md_text(item) + "\n";
  return text;
}

std::string md_step(std::size_t index, const StepRecord& step, const StepArtifacts& artifacts) {
  std::string text = "### " + std::to_string(index + 1) + ". " + md_text(step.step_id) + ": " + md_text(step.tool) +
                     " (" + std::string(to_string(step.status)) + ")\n\n";
  text += "Satisfies: " + md_text(joined(step.satisfies)) + "\n\n";
  if (!step.error.empty()) text += "Error: " + md_text(step.error) + "\n\n";
  if (!artifacts.svg_file.empty()) text += "![" + md_text(step.step_id) + "](" + artifacts.svg_file + ")\n\n";
  if (!artifacts.chart_file.empty()) text += "Chart spec: [" + artifacts.chart_file + "](" + artifacts.chart_file + ")\n\n";
  for (const std::string& notice : artifacts.notices) text += "> " + md_text(notice) + "\n\n";
  if (step.output.table) {
    text += table_to_markdown(*step.output.table) + "\n";
    if (step.output.truncated) text += "First " + std::to_string(step.output.table->row_count()) + " rows.\n\n";
  }
  const std::vector<std::string> files = artifacts.files.empty() ? artifacts.table_files : artifacts.files;
  if (!files.empty()) text += "Files: " + md_text(joined(files)) + "\n\n";
  if (!step.repairs.empty()) {
    text += "Repairs:\n\n";
    for (const ToolRepair& repair : step.repairs) text += "- " + md_text(describe_repair(repair)) + "\n";
    text += "\n";
  }
  return text;
}

mstch::data string_list(const std::vector<std::string>& items) {
  mstch::data list{mstch::data::type::list};
  for (const std::string& item : items) list.push_back(mstch::data(item));
  return list;
}

void add_html_table(mstch::data& view, const data::QueryResult& table) {
  view.set("has_table", true);
  std::vector<std::string> header;
  for (const data::Column& column : table.columns()) header.push_back(column.name);
  view.set("header", string_list(header));
  mstch::data rows{mstch::data::type::list};
  for (std::size_t r = 0; r < table.row_count(); ++r) {
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < table.column_count(); ++c) {
      cells.push_back(table.at(r, c).is_null() ? std::string() : table.at(r, c).to_string());
    }
    mstch::data row;
    row.set("cells", string_list(cells));
    rows.push_back(row);
  }
  view.set("rows", rows);
}

mstch::data html_step(std::size_t index, const StepRecord& step, const StepArtifacts& artifacts) {
  mstch::data view;
  view.set("number", std::to_string(index + 1));
  view.set("step_id", step.step_id);
  view.set("tool", step.tool);
  view.set("status", std::string(to_string(step.status)));
  view.set("satisfies", joined(step.satisfies));
  if (!step.error.empty()) view.set("error", step.error);
  if (!artifacts.svg.empty()) view.set("svg", artifacts.svg);
  std::vector<std::string> notices = artifacts.notices;
  if (step.output.table && step.output.truncated) {
    notices.push_back("First " + std::to_string(step.output.table->row_count()) + " rows.");
  }
  view.set("notices", string_list(notices));
  if (step.output.table) add_html_table(view, *step.output.table);
  const std::vector<std::string> files = artifacts.files.empty() ? artifacts.table_files : artifacts.files;
  if (!files.empty()) view.set("files", joined(files));
  std::vector<std::string> repairs;
  for (const ToolRepair& repair : step.repairs) repairs.push_back(describe_repair(repair));
  view.set("has_repairs", !repairs.empty());
  view.set("repairs", string_list(repairs));
  return view;
}

}  // namespace

std::vector<std::string> requirement_lines(const Requirements& requirements) {
  std::vector<std::string> constraints;
  for (const core::Json& constraint : requirements.to_json().at("constraints")) constraints.push_back(constraint.dump());
  return {"metrics: " + joined(requirements.metrics), "group_by: " + joined(requirements.group_by),
          time_line(requirements.time), "analysis: " + joined(requirements.analysis),
          "outputs: " + joined(requirements.outputs), "constraints: " + joined(constraints)};
}

std::string coverage_verdict(const CoverageReport& coverage) {
  return coverage.complete() ? "Coverage: complete" : "Coverage: incomplete";
}

std::string describe_repair(const ToolRepair& repair) {
  return repair.param + ": `" + repair.before + "` -> `" + repair.after + "` (" + repair.reason + ")";
}

std::string report_markdown(const ReportContent& content) {
  const RunRecord& record = content.record;
  std::string text = "# " + md_text(record.question) + "\n\nDataset: `" + record.dataset + "`\n\n";
  text += "## Requirements\n\n" + md_list(requirement_lines(record.requirements)) + "\n";
  text += "## Tools considered\n\n" + md_list(content.tools.empty() ? std::vector<std::string>{"none recorded"}
                                                                      : content.tools) + "\n";
  text += "## Coverage\n\n" + coverage_verdict(record.coverage) + "\n\n" + md_list(coverage_lines(record.coverage)) + "\n";
  text += "## Steps\n\n";
  for (std::size_t i = 0; i < record.steps.size(); ++i) text += md_step(i, record.steps[i], content.steps.at(i));
  return text;
}

core::Result<std::string> report_html(const ReportContent& content, const core::AssetStore& assets) {
  core::Result<std::string> page = assets.read("report/report.html");
  if (!page) return page.error();
  core::Result<std::string> css = assets.read("report/report.css");
  if (!css) return css.error();
  const RunRecord& record = content.record;
  mstch::data view;
  view.set("question", record.question);
  view.set("dataset", record.dataset);
  view.set("css", *css);
  view.set("requirements", string_list(requirement_lines(record.requirements)));
  view.set("tools", string_list(content.tools));
  view.set("verdict", coverage_verdict(record.coverage));
  view.set("verdict_class", record.coverage.complete() ? "complete" : "incomplete");
  view.set("coverage", string_list(coverage_lines(record.coverage)));
  mstch::data steps{mstch::data::type::list};
  for (std::size_t i = 0; i < record.steps.size(); ++i) steps.push_back(html_step(i, record.steps[i], content.steps.at(i)));
  view.set("steps", steps);
  mstch::mustache compiled(*page);
  std::string html = compiled.render(view);
  if (!compiled.is_valid()) return core::internal_error(compiled.error_message(), "report/report.html");
  return html;
}

}  // namespace planfirst::autoviz
