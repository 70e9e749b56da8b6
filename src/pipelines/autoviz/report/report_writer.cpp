#include "pipelines/autoviz/report/report_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

#include "core/join.hpp"
#include "core/json_member.hpp"
#include "pipelines/autoviz/report/answer.hpp"
#include "pipelines/autoviz/report/display_table.hpp"

namespace planfirst::autoviz {
namespace {

namespace mstch = kainjow::mustache;
using core::Json;
using core::member_or_null;

std::string text_of(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.is_null() ? std::string() : value.dump();
}

std::string joined(const std::vector<std::string>& items, const std::string& none = "(none)") {
  return items.empty() ? none : core::join(items);
}

std::vector<std::string> texts(const Json& list) {
  std::vector<std::string> out;
  if (list.is_array()) {
    for (const Json& item : list) out.push_back(text_of(item));
  }
  return out;
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

const Json& execution_steps(const Json& state) {
  return member_or_null(member_or_null(state, "execution"), "steps");
}

// The requirements a step cites, from the plan.
std::vector<std::string> satisfies(const Json& state, const std::string& step_id) {
  for (const Json& step : member_or_null(member_or_null(state, "plan"), "steps")) {
    if (text_of(member_or_null(step, "step_id")) == step_id) return texts(member_or_null(step, "satisfies"));
  }
  return {};
}

std::vector<std::string> replan_lines(const Json& state) {
  std::vector<std::string> lines;
  for (const Json& request : member_or_null(member_or_null(state, "execution"), "replan"))
    lines.push_back(describe_replan(request));
  return lines;
}

std::vector<std::string> repair_lines(const Json& step) {
  std::vector<std::string> lines;
  for (const Json& repair : member_or_null(step, "repairs")) lines.push_back(describe_repair(repair));
  return lines;
}

// "Showing 20 of 480 rows; all are in aggregate.csv." and the like; empty when every row shows.
// A step that counted its rows (save_table) gives their number; else a truncated table says so.
std::string rows_note(const Json& step, const StepArtifacts& artifacts) {
  const std::size_t kept = artifacts.table->row_count();
  const Json& counted = member_or_null(step, "row_count");
  const bool has_count = counted.is_number_integer() && counted.get<std::int64_t>() >= 0;
  const std::size_t rows = has_count ? counted.get<std::size_t>() : kept;
  const bool truncated = member_or_null(step, "truncated") == true && !has_count;
  if (rows <= kReportRows && !truncated) return {};
  std::string note = rows <= kReportRows
                         ? fmt::format("{} rows", rows)
                         : fmt::format("Showing {} of {} rows", std::min(kept, kReportRows), rows);
  if (truncated) note += fmt::format("; the step's relation holds more than the {} kept", rows);
  const std::vector<std::string>& files = artifacts.files.empty() ? artifacts.table_files : artifacts.files;
  if (!files.empty()) note += "; files: " + joined(files);
  return note + ".";
}

// The note under the answer's table: rows_note, or how many rows there are when all show.
std::string answer_rows_note(const Answer& answer, const Json& step, const StepArtifacts& artifacts) {
  if (std::string note = rows_note(step, artifacts); !note.empty()) return note;
  std::string line = answer.rows_line(kReportRows);
  line.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(line.front())));
  return line + ".";
}

// Markdown prose: '<' and '&' as entities, so a question never becomes markup.
std::string md_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

std::string md_list(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += "- " + md_text(item) + "\n";
  return text;
}

std::string md_step(std::size_t index, const Json& state, const Json& step, const StepArtifacts& artifacts) {
  const std::string step_id = text_of(member_or_null(step, "step_id"));
  std::string text = "### " + std::to_string(index + 1) + ". " + md_text(step_id) + ": " +
                     md_text(text_of(member_or_null(step, "tool"))) + " (" +
                     text_of(member_or_null(step, "status")) + ")\n\n";
  text += "Satisfies: " + md_text(joined(satisfies(state, step_id))) + "\n\n";
  if (const std::string error = text_of(member_or_null(step, "error")); !error.empty())
    text += "Error: " + md_text(error) + "\n\n";
  if (!artifacts.chart_file.empty()) {
    text +=
        "Chart: shown under Answer; spec [" + artifacts.chart_file + "](" + artifacts.chart_file + ")\n\n";
  }
  if (artifacts.table) {
    text += DisplayTable::of(*artifacts.table, kReportRows).to_markdown() + "\n";
    if (const std::string note = rows_note(step, artifacts); !note.empty()) text += md_text(note) + "\n\n";
  }
  const std::vector<std::string>& files = artifacts.files.empty() ? artifacts.table_files : artifacts.files;
  if (!files.empty()) text += "Files: " + md_text(joined(files)) + "\n\n";
  if (const std::vector<std::string> repairs = repair_lines(step); !repairs.empty()) {
    text += "Repairs:\n\n" + md_list(repairs) + "\n";
  }
  return text;
}

mstch::data string_list(const std::vector<std::string>& items) {
  mstch::data list{mstch::data::type::list};
  for (const std::string& item : items) list.push_back(mstch::data(item));
  return list;
}

// Cells of one row: {text, num}, numbers marked for right alignment.
mstch::data html_cells(const std::vector<std::string>& texts, const std::vector<bool>& numeric) {
  mstch::data cells{mstch::data::type::list};
  for (std::size_t c = 0; c < texts.size(); ++c) {
    mstch::data cell;
    cell.set("text", texts[c]);
    cell.set("num", c < numeric.size() && numeric[c]);
    cells.push_back(cell);
  }
  return cells;
}

// The first kReportRows rows of `table`, numbers rounded for display.
void add_html_table(mstch::data& view, const data::QueryResult& table) {
  const DisplayTable display = DisplayTable::of(table, kReportRows);
  view.set("has_table", true);
  view.set("header", html_cells(display.header, display.numeric));
  mstch::data rows{mstch::data::type::list};
  for (const std::vector<std::string>& cells : display.rows) {
    mstch::data row;
    row.set("cells", html_cells(cells, display.numeric));
    rows.push_back(row);
  }
  view.set("rows", rows);
}

// A chart as the answer shows it: its SVG inline, or its spec when the SVG was skipped, with the
// notices on it (a skipped SVG, a sample of the marks).
mstch::data html_chart(const Json& step, const StepArtifacts& artifacts) {
  mstch::data view;
  if (!artifacts.svg.empty()) {
    view.set("svg", artifacts.svg);
  } else {
    view.set("spec", artifacts.spec);
    view.set("chart_file", artifacts.chart_file);
  }
  std::vector<std::string> notices = artifacts.notices;
  if (const std::string note = sample_note(step); !note.empty()) notices.push_back(note);
  view.set("notices", string_list(notices));
  return view;
}

mstch::data html_step(std::size_t index, const Json& state, const Json& step,
                      const StepArtifacts& artifacts) {
  const std::string step_id = text_of(member_or_null(step, "step_id"));
  mstch::data view;
  view.set("number", std::to_string(index + 1));
  view.set("step_id", step_id);
  view.set("tool", text_of(member_or_null(step, "tool")));
  view.set("status", text_of(member_or_null(step, "status")));
  view.set("satisfies", joined(satisfies(state, step_id)));
  if (const std::string error = text_of(member_or_null(step, "error")); !error.empty())
    view.set("error", error);
  if (!artifacts.chart_file.empty()) view.set("chart_file", artifacts.chart_file);
  std::vector<std::string> notices;
  if (artifacts.table) {
    add_html_table(view, *artifacts.table);
    if (const std::string note = rows_note(step, artifacts); !note.empty()) notices.push_back(note);
  }
  view.set("notices", string_list(notices));
  const std::vector<std::string>& files = artifacts.files.empty() ? artifacts.table_files : artifacts.files;
  if (!files.empty()) view.set("files", joined(files));
  const std::vector<std::string> repairs = repair_lines(step);
  view.set("has_repairs", !repairs.empty());
  view.set("repairs", string_list(repairs));
  return view;
}

// The answer's headline: the one number or the table's description, the charts alone, or why
// there is none.
std::string headline(const std::optional<Answer>& answer, const Json& state, bool charts) {
  if (answer) return answer->headline();
  const std::string execution = execution_verdict(member_or_null(state, "execution"));
  if (execution.starts_with("Execution: stopped")) return "No answer: " + execution.substr(11);
  return charts ? "Answer: the chart below." : "No answer: no step produced a table or a chart.";
}

// The answer as report.md leads with it: headline, charts, the first rows of its table.
std::string md_answer(const ReportContent& content, const std::optional<Answer>& answer, bool charts) {
  const Json& steps = execution_steps(content.state);
  std::string text = "## Answer\n\n**" + md_text(headline(answer, content.state, charts)) + "**\n\n";
  for (std::size_t i = 0; i < content.steps.size(); ++i) {
    const StepArtifacts& artifacts = content.steps[i];
    if (artifacts.chart_file.empty()) continue;
    const std::string step_id = text_of(member_or_null(steps.at(i), "step_id"));
    if (!artifacts.svg_file.empty()) text += "![" + md_text(step_id) + "](" + artifacts.svg_file + ")\n\n";
    text += "Chart spec: [" + artifacts.chart_file + "](" + artifacts.chart_file + ")\n\n";
    for (const std::string& notice : artifacts.notices) text += "> " + md_text(notice) + "\n\n";
    if (const std::string note = sample_note(steps.at(i)); !note.empty())
      text += "> " + md_text(note) + "\n\n";
  }
  if (answer && !answer->value) {
    const StepArtifacts& artifacts = content.steps.at(answer->step_index);
    text += DisplayTable::of(answer->table, kReportRows).to_markdown() + "\n";
    text += md_text(answer_rows_note(*answer, steps.at(answer->step_index), artifacts)) + "\n\n";
  }
  return text;
}

bool has_chart(const ReportContent& content) {
  return std::any_of(content.steps.begin(), content.steps.end(),
                     [](const StepArtifacts& step) { return !step.chart_file.empty(); });
}

std::string dataset_line(const Json& state) {
  std::string line = "Dataset: `" + text_of(member_or_null(state, "dataset")) + "`";
  if (const std::string table = text_of(member_or_null(state, "table")); !table.empty())
    line += " (table " + table + ")";
  return line;
}

}  // namespace

