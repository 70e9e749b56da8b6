// profile_table measures every column of a table with SQL run on the table's own engine (DuckDB,
// SQLite or PostgreSQL: the few functions that differ are chosen per engine) and assigns roles
// with infer_role (data/role_inference.hpp). Deterministic: every statistic is an exact count,
// minimum or maximum, and samples are ordered by frequency then value, so the same table gives the
// same profile, byte for byte.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "data/schema_profile.hpp"

namespace planfirst::data {
class Database;

// `table` is one identifier (quoted as given, so "Sales" and "sales" differ). Errors: the engine's
// error for a missing table (kNotFound) or a failed statement; kInvalidArgument for an engine the
// profiler does not know.
core::Result<SchemaProfile> profile_table(Database& db, std::string_view table);

}  // namespace planfirst::data
