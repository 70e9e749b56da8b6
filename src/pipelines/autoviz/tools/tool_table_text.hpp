// A result table as the text files save_table writes: CSV (RFC 4180: a header row, fields quoted
// when they hold a comma, quote, line break or edge space, NULL as an empty field) and a Markdown
// table (numbers right-aligned, '|' escaped, line breaks as spaces, NULL empty). Pure: same table,
// same bytes.
#pragma once

#include <string>

#include "data/query_result.hpp"

namespace planfirst::autoviz {

std::string table_to_csv(const data::QueryResult& table);
std::string table_to_markdown(const data::QueryResult& table);

}  // namespace planfirst::autoviz
