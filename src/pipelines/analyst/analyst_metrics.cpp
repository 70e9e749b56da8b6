#include "pipelines/analyst/analyst_metrics.hpp"

#include <string>

#include "core/metrics.hpp"

namespace planfirst::analyst {

AnalystMetrics::AnalystMetrics(core::MetricsRegistry* registry) : registry_(registry) {
  if (registry_ == nullptr) return;
  using core::MetricType;
  registry_->describe("analyst_plan_success_total", MetricType::kCounter,
                      "Analyst plans that passed the output guard");
  registry_->describe("analyst_plan_fallback_total", MetricType::kCounter,
                      "Analyst plans replaced by the safe fallback plan, by reason");
  registry_->describe("analyst_questions_generated_total", MetricType::kCounter,
                      "Clarifying questions in accepted analyst plans");
  registry_->describe("analyst_source_selection", MetricType::kCounter,
                      "Sources selected by analyst plans, by source and request type");
  registry_->describe("analyst_output_guard_failures_total", MetricType::kCounter,
                      "Analyst output guard failures that were repaired, by reason");
}

void AnalystMetrics::plan_succeeded() const {
  if (registry_ != nullptr) registry_->counter("analyst_plan_success_total").inc();
}

void AnalystMetrics::plan_fell_back(std::string_view reason) const {
  if (registry_ != nullptr)
    registry_->counter("analyst_plan_fallback_total", {{"reason", std::string(reason)}}).inc();
}

void AnalystMetrics::guard_failed(std::string_view reason) const {
  if (registry_ != nullptr) {
    registry_->counter("analyst_output_guard_failures_total", {{"reason", std::string(reason)}}).inc();
  }
}

void AnalystMetrics::plan_selected(const AnalystPlan& plan) const {
  if (registry_ == nullptr) return;
  registry_->counter("analyst_questions_generated_total")
      .inc(static_cast<double>(plan.missing_info_questions.size()));
  for (const std::string& source : plan.required_sources) {
    registry_
        ->counter("analyst_source_selection",
                  {{"source", source}, {"request_type", std::string(to_string(plan.request_type))}})
        .inc();
  }
}

}  // namespace planfirst::analyst
