#include "pipelines/sqlopt/engine_profile.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "pipelines/sqlopt/findings.hpp"
#include "pipelines/sqlopt/operator_catalog.hpp"

namespace planfirst::sqlopt {
namespace {

constexpr const char* kAsset = "sqlopt/engine_profiles.json";

// Reads the fields of one JSON object, remembering the first one at fault.
class Fields {
 public:
  Fields(const core::Json& json, std::string pointer) : json_(json), pointer_(std::move(pointer)) {}

  std::string text(const char* key) {
    if (!json_.contains(key) || !json_[key].is_string() || json_[key].get<std::string>().empty()) {
      fail("expected a non-empty string", key);
      return {};
    }
    return json_[key].get<std::string>();
  }
  double number(const char* key) {
    if (!json_.contains(key) || !json_[key].is_number() || json_[key].get<double>() < 0) {
      fail("expected a number >= 0", key);
      return 0;
    }
    return json_[key].get<double>();
  }
  std::vector<std::string> texts(const char* key) {
    std::vector<std::string> out;
    if (!json_.contains(key)) return out;
    if (!json_[key].is_array()) fail("expected an array of strings", key);
    for (const core::Json& item : json_[key]) {
      if (!item.is_string()) fail("expected an array of strings", key);
      if (item.is_string()) out.push_back(item.get<std::string>());
    }
    return out;
  }
  std::string transform(const char* key) {
    std::string id = text(key);
    const auto& ids = transform_ids();
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
      fail("not a transform of the catalog", key);
    return id;
  }
  const core::Json& array(const char* key) {
    return member(key, core::Json::value_t::array, "expected an array");
  }
  const core::Json& object(const char* key) {
    return member(key, core::Json::value_t::object, "expected an object");
  }
  std::string pointer(const char* key) const { return pointer_ + "/" + key; }
  void fail(const std::string& what, const char* key) {
    if (!error_) error_ = core::invalid_argument(what, pointer(key));
  }
  void absorb(const std::optional<core::Error>& other) {
    if (!error_ && other) error_ = other;
  }
  const std::optional<core::Error>& error() const { return error_; }

 private:
  // json_[key] when it is of `type`; else an empty one of that type, and the fault remembered.
  const core::Json& member(const char* key, core::Json::value_t type, const char* what) {
    static const core::Json kEmptyArray = core::Json::array();
    static const core::Json kEmptyObject = core::Json::object();
    if (json_.contains(key) && json_[key].type() == type) return json_[key];
    fail(what, key);
    return type == core::Json::value_t::array ? kEmptyArray : kEmptyObject;
  }

  const core::Json& json_;
  std::string pointer_;
  std::optional<core::Error> error_;
};

std::optional<core::Error> read_profile(const core::Json& json, const std::string& pointer,
                                        EngineProfile& profile) {
  Fields f(json, pointer);
  profile.version = f.text("version");
  profile.version_tested = f.text("version_tested");
  const core::Json& strengths = f.array("strengths");
  for (std::size_t i = 0; i < strengths.size(); ++i) {
    Fields s(strengths[i], f.pointer("strengths") + "/" + std::to_string(i));
    Strength strength{s.text("id"), s.transform("transform"), s.text("claim"), s.texts("sublinks"), 0};
    if (strengths[i].contains("max_cte_references"))
      strength.max_cte_references = static_cast<int>(s.number("max_cte_references"));
    f.absorb(s.error());
    profile.strengths.push_back(std::move(strength));
  }
  const core::Json& gaps = f.array("gaps");
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    Fields g(gaps[i], f.pointer("gaps") + "/" + std::to_string(i));
    profile.gaps.push_back(
        {g.text("id"), g.transform("transform"), g.text("rule"), g.text("shape"), g.text("example")});
    f.absorb(g.error());
  }
  Fields gates(f.object("gates"), f.pointer("gates"));
  profile.gates.route_min_actual_rows = gates.number("route_min_actual_rows");
  profile.gates.late_binding_min_sort_rows = gates.number("late_binding_min_sort_rows");
  profile.gates.single_pass_min_subqueries = static_cast<int>(gates.number("single_pass_min_subqueries"));
  f.absorb(gates.error());
  const core::Json& regressions = f.array("regressions");
  for (std::size_t i = 0; i < regressions.size(); ++i) {
    Fields r(regressions[i], f.pointer("regressions") + "/" + std::to_string(i));
    KnownRegression regression;
    regression.id = r.text("id");
    regression.rule = r.text("rule");
    regression.shape = r.text("shape");
    regression.max_subplan_loops = r.number("max_subplan_loops");
    Fields evidence(r.object("evidence"), r.pointer("evidence"));
    regression.example = evidence.text("example");
    regression.measured_speedup = evidence.number("measured_speedup");
    regression.command = evidence.text("command");
    r.absorb(evidence.error());
    f.absorb(r.error());
    profile.regressions.push_back(std::move(regression));
  }
  return f.error();
}

}  // namespace

