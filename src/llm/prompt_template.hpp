// PromptTemplate is one prompt file from assets/prompts/: front matter declaring its name, the
// contract its answer must meet and its variables, then a Mustache body rendered with raw
// substitution (no HTML escaping). The template uses only the variables it declares; render() needs
// every declared variable and refuses any other. Immutable; threads may share one.
//
//   ---
//   name: analyst_plan
//   contract: analyst_plan
//   variables: user_query
//   ---
//   You are BMAD Analyst. ... User query: {{{user_query}}}
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::llm {

using PromptVariables = std::map<std::string, std::string, std::less<>>;  // name -> text

class PromptTemplate {
 public:
  // kInvalidArgument naming `origin` (and the line) for missing front matter, a body that is not valid
  // Mustache, or a tag naming an undeclared variable.
  static core::Result<PromptTemplate> parse(std::string_view text, std::string_view origin);

  const std::string& name() const { return name_; }
  const std::string& contract() const { return contract_; }                 // "" when the answer is free text
  const std::vector<std::string>& variables() const { return variables_; }  // as declared
  const std::string& body() const { return body_; }

  // The body with every variable substituted as is. kInvalidArgument naming each variable that is
  // missing from `values` or not declared by the template.
  core::Result<std::string> render(const PromptVariables& values) const;

  // The bodies of the ```json fenced blocks in the template: its example answers, which a test
  // validates against contract().
  std::vector<std::string> examples() const;

 private:
  PromptTemplate() = default;

  std::string origin_;
  std::string name_;
  std::string contract_;
  std::vector<std::string> variables_;
  std::string body_;
};

}  // namespace planfirst::llm
