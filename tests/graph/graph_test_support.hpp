// Helpers shared by the graph tests: JSON from text, the shipped contracts, and RecordingCheckpointer,
// a MemoryCheckpointer that also keeps a copy of every record appended (writes included), so tests
// can see exactly what each step persisted. Not a mock: every call reaches the real store.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/node.hpp"
#include "reference_graph.hpp"

namespace planfirst::graph::testing {

inline core::Json json(std::string_view text) {
  return core::Json::parse(text);
}

inline const contracts::ContractRegistry& shipped_contracts() {
  static const contracts::ContractRegistry registry = [] {
    core::Result<contracts::ContractRegistry> loaded = contracts::ContractRegistry::load(core::AssetStore());
    if (!loaded) throw std::runtime_error(loaded.error().describe());
    return std::move(*loaded);
  }();
  return registry;
}

// Seed 003's reference graph, built from its fixture deltas and the shipped contracts.
inline CompiledGraph reference_graph() {
  core::Result<CompiledGraph> graph = build_reference_graph(reference_graph_deltas(), shipped_contracts());
  if (!graph) throw std::runtime_error(graph.error().describe());
  return *graph;
}

class RecordingCheckpointer final : public Checkpointer {
 public:
  core::Result<void> append(const CheckpointRecord& record, std::string_view expected_head) override {
    core::Result<void> result = store_.append(record, expected_head);
    if (result) {
      std::lock_guard lock(mutex_);
      appended_.push_back(record);
    }
    return result;
  }
  core::Result<std::optional<CheckpointRecord>> head(std::string_view thread_id) override {
    return store_.head(thread_id);
  }
  core::Result<CheckpointRecord> get(std::string_view thread_id, std::string_view checkpoint_id) override {
    return store_.get(thread_id, checkpoint_id);
  }
  core::Result<std::vector<StepWrite>> writes_for_state(std::string_view thread_id,
                                                        std::string_view checkpoint_id) override {
    return store_.writes_for_state(thread_id, checkpoint_id);
  }
  core::Result<std::vector<CheckpointRecord>> history(std::string_view thread_id) override {
    return store_.history(thread_id);
  }
  core::Result<std::vector<std::string>> threads() override { return store_.threads(); }
  core::Result<PruneReport> prune(std::string_view thread_id, const PruneOptions& options) override {
    return store_.prune(thread_id, options);
  }
  core::Result<void> delete_thread(std::string_view thread_id) override {
    return store_.delete_thread(thread_id);
  }
  core::Result<std::uint64_t> stored_bytes(std::string_view thread_id) override {
    return store_.stored_bytes(thread_id);
  }

  std::vector<CheckpointRecord> appended() const {
    std::lock_guard lock(mutex_);
    return appended_;
  }
  // Every appended record as one line of text (writes included), for byte-for-byte comparisons.
  std::string transcript() const {
    std::string text;
    for (const CheckpointRecord& r : appended()) {
      text += r.thread_id + " " + r.checkpoint_id + " <- " + r.parent_id + " step " + std::to_string(r.step) +
              " " + r.node + " -> " + r.next_node + " " + std::string(to_string(r.status)) + " " +
              r.metadata_json;
      for (const KeyWrite& w : r.writes)
        text += " | " + w.key + " " + std::string(to_string(w.kind)) + " " + w.value_json;
      text += "\n";
    }
    return text;
  }

 private:
  MemoryCheckpointer store_;
  mutable std::mutex mutex_;
  std::vector<CheckpointRecord> appended_;  // guarded by mutex_
};

// A node that returns `delta` (JSON text) every time.
inline NodeFunction returns(std::string_view delta) {
  return [value = json(delta)](const StateView&, const NodeContext&) -> core::Result<Delta> {
    return Delta(value);
  };
}

}  // namespace planfirst::graph::testing
