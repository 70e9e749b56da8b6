#include "pipelines/retrieval/query_outcome.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/date_parse.hpp"
#include "core/json_member.hpp"
#include "pipelines/retrieval/json_read.hpp"

namespace planfirst::retrieval {
namespace {

using core::member_or_null;

constexpr std::pair<AttemptStatus, std::string_view> kStatusNames[] = {
    {AttemptStatus::kOk, "ok"},
    {AttemptStatus::kFailed, "failed"},
    {AttemptStatus::kTimedOut, "timed_out"},
    {AttemptStatus::kNotConfigured, "not_configured"},
    {AttemptStatus::kSkipped, "skipped"},
};

core::Result<AttemptStatus> parse_status(const std::string& text, const std::string& pointer) {
  for (const auto& [status, name] : kStatusNames) {
    if (name == text) return status;
  }
  return core::invalid_argument("unknown attempt status \"" + text + "\"", pointer);
}

core::Result<std::chrono::system_clock::time_point> time_from_json(const core::Json& json,
                                                                   const std::string& pointer) {
  core::Result<std::string> text = read_string(json, pointer);
  if (!text) return text.error();
  core::Result<core::ParsedDate> parsed =
      core::parse_date(text->ends_with('Z') ? text->substr(0, text->size() - 1) : *text);
  if (!parsed) return core::invalid_argument("not an ISO-8601 time: \"" + *text + "\"", pointer);
  return std::chrono::system_clock::time_point(parsed->time);
}

core::Result<Attempt> attempt_from_json(const core::Json& attempt, const std::string& at) {
  core::Result<std::string> source = read_string(member_or_null(attempt, "source"), at + "/source");
  if (!source) return source.error();
  core::Result<std::string> status_text = read_string(member_or_null(attempt, "status"), at + "/status");
  if (!status_text) return status_text.error();
  core::Result<AttemptStatus> status = parse_status(*status_text, at + "/status");
  if (!status) return status.error();
  core::Result<std::string> message = read_string(member_or_null(attempt, "message"), at + "/message");
  if (!message) return message.error();
  return Attempt{std::move(*source), *status, std::move(*message)};
}

core::Result<QueryOutcome> outcome_from_json(const core::Json& json, const std::string& pointer) {
  if (!json.is_object()) return core::invalid_argument("a result must be an object", pointer);
  QueryOutcome result;
  for (auto [field, key] : {std::pair{&result.query_id, "query_id"},
                            {&result.plan_id, "plan_id"},
                            {&result.source, "source"},
                            {&result.answered_by, "answered_by"},
                            {&result.kind, "kind"}}) {
    core::Result<std::string> text = read_string(member_or_null(json, key), pointer + "/" + key);
    if (!text) return text.error();
    *field = std::move(*text);
  }
  const core::Json& time = member_or_null(json, "time_range");
  if (time.is_object()) {
    core::Result<std::chrono::system_clock::time_point> since =
        time_from_json(member_or_null(time, "since"), pointer + "/time_range/since");
    if (!since) return since.error();
    core::Result<std::chrono::system_clock::time_point> until =
        time_from_json(member_or_null(time, "until"), pointer + "/time_range/until");
    if (!until) return until.error();
    result.time = sources::TimeRange{*since, *until};
  }
  core::Result<std::vector<sources::EvidenceItem>> items = read_list<sources::EvidenceItem>(
      member_or_null(json, "items"), pointer + "/items", sources::evidence_from_json);
  if (!items) return items.error();
  core::Result<std::vector<Attempt>> attempts =
      read_list<Attempt>(member_or_null(json, "attempts"), pointer + "/attempts", attempt_from_json);
  if (!attempts) return attempts.error();
  result.items = std::move(*items);
  result.attempts = std::move(*attempts);
  result.truncated = member_or_null(json, "truncated") == true;
  return result;
}

}  // namespace

std::string_view to_string(AttemptStatus status) {
  for (const auto& [known, name] : kStatusNames) {
    if (known == status) return name;
  }
  return "failed";
}

std::string QueryOutcome::failure_message() const {
  std::string message;
  for (const Attempt& attempt : attempts) {
    if (attempt.status == AttemptStatus::kOk || attempt.message.empty()) continue;
    message += (message.empty() ? "" : "; ") + attempt.message;
  }
  return message;
}

std::string iso_utc(std::chrono::system_clock::time_point time) {
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", std::chrono::floor<std::chrono::seconds>(time));
}

core::Json to_json(const QueryOutcome& result) {
  core::Json items = core::Json::array();
  for (const sources::EvidenceItem& item : result.items) items.push_back(sources::to_json(item));
  core::Json attempts = core::Json::array();
  for (const Attempt& attempt : result.attempts) {
    attempts.push_back(
        {{"source", attempt.source}, {"status", to_string(attempt.status)}, {"message", attempt.message}});
  }
  core::Json time = nullptr;
  if (result.time) time = {{"since", iso_utc(result.time->since)}, {"until", iso_utc(result.time->until)}};
  return core::Json{{"query_id", result.query_id},
                    {"plan_id", result.plan_id},
                    {"source", result.source},
                    {"answered_by", result.answered_by},
                    {"kind", result.kind},
                    {"status", result.ok() ? "ok" : "failed"},
                    {"time_range", std::move(time)},
                    {"items", std::move(items)},
                    {"item_count", result.items.size()},
                    {"truncated", result.truncated},
                    {"attempts", std::move(attempts)},
                    {"elapsed_ms", result.elapsed_ms}};
}

core::Result<std::vector<QueryOutcome>> outcomes_from_json(const core::Json& json, std::string_view pointer) {
  return read_list<QueryOutcome>(json, std::string(pointer), outcome_from_json);
}

}  // namespace planfirst::retrieval
