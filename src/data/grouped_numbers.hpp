// Columns of a loaded CSV that hold numbers written with a decimal comma ("1.234,56", as in German
// or French exports) or with thousands commas ("1,234.56"): DuckDB reads them as text; these read
// them as the numbers they are.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "data/duckdb_database.hpp"

namespace planfirst::data {

// Converts each text column of `table` whose every value is such a number to DOUBLE. A column
// whose values read both ways ("1,234") follows the file's delimiter: ';' means a decimal comma.
core::Result<void> read_grouped_numbers(DuckDbDatabase& db, std::string_view table,
                                        std::optional<char> delimiter);

}  // namespace planfirst::data