bool Strength::covers(const LogicNode& node) const {
  if (!sublinks.empty())
    return node.kind == "subquery" && node.placement == "where" && node.top_level_conjunct &&
           std::find(sublinks.begin(), sublinks.end(), node.sublink) != sublinks.end();
  if (max_cte_references > 0) return node.kind == "cte" && node.references <= max_cte_references;
  return false;
}

bool KnownRegression::matches(const PlanTree& plan) const {
  return std::any_of(plan.nodes.begin(), plan.nodes.end(), [&](const PlanNode& node) {
    return node.relationship == "SubPlan" && node.loops >= 1 && node.loops <= max_subplan_loops;
  });
}

const Strength* EngineProfile::strength_covering(const std::string& transform, const LogicNode& node) const {
  for (const Strength& strength : strengths)
    if (strength.transform == transform && strength.covers(node)) return &strength;
  return nullptr;
}

bool EngineProfile::is_strength(const std::string& transform) const {
  return std::any_of(strengths.begin(), strengths.end(),
                     [&](const Strength& s) { return s.transform == transform; });
}

const Gap* EngineProfile::gap_for(const std::string& transform) const {
  for (const Gap& gap : gaps)
    if (gap.transform == transform) return &gap;
  return nullptr;
}

const KnownRegression* EngineProfile::regression_for(const std::string& rule, const PlanTree& plan) const {
  for (const KnownRegression& regression : regressions)
    if (regression.rule == rule && regression.matches(plan)) return &regression;
  return nullptr;
}

std::string bare_version(const std::string& running) {
  std::string out = running.substr(0, running.find(' '));
  if (!out.empty() && (out.front() == 'v' || out.front() == 'V')) out.erase(0, 1);
  return out;
}

bool EngineProfile::matches_version(const std::string& running) const {
  const std::string bare = bare_version(running);
  return bare == version || bare.starts_with(version + ".");
}

core::Result<EngineProfiles> EngineProfiles::load(const core::AssetStore& assets) {
  core::Result<core::Json> json = read_json_asset(assets, kAsset);
  if (!json) return json.error();
  core::Result<EngineProfiles> profiles = from_json(*json);
  if (!profiles) {
    core::Error error = profiles.error();
    error.where = assets.origin(kAsset) + " at " + error.where;
    return error;
  }
  return profiles;
}

core::Result<EngineProfiles> EngineProfiles::from_json(const core::Json& json) {
  EngineProfiles profiles;
  for (auto [key, engine, slot] : {std::tuple{"duckdb", Engine::kDuckDb, &profiles.duckdb_},
                                   std::tuple{"postgresql", Engine::kPostgres, &profiles.postgres_}}) {
    const std::string pointer = std::string("/") + key;
    if (!json.is_object() || !json.contains(key) || !json[key].is_object())
      return core::invalid_argument("missing engine object", pointer);
    slot->engine = engine;
    if (std::optional<core::Error> error = read_profile(json[key], pointer, *slot)) return *error;
  }
  return profiles;
}

}  // namespace planfirst::sqlopt
