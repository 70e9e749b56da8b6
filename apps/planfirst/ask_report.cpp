#include "planfirst/ask_report.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

namespace planfirst::cli {
namespace {

using core::Json;

const Json& field(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

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
    out << "  " << key << ": " << text_of(field(requirements, key)) << "\n";
  }
  const Json& time = field(requirements, "time");
  out << "  time: " << text_of(field(time, "column")) << " (grain " << text_of(field(time, "grain")) << ")\n";
  const Json& constraints = field(requirements, "constraints");
  out << "  constraints: " << (constraints.is_array() && !constraints.empty() ? constraints.dump() : "-") << "\n";
}

void write_tools(std::ostream& out, const Json& tools) {
  if (!tools.is_array()) return;
  out << "\nTools considered (" << tools.size() << ")\n";
  for (const Json& tool : tools) {
    out << "  " << text_of(field(tool, "tool")) << "  " << text_of(field(tool, "source"));
    if (const Json& score = field(tool, "score"); score.is_number()) {
      std::ostringstream fixed;
      fixed.precision(3);
      fixed << std::fixed << score.get<double>();
      out << "  " << fixed.str();
    }
    out << "\n";
  }
}

void write_plan(std::ostream& out, const Json& plan) {
  const Json& steps = field(plan, "steps");
  if (!steps.is_array()) return;
  out << "\nPlan\n";
  int number = 0;
  for (const Json& step : steps) {
    out << "  " << ++number << ". " << text_of(field(step, "tool")) << " " << field(step, "params").dump()
        << "\n     satisfies " << text_of(field(step, "satisfies")) << "\n";
  }
}

void write_coverage(std::ostream& out, const Json& coverage) {
  if (!coverage.is_object()) return;
  out << "\nCoverage: " << (field(coverage, "complete").is_boolean() && coverage["complete"].get<bool>() ? "complete" : "INCOMPLETE")
      << "\n";
  for (const Json& line : field(coverage, "lines")) {
    out << "  " << text_of(field(line, "requirement")) << " -> " << text_of(field(line, "steps"))
        << (field(line, "covered").is_boolean() && line["covered"].get<bool>() ? " (OK)" : " (MISSING)") << "\n";
  }
  if (const std::string payload = text_of(field(coverage, "retry_payload")); payload != "-" && !payload.empty()) {
    out << "  " << payload << "\n";
  }
}

// Which strategy answered each stage; present only when a model was asked.
void write_strategies(std::ostream& out, const Json& strategies) {
  if (!strategies.is_array() || strategies.empty()) return;
  out << "\nStrategies\n";
  for (const Json& record : strategies) {
    const std::string calls = text_of(field(record, "attempts"));
    out << "  " << text_of(field(record, "stage")) << ": " << text_of(field(record, "strategy")) << " (model "
        << text_of(field(record, "model")) << ", " << calls << (calls == "1" ? " call)" : " calls)");
    out << "\n";
    if (const std::string fallback = text_of(field(record, "fallback")); fallback != "-") {
      std::istringstream lines(fallback);  // the failure's summary and its first cause
      std::string line;
      for (int shown = 0; shown < 2 && std::getline(lines, line); ++shown) out << "     " << line << "\n";
    }
  }
}

void write_execution(std::ostream& out, const Json& execution) {
  const Json& steps = field(execution, "steps");
  if (!steps.is_array()) return;
  out << "\nExecution\n";
  for (const Json& step : steps) {
    out << "  " << text_of(field(step, "step_id")) << "  " << text_of(field(step, "status"));
    if (const Json& error = field(step, "error"); error.is_string() && !error.get<std::string>().empty()) {
      out << "  " << error.get<std::string>();
    }
    out << "\n";
    for (const Json& repair : field(step, "repairs")) {
      out << "     repaired " << text_of(field(repair, "param")) << ": " << text_of(field(repair, "before")) << " -> "
          << text_of(field(repair, "after")) << " (" << text_of(field(repair, "reason")) << ")\n";
    }
  }
}

}  // namespace

bool AskReport::succeeded() const {
  if (field(state_, "plan_only").is_boolean() && state_["plan_only"].get<bool>()) {
    const Json& complete = field(field(state_, "coverage"), "complete");
    return complete.is_boolean() && complete.get<bool>();
  }
  return text_of(field(state_, "outcome")) == "done";
}

std::string AskReport::to_text() const {
  std::ostringstream out;
  const Json& profile = field(state_, "profile");
  out << "Question: " << text_of(field(state_, "question")) << "\n"
      << "Data: " << text_of(field(state_, "dataset")) << " (table " << text_of(field(state_, "table")) << ", "
      << text_of(field(profile, "row_count")) << " rows, " << field(profile, "columns").size() << " columns)\n";
  const Json& intent = field(state_, "intent");
  if (intent.is_object()) {
    out << "Intent: " << text_of(field(intent, "primary")) << " (" << text_of(field(intent, "confidence"))
        << "), template " << text_of(field(intent, "template")) << "\n";
  }
  if (state_.contains("requirements")) write_requirements(out, state_["requirements"]);
  write_tools(out, field(state_, "tools"));
  write_plan(out, field(state_, "plan"));
  write_coverage(out, field(state_, "coverage"));
  write_strategies(out, field(state_, "strategies"));
  write_execution(out, field(state_, "execution"));
  if (const Json& artifacts = field(state_, "artifacts"); artifacts.is_array() && !artifacts.empty()) {
    out << "\nProduced\n";
    for (const Json& path : artifacts) out << "  " << text_of(path) << "\n";
  }
  if (explain_) {
    out << "\nReasoning\n";
    for (const Json& line : field(state_, "reasoning")) {
      out << "  [" << text_of(field(line, "step_name")) << "] " << text_of(field(line, "step_text")) << "\n";
    }
  }
  return out.str();
}

core::Json AskReport::to_json() const {
  Json document = Json::object();
  for (const char* key : {"question", "dataset", "table", "intent", "requirements", "tools", "plan", "adaptation",
                          "coverage", "strategies", "execution", "artifacts", "outcome"}) {
    if (state_.is_object() && state_.contains(key)) document[key] = state_[key];
  }
  if (explain_ && state_.contains("reasoning")) document["reasoning"] = state_["reasoning"];
  return document;
}

}  // namespace planfirst::cli
