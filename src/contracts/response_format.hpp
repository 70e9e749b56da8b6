// response_format wraps a contract for OpenAI-compatible structured output (vLLM, llama.cpp
// server, Ollama, hosted APIs): {"type":"json_schema","json_schema":{"name","schema","strict":true}}.
// The schema keeps its key order (parse it with nlohmann::ordered_json to keep it) and drops the
// annotations servers do not need ($schema, $comment). Deterministic: same contract, same bytes.
#pragma once

#include <string>

namespace planfirst::contracts {
class Contract;

// The response_format object as JSON text; `indent` < 0 prints it on one line.
std::string response_format(const Contract& contract, int indent = -1);

}  // namespace planfirst::contracts
