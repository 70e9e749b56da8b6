// estimate_tokens guesses how many tokens a text costs a BPE tokenizer, erring high: each run of
// letters and digits is ceil(length/6) tokens (at least one), each other visible character is one.
// fit_to_budget keeps the most important sections of a prompt that fit a token budget (seed 004
// "Token Budget"): higher priority first, ties in given order; a section that does not fit is cut at
// a line boundary when it may be, or dropped. Pure functions: same input, same output.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::llm {

std::size_t estimate_tokens(std::string_view text);

struct PromptSection {
  std::string name;  // "engine_profile"
  std::string text;
  int priority = 0;          // higher is kept first
  bool truncatable = false;  // may be cut to its leading lines, then marked "[... truncated]"
};

struct BudgetedPrompt {
  std::vector<PromptSection> kept;     // in the given order; cut ones hold their cut text
  std::vector<std::string> truncated;  // names of the kept sections that were cut
  std::vector<std::string> dropped;    // names left out, in the given order
  std::size_t tokens = 0;              // estimated tokens of the kept text

  std::string text() const;  // kept sections joined by a blank line
};

BudgetedPrompt fit_to_budget(const std::vector<PromptSection>& sections, std::size_t budget_tokens);

}  // namespace planfirst::llm
