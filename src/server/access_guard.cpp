#include "server/access_guard.hpp"

#include <algorithm>

namespace planfirst::server {

std::vector<std::string> parse_api_keys(std::string_view text) {
  std::vector<std::string> keys;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string_view key = text.substr(0, comma);
    while (!key.empty() && (key.front() == ' ' || key.front() == '\t')) key.remove_prefix(1);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
    if (!key.empty()) keys.emplace_back(key);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return keys;
}

bool constant_time_equals(std::string_view given, std::string_view expected) {
  unsigned char difference = given.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const unsigned char a = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
    difference |= static_cast<unsigned char>(a ^ static_cast<unsigned char>(expected[i]));
  }
  return difference == 0;
}

AccessGuard::AccessGuard(std::vector<std::string> keys, double rate_per_second, double burst)
    : keys_(std::move(keys)), rate_(rate_per_second), burst_(std::max(burst, 1.0)) {}

bool AccessGuard::key_accepted(std::string_view given) const {
  bool accepted = false;
  for (const std::string& key : keys_) accepted |= constant_time_equals(given, key);  // no early exit
  return accepted;
}

bool AccessGuard::admit(const std::string& client, std::chrono::steady_clock::time_point now,
                        double* retry_after) {
  if (rate_ <= 0) return true;
  std::lock_guard lock(mutex_);
  if (buckets_.size() > 100'000) buckets_.clear();  // bounded memory under many clients
  auto [bucket, inserted] = buckets_.try_emplace(client, Bucket{burst_, now});
  Bucket& b = bucket->second;
  if (!inserted) {
    const double elapsed = std::chrono::duration<double>(now - b.refilled).count();
    b.tokens = std::min(burst_, b.tokens + elapsed * rate_);
    b.refilled = now;
  }
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return true;
  }
  if (retry_after != nullptr) *retry_after = (1.0 - b.tokens) / rate_;
  return false;
}

}  // namespace planfirst::server
