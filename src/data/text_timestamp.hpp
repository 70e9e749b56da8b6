// The DuckDB expression reading text as a TIMESTAMP the way the profile recognises dates, so a
// column the profile calls temporal parses: ISO by cast, else the first spelling that reads it.
#pragma once

#include <string>
#include <string_view>

namespace planfirst::data {

// `text` (a VARCHAR expression) as a TIMESTAMP: "1963-03-01", "03/01/1963", "1.3.1963",
// "1963/03/01", "1 Mar 1963", "Mar 1, 1963", "March 1, 1963", "1 March 1963", "01-Mar-1963"; NULL
// for any other text.
std::string duckdb_text_timestamp(std::string_view text);

}  // namespace planfirst::data
