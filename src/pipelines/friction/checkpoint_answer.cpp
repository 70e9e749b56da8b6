#include "pipelines/friction/checkpoint_answer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "core/ascii_case.hpp"
#include "core/join.hpp"
#include "core/trim.hpp"
#include "pipelines/friction/contact_queries.hpp"
#include "pipelines/friction/friction_nodes.hpp"
#include "pipelines/friction/report_focus.hpp"

namespace planfirst::friction {
namespace {

using core::Json;

// A decision node, the state key its answer sets, the answer's contract, and the plan it goes back to.
struct Checkpoint {
  std::string_view node;
  const char* key;
  const char* contract;
  int steps_before;  // plan_steps_completed before the node ran
  const char* task_id;
  const char* task_title;
  const char* next_task_id;  // the task after it, back to todo; nullptr: none to reset
  const char* next_task_title;
};

constexpr Checkpoint kCheckpoints[] = {
    {"data_discovery", "columns", "friction_discovery_answer", 0, "1", "Data Discovery", "2",
     "Data Preparation"},
    {"data_prep", "filters", "friction_prep_answer", 1, "2", "Data Preparation", "3", "Friction Analysis"},
    {"synthesizer", "focus", "friction_synthesis_answer", 3, "4", "Synthesis", nullptr, nullptr},
};

const Checkpoint* checkpoint_of(std::string_view node) {
  for (const Checkpoint& checkpoint : kCheckpoints) {
    if (checkpoint.node == node) return &checkpoint;
  }
  return nullptr;
}

std::vector<std::string> strings_at(const Json& list, const char* key) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const Json& item : list) {
    if (item.is_object() && item.contains(key) && item[key].is_string()) out.push_back(item[key]);
  }
  return out;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& item : items) quoted.push_back(Json(item).dump());
  return core::join(quoted);
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

core::Result<void> check_columns(const Json& columns, const FrictionRules& rules, const Json& dataset) {
  const std::vector<std::string> names = strings_at(dataset.value("columns", Json::array()), "name");
  std::vector<std::string> fields;
  for (const ColumnRole& role : rules.roles) fields.push_back(role.role);
  for (const auto& [field, column] : columns.items()) {
    const std::string where = "/columns/" + field;
    if (rules.role(field) == nullptr) {
      return core::invalid_argument(
          fmt::format("\"{}\" is no field of the friction analysis; the fields are {}", field,
                      core::join(fields)),
          where);
    }
    if (!contains(names, column.get<std::string>())) {
      return core::invalid_argument(
          fmt::format("{} is no column of {}; its columns are {}", column.dump(),
                      dataset.value("path", std::string("the file")), quoted_list(names)),
          where);
    }
  }
  return core::ok();
}

// The contacts data_prep would keep under `filters`, counted on the run's dataset.
core::Result<std::int64_t> contacts_kept(const PrepFilters& filters, const FrictionServices& services,
                                         const graph::StateView& state, const Json& dataset) {
  core::Result<ColumnMapping> mapping = ColumnMapping::from_json(dataset.value("mapping", Json::object()));
  if (!mapping) return mapping.error();
  core::Result<data::DatasetLease> opened =
      services.datasets->acquire(state.string_or("dataset_path", ""), dataset.value("table", ""));
  if (!opened) return opened.error();
  return count_kept(opened->db(), opened->table(), *mapping, services.rules, filters);
}

