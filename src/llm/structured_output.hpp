// StructuredOutput is how a request asks the server to keep to a contract (config
// llm.structured_output): an OpenAI/vLLM response_format, a llama.cpp grammar or json_schema, an
// Ollama format schema, or nothing but the prompt. The guard validates the reply in every mode.
#pragma once

#include <string_view>

#include "core/result.hpp"

namespace planfirst::llm {

enum class StructuredOutput {
  kResponseFormat,  // "response_format": {"type":"json_schema","json_schema":{name,schema,strict}}
  kLlamaCpp,        // "grammar": GBNF from the contract, or "json_schema" when it has no GBNF form
  kOllama,          // POST /api/chat with "format": the schema
  kNone,            // the prompt alone
};

std::string_view to_string(StructuredOutput mode);  // "response_format", "llamacpp", "ollama", "none"
core::Result<StructuredOutput> parse_structured_output(std::string_view text);

}  // namespace planfirst::llm
