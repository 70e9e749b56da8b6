#include "llm/token_budget.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace planfirst::llm {
namespace {

constexpr std::string_view kTruncationMark = "[... truncated]";

bool is_word_byte(unsigned char c) {
  return std::isalnum(c) != 0 || c >= 0x80;
}

// The longest prefix of whole lines of `text` that, with the mark, fits `budget` tokens; "" if none.
std::string cut_to_fit(const std::string& text, std::size_t budget) {
  const std::size_t mark = estimate_tokens(kTruncationMark);
  if (budget <= mark) return "";
  // A newline ends every word run, so a prefix of whole lines costs the sum of its lines.
  std::size_t used = mark;
  std::size_t best = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    used += estimate_tokens(std::string_view(text).substr(begin, end - begin));
    if (used > budget) break;
    best = end;
    begin = end + 1;
  }
  if (best == 0) return "";
  return text.substr(0, best) + "\n" + std::string(kTruncationMark);
}

}  // namespace

std::size_t estimate_tokens(std::string_view text) {
  std::size_t tokens = 0;
  std::size_t run = 0;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_word_byte(c)) {
      ++run;
      continue;
    }
    if (run > 0) tokens += (run + 5) / 6;
    run = 0;
    if (std::isspace(c) == 0) ++tokens;
  }
  if (run > 0) tokens += (run + 5) / 6;
  return tokens;
}

std::string BudgetedPrompt::text() const {
  std::string out;
  for (const PromptSection& section : kept) {
    if (!out.empty()) out += "\n\n";
    out += section.text;
  }
  return out;
}

BudgetedPrompt fit_to_budget(const std::vector<PromptSection>& sections, std::size_t budget_tokens) {
  std::vector<std::size_t> order(sections.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sections[a].priority > sections[b].priority; });
  std::vector<int> state(sections.size(), 0);  // 0 dropped, 1 kept, 2 cut
  std::vector<std::string> cut_text(sections.size());
  std::size_t remaining = budget_tokens;
  for (std::size_t i : order) {
    const std::size_t cost = estimate_tokens(sections[i].text);
    if (cost <= remaining) {
      state[i] = 1;
      remaining -= cost;
    } else if (sections[i].truncatable) {
      cut_text[i] = cut_to_fit(sections[i].text, remaining);
      if (!cut_text[i].empty()) {
        state[i] = 2;
        remaining -= estimate_tokens(cut_text[i]);
      }
    }
  }
  BudgetedPrompt out;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (state[i] == 0) {
      out.dropped.push_back(sections[i].name);
      continue;
    }
    PromptSection kept = sections[i];
    if (state[i] == 2) {
      kept.text = std::move(cut_text[i]);
      out.truncated.push_back(kept.name);
    }
    out.tokens += estimate_tokens(kept.text);
    out.kept.push_back(std::move(kept));
  }
  return out;
}

}  // namespace planfirst::llm