// What data_prep itself checks (PrepFilters), then what only the data can tell: its channels and
// period, and that the filters keep a contact.
core::Result<void> check_filters(const Json& json, const FrictionServices& services,
                                 const graph::StateView& state, const Json& dataset) {
  core::Result<PrepFilters> filters = PrepFilters::from_json(json);
  if (!filters) return filters.error();
  const std::vector<std::string> channels = strings_at(dataset.value("channels", Json::array()), "channel");
  for (std::size_t i = 0; i < filters->channels.size(); ++i) {
    if (!contains(channels, filters->channels[i])) {
      return core::invalid_argument(fmt::format("{} is no channel of the data; its channels are {}",
                                                Json(filters->channels[i]).dump(), quoted_list(channels)),
                                    "/filters/channels/" + std::to_string(i));
    }
  }
  const Json period = dataset.value("period", Json::object());
  const std::string first = period.value("from", std::string()).substr(0, 10);
  const std::string last = period.value("to", std::string()).substr(0, 10);
  if (!filters->from.empty() && !last.empty() && filters->from > last)
    return core::invalid_argument("the data ends on " + last + ", before \"" + filters->from + "\"",
                                  "/filters/from");
  if (!filters->to.empty() && !first.empty() && filters->to < first)
    return core::invalid_argument("the data starts on " + first + ", after \"" + filters->to + "\"",
                                  "/filters/to");
  core::Result<std::int64_t> kept = contacts_kept(*filters, services, state, dataset);
  if (!kept) return kept.error();
  if (*kept == 0) {
    return core::invalid_argument(
        fmt::format("no contact of the data meets all of {}; widen the period or add channels",
                    filters->to_json().dump()),
        "/filters");
  }
  return core::ok();
}

// What the synthesizer itself checks (ReportFocus), then that each lens is one with drivers.
core::Result<void> check_focus(const Json& json, const FrictionRules& rules, const Json& synthesis) {
  core::Result<ReportFocus> focus = ReportFocus::from_json(json);
  if (!focus) return focus.error();
  std::vector<std::string> known;
  for (const Lens& lens : rules.lenses) known.push_back(lens.lens);
  const std::vector<std::string> with_drivers = strings_at(synthesis.value("drivers", Json::array()), "lens");
  for (std::size_t i = 0; i < focus->lenses.size(); ++i) {
    const std::string& name = focus->lenses[i];
    const std::string where = "/focus/lenses/" + std::to_string(i);
    if (!contains(known, name)) {
      return core::invalid_argument(
          fmt::format("\"{}\" is no lens; the lenses are {}", name, quoted_list(known)), where);
    }
    if (!contains(with_drivers, name))
      return core::invalid_argument(fmt::format("the lens \"{}\" has no driver in this analysis", name),
                                    where);
  }
  return core::ok();
}

// An approval or a refusal: the human message (the supervisor reads refusals from it), prompt cleared.
Json plain_answer(std::string_view answer) {
  return Json{{"messages", Json::array({Json{{"role", "human"}, {"content", std::string(answer)}}})},
              {"requires_user_input", false},
              {"checkpoint_message", ""},
              {"checkpoint_prompt", ""}};
}

std::string example_of(const Checkpoint& checkpoint) {
  if (checkpoint.node == "data_discovery") return R"({"columns": {"summary": "notes"}})";
  if (checkpoint.node == "data_prep") return R"({"filters": {"channels": ["phone"], "from": "2025-01-01"}})";
  return R"({"focus": {"lenses": ["digital"], "top_drivers": 5}})";
}

core::Result<graph::Delta> change(const Checkpoint& checkpoint, const FrictionServices& services,
                                  const contracts::Contract& contract, const graph::StateView& state,
                                  const std::string& answer) {
  const Json parsed = Json::parse(answer, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return core::invalid_argument(
        fmt::format("at {} the answer is yes, no, or a JSON object such as {}; this is not valid JSON",
                    checkpoint.node, example_of(checkpoint)),
        "answer");
  }
  if (contracts::ValidationReport report = contract.validate(parsed); !report.ok()) {
    core::Error error = report.error();
    error.message = fmt::format("at {} the answer must meet {} (e.g. {}): {}", checkpoint.node,
                                checkpoint.contract, example_of(checkpoint), error.message);
    return error;
  }
  Json value = parsed[checkpoint.key];
  const Json dataset = state.member_or_null("dataset");
  const core::Result<void> checked =
      checkpoint.node == "data_discovery" ? check_columns(value, services.rules, dataset)
      : checkpoint.node == "data_prep"
          ? check_filters(value, services, state, dataset)
          : check_focus(value, services.rules, state.member_or_null("synthesis"));
  if (!checked) return checked.error();
  if (checkpoint.node == "data_discovery") {  // overrides add to the ones the run started with
    Json merged =
        state.member_or_null("columns").is_object() ? state.member_or_null("columns") : Json::object();
    merged.update(value);
    value = std::move(merged);
  }

  Json delta = plain_answer(answer);
  delta[checkpoint.key] = value;
  delta["plan_steps_completed"] = checkpoint.steps_before;
  delta["plan_tasks"] = Json::array(
      {Json{{"id", checkpoint.task_id}, {"title", checkpoint.task_title}, {"status", "in_progress"}}});
  if (checkpoint.next_task_id != nullptr) {
    delta["plan_tasks"].push_back(
        Json{{"id", checkpoint.next_task_id}, {"title", checkpoint.next_task_title}, {"status", "todo"}});
  }
  delta["reasoning"] = Json::array(
      {Json{{"step_name", "Checkpoint Answer"},
            {"step_text", fmt::format("At {}: {} {}; running {} again with them.", checkpoint.node,
                                      checkpoint.key, value.dump(), checkpoint.node)}}});
  return graph::Delta(std::move(delta));
}

}  // namespace

