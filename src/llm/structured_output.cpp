#include "llm/structured_output.hpp"

#include <string>

namespace planfirst::llm {

std::string_view to_string(StructuredOutput mode) {
  switch (mode) {
    case StructuredOutput::kResponseFormat: return "response_format";
    case StructuredOutput::kLlamaCpp: return "llamacpp";
    case StructuredOutput::kOllama: return "ollama";
    case StructuredOutput::kNone: return "none";
  }
  return "none";
}

core::Result<StructuredOutput> parse_structured_output(std::string_view text) {
  for (StructuredOutput mode : {StructuredOutput::kResponseFormat, StructuredOutput::kLlamaCpp,
                                StructuredOutput::kOllama, StructuredOutput::kNone}) {
    if (text == to_string(mode)) return mode;
  }
  return core::invalid_argument("unknown structured output mode \"" + std::string(text) +
                                    "\"; expected response_format, llamacpp, ollama or none",
                                "llm.structured_output");
}

}  // namespace planfirst::llm
