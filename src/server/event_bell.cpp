#include "server/event_bell.hpp"

namespace planfirst::server {

std::uint64_t EventBell::ticket(std::string_view run_id) {
  std::lock_guard lock(mutex_);
  auto found = rings_.find(run_id);
  if (found == rings_.end()) found = rings_.emplace(std::string(run_id), 0).first;
  return found->second;
}

void EventBell::ring(std::string_view run_id) {
  {
    std::lock_guard lock(mutex_);
    auto found = rings_.find(run_id);
    if (found == rings_.end()) found = rings_.emplace(std::string(run_id), 0).first;
    ++found->second;
  }
  rang_.notify_all();
}

void EventBell::wait(std::string_view run_id, std::uint64_t ticket, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const std::uint64_t epoch = epoch_;
  rang_.wait_for(lock, timeout, [&] {
    if (epoch_ != epoch) return true;
    auto found = rings_.find(run_id);
    return found == rings_.end() || found->second != ticket;
  });
}

void EventBell::forget(std::string_view run_id) {
  {
    std::lock_guard lock(mutex_);
    if (auto found = rings_.find(run_id); found != rings_.end()) rings_.erase(found);
    ++epoch_;
  }
  rang_.notify_all();
}

void EventBell::ring_all() {
  {
    std::lock_guard lock(mutex_);
    ++epoch_;
  }
  rang_.notify_all();
}

}  // namespace planfirst::server
