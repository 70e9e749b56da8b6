// Event is one item of a run's stream: `updates` (a node's validated delta), `values` (the full
// state after a step, when asked for) and `events` (node_start, node_end, interrupt, error,
// progress), each with thread id, checkpoint id and node path ("fan_out/b2" for a branch).
// EventSink receives them; a sink shared by parallel branches must be thread-safe (both here are).
#pragma once

#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "graph/json_value.hpp"

namespace planfirst::graph {

enum class EventKind {
  kUpdates,    // data: the node's delta as merged
  kValues,     // data: the whole state after the step
  kNodeStart,  // data: {}
  kNodeEnd,    // data: {"status": "running"|"interrupted"|"done"}
  kInterrupt,  // data: {"message": ..., "prompt": ...}
  kError,      // data: {"code": ..., "message": ..., "where": ...}
  kProgress,   // data: {"message": ...}, sent by a node through NodeContext::progress
};
std::string_view to_string(EventKind kind);    // "updates", "values", "node_start", ...
std::string_view stream_mode(EventKind kind);  // "updates", "values" or "events"

struct Event {
  EventKind kind = EventKind::kNodeStart;
  std::string thread_id;
  std::string checkpoint_id;  // node_start: the checkpoint the node starts from; else the one it wrote
  std::string node;           // node path
  std::int64_t step = 0;      // the step of checkpoint_id
  JsonValue data;             // an object, as EventKind says; sinks that need text dump it

  // One JSON object: {"mode","event","thread_id","checkpoint_id","node","step","data"}.
  std::string to_json_line() const;
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void on_event(const Event& event) = 0;
};

// Writes each event as one JSON line to a borrowed stream (the CLI's --events). REQUIRES: the
// stream outlives the printer.
class JsonLinesEventPrinter final : public EventSink {
 public:
  explicit JsonLinesEventPrinter(std::ostream& out) : out_(out) {}
  void on_event(const Event& event) override;

 private:
  std::mutex mutex_;
  std::ostream& out_;  // guarded by mutex_
};

// Keeps every event in arrival order, for tests and for callers that render a run afterwards.
class EventLog final : public EventSink {
 public:
  void on_event(const Event& event) override;
  std::vector<Event> events() const;

 private:
  mutable std::mutex mutex_;
  std::vector<Event> events_;  // guarded by mutex_
};

}  // namespace planfirst::graph