core::Result<ReportTemplates> ReportTemplates::load(const core::AssetStore& assets) {
  core::Result<std::string> page = assets.read(std::string(kPage));
  if (!page) return page.error();
  core::Result<std::string> css = assets.read(std::string(kStyle));
  if (!css) return css.error();
  return ReportTemplates{std::move(*page), std::move(*css)};
}

std::vector<std::string> requirement_lines(const Requirements& requirements) {
  std::vector<std::string> constraints;
  const core::Json json = requirements.to_json();  // the loop below must not range over a temporary's member
  for (const core::Json& constraint : json.at("constraints")) constraints.push_back(constraint.dump());
  return {"metrics: " + joined(requirements.metrics),
          "group_by: " + joined(requirements.group_by),
          time_line(requirements.time),
          "analysis: " + joined(requirements.analysis),
          "outputs: " + joined(requirements.outputs),
          "constraints: " + joined(constraints)};
}

std::string coverage_verdict(const CoverageReport& coverage) {
  return coverage.complete() ? "Coverage: complete" : "Coverage: incomplete";
}

std::string execution_verdict(const Json& execution) {
  for (const Json& step : member_or_null(execution, "steps")) {
    if (text_of(member_or_null(step, "status")) != "failed") continue;
    return "Execution: stopped at step '" + text_of(member_or_null(step, "step_id")) + "' (" +
           text_of(member_or_null(step, "tool")) + "): " + text_of(member_or_null(step, "error"));
  }
  const std::size_t repairs = member_or_null(execution, "repair_count").is_number()
                                  ? execution["repair_count"].get<std::size_t>()
                                  : 0;
  if (repairs == 0) return "Execution: every step ran; no repair changed the plan's params.";
  return fmt::format("Execution: every step ran; {} safe repair{} changed the plan's params.", repairs,
                     repairs == 1 ? "" : "s");
}