bool is_checkpoint(std::string_view node) {
  return checkpoint_of(node) != nullptr;
}

bool is_approval(std::string_view answer) {
  std::string word = core::ascii_lower(core::trim(answer));
  while (!word.empty() && (word.back() == '.' || word.back() == '!')) word.pop_back();
  for (const char* yes : {"", "y", "yes", "ok", "okay", "approve", "approved", "confirm", "confirmed",
                          "continue", "proceed", "go", "go ahead", "looks good"}) {
    if (word == yes) return true;
  }
  return false;
}

std::string answer_help(std::string_view node, const FrictionRules& rules, const Json& dataset) {
  if (node == "data_discovery") {
    std::vector<std::string> fields;
    for (const ColumnRole& role : rules.roles) fields.push_back(role.role);
    return fmt::format(
        "Answer yes to continue, no to stop, or map fields to other columns, e.g. {{\"columns\": "
        "{{\"summary\": \"notes\"}}}} (fields: {}).",
        core::join(fields));
  }
  if (node == "data_prep") {
    const std::vector<std::string> channels = strings_at(dataset.value("channels", Json::array()), "channel");
    const Json period = dataset.value("period", Json::object());
    return fmt::format(
        "Answer yes to continue, no to stop, or the filters to apply instead, e.g. {{\"filters\": "
        "{{\"channels\": [{}], \"from\": \"{}\", \"to\": \"{}\"}}}} (channels: {}; days inclusive; "
        "{{\"filters\": {{}}}} removes every filter).",
        channels.empty() ? std::string() : Json(channels.front()).dump(),
        period.value("from", std::string()).substr(0, 10), period.value("to", std::string()).substr(0, 10),
        quoted_list(channels));
  }
  std::vector<std::string> lenses;
  for (const Lens& lens : rules.lenses) lenses.push_back(lens.lens);
  return fmt::format(
      "Answer yes to write the report, no to stop, or focus it, e.g. {{\"focus\": {{\"lenses\": [{}], "
      "\"top_drivers\": 5}}}} (lenses: {}).",
      lenses.empty() ? std::string() : Json(lenses.front()).dump(), quoted_list(lenses));
}

graph::AnswerFunction checkpoint_answer(std::shared_ptr<const FrictionServices> services,
                                        const contracts::ContractRegistry& contracts) {
  return [services, &contracts](const graph::StateView& state,
                                std::string_view raw) -> core::Result<graph::Delta> {
    const std::string answer(core::trim(raw));
    if (is_refusal(answer) || is_approval(answer)) return graph::Delta(plain_answer(answer));
    const Checkpoint* checkpoint = checkpoint_of(state.string_or("last_completed_node", ""));
    if (checkpoint == nullptr) {
      return core::failed_precondition("no checkpoint of the friction graph is open to answer",
                                       "/last_completed_node");
    }
    if (answer.front() != '{') {
      return core::invalid_argument(
          fmt::format("at {} the answer is yes, no, or a JSON object such as {}; not \"{}\"",
                      checkpoint->node, example_of(*checkpoint), answer),
          "answer");
    }
    core::Result<const contracts::Contract*> contract = contracts.get(checkpoint->contract);
    if (!contract) return contract.error();
    return change(*checkpoint, *services, **contract, state, answer);
  };
}

}  // namespace planfirst::friction
