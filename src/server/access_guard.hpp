// AccessGuard is the server's gate before any route: API keys (PLANFIRST_API_KEYS, comma-separated,
// compared in constant time, sent as `X-Api-Key` or `Authorization: Bearer`) and a per-client token
// bucket (requests per second with a burst). Thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::server {

// Parses "key1,key2" (blanks around keys ignored, empty ones dropped).
std::vector<std::string> parse_api_keys(std::string_view text);

// Equal, taking the same time for any two strings of `expected`'s length and for any mismatch.
bool constant_time_equals(std::string_view given, std::string_view expected);

class AccessGuard {
 public:
  // `keys` empty: no key needed. `rate` <= 0: no rate limit.
  AccessGuard(std::vector<std::string> keys, double rate_per_second, double burst);

  bool keys_required() const { return !keys_.empty(); }
  bool key_accepted(std::string_view given) const;
  // Takes one token of `client`'s bucket; false (and the seconds to wait) when it is empty.
  bool admit(const std::string& client, std::chrono::steady_clock::time_point now, double* retry_after);

 private:
  struct Bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point refilled;
  };
  std::vector<std::string> keys_;
  double rate_;
  double burst_;
  std::mutex mutex_;
  std::map<std::string, Bucket> buckets_;  // guarded by mutex_
};

}  // namespace planfirst::server