std::string describe_repair(const Json& repair) {
  return text_of(member_or_null(repair, "param")) + ": `" + text_of(member_or_null(repair, "before")) +
         "` -> `" + text_of(member_or_null(repair, "after")) + "` (" +
         text_of(member_or_null(repair, "reason")) + ")";
}

std::string describe_replan(const Json& request) {
  return text_of(member_or_null(request, "step_id")) + "." + text_of(member_or_null(request, "param")) +
         " = " + text_of(member_or_null(request, "value")) + " (" +
         text_of(member_or_null(request, "change")) + "): " + text_of(member_or_null(request, "reason"));
}

std::string report_markdown(const ReportContent& content) {
  const Json& state = content.state;
  std::string text = "# " + md_text(text_of(member_or_null(state, "question"))) + "\n\n" +
                     md_text(dataset_line(state)) + "\n\n";
  text += md_answer(content, find_answer(state), has_chart(content));
  text += "## Requirements\n\n" + md_list(requirement_lines(content.requirements)) + "\n";
  text += "## Tools considered\n\n" +
          md_list(content.tools.empty() ? std::vector<std::string>{"none recorded"} : content.tools) + "\n";
  text += "## Coverage\n\n" + coverage_verdict(content.coverage) + "\n\n" +
          md_list(coverage_lines(content.coverage)) + "\n";
  text += "## Execution\n\n" + md_text(execution_verdict(member_or_null(state, "execution"))) + "\n\n";
  if (const std::vector<std::string> replan = replan_lines(state); !replan.empty()) {
    text += "Sent back to planning:\n\n" + md_list(replan) + "\n";
  }
  text += "## Steps\n\n";
  const Json& steps = execution_steps(state);
  for (std::size_t i = 0; i < content.steps.size(); ++i)
    text += md_step(i, state, steps.at(i), content.steps[i]);
  return text;
}

