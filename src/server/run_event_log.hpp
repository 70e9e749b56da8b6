// RunEventLog is a graph EventSink that appends a run's events to its durable log in the RunStore
// under the SSE names of the stream modes: `values` (the state after a step), `updates` ({node:
// delta}), `custom` (progress messages and each reasoning item a delta adds, seed 003 §1) and
// `events` (node_start, node_end, interrupt, error). Each event has a key made of its step, node and
// kind, so a run taken over after a crash never logs an event twice. Thread-safe (fan-out branches).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/json.hpp"
#include "core/metrics.hpp"
#include "graph/events.hpp"
#include "server/event_bell.hpp"
#include "server/run_store.hpp"

namespace planfirst::server {

class RunEventLog final : public graph::EventSink {
 public:
  // REQUIRES: all outlive the log.
  RunEventLog(RunStore& store, EventBell& bell, core::MetricsRegistry& metrics, std::string run_id,
              std::string assistant_id);

  void on_event(const graph::Event& event) override;
  // Appends one event the server itself sends (metadata, end) under `key`.
  core::Result<void> append(const std::string& key, const std::string& event, const core::Json& data);
  std::optional<core::Error> first_error() const;  // the first append that failed, if any

 private:
  void write(const std::string& key, const std::string& event, const std::string& data_json);
  std::string key_for(const graph::Event& event, std::string_view what);  // REQUIRES: mutex_ held

  RunStore& store_;
  EventBell& bell_;
  core::MetricsRegistry& metrics_;
  const std::string run_id_;
  const std::string assistant_id_;
  mutable std::mutex mutex_;
  std::map<std::string, int> ordinals_;  // guarded by mutex_; events so far per step, node and kind
  std::optional<core::Error> error_;     // guarded by mutex_
};

}  // namespace planfirst::server
