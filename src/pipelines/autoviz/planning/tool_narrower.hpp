// ToolNarrower is seed 002 §4: from the 27-tool registry to the few a plan may use. Template tools
// are always in; each requirement (and all of them together) becomes a query, and the queries are
// embedded and searched as one batch against an index of the tools' compact documents (name,
// description, capabilities, params); the best-scoring retrieved tools fill up to the cap; the
// safety set (aggregate, plot_line, compute_summary_stats) is added when missing, even past the
// cap. The index is cached by the hash of the embedder and the documents, so it is rebuilt only
// when the registry changes. Deterministic; immutable after build().
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "embed/embedder.hpp"
#include "embed/vector_index.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {

struct NarrowedTool {
  std::string tool;
  std::string source;  // "template", "retrieval" or "safety"
  double score = 0;    // best cosine over the queries; 0 for a tool no query retrieved
  std::string query;   // the query that scored it best
  core::Json to_json() const;
};

// assets/autoviz/narrowing.yaml: the cap, hits per query, the safety set and the query phrasing.
struct NarrowingOptions {
  static constexpr std::string_view kPath = "autoviz/narrowing.yaml";

  std::size_t cap = 8;        // template and safety tools are never dropped to meet it
  std::size_t per_query = 3;  // hits taken per query
  std::vector<std::string> safety;
  std::map<std::string, std::string> phrasing;  // "metric", "group_by", "time", "constraint": "... {} ..."
  std::map<std::string, std::string> analysis;  // analysis label -> query
  std::map<std::string, std::string> outputs;   // output label -> query

  // kInvalidArgument with "<origin>:<line>" for a missing or malformed entry.
  static core::Result<NarrowingOptions> load(const core::AssetStore& assets);
};

class ToolNarrower {
 public:
  // REQUIRES: `tools` and `embedder` outlive the narrower. `cache_dir` empty: no cache.
  static core::Result<ToolNarrower> build(const ToolRegistry& tools, const embed::Embedder& embedder,
                                          const std::filesystem::path& cache_dir, NarrowingOptions options);

  core::Result<std::vector<NarrowedTool>> narrow(const Requirements& requirements,
                                                 const PlanTemplate& base) const;

  // The `k` tools whose documents best match `query`, best first (source "retrieval").
  core::Result<std::vector<NarrowedTool>> search(std::string_view query, std::size_t k) const;

  // The queries narrow() runs: one per requirement, then all of them together.
  std::vector<std::string> queries(const Requirements& requirements) const;
  // A tool's compact document, as embedded.
  static std::string document(const ToolSpec& tool);

 private:
  ToolNarrower(const ToolRegistry& tools, const embed::Embedder& embedder, embed::VectorIndex index,
               NarrowingOptions options)
      : tools_(&tools), embedder_(&embedder), index_(std::move(index)), options_(std::move(options)) {}

  const ToolRegistry* tools_;
  const embed::Embedder* embedder_;
  embed::VectorIndex index_;
  NarrowingOptions options_;
};

}  // namespace planfirst::autoviz
