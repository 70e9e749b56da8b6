#include "graph/events.hpp"

#include <nlohmann/json.hpp>

#include "core/json.hpp"

namespace planfirst::graph {

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::kUpdates: return "updates";
    case EventKind::kValues: return "values";
    case EventKind::kNodeStart: return "node_start";
    case EventKind::kNodeEnd: return "node_end";
    case EventKind::kInterrupt: return "interrupt";
    case EventKind::kError: return "error";
    case EventKind::kProgress: return "progress";
  }
  return "error";
}

std::string_view stream_mode(EventKind kind) {
  switch (kind) {
    case EventKind::kUpdates: return "updates";
    case EventKind::kValues: return "values";
    default: return "events";
  }
}

std::string Event::to_json_line() const {
  core::Json line = core::Json::object();
  line["mode"] = stream_mode(kind);
  line["event"] = to_string(kind);
  line["thread_id"] = thread_id;
  line["checkpoint_id"] = checkpoint_id;
  line["node"] = node;
  line["step"] = step;
  line["data"] = data.json();
  return line.dump();
}

void JsonLinesEventPrinter::on_event(const Event& event) {
  const std::string line = event.to_json_line();
  std::lock_guard lock(mutex_);
  out_ << line << '\n';
  out_.flush();
}

void EventLog::on_event(const Event& event) {
  std::lock_guard lock(mutex_);
  events_.push_back(event);
}

std::vector<Event> EventLog::events() const {
  std::lock_guard lock(mutex_);
  return events_;
}

}  // namespace planfirst::graph
