// OperatorCatalog is what planfirst knows about each engine's operators (assets/sqlopt/operators.json):
// the locus of every operator name (SCAN, JOIN, AGGREGATE, SUBPLAN, CTE, ...), the operators whose
// actual row count is always 0 by design, and the thresholds of the structural flags. Immutable.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"

namespace planfirst::sqlopt {

// The parsed JSON of asset `path`; kInvalidArgument naming its origin when it is not JSON.
core::Result<core::Json> read_json_asset(const core::AssetStore& assets, std::string_view path);

class OperatorCatalog {
 public:
  // Reads assets/sqlopt/operators.json; kInvalidArgument naming the field at fault.
  static core::Result<OperatorCatalog> load(const core::AssetStore& assets);
  static core::Result<OperatorCatalog> from_json(const core::Json& json);

  // The locus of `op` on `engine`, or none for an operator the map does not know.
  std::optional<std::string> locus(Engine engine, std::string_view op) const;
  // Whether `op` reports 0 actual rows by design (DuckDB's DELIM_SCAN, CTE scans).
  bool reports_zero_rows(Engine engine, std::string_view op) const;
  double many_loops_min(Engine engine) const;
  int repeated_scan_min(Engine engine) const;  // scans of one table from which it is flagged

 private:
  struct EngineOperators {
    std::map<std::string, std::string, std::less<>> loci;
    std::set<std::string, std::less<>> zero_actual;
    double many_loops_min = 1000;
    int repeated_scan_min = 2;
  };
  const EngineOperators& of(Engine engine) const { return engine == Engine::kDuckDb ? duckdb_ : postgres_; }

  EngineOperators duckdb_;
  EngineOperators postgres_;
};

}  // namespace planfirst::sqlopt
