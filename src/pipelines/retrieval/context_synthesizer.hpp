// ContextSynthesizer merges what execute_plans fetched into one context document for an answer or
// an LLM prompt: markdown (the question, the intents, one section per query in plan priority order
// with its items, then what failed) and the same as structured JSON. An item two queries returned
// appears once, under the first. Deterministic: same inputs, same bytes. A pure function object.
#pragma once

#include <string>
#include <vector>

#include "graph/json_value.hpp"
#include "pipelines/retrieval/query_outcome.hpp"
#include "pipelines/retrieval/reasoning.hpp"
#include "pipelines/retrieval/retrieval_plan.hpp"

namespace planfirst::retrieval {

struct SynthesizedContext {
  std::string markdown;
  graph::JsonValue document;  // {"question", "intents", "sections": [...], "failures": [...], "item_count"}
};

struct ContextInputs {
  const std::string& question;
  const Reasoning& reasoning;
  const std::vector<RetrievalPlan>& plans;
  const std::vector<QueryOutcome>& results;
};

SynthesizedContext synthesize_context(const ContextInputs& inputs);

}  // namespace planfirst::retrieval