core::Result<std::string> report_html(const ReportContent& content, const ReportTemplates& templates) {
  const Json& state = content.state;
  mstch::data view;
  view.set("question", text_of(member_or_null(state, "question")));
  view.set("dataset", text_of(member_or_null(state, "dataset")));
  view.set("table", text_of(member_or_null(state, "table")));
  view.set("css", templates.css);
  const std::optional<Answer> answer = find_answer(state);
  const bool charts = has_chart(content);
  view.set("headline", headline(answer, state, charts));
  view.set("headline_class", answer || charts ? "found" : "none");
  mstch::data chart_views{mstch::data::type::list};
  const Json& executed_steps = execution_steps(state);
  for (std::size_t i = 0; i < content.steps.size(); ++i) {
    if (!content.steps[i].chart_file.empty())
      chart_views.push_back(html_chart(executed_steps.at(i), content.steps[i]));
  }
  view.set("charts", chart_views);
  if (answer && !answer->value) {
    mstch::data table;
    add_html_table(table, answer->table);
    table.set("rows_line", answer_rows_note(*answer, executed_steps.at(answer->step_index),
                                            content.steps.at(answer->step_index)));
    view.set("answer_table", table);
  }
  view.set("requirements", string_list(requirement_lines(content.requirements)));
  view.set("tools", string_list(content.tools));
  view.set("verdict", coverage_verdict(content.coverage));
  view.set("verdict_class", content.coverage.complete() ? "complete" : "incomplete");
  view.set("coverage", string_list(coverage_lines(content.coverage)));
  const std::string execution = execution_verdict(member_or_null(state, "execution"));
  view.set("execution", execution);
  view.set("execution_class", execution.starts_with("Execution: stopped") ? "failed" : "ok");
  const std::vector<std::string> replan = replan_lines(state);
  view.set("has_replan", !replan.empty());
  view.set("replan", string_list(replan));
  mstch::data steps{mstch::data::type::list};
  const Json& executed = execution_steps(state);
  for (std::size_t i = 0; i < content.steps.size(); ++i) {
    steps.push_back(html_step(i, state, executed.at(i), content.steps[i]));
  }
  view.set("steps", steps);
  mstch::mustache compiled(templates.page);
  std::string html = compiled.render(view);
  if (!compiled.is_valid())
    return core::internal_error(compiled.error_message(), std::string(ReportTemplates::kPage));
  return html;
}

}  // namespace planfirst::autoviz
