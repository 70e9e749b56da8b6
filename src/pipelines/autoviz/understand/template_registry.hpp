// TemplateRegistry holds the base plan templates of seed 002 §1 (assets/autoviz/templates.yaml):
// for each intent of the intent contract's closed set, the template it selects, and for each
// template its ordered tool steps, which are also its curated tool subset. Immutable after load();
// threads may share one.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

struct TemplateStep {
  std::string tool;       // a tools.yaml name
  bool optional = false;  // kept only when a requirement asks for it ("summary_stats (optional)")
};

struct PlanTemplate {
  std::string name;  // e.g. "time_series_grouped"
  std::string description;
  std::vector<TemplateStep> steps;         // run order
  std::vector<std::string> tools() const;  // the steps' tools, first occurrence order
};

class TemplateRegistry {
 public:
  static constexpr std::string_view kPath = "autoviz/templates.yaml";

  // Reads kPath and the intent contract from `assets`. kInvalidArgument with "<origin>:<line>" when
  // an intent is outside the contract's set, an intent of the set has no template, an intent names
  // an unknown template, or a template has no steps.
  static core::Result<TemplateRegistry> load(const core::AssetStore& assets);

  int version() const { return version_; }
  std::vector<std::string> intents() const;                        // sorted
  const PlanTemplate* for_intent(std::string_view intent) const;   // nullptr when unknown
  const PlanTemplate* find(std::string_view template_name) const;  // nullptr when unknown
  const std::map<std::string, PlanTemplate, std::less<>>& templates() const { return templates_; }

 private:
  int version_ = 0;
  std::map<std::string, std::string, std::less<>> intents_;  // intent -> template name
  std::map<std::string, PlanTemplate, std::less<>> templates_;
};

}  // namespace planfirst::autoviz
