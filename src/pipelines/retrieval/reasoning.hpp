// Reasoning is the `reasoning` part of seed 001's agent context: the detected intents with their
// confidences, the primary and overall scores, the entities of the question and the hypotheses the
// reasoning structure derived. Plain values; JSON in the seed's shape both ways.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::retrieval {

struct Intent {
  std::string type;         // "query_commits", "query_issues", ..., or any name a state file brings
  double confidence = 0.0;  // 0..1
};

struct Hypothesis {
  std::string id;  // "h0", "h1", ...
  std::string description;
  std::vector<std::string> dependencies;  // ids of hypotheses this one needs first
};

// Entity values as the question wrote them ("last week", "2024-01-15", "in-progress", "alice"), in
// order of appearance, without repeats. Times are resolved only when a plan executes.
struct Entities {
  std::vector<std::string> projects;
  std::vector<std::string> dates;
  std::vector<std::string> statuses;
  std::vector<std::string> providers;
  std::vector<std::string> assignees;  // people the work is assigned to: "assigned to alice"
  std::vector<std::string> authors;    // people who wrote it: "commits by bob", "bob's merge requests"

  // The values of the filter called `name` ("projects", ... as in kFilterOrder); nullptr for another.
  const std::vector<std::string>* values(std::string_view name) const;
  std::vector<std::string>* values(std::string_view name);
};

struct Reasoning {
  std::vector<Intent> intents;  // highest confidence first
  double primary_score = 0.0;   // the first intent's confidence
  double overall_score = 0.0;   // the mean confidence of the intents
  std::vector<Hypothesis> hypotheses;
  Entities entities;
};

core::Json to_json(const Intent& intent);
core::Json to_json(const Hypothesis& hypothesis);
core::Json to_json(const Entities& entities);  // every key of kFilterOrder, arrays of strings
core::Json to_json(const Reasoning& reasoning);

// Reads `json` (the state's "reasoning", null when absent). Missing keys are empty; a key of the
// wrong type, an intent without a type or with a confidence outside 0..1 is kInvalidArgument
// naming the JSON pointer under `pointer`.
core::Result<Reasoning> reasoning_from_json(const core::Json& json, std::string_view pointer = "/reasoning");

}  // namespace planfirst::retrieval
