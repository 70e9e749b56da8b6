// Shared pieces of the analyst tests: services over the shipped assets with the router model cached
// once per test program, OrbitSource (an in-memory RetrievalSource that records every query and
// answers with fixed Orbit evidence, or fails), and a graph runner with a memory checkpointer.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/metrics.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/runner.hpp"
#include "pipelines/analyst/analyst_graph.hpp"
#include "pipelines/analyst/analyst_services.hpp"
#include "sources/retrieval_source.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::analyst::testing {

// One cache folder per test program, so the router model is trained once.
inline const std::filesystem::path& model_cache() {
  static const test_support::TempDir dir;
  return dir.path();
}

class OrbitSource final : public sources::RetrievalSource {
 public:
  explicit OrbitSource(std::string name, bool fail = false) : name_(std::move(name)), fail_(fail) {}

  std::string name() const override { return name_; }

  core::Result<std::vector<sources::EvidenceItem>> fetch(const sources::SourceQuery& query,
                                                         const core::CancellationToken*) const override {
    {
      std::lock_guard lock(mutex_);
      queries_.push_back(query);
    }
    if (fail_) return core::unavailable(name_ + " is down", name_);
    sources::EvidenceItem item;
    item.source = name_;
    item.provenance = {name_, "", query.text, "2026-11-23T09:00:00Z"};
    if (name_ == "db") {
      item.id = "db:metric/sprint_completion_rate/13";
      item.title = "sprint completion rate, Sprint 13";
      item.fields = {{"metric", "sprint_completion_rate"},
                     {"value", "87.5"},
                     {"unit", "percent"},
                     {"period", "Sprint 13 (2026-11-09 .. 2026-11-22)"}};
      item.provenance.locator = "metric catalog: sprint_completion_rate";
      item.provenance.query =
          "SELECT 100.0 * done_points / committed_points FROM sprint_completion WHERE sprint_id = $1";
    } else if (name_ == "doc") {
      item.id = "doc:architecture.md#Component map";
      item.title = "Component map";
      item.snippet = "billing-engine depends on invoice-renderer and payments-connector.";
      item.provenance.locator = "docs/architecture.md#Component map";
    } else if (name_ == "policy") {
      item.id = "policy:deployments.md#Hotfixes";
      item.title = "Hotfixes";
      item.snippet = "A production hotfix needs one approval from the on-call lead (Tomasz Nowak).";
      item.provenance.locator = "policies/deployments.md#Hotfixes";
    } else {
      item.id = "neo4j:component/billing-engine";
      item.title = "billing-engine";
      item.snippet = "owned by daniel.okafor; depends on invoice-renderer, payments-connector";
      item.provenance.locator = "MATCH (c:Component {id: $id})-[:DEPENDS_ON]->(d) RETURN c, d";
    }
    item.score = 1.0;
    return std::vector<sources::EvidenceItem>{item};
  }

  std::vector<sources::SourceQuery> queries() const {
    std::lock_guard lock(mutex_);
    return queries_;
  }

 private:
  std::string name_;
  bool fail_;
  mutable std::mutex mutex_;
  mutable std::vector<sources::SourceQuery> queries_;  // guarded by mutex_
};

struct OrbitSources {
  std::map<std::string, std::shared_ptr<OrbitSource>> by_name;
  sources::SourceMap map() const {
    sources::SourceMap sources;
    for (const auto& [name, source] : by_name) sources.emplace(name, source);
    return sources;
  }
  std::size_t calls(const std::string& name) const { return by_name.at(name)->queries().size(); }
};

inline OrbitSources all_orbit_sources() {
  OrbitSources sources;
  for (const char* name : {"db", "doc", "policy", "neo4j"})
    sources.by_name[name] = std::make_shared<OrbitSource>(name);
  return sources;
}

inline std::shared_ptr<const AnalystServices> load_services(AnalystOptions options = {}) {
  if (options.cache_dir.empty()) options.cache_dir = model_cache();
  core::Result<std::shared_ptr<const AnalystServices>> services =
      AnalystServices::load(core::AssetStore(), std::move(options));
  EXPECT_TRUE(services.has_value()) << (services ? "" : services.error().describe());
  return services ? *services : nullptr;
}

// A runner over the analyst graph with its own memory checkpointer.
struct GraphHarness {
  explicit GraphHarness(std::shared_ptr<const AnalystServices> services)
      : runner(*build_analyst_graph(std::move(services)), options()) {}

  core::Result<graph::RunResult> ask(const std::string& question, const std::string& thread = "t1") {
    return runner.run(thread, graph::JsonValue(nlohmann::json{{"user_query", question}}));
  }

  graph::MemoryCheckpointer checkpointer;
  graph::Runner runner;

 private:
  graph::RunnerOptions options() {
    graph::RunnerOptions options;
    options.checkpointer = &checkpointer;
    return options;
  }
};

inline double counter(const core::MetricsRegistry& metrics, const std::string& series) {
  const std::string text = metrics.render_prometheus();
  const std::size_t at = text.find("\n" + series + " ");
  return at == std::string::npos ? 0.0 : std::stod(text.substr(at + series.size() + 2));
}

}  // namespace planfirst::analyst::testing
