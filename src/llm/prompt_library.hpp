// PromptLibrary is every prompt template under assets/prompts/*.md (an override folder may replace
// any), parsed once and found by name. Immutable after load(); threads may share one.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "llm/prompt_template.hpp"

namespace planfirst::llm {

class PromptLibrary {
 public:
  // kInvalidArgument naming the file of the first template that does not parse, or of a duplicate name.
  static core::Result<PromptLibrary> load(const core::AssetStore& assets);

  std::vector<std::string> names() const;  // sorted
  // kNotFound listing the known names when absent.
  core::Result<const PromptTemplate*> get(std::string_view name) const;
  // get(name) then render(values).
  core::Result<std::string> render(std::string_view name, const PromptVariables& values) const;

 private:
  std::map<std::string, PromptTemplate, std::less<>> templates_;
};

}  // namespace planfirst::llm
