// AnalystMetrics counts seed 000 §10's metrics in a MetricsRegistry the caller owns (may be null:
// nothing is counted): analyst_plan_success_total, analyst_plan_fallback_total{reason},
// analyst_questions_generated_total, analyst_source_selection{source,request_type}, and
// analyst_output_guard_failures_total{reason} for guard failures that were repaired (source_forbidden).
// Thread-safe as the registry is.
#pragma once

#include <string_view>

#include "pipelines/analyst/analyst_plan.hpp"

namespace planfirst::core {
class MetricsRegistry;
}

namespace planfirst::analyst {

class AnalystMetrics {
 public:
  explicit AnalystMetrics(core::MetricsRegistry* registry);  // declares the families' help texts

  void plan_succeeded() const;
  void plan_fell_back(std::string_view reason) const;  // "parse_error", "validation_failed"
  void guard_failed(std::string_view reason) const;    // "source_forbidden"
  // analyst_questions_generated_total += questions, and one analyst_source_selection per source.
  void plan_selected(const AnalystPlan& plan) const;

 private:
  core::MetricsRegistry* registry_;  // borrowed; may be null
};

}  // namespace planfirst::analyst
