// ToolLibrary maps each autoviz tool name (as assets/autoviz/tools.yaml spells it) to the function
// that runs it and the parameter names it accepts. run() refuses an unknown tool (kNotFound, listing
// the library) or an unknown parameter (kInvalidArgument) before the tool sees its input. Immutable;
// threads may share it, each with its own ToolContext.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/tools/tool_context.hpp"
#include "pipelines/autoviz/tools/tool_output.hpp"
#include "pipelines/autoviz/tools/tool_params.hpp"

namespace planfirst::autoviz {

using ToolFunction = core::Result<ToolOutput> (*)(ToolContext&, const ToolParams&);

class ToolLibrary {
 public:
  // Every built-in tool.
  static const ToolLibrary& builtin();

  std::vector<std::string> names() const;  // sorted
  // The parameter names `tool` accepts, or nullptr for an unknown tool.
  const std::vector<std::string_view>* params(std::string_view tool) const;

  core::Result<ToolOutput> run(ToolContext& ctx, std::string_view tool, const core::Json& params) const;

 private:
  struct Entry {
    ToolFunction function;
    std::vector<std::string_view> params;
  };
  explicit ToolLibrary(std::map<std::string, Entry, std::less<>> tools) : tools_(std::move(tools)) {}

  std::map<std::string, Entry, std::less<>> tools_;
};

}  // namespace planfirst::autoviz
