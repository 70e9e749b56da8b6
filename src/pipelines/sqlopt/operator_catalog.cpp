#include "pipelines/sqlopt/operator_catalog.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {
namespace {

constexpr const char* kAsset = "sqlopt/operators.json";

}  // namespace

core::Result<core::Json> read_json_asset(const core::AssetStore& assets, std::string_view path) {
  core::Result<std::string> text = assets.read(path);
  if (!text) return text.error();
  core::Json json = core::Json::parse(*text, nullptr, false);
  if (json.is_discarded()) return core::invalid_argument("not JSON", assets.origin(path));
  return json;
}

core::Result<OperatorCatalog> OperatorCatalog::load(const core::AssetStore& assets) {
  core::Result<core::Json> json = read_json_asset(assets, kAsset);
  if (!json) return json.error();
  return from_json(*json);
}

core::Result<OperatorCatalog> OperatorCatalog::from_json(const core::Json& json) {
  OperatorCatalog catalog;
  for (auto [key, slot] :
       {std::pair{"duckdb", &catalog.duckdb_}, std::pair{"postgresql", &catalog.postgres_}}) {
    const std::string pointer = std::string("/") + key;
    if (!json.contains(key) || !json[key].is_object())
      return core::invalid_argument("missing engine object", pointer);
    const core::Json& engine = json[key];
    if (!engine.contains("loci") || !engine["loci"].is_object())
      return core::invalid_argument("missing \"loci\" object", pointer + "/loci");
    for (const auto& [op, locus] : engine["loci"].items()) {
      if (!locus.is_string()) return core::invalid_argument("expected a locus name", pointer + "/loci/" + op);
      slot->loci[op] = locus.get<std::string>();
    }
    if (engine.contains("zero_actual_operators")) {
      for (const core::Json& op : engine["zero_actual_operators"])
        if (op.is_string()) slot->zero_actual.insert(op.get<std::string>());
    }
    for (const char* threshold : {"many_loops_min", "repeated_scan_min"}) {
      if (engine.contains(threshold) && !engine[threshold].is_number_unsigned())
        return core::invalid_argument("expected a whole number >= 0", pointer + "/" + threshold);
    }
    slot->many_loops_min = engine.value("many_loops_min", 1000.0);
    slot->repeated_scan_min = engine.value("repeated_scan_min", 2);
  }
  return catalog;
}

std::optional<std::string> OperatorCatalog::locus(Engine engine, std::string_view op) const {
  const auto& loci = of(engine).loci;
  auto it = loci.find(op);
  if (it == loci.end()) return std::nullopt;
  return it->second;
}

bool OperatorCatalog::reports_zero_rows(Engine engine, std::string_view op) const {
  return of(engine).zero_actual.contains(op);
}

double OperatorCatalog::many_loops_min(Engine engine) const {
  return of(engine).many_loops_min;
}

int OperatorCatalog::repeated_scan_min(Engine engine) const {
  return of(engine).repeated_scan_min;
}

}  // namespace planfirst::sqlopt
