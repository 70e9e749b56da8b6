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

struct StatusPerson {
  std::string id;    // "priya.raman"
  std::string name;  // "Priya Raman"
};

struct StatusComponent {
  std::string id;    // "billing-engine"
  std::string name;  // "Billing Engine"
};

struct StatusSprint {
  std::int64_t id = 0;
  std::string name;
  std::chrono::sys_days start;
  std::chrono::sys_days end;  // the last day, inclusive
};

struct StatusDirectory {
  std::vector<StatusPerson> people;        // by id
  std::vector<StatusComponent> components;  // by id
  std::vector<StatusSprint> sprints;        // by start date

  // Reads the three tables; errors as StatusDatabase::query.
  static core::Result<StatusDirectory> load(const StatusDatabase& database);

  const StatusSprint* sprint(std::int64_t id) const;
  const StatusSprint* sprint_containing(std::chrono::sys_days day) const;     // the current sprint
  const StatusSprint* last_sprint_ended_before(std::chrono::sys_days day) const;  // the last closed one
};

}  // namespace planfirst::sources
