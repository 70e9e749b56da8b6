// StatusDirectory is what the `db` source knows of a status database before it answers anything:
// its people, components and sprints, read once, so that names in a question are matched against
// the database's own rows and only their ids are ever bound. A value; threads may share const ones.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace planfirst::sources {
class StatusDatabase;

// A row named by an id and a name, both also as a question's tokens read them (core::tokenize),
// made once at construction so that matching a question tokenizes only the question.
struct StatusNamed {
  StatusNamed(std::string id, std::string name);

  std::string id;
  std::string name;
  std::vector<std::string> id_words;    // "priya.raman" -> priya, raman
  std::vector<std::string> name_words;  // "Priya Raman" -> priya, raman
};

struct StatusPerson : StatusNamed {  // id "priya.raman", name "Priya Raman"
  using StatusNamed::StatusNamed;
};

struct StatusComponent : StatusNamed {  // id "billing-engine", name "Billing Engine"
  using StatusNamed::StatusNamed;
};

struct StatusSprint {
  std::int64_t id = 0;
  std::string name;
  std::chrono::sys_days start;
  std::chrono::sys_days end;  // the last day, inclusive
};

struct StatusDirectory {
  std::vector<StatusPerson> people;         // by id
  std::vector<StatusComponent> components;  // by id
  std::vector<StatusSprint> sprints;        // by start date

  // Reads the three tables; errors as StatusDatabase::query.
  static core::Result<StatusDirectory> load(const StatusDatabase& database);

  const StatusSprint* sprint(std::int64_t id) const;
  const StatusSprint* sprint_containing(std::chrono::sys_days day) const;         // the current sprint
  const StatusSprint* last_sprint_ended_before(std::chrono::sys_days day) const;  // the last closed one
};

}  // namespace planfirst::sources
