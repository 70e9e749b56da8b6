// HypothesisLog keeps the hypothesis lifecycle of seed 004 in a SQLite file: each rewrite the
// analyst proposes is HYPOTHESIZED, TESTED once its proof ran, then CONFIRMED (same rows and
// >= 1.10x) or REJECTED; the strategy leaderboard is the success rate per transform x engine.
// Owns its connection; not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "data/database.hpp"

namespace planfirst::sqlopt {

struct LeaderboardRow {
  std::string transform;
  std::string engine;
  long long tested = 0;
  long long confirmed = 0;
  double success_rate = 0;  // confirmed / tested
};

class HypothesisLog {
 public:
  // Opens (creating when missing) the SQLite file at `path`; errors name the file.
  static core::Result<HypothesisLog> open(std::string_view path);

  // A new HYPOTHESIZED row for `transform` on `engine` for the query with `fingerprint`; its id.
  core::Result<long long> hypothesize(const std::string& fingerprint, const std::string& engine,
                                      const std::string& transform, const std::string& rule);
  // TESTED, then CONFIRMED when `equivalent` and `verdict` is "WIN", else REJECTED.
  core::Result<void> settle(long long id, bool equivalent, double speedup, const std::string& verdict);

  // Transforms by success rate (then name, engine), over settled hypotheses.
  core::Result<std::vector<LeaderboardRow>> leaderboard();
  // The status of hypothesis `id`.
  core::Result<std::string> status(long long id);

 private:
  explicit HypothesisLog(std::unique_ptr<data::Database> db) : db_(std::move(db)) {}
  std::unique_ptr<data::Database> db_;
};

// A stable 16-hex-digit fingerprint of a query's text.
std::string query_fingerprint(std::string_view sql);

}  // namespace planfirst::sqlopt
