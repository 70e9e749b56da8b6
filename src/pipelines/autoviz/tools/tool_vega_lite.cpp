#include "pipelines/autoviz/tools/tool_vega_lite.hpp"

#include <nlohmann/json.hpp>

#include "pipelines/autoviz/tools/tool_relation.hpp"

namespace planfirst::autoviz {

std::string vega_lite_field(std::string_view column) {
  std::string field;
  for (char c : column) {
    if (c == '.' || c == '[' || c == ']' || c == '\\') field += '\\';
    field += c;
  }
  return field;
}

std::string column_of_field(std::string_view field) {
  std::string column;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 1 < field.size()) ++i;
    column += field[i];
  }
  return column;
}

std::string_view vega_lite_type(data::ColumnType type) {
  if (is_numeric(type)) return "quantitative";
  if (is_temporal(type)) return "temporal";
  return "nominal";
}

core::Json field_encoding(const data::QueryResult& data, std::string_view column) {
  const data::Column* found = data.find_column(column);
  return {{"field", vega_lite_field(column)},
          {"type", vega_lite_type(found == nullptr ? data::ColumnType::kText : found->type)}};
}

std::string vega_lite_spec(const data::QueryResult& data, const core::Json& mark, const core::Json& encoding,
                           const core::Json& transform) {
  return vega_lite_spec(data, mark, encoding, transform, core::Json());
}

std::string vega_lite_spec(const data::QueryResult& data, const core::Json& mark, const core::Json& encoding,
                           const core::Json& transform, const core::Json& title) {
  core::Json spec = {{"$schema", "https://vega.github.io/schema/vega-lite/v5.json"},
                     {"data", {{"values", data.to_json()}}},
                     {"mark", mark},
                     {"encoding", encoding}};
  if (!transform.is_null()) spec["transform"] = transform;
  if (!title.is_null()) spec["title"] = title;
  return spec.dump();
}

}  // namespace planfirst::autoviz
