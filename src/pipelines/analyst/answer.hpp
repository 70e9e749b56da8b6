// Answer is the analyst graph's final output in the plan's expected_output_schema: the text (Markdown,
// or JSON for the *_json and clarification schemas), the evidence it cites, and which strategy wrote
// it ("rules" composer or "llm", with the reason when the model's answer was rejected). A value.
#pragma once

#include <string>
#include <vector>

#include "core/json.hpp"

namespace planfirst::analyst {

struct Answer {
  std::string schema;  // status_metric_v1_json, answer_v1_markdown, design_doc_v1_markdown, clarification_v1
  std::string format;  // "markdown" or "json"
  std::string text;    // the answer as printed; for "json", a JSON document
  std::vector<std::string> citations;  // citation keys, in order of first use
  std::string strategy = "rules";      // "rules" or "llm"
  std::string fallback;                // why the model's answer was not used; "" otherwise
};

core::Json to_json(const Answer& answer);  // {"schema", "format", "content" (object for json), ...}

}  // namespace planfirst::analyst
