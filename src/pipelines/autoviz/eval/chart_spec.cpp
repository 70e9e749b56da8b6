#include "pipelines/autoviz/eval/chart_spec.hpp"

#include <nlohmann/json.hpp>

#include "pipelines/autoviz/plan.hpp"

namespace planfirst::autoviz {
namespace {

std::optional<std::int64_t> integer_param(const PlanStep& step, std::string_view name) {
  auto it = step.params.find(name);
  if (it == step.params.end() || it->second.items.empty()) return std::nullopt;
  if (const auto* n = std::get_if<std::int64_t>(&it->second.items.front())) return *n;
  return std::nullopt;
}

std::string chart_of_tool(std::string_view tool) {
  if (tool == "plot_bar" || tool == "plot_histogram") return "bar";
  if (tool == "plot_line") return "line";
  if (tool == "plot_scatter") return "scatter";
  if (tool == "plot_pie") return "pie";
  return {};
}

struct Aggregation {
  std::string func;
  std::string metric;
};

}  // namespace

core::Json ChartSpec::to_json() const {
  core::Json filter_list = core::Json::array();
  for (const FilterAtom& f : filters)
    filter_list.push_back({{"column", f.column}, {"op", f.op}, {"value", f.value.to_json()}});
  return {{"chart", chart},
          {"x", x},
          {"y", y},
          {"aggregate", aggregate.empty() ? core::Json() : core::Json(aggregate)},
          {"distinct", distinct},
          {"color", color.empty() ? core::Json() : core::Json(color)},
          {"bin", bin.empty() ? core::Json() : core::Json(bin)},
          {"sort", sort ? core::Json{{"by", sort->by}, {"order", sort->order}} : core::Json()},
          {"limit", limit ? core::Json(*limit) : core::Json()},
          {"filters", filter_list}};
}

ChartSpec chart_spec_of(const Plan& plan) {
  ChartSpec spec;
  std::optional<Aggregation> aggregation;
  std::string bucket_column, bucket_grain, sort_by, sort_order;
  for (const PlanStep& step : plan.steps) {
    if (step.tool == "filter_rows") {
      auto value = step.params.find("value");
      spec.filters.push_back({text_param(step.params, "column"), text_param(step.params, "op"),
                              value == step.params.end() ? ParamValue{} : value->second});
    } else if (step.tool == "time_bucket") {
      bucket_column = text_param(step.params, "column");
      bucket_grain = text_param(step.params, "grain");
      if (bucket_grain.empty()) bucket_grain = "auto";
    } else if (step.tool == "aggregate") {
      auto metrics = step.params.find("metrics");
      const auto* first = metrics == step.params.end() || metrics->second.items.empty()
                              ? nullptr
                              : std::get_if<std::string>(&metrics->second.items.front());
      aggregation =
          Aggregation{text_param(step.params, "agg_func"), first == nullptr ? std::string() : *first};
      if (aggregation->func.empty()) aggregation->func = "sum";
    } else if (step.tool == "segment_metric") {
      aggregation = Aggregation{text_param(step.params, "agg_func"), text_param(step.params, "metric")};
      if (aggregation->func.empty()) aggregation->func = "sum";
    } else if (step.tool == "sort_limit") {
      sort_by = text_param(step.params, "by");
      sort_order = text_param(step.params, "direction");
      spec.limit = integer_param(step, "limit");
    } else if (const std::string chart = chart_of_tool(step.tool); !chart.empty()) {
      spec.chart = chart;
      const bool pie = step.tool == "plot_pie";
      spec.x = text_param(step.params, pie ? "category" : (step.tool == "plot_histogram" ? "column" : "x"));
      spec.y = text_param(step.params, pie ? "value" : "y");
      spec.color = pie ? std::string() : text_param(step.params, "color");
    }
  }
  if (aggregation) {
    spec.aggregate = aggregation->func == "count_distinct" ? "count" : aggregation->func;
    spec.distinct = aggregation->func == "count_distinct";
    if (spec.y.empty()) spec.y = aggregation->metric;
  }
  if (!bucket_column.empty() && bucket_column == spec.x) spec.bin = bucket_grain;
  if (!sort_by.empty()) {
    const std::string axis = sort_by == spec.x ? "x" : (sort_by == spec.y ? "y" : sort_by);
    spec.sort = ChartSort{axis, sort_order.empty() ? "asc" : sort_order};
  }
  return spec;
}

}  // namespace planfirst::autoviz
