#include "server/run_event_log.hpp"

#include <nlohmann/json.hpp>
#include <utility>

namespace planfirst::server {

RunEventLog::RunEventLog(RunStore& store, EventBell& bell, core::MetricsRegistry& metrics, std::string run_id,
                         std::string assistant_id)
    : store_(store),
      bell_(bell),
      metrics_(metrics),
      run_id_(std::move(run_id)),
      assistant_id_(std::move(assistant_id)) {}

std::string RunEventLog::key_for(const graph::Event& event, std::string_view what) {
  std::string key = std::to_string(event.step) + ":" + event.node + ":" + std::string(what);
  const int ordinal = ordinals_[key]++;
  return key + ":" + std::to_string(ordinal);
}

void RunEventLog::on_event(const graph::Event& event) {
  std::lock_guard lock(mutex_);
  switch (event.kind) {
    case graph::EventKind::kValues:
      write(key_for(event, "values"), "values", event.data.json().dump());
      return;
    case graph::EventKind::kUpdates: {
      metrics_.counter("planfirst_server_steps_total", {{"assistant", assistant_id_}}).inc();
      write(key_for(event, "updates"), "updates", core::Json{{event.node, event.data.json()}}.dump());
      auto reasoning = event.data.json().find("reasoning");
      if (reasoning == event.data.json().end() || !reasoning->is_array()) return;
      for (const core::Json& item : *reasoning) {
        core::Json data = item.is_object() ? item : core::Json{{"step_text", item}};
        data["type"] = "reasoning";
        data["node"] = event.node;
        write(key_for(event, "reasoning"), "custom", data.dump());
      }
      return;
    }
    case graph::EventKind::kProgress: {
      core::Json data = event.data.json();
      data["type"] = "progress";
      data["node"] = event.node;
      write(key_for(event, "progress"), "custom", data.dump());
      return;
    }
    default: break;
  }
  write(key_for(event, graph::to_string(event.kind)), "events", event.to_json_line());
}

core::Result<void> RunEventLog::append(const std::string& key, const std::string& event,
                                       const core::Json& data) {
  std::lock_guard lock(mutex_);
  write(key, event, data.dump());
  if (error_) return *error_;
  return core::ok();
}

void RunEventLog::write(const std::string& key, const std::string& event, const std::string& data_json) {
  core::Result<bool> appended = store_.append_event(run_id_, key, event, data_json, now_millis());
  if (!appended && !error_) error_ = appended.error();
  if (appended && *appended) metrics_.counter("planfirst_server_events_total", {{"event", event}}).inc();
  bell_.ring(run_id_);
}

std::optional<core::Error> RunEventLog::first_error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

}  // namespace planfirst::server
