// analyze_qerror measures, per operator, how far the optimizer's row estimate is from the rows it
// produced (seed §2b-i): q = max(est/act, act/est); both 0 -> 1; one 0 -> the other; direction OVER,
// UNDER or ZERO at 1.5x; the operator's locus; the routes to transforms; structural flags.
// Deterministic: same plan, same report.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/operator_catalog.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"

namespace planfirst::sqlopt {

inline constexpr double kQErrorThreshold = 1.5;

struct OperatorQError {
  int id = 0;
  std::string op;
  std::string locus;        // from the catalog; "UNKNOWN" when the catalog does not know the operator
  std::optional<double> q;  // none: no signal
  std::string direction;    // "OVER", "UNDER", "ZERO", "ACCURATE" or "NO_SIGNAL"
  std::string no_signal;    // why there is no signal ("no estimate", "never executed", ...)
};

struct QErrorRoute {
  int operator_id = -1;  // the operator with the largest q of this direction x locus
  std::string direction;
  std::string locus;
  std::string pathology;
  std::vector<std::string> transforms;
};

struct QErrorReport {
  std::vector<OperatorQError> operators;  // plan order
  std::optional<int> worst;               // id of the operator with the largest q (first on ties)
  std::vector<QErrorRoute> routes;        // for each distinct direction x locus with a signal, worst first
  std::vector<std::string> flags;         // structural flags ("EST_ZERO", "DISK_SORT", ...), sorted
  std::vector<std::string> unknown_operators;  // operator names the catalog lacks, sorted, unique

  const OperatorQError* worst_operator() const;
  // {"max_q", "worst": {...}, "operators": [...], "routes": [...], "flags": [...], "unknown_operators"}
  core::Json to_json() const;
  // The §2b-i text: direction + locus routing and flags, no magnitudes.
  std::string to_prompt_text() const;
};

class QErrorRouting {
 public:
  static core::Result<QErrorRouting> load(const core::AssetStore& assets);
  static core::Result<QErrorRouting> from_json(const core::Json& json);
  // The route for a direction and locus, or none.
  std::optional<QErrorRoute> route(const std::string& direction, const std::string& locus) const;

 private:
  std::vector<QErrorRoute> routes_;
};

// The q-error of one estimate against one actual count, and its direction.
struct QError {
  double q = 1;
  std::string direction;
};
QError qerror_of(double estimate, double actual);

QErrorReport analyze_qerror(const PlanTree& plan, const OperatorCatalog& catalog,
                            const QErrorRouting& routing);

}  // namespace planfirst::sqlopt
