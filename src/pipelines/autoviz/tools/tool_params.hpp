// ToolParams reads one tool call's parameters (a JSON object, as the plan gives them) into typed
// values, with defaults for the optional ones. Every failure is kInvalidArgument naming the tool and
// the parameter ("aggregate: param 'agg_func': ...", where "aggregate.agg_func"). Borrows the JSON;
// it must outlive the reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "data/value.hpp"

namespace planfirst::autoviz {

class ToolParams {
 public:
  // REQUIRES: `params` outlives the reader. A null `params` reads as an empty object.
  ToolParams(std::string_view tool, const core::Json& params) : tool_(tool), params_(params) {}

  const std::string& tool() const { return tool_; }
  bool has(std::string_view name) const;

  // Refuses a non-object or a key outside `accepted`, listing the accepted ones.
  core::Result<void> check_names(const std::vector<std::string_view>& accepted) const;

  core::Result<std::string> string(std::string_view name) const;  // required
  core::Result<std::optional<std::string>> optional_string(std::string_view name) const;
  // A string from `allowed`; `fallback` when absent.
  core::Result<std::string> choice(std::string_view name, const std::vector<std::string_view>& allowed,
                                   std::string_view fallback) const;
  // A list of strings; a single string reads as a list of one; absent reads as empty.
  core::Result<std::vector<std::string>> strings(std::string_view name) const;
  core::Result<std::int64_t> integer(std::string_view name, std::int64_t fallback,
                                     std::int64_t minimum) const;
  core::Result<double> number(std::string_view name, double fallback) const;
  core::Result<std::vector<double>> numbers(std::string_view name, std::vector<double> fallback) const;
  core::Result<bool> boolean(std::string_view name, bool fallback) const;
  // A scalar (null, boolean, number, string) as a SQL value; kInvalidArgument for lists and objects.
  core::Result<data::Value> value(std::string_view name) const;
  // A list of scalars; a scalar reads as a list of one.
  core::Result<std::vector<data::Value>> values(std::string_view name) const;

  // kInvalidArgument "TOOL: param 'NAME': MESSAGE" at "TOOL.NAME".
  core::Error error(std::string_view name, std::string_view message) const;

 private:
  const core::Json* find(std::string_view name) const;

  std::string tool_;
  const core::Json& params_;
};

}  // namespace planfirst::autoviz
