#include "pipelines/autoviz/planning/tool_narrower.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/join.hpp"
#include "core/registry_yaml.hpp"
#include "embed/index_cache.hpp"

namespace planfirst::autoviz {
namespace {

bool has(const std::vector<NarrowedTool>& list, const std::string& tool) {
  return std::any_of(list.begin(), list.end(), [&](const NarrowedTool& t) { return t.tool == tool; });
}

}  // namespace

core::Json NarrowedTool::to_json() const {
  return {{"tool", tool}, {"source", source}, {"score", score}, {"query", query}};
}

std::string ToolNarrower::document(const ToolSpec& tool) {
  return tool.name + ": " + tool.description + " Capabilities: " + core::join(tool.capabilities) +
         ". Params: " + core::join(tool.param_names) + ".";
}

std::vector<std::string> ToolNarrower::queries(const Requirements& requirements) const {
  const auto phrase = [this](const char* kind, const std::string& value) {
    std::string text = options_.phrasing.at(kind);
    if (const std::size_t at = text.find("{}"); at != std::string::npos) text.replace(at, 2, value);
    return text;
  };
  const auto labelled = [](const std::map<std::string, std::string>& map, const std::string& label) {
    auto it = map.find(label);
    return it == map.end() ? label : it->second;
  };
  std::vector<std::string> queries;
  for (const std::string& metric : requirements.metrics) queries.push_back(phrase("metric", metric));
  for (const std::string& column : requirements.group_by) queries.push_back(phrase("group_by", column));
  if (requirements.time.column) queries.push_back(phrase("time", *requirements.time.column));
  for (const std::string& label : requirements.analysis)
    queries.push_back(labelled(options_.analysis, label));
  for (const std::string& label : requirements.outputs) queries.push_back(labelled(options_.outputs, label));
  for (const Constraint& c : requirements.constraints)
    queries.push_back(phrase("constraint", c.type + " " + c.column));
  std::string all;
  for (const std::string& query : queries) all += (all.empty() ? "" : "; ") + query;
  if (!all.empty()) queries.push_back(all);
  return queries;
}

core::Result<NarrowingOptions> NarrowingOptions::load(const core::AssetStore& assets) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, kPath);
  if (!yaml) return yaml.error();
  return yaml->guarded<NarrowingOptions>([&]() -> core::Result<NarrowingOptions> {
    NarrowingOptions options;
    const YAML::Node& root = yaml->root();
    options.cap = root["cap"].as<std::size_t>(8);
    options.per_query = root["per_query"].as<std::size_t>(3);
    core::Result<std::vector<std::string>> safety = yaml->names(root, "safety", "narrowing");
    if (!safety) return safety.error();
    options.safety = std::move(*safety);
    core::Result<YAML::Node> queries = yaml->mapping(root, "queries", "narrowing");
    if (!queries) return queries.error();
    for (const char* kind : {"metric", "group_by", "time", "constraint"}) {
      core::Result<std::string> text = yaml->scalar(*queries, kind, "narrowing queries");
      if (!text) return text.error();
      options.phrasing[kind] = *text;
    }
    for (auto [key, target] :
         {std::pair{"analysis", &options.analysis}, std::pair{"outputs", &options.outputs}}) {
      core::Result<YAML::Node> map = yaml->mapping(*queries, key, "narrowing queries");
      if (!map) return map.error();
      for (const auto& entry : *map)
        (*target)[entry.first.as<std::string>()] = entry.second.as<std::string>();
    }
    return options;
  });
}

core::Result<ToolNarrower> ToolNarrower::build(const ToolRegistry& tools, const embed::Embedder& embedder,
                                               const std::filesystem::path& cache_dir,
                                               NarrowingOptions options) {
  std::vector<std::string> documents;
  for (const ToolSpec& tool : tools.tools()) documents.push_back(document(tool));
  if (!cache_dir.empty()) {
    core::Result<embed::CachedIndex> cached = embed::IndexCache(cache_dir).load_or_build(embedder, documents);
    if (!cached) return cached.error();
    return ToolNarrower(tools, embedder, std::move(cached->index), std::move(options));
  }
  core::Result<embed::EmbeddingMatrix> vectors = embedder.embed(documents);
  if (!vectors) return vectors.error();
  core::Result<embed::VectorIndex> index = embed::VectorIndex::build(*vectors);
  if (!index) return index.error();
  return ToolNarrower(tools, embedder, std::move(*index), std::move(options));
}

core::Result<std::vector<NarrowedTool>> ToolNarrower::search(std::string_view query, std::size_t k) const {
  const std::vector<std::string> texts = {std::string(query)};
  core::Result<embed::EmbeddingMatrix> vectors = embedder_->embed(texts);
  if (!vectors) return vectors.error();
  core::Result<std::vector<embed::SearchHit>> hits = index_.search(vectors->row(0), k);
  if (!hits) return hits.error();
  std::vector<NarrowedTool> found;
  for (const embed::SearchHit& hit : *hits) {
    found.push_back(
        {tools_->tools()[static_cast<std::size_t>(hit.id)].name, "retrieval", hit.score, texts[0]});
  }
  return found;
}

core::Result<std::vector<NarrowedTool>> ToolNarrower::narrow(const Requirements& requirements,
                                                             const PlanTemplate& base) const {
  const std::vector<std::string> texts = queries(requirements);
  std::map<std::string, NarrowedTool> best;  // tool -> its best hit
  if (!texts.empty()) {
    core::Result<embed::EmbeddingMatrix> vectors = embedder_->embed(texts);
    if (!vectors) return vectors.error();
    core::Result<std::vector<std::vector<embed::SearchHit>>> hits =
        index_.search(*vectors, options_.per_query);
    if (!hits) return hits.error();
    for (std::size_t q = 0; q < texts.size(); ++q) {
      for (const embed::SearchHit& hit : (*hits)[q]) {
        const std::string& name = tools_->tools()[static_cast<std::size_t>(hit.id)].name;
        NarrowedTool& entry = best[name];
        if (entry.tool.empty() || hit.score > entry.score) entry = {name, "retrieval", hit.score, texts[q]};
      }
    }
  }
  std::vector<NarrowedTool> chosen;
  for (const std::string& tool : base.tools()) {
    NarrowedTool entry = best.count(tool) ? best[tool] : NarrowedTool{tool, "", 0, ""};
    entry.source = "template";
    chosen.push_back(std::move(entry));
  }
  std::vector<NarrowedTool> retrieved;
  for (const auto& [name, entry] : best) {
    if (!has(chosen, name)) retrieved.push_back(entry);
  }
  std::stable_sort(retrieved.begin(), retrieved.end(),
                   [](const NarrowedTool& a, const NarrowedTool& b) { return a.score > b.score; });
  for (const NarrowedTool& entry : retrieved) {
    if (chosen.size() >= options_.cap) break;
    chosen.push_back(entry);
  }
  for (const std::string& tool : options_.safety) {
    if (!has(chosen, tool)) chosen.push_back({tool, "safety", best.count(tool) ? best[tool].score : 0, ""});
  }
  return chosen;
}

}  // namespace planfirst::autoviz
