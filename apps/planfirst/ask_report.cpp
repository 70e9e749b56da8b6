#include "planfirst/ask_report.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_member.hpp"

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
  return document;
}

}  // namespace planfirst::cli
