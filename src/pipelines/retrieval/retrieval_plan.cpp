#include "pipelines/retrieval/retrieval_plan.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/join.hpp"
#include "core/json_member.hpp"
#include "pipelines/retrieval/json_read.hpp"

namespace planfirst::retrieval {
namespace {

using core::member_or_null;

std::size_t filter_rank(std::string_view name) {
  auto found = std::find(kFilterOrder.begin(), kFilterOrder.end(), name);
  return static_cast<std::size_t>(found - kFilterOrder.begin());
}

core::Result<RetrievalPlan> plan_from_json(const core::Json& json, const std::string& pointer) {
  if (!json.is_object()) return core::invalid_argument("a plan must be an object", pointer);
  RetrievalPlan plan;
  core::Result<std::string> id = read_string(member_or_null(json, "id"), pointer + "/id");
  if (!id) return id.error();
  if (id->empty()) return core::invalid_argument("a plan needs a non-empty \"id\"", pointer + "/id");
  core::Result<std::string> description =
      read_string(member_or_null(json, "description"), pointer + "/description");
  if (!description) return description.error();
  core::Result<std::vector<std::string>> sources =
      read_strings(member_or_null(json, "sources"), pointer + "/sources");
  if (!sources) return sources.error();
  const core::Json& priority = member_or_null(json, "priority");
  if (!priority.is_number_integer())
    return core::invalid_argument("\"priority\" must be an integer", pointer + "/priority");
  const core::Json& filters = member_or_null(json, "filters");
  if (!filters.is_null() && !filters.is_object()) {
    return core::invalid_argument("\"filters\" must be an object", pointer + "/filters");
  }
  if (filters.is_object()) {
    for (const auto& [name, values] : filters.items()) {
      core::Result<std::vector<std::string>> read = read_strings(values, pointer + "/filters/" + name);
      if (!read) return read.error();
      plan.filters.push_back({name, std::move(*read)});
    }
  }
  plan.id = std::move(*id);
  plan.description = std::move(*description);
  plan.sources = std::move(*sources);
  plan.filters = normalized_filters(std::move(plan.filters));
  plan.priority = priority.get<int>();
  return plan;
}

}  // namespace

const Filter* RetrievalPlan::filter(std::string_view name) const {
  for (const Filter& filter : filters) {
    if (filter.name == name) return &filter;
  }
  return nullptr;
}

std::string query_string(const RetrievalPlan& plan) {
  std::string text = plan.description;
  for (const Filter& filter : plan.filters) {
    text += ' ';
    text += filter.name;
    text += ':';
    text += core::join(filter.values, ",");
  }
  return text;
}

std::string query_id(const RetrievalPlan& plan, std::size_t source_index) {
  return plan.id + "_query" + (source_index == 0 ? std::string() : std::to_string(source_index));
}

std::vector<RetrievalQuery> queries_for(const std::vector<RetrievalPlan>& plans) {
  std::vector<RetrievalQuery> queries;
  queries.reserve(plans.size());
  for (const RetrievalPlan& plan : plans) {
    for (std::size_t i = 0; i < plan.sources.size(); ++i) {
      queries.push_back({query_id(plan, i), query_string(plan), plan.sources[i], plan.filters});
    }
  }
  return queries;
}

std::vector<Filter> normalized_filters(std::vector<Filter> filters) {
  std::erase_if(filters, [](const Filter& filter) { return filter.values.empty(); });
  std::stable_sort(filters.begin(), filters.end(), [](const Filter& a, const Filter& b) {
    const std::size_t rank_a = filter_rank(a.name);
    const std::size_t rank_b = filter_rank(b.name);
    return rank_a != rank_b ? rank_a < rank_b : (rank_a == kFilterOrder.size() && a.name < b.name);
  });
  return filters;
}

core::Json to_json(const std::vector<Filter>& filters) {
  core::Json json = core::Json::object();
  for (const Filter& filter : filters) json[filter.name] = filter.values;
  return json;
}

core::Json to_json(const RetrievalPlan& plan) {
  return core::Json{{"id", plan.id},
                    {"description", plan.description},
                    {"sources", plan.sources},
                    {"filters", to_json(plan.filters)},
                    {"priority", plan.priority}};
}

core::Json to_json(const RetrievalQuery& query) {
  return core::Json{{"id", query.id},
                    {"query_string", query.query_string},
                    {"source", query.source},
                    {"filters", to_json(query.filters)}};
}

core::Result<std::vector<RetrievalPlan>> plans_from_json(const core::Json& json, std::string_view pointer) {
  return read_list<RetrievalPlan>(json, std::string(pointer), plan_from_json);
}

}  // namespace planfirst::retrieval
