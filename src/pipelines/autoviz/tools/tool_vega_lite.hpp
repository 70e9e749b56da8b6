// Vega-Lite v5 specs for the plot tools: a mark, an encoding and the data inline, so a spec renders
// on its own (vl2svg, the report page). Field names escape Vega-Lite's path characters (. [ ]) so a
// column "a.b" is not read as a nested field.
#pragma once

#include <string>
#include <string_view>

#include "core/json.hpp"
#include "data/query_result.hpp"

namespace planfirst::autoviz {

// A column name as a Vega-Lite field ("a.b" -> "a\\.b"), and back.
std::string vega_lite_field(std::string_view column);
std::string column_of_field(std::string_view field);

// "quantitative" for numbers, "temporal" for dates and timestamps, else "nominal".
std::string_view vega_lite_type(data::ColumnType type);

// {"field": NAME, "type": TYPE} for `column` of `data`, typed by vega_lite_type.
core::Json field_encoding(const data::QueryResult& data, std::string_view column);

// The whole spec as compact JSON text (Json::dump: parsed and dumped again, it is the same text):
// $schema, data.values (the rows of `data`), mark, encoding, and transform and title when they are
// not null.
std::string vega_lite_spec(const data::QueryResult& data, const core::Json& mark, const core::Json& encoding,
                           const core::Json& transform);
std::string vega_lite_spec(const data::QueryResult& data, const core::Json& mark, const core::Json& encoding,
                           const core::Json& transform, const core::Json& title);

}  // namespace planfirst::autoviz
