#include "planfirst/ask_report.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/json_member.hpp"
#include "pipelines/autoviz/report/answer.hpp"
#include "pipelines/autoviz/report/display_table.hpp"

namespace planfirst::cli {
namespace {

using core::Json;
using core::member_or_null;

std::string text_of(const Json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string joined;
    for (const Json& item : value) joined += (joined.empty() ? "" : ", ") + text_of(item);
    return joined.empty() ? "-" : joined;
  }
  return value.dump();
}

void write_requirements(std::ostream& out, const Json& requirements) {
  out << "\nRequirements\n";
  for (const char* key : {"metrics", "group_by", "analysis", "outputs"}) {
    out << "  " << key << ": " << text_of(member_or_null(requirements, key)) << "\n";
  }
  const Json& time = member_or_null(requirements, "time");
  out << "  time: " << text_of(member_or_null(time, "column")) << " (grain "
      << text_of(member_or_null(time, "grain")) << ")\n";
  const Json& constraints = member_or_null(requirements, "constraints");
  out << "  constraints: " << (constraints.is_array() && !constraints.empty() ? constraints.dump() : "-")
      << "\n";
}

void write_tools(std::ostream& out, const Json& tools) {
  if (!tools.is_array()) return;
  out << "\nTools considered (" << tools.size() << ")\n";
  for (const Json& tool : tools) {
    out << "  " << text_of(member_or_null(tool, "tool")) << "  " << text_of(member_or_null(tool, "source"));
    if (const Json& score = member_or_null(tool, "score"); score.is_number()) {
      std::ostringstream fixed;
      fixed.precision(3);
      fixed << std::fixed << score.get<double>();
      out << "  " << fixed.str();
    }
    out << "\n";
  }
}

void write_plan(std::ostream& out, const Json& plan) {
  const Json& steps = member_or_null(plan, "steps");
  if (!steps.is_array()) return;
  out << "\nPlan\n";
  int number = 0;
  for (const Json& step : steps) {
    out << "  " << ++number << ". " << text_of(member_or_null(step, "tool")) << " "
        << member_or_null(step, "params").dump() << "\n     satisfies "
        << text_of(member_or_null(step, "satisfies")) << "\n";
  }
}

void write_coverage(std::ostream& out, const Json& coverage) {
  if (!coverage.is_object()) return;
  out << "\nCoverage: " << (member_or_null(coverage, "complete") == true ? "complete" : "INCOMPLETE") << "\n";
  for (const Json& line : member_or_null(coverage, "lines")) {
    out << "  " << text_of(member_or_null(line, "requirement")) << " -> "
        << text_of(member_or_null(line, "steps"))
        << (member_or_null(line, "covered") == true ? " (OK)" : " (MISSING)") << "\n";
  }
  if (const std::string payload = text_of(member_or_null(coverage, "retry_payload"));
      payload != "-" && !payload.empty()) {
    out << "  " << payload << "\n";
  }
}

// When the model's server could not be reached, that the offline rules planned, and why.
void write_offline_notice(std::ostream& out, const Json& strategies) {
  if (!strategies.is_array()) return;
  for (const Json& record : strategies) {
    if (member_or_null(record, "unreachable") != true) continue;
    std::istringstream lines(text_of(member_or_null(record, "fallback")));
    std::string summary, cause;
    std::getline(lines, summary);
    std::getline(lines, cause);
    out << "Planned offline: the model's server could not be reached (" << (cause.empty() ? summary : cause)
        << "); the rules planned every stage from the " << text_of(member_or_null(record, "stage"))
        << " stage on.\n";
    return;
  }
}

// Which strategy answered each stage; present only when a model was asked.
void write_strategies(std::ostream& out, const Json& strategies) {
  if (!strategies.is_array() || strategies.empty()) return;
  out << "\nStrategies\n";
  for (const Json& record : strategies) {
    const std::string calls = text_of(member_or_null(record, "attempts"));
    out << "  " << text_of(member_or_null(record, "stage")) << ": "
        << text_of(member_or_null(record, "strategy")) << " (model "
        << text_of(member_or_null(record, "model")) << ", " << calls << (calls == "1" ? " call)" : " calls)");
    out << "\n";
    if (const std::string fallback = text_of(member_or_null(record, "fallback")); fallback != "-") {
      std::istringstream lines(fallback);  // the failure's summary and its first cause
      std::string line;
      for (int shown = 0; shown < 2 && std::getline(lines, line); ++shown) out << "     " << line << "\n";
    }
  }
}

void write_execution(std::ostream& out, const Json& execution) {
  const Json& steps = member_or_null(execution, "steps");
  if (!steps.is_array()) return;
  out << "\nExecution\n";
  for (const Json& step : steps) {
    out << "  " << text_of(member_or_null(step, "step_id")) << "  "
        << text_of(member_or_null(step, "status"));
    if (const Json& error = member_or_null(step, "error");
        error.is_string() && !error.get<std::string>().empty()) {
      out << "  " << error.get<std::string>();
    }
    out << "\n";
    for (const Json& repair : member_or_null(step, "repairs")) {
      out << "     repaired " << text_of(member_or_null(repair, "param")) << ": "
          << text_of(member_or_null(repair, "before")) << " -> " << text_of(member_or_null(repair, "after"))
          << " (" << text_of(member_or_null(repair, "reason")) << ")\n";
    }
  }
}

// The file of the run's artifacts named `name` ("result.csv"), or "".
std::string artifact_named(const Json& artifacts, const std::string& name) {
  for (const Json& path : artifacts) {
    if (path.is_string() && std::filesystem::path(path.get<std::string>()).filename() == name)
      return path.get<std::string>();
  }
  return {};
}

// Where the answer's rows are filed: the CSV the step saved, or the one written for its table.
std::string answer_file(const Json& state, const autoviz::Answer& answer) {
  const Json& step = member_or_null(member_or_null(state, "execution"), "steps")[answer.step_index];
  for (const Json& file : member_or_null(step, "files")) {
    if (file.is_string() && file.get<std::string>().ends_with(".csv")) return file.get<std::string>();
  }
  return artifact_named(member_or_null(state, "artifacts"), answer.step_id + ".csv");
}

// The answer first: its headline, the first kAnswerRows rows of its table (a one-number answer is
// its headline alone), where all rows are, then each chart's file and any note on its marks.
void write_answer(std::ostream& out, const Json& state) {
  const std::optional<autoviz::Answer> answer = autoviz::find_answer(state);
  const Json& artifacts = member_or_null(state, "artifacts");
  std::ostringstream charts;
  for (const Json& step : member_or_null(member_or_null(state, "execution"), "steps")) {
    if (!step.contains("chart")) continue;
    const std::string id = text_of(member_or_null(step, "step_id"));
    std::string file = artifact_named(artifacts, id + ".svg");
    if (file.empty()) file = artifact_named(artifacts, id + ".vl.json");
    if (file.empty()) continue;
    charts << "Chart: " << file;
    if (const std::string note = autoviz::sample_note(step); !note.empty()) charts << " (" << note << ")";
    charts << "\n";
  }
  if (!answer && charts.str().empty()) return;
  out << "\n";
  if (answer) {
    out << answer->headline() << "\n";
    if (!answer->value) {
      out << autoviz::DisplayTable::of(answer->table, kAnswerRows).to_text("  ");
      out << "  " << answer->rows_line(kAnswerRows);
      if (const std::string file = answer_file(state, *answer); !file.empty()) out << "; all in " << file;
      out << "\n";
    }
  }
  out << charts.str() << "\n";
}

}  // namespace

