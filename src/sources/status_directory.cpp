#include "sources/status_directory.hpp"

#include "core/date_parse.hpp"
#include "core/tokenizer.hpp"
#include "sources/status_database.hpp"

namespace planfirst::sources {
namespace {

core::Result<std::chrono::sys_days> day_of(const data::Value& value) {
  if (value.kind() != data::Value::Kind::kText) return core::invalid_argument("sprint dates must be dates");
  core::Result<core::ParsedDate> parsed = core::parse_date(value.as_text());
  if (!parsed) return parsed.error();
  return parsed->day();
}

}  // namespace

StatusNamed::StatusNamed(std::string id, std::string name)
    : id(std::move(id)),
      name(std::move(name)),
      id_words(core::tokenize(this->id)),
      name_words(core::tokenize(this->name)) {}

core::Result<StatusDirectory> StatusDirectory::load(const StatusDatabase& database) {
  StatusDirectory directory;
  core::Result<data::QueryResult> people = database.query("SELECT id, name FROM people ORDER BY id");
  if (!people) return people.error();
  for (std::size_t row = 0; row < people->row_count(); ++row) {
    directory.people.push_back({people->at(row, 0).to_string(), people->at(row, 1).to_string()});
  }
  core::Result<data::QueryResult> components = database.query("SELECT id, name FROM components ORDER BY id");
  if (!components) return components.error();
  for (std::size_t row = 0; row < components->row_count(); ++row) {
    directory.components.push_back({components->at(row, 0).to_string(), components->at(row, 1).to_string()});
  }
  core::Result<data::QueryResult> sprints =
      database.query("SELECT id, name, start_date, end_date FROM sprints ORDER BY start_date, id");
  if (!sprints) return sprints.error();
  for (std::size_t row = 0; row < sprints->row_count(); ++row) {
    core::Result<std::chrono::sys_days> start = day_of(sprints->at(row, 2));
    if (!start) return start.error();
    core::Result<std::chrono::sys_days> end = day_of(sprints->at(row, 3));
    if (!end) return end.error();
    if (sprints->at(row, 0).kind() != data::Value::Kind::kInt)
      return core::invalid_argument("sprints.id must be an integer");
    directory.sprints.push_back(
        {sprints->at(row, 0).as_int(), sprints->at(row, 1).to_string(), *start, *end});
  }
  return directory;
}

const StatusSprint* StatusDirectory::sprint(std::int64_t id) const {
  for (const StatusSprint& sprint : sprints) {
    if (sprint.id == id) return &sprint;
  }
  return nullptr;
}

const StatusSprint* StatusDirectory::sprint_containing(std::chrono::sys_days day) const {
  for (const StatusSprint& sprint : sprints) {
    if (sprint.start <= day && day <= sprint.end) return &sprint;
  }
  return nullptr;
}

const StatusSprint* StatusDirectory::last_sprint_ended_before(std::chrono::sys_days day) const {
  const StatusSprint* last = nullptr;
  for (const StatusSprint& sprint : sprints) {
    if (sprint.end < day && (last == nullptr || sprint.end > last->end)) last = &sprint;
  }
  return last;
}

}  // namespace planfirst::sources
