#include "contracts/contract_rules.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

namespace planfirst::contracts {
namespace {

using core::Json;

const Json* member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string string_or_empty(const Json* value) {
  return value && value->is_string() ? value->get<std::string>() : "";
}

// --- analyst_plan (seed 000 §2-§7) ---------------------------------------------------------------

bool is_status_request(const Json& plan) {
  static constexpr std::array<std::string_view, 3> kStatusTypes = {"STATUS_METRIC", "STATUS_SUMMARY",
                                                                   "STATUS_LIST"};
  const std::string type = string_or_empty(member(plan, "request_type"));
  return std::find(kStatusTypes.begin(), kStatusTypes.end(), type) != kStatusTypes.end();
}

void status_requires_db(const Json& plan, std::vector<Violation>& out) {
  const Json* sources = member(plan, "required_sources");
  if (!is_status_request(plan) || !sources || !sources->is_array()) return;
  if (std::find(sources->begin(), sources->end(), Json("db")) != sources->end()) return;
  out.push_back(
      {"/required_sources", "",
       string_or_empty(member(plan, "request_type")) + " requests must include \"db\" in required_sources"});
}

void status_forbids_doc(const Json& plan, std::vector<Violation>& out) {
  const Json* sources = member(plan, "required_sources");
  if (!is_status_request(plan) || !sources || !sources->is_array()) return;
  for (std::size_t i = 0; i < sources->size(); ++i) {
    if ((*sources)[i] == Json("doc")) {
      out.push_back(
          {"/required_sources/" + std::to_string(i), "",
           "\"doc\" is forbidden for " + string_or_empty(member(plan, "request_type")) + " requests"});
    }
  }
}

void fast_has_no_questions(const Json& plan, std::vector<Violation>& out) {
  const Json* questions = member(plan, "missing_info_questions");
  if (string_or_empty(member(plan, "track")) != "FAST" || !questions || !questions->is_array()) return;
  for (std::size_t i = 0; i < questions->size(); ++i) {
    out.push_back({"/missing_info_questions/" + std::to_string(i), "",
                   "the FAST track asks no questions; use QUALITY or drop the question"});
  }
}

// --- requirements (seed 002 §2) ------------------------------------------------------------------

void filter_value_matches_op(const Json& requirements, std::vector<Violation>& out) {
  const Json* constraints = member(requirements, "constraints");
  if (!constraints || !constraints->is_array()) return;
  for (std::size_t i = 0; i < constraints->size(); ++i) {
    const Json& c = (*constraints)[i];
    if (string_or_empty(member(c, "type")) != "filter") continue;
    const std::string op = string_or_empty(member(c, "op"));
    const Json* value = member(c, "value");
    if (!value || op.empty()) continue;
    const std::string where = "/constraints/" + std::to_string(i) + "/value";
    const bool range = op == "between" || op == "not_between";
    const bool listed = op == "in" || op == "not_in";
    const bool any_of = op == "contains" || op == "not_contains";  // one text, or a list of which any
    if (range && !(value->is_array() && value->size() == 2)) {
      out.push_back({where, "", "\"" + op + "\" takes a list of exactly two bounds, [low, high]"});
    } else if ((listed && !value->is_array()) ||
               ((listed || any_of) && value->is_array() && value->empty())) {
      out.push_back({where, "", "\"" + op + "\" takes a non-empty list of values"});
    } else if (!range && !listed && !any_of && value->is_array()) {
      out.push_back({where, "", "\"" + op + "\" compares with one value, not a list"});
    }
  }
}

// --- plan_adaptation (seed 002 §5) ---------------------------------------------------------------

template <typename Offence>
void for_each_change(const Json& adaptation, Offence&& offence) {
  const Json* changes = member(adaptation, "changes");
  if (!changes || !changes->is_array()) return;
  for (std::size_t i = 0; i < changes->size(); ++i) offence((*changes)[i], "/changes/" + std::to_string(i));
}

void step_cites_requirement(const Json& adaptation, std::vector<Violation>& out) {
  for_each_change(adaptation, [&out](const Json& change, const std::string& where) {
    const std::string action = string_or_empty(member(change, "action"));
    const Json* satisfies = member(change, "satisfies");
    if ((action == "add" || action == "modify") && satisfies && satisfies->is_array() && satisfies->empty()) {
      out.push_back(
          {where + "/satisfies", "",
           "an added or modified step must cite the requirement it satisfies, e.g. \"analysis:total\""});
    }
  });
}

void added_step_names_tool(const Json& adaptation, std::vector<Violation>& out) {
  for_each_change(adaptation, [&out](const Json& change, const std::string& where) {
    if (string_or_empty(member(change, "action")) == "add" && change.is_object() && !member(change, "tool")) {
      out.push_back({where + "/tool", "", "an added step must name the tool it runs"});
    }
  });
}

// --- node_delta and analytics_state (seed 003 §3, §5) --------------------------------------------

void input_needs_checkpoint_prompt(const Json& delta, std::vector<Violation>& out) {
  const Json* requires_input = member(delta, "requires_user_input");
  if (!requires_input || *requires_input != Json(true)) return;
  for (const char* field : {"checkpoint_message", "checkpoint_prompt"}) {
    if (string_or_empty(member(delta, field)).empty()) {
      out.push_back({std::string("/") + field, "",
                     "a node that asks for input must say what it asks in " + std::string(field)});
    }
  }
}

void no_input_clears_checkpoint(const Json& delta, std::vector<Violation>& out) {
  const Json* requires_input = member(delta, "requires_user_input");
  if (!requires_input || *requires_input != Json(false)) return;
  for (const char* field : {"checkpoint_message", "checkpoint_prompt"}) {
    if (!string_or_empty(member(delta, field)).empty()) {
      out.push_back({std::string("/") + field, "",
                     "a node that needs no input must clear " + std::string(field) + " (set it to \"\")"});
    }
  }
}

void completed_within_total(const Json& state, std::vector<Violation>& out) {
  const Json* total = member(state, "plan_steps_total");
  const Json* completed = member(state, "plan_steps_completed");
  if (!total || !completed || !total->is_number_integer() || !completed->is_number_integer()) return;
  if (completed->get<std::int64_t>() > total->get<std::int64_t>()) {
    out.push_back({"/plan_steps_completed", "",
                   "plan_steps_completed (" + completed->dump() + ") exceeds plan_steps_total (" +
                       total->dump() + ")"});
  }
}

}  // namespace

std::vector<ContractRule> builtin_rules(std::string_view contract_name) {
  if (contract_name == "analyst_plan") {
    return {
        {"status_requires_db", "STATUS_* request types must list \"db\" in required_sources",
         status_requires_db},
        {"status_forbids_doc", "STATUS_* request types must not list \"doc\" in required_sources",
         status_forbids_doc},
        {"fast_has_no_questions", "the FAST track has no missing_info_questions", fast_has_no_questions},
    };
  }
  if (contract_name == "requirements") {
    return {{"filter_value_matches_op",
             "between takes [low, high], in/not_in a list, other operators one value",
             filter_value_matches_op}};
  }
  if (contract_name == "plan_adaptation") {
    return {
        {"step_cites_requirement", "added and modified steps cite at least one requirement",
         step_cites_requirement},
        {"added_step_names_tool", "added steps name their tool", added_step_names_tool},
    };
  }
  if (contract_name == "node_delta") {
    return {
        {"input_needs_checkpoint_prompt",
         "requires_user_input=true comes with checkpoint_message and checkpoint_prompt",
         input_needs_checkpoint_prompt},
        {"no_input_clears_checkpoint", "requires_user_input=false leaves the checkpoint fields empty",
         no_input_clears_checkpoint},
        {"completed_within_total", "plan_steps_completed <= plan_steps_total", completed_within_total},
    };
  }
  if (contract_name == "analytics_state") {
    return {{"completed_within_total", "plan_steps_completed <= plan_steps_total", completed_within_total}};
  }
  return {};
}

}  // namespace planfirst::contracts
