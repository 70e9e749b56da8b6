// ToolRegistry is the catalog of seed 002 §3: every tool's compact metadata from
// assets/autoviz/tools.yaml (name, description, capabilities, inputs, params as a JSON Schema
// object, outputs), in file order. Adding a tool is a metadata change only. Immutable after load();
// threads may share one.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

struct ToolSpec {
  std::string name;                          // e.g. "aggregate"
  std::string description;                   // one line, embedded for retrieval
  std::vector<std::string> capabilities;     // as written, e.g. {"aggregate", "group_by", "summarize"}
  std::vector<std::string> inputs;           // e.g. {"df"}
  std::string params_schema;                 // the params JSON Schema, compact, keys sorted
  std::vector<std::string> param_names;      // the schema's properties, sorted
  std::vector<std::string> required_params;  // the schema's "required", as written
  std::vector<std::string> outputs;          // e.g. {"df"} or {"chart"}
};

class ToolRegistry {
 public:
  static constexpr std::string_view kPath = "autoviz/tools.yaml";

  // Reads kPath from `assets`. kInvalidArgument with "<origin>:<line>" naming the tool and key at
  // fault: a missing field, a repeated name, or params that are not a JSON Schema object
  // (type: object, properties of schemas, required naming only those properties).
  static core::Result<ToolRegistry> load(const core::AssetStore& assets);

  int version() const { return version_; }
  const std::vector<ToolSpec>& tools() const { return tools_; }  // file order
  const ToolSpec* find(std::string_view name) const;             // nullptr when absent
  std::vector<std::string> names() const;                        // file order

 private:
  int version_ = 0;
  std::vector<ToolSpec> tools_;
  std::map<std::string, std::size_t, std::less<>> index_;  // name -> position in tools_
};

}  // namespace planfirst::autoviz