bool AskReport::succeeded() const {
  if (member_or_null(state_, "plan_only") == true) {
    return member_or_null(member_or_null(state_, "coverage"), "complete") == true;
  }
  return text_of(member_or_null(state_, "outcome")) == "done";
}

std::string AskReport::to_text() const {
  std::ostringstream out;
  const Json& profile = member_or_null(state_, "profile");
  out << "Question: " << text_of(member_or_null(state_, "question")) << "\n"
      << "Data: " << text_of(member_or_null(state_, "dataset")) << " (table "
      << text_of(member_or_null(state_, "table")) << ", " << text_of(member_or_null(profile, "row_count"))
      << " rows, " << member_or_null(profile, "columns").size() << " columns)\n";
  write_offline_notice(out, member_or_null(state_, "strategies"));
  write_answer(out, state_);
  const Json& intent = member_or_null(state_, "intent");
  if (intent.is_object()) {
    out << "Intent: " << text_of(member_or_null(intent, "primary")) << " ("
        << text_of(member_or_null(intent, "confidence")) << "), template "
        << text_of(member_or_null(intent, "template")) << "\n";
  }
  if (state_.contains("requirements")) write_requirements(out, state_["requirements"]);
  write_tools(out, member_or_null(state_, "tools"));
  write_plan(out, member_or_null(state_, "plan"));
  write_coverage(out, member_or_null(state_, "coverage"));
  write_strategies(out, member_or_null(state_, "strategies"));
  write_execution(out, member_or_null(state_, "execution"));
  if (const Json& artifacts = member_or_null(state_, "artifacts");
      artifacts.is_array() && !artifacts.empty()) {
    out << "\nProduced\n";
    for (const Json& path : artifacts) out << "  " << text_of(path) << "\n";
  }
  if (explain_) {
    out << "\nReasoning\n";
    for (const Json& line : member_or_null(state_, "reasoning")) {
      out << "  [" << text_of(member_or_null(line, "step_name")) << "] "
          << text_of(member_or_null(line, "step_text")) << "\n";
    }
  }
  return out.str();
}

core::Json AskReport::to_json() const {
  Json document = Json::object();
  for (const char* key : {"question", "dataset", "table", "intent", "requirements", "tools", "plan",
                          "adaptation", "coverage", "strategies", "execution", "artifacts", "outcome"}) {
    if (state_.is_object() && state_.contains(key)) document[key] = state_[key];
  }
  if (explain_ && state_.contains("reasoning")) document["reasoning"] = state_["reasoning"];
  if (const std::optional<autoviz::Answer> answer = autoviz::find_answer(state_)) {
    const Json& rows = state_["execution"]["steps"][answer->step_index]["table"];
    Json head = Json::array();
    for (std::size_t i = 0; i < rows.size() && i < kAnswerRows; ++i) head.push_back(rows[i]);
    document["answer"] = {{"headline", answer->headline()},
                          {"description", answer->description},
                          {"step_id", answer->step_id},
                          {"row_count", answer->row_count ? Json(*answer->row_count) : Json()},
                          {"rows", std::move(head)}};
    if (answer->value) document["answer"]["value"] = rows[0][answer->table.column(answer->value_column).name];
  }
  return document;
}

}  // namespace planfirst::cli
