// StrategyRecord says which strategy produced a planning stage's result (intent, requirements,
// adapt): the model, in how many calls, or the rules, and when the model was asked first, why its
// answer was not used. Offline no model is asked and the record stays empty, so nodes write it only
// when asked_model(). A value type.
#pragma once

#include <string>
#include <string_view>

#include "core/json.hpp"

namespace planfirst::autoviz {

struct StrategyRecord {
  std::string strategy = "rules";  // "llm" or "rules"
  std::string model;               // the model asked; "" when none was (offline)
  int attempts = 0;                // model calls, re-asks included
  std::string fallback;            // why the rules answered after the model was asked; "" otherwise
  bool unreachable = false;        // the model's server could not be reached: later stages skip it

  bool asked_model() const { return !model.empty(); }
  // {"stage", "strategy", "model", "attempts", "fallback"?, "unreachable"?}: one item of the state's
  // "strategies".
  core::Json to_json(std::string_view stage) const;
  // For a node's reasoning line: "llm (m, 1 call)" or "rules (llm m gave up: <why, first two lines>)".
  std::string describe() const;
};

}  // namespace planfirst::autoviz
