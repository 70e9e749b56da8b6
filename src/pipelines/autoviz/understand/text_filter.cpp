#include "pipelines/autoviz/understand/text_filter.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/ascii_case.hpp"

namespace planfirst::autoviz {
namespace {

constexpr std::size_t kVerbColumnReach = 3;  // words between a column's name and the verb after it

// `token` without the bytes of UTF-8 quotes and other non-ASCII around it ("‘a’" -> "a").
std::string ascii_only(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (static_cast<unsigned char>(c) < 0x80) out += c;
  }
  return out;
}

// The `nth` whole-word occurrence of `word` in `question`, as the question spells it; `word` when
// there is none.
std::string spelled_as_in(std::string_view question, const std::string& word, int nth) {
  const std::string lower = core::ascii_lower(std::string(question));
  for (std::size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
    const bool starts = at == 0 || !is_word_byte(lower[at - 1]);
    const bool ends = at + word.size() == lower.size() || !is_word_byte(lower[at + word.size()]);
    if (starts && ends && nth-- == 0) return std::string(question.substr(at, word.size()));
  }
  return word;
}

bool negated_before(const Stems& stems, std::size_t at, const Phrases& negations) {
  for (std::size_t end = at; end + 2 >= at && end > 0; --end) {
    if (phrase_ending_at(stems, end, negations) > 0) return true;
  }
  return false;
}

// The column named right after `at`, past link words ("in their first name"); nullptr if none.
const ColumnSpan* column_after(const Stems& stems, std::size_t at, const std::vector<ColumnSpan>& columns,
                               const Phrases& links) {
  for (std::size_t steps = 0; at < stems.size() && steps < 4; ++steps) {
    for (const ColumnSpan& span : columns) {
      if (span.begin == at) return &span;
    }
    const std::size_t link = phrase_starting_at(stems, at, links);
    if (link == 0) return nullptr;
    at += link;
  }
  return nullptr;
}

// "have TN in their address": a holder word at `at`, one word that names no column, "in", an owner
// ("orders with discounts in the region West" holds nothing), and a column past link words.
bool holds_in_column(const Stems& stems, std::size_t at, const std::vector<ColumnSpan>& columns,
                     const TextFilterPhrases& phrases) {
  if (phrase_starting_at(stems, at, phrases.holders) != 1 || at + 3 >= stems.size() ||
      stems[at + 2] != "in" || phrase_starting_at(stems, at + 3, phrases.owners) == 0) {
    return false;
  }
  const bool names_column = std::any_of(columns.begin(), columns.end(), [&](const ColumnSpan& span) {
    return span.begin <= at + 1 && at + 1 < span.end;
  });
  return !names_column && column_after(stems, at + 2, columns, phrases.links) != nullptr;
}

}  // namespace

const ColumnSpan* column_ending_before(std::size_t at, std::size_t reach,
                                       const std::vector<ColumnSpan>& columns) {
  const ColumnSpan* best = nullptr;
  for (const ColumnSpan& span : columns) {
    if (span.end <= at && span.end + reach >= at && (best == nullptr || span.end > best->end)) best = &span;
  }
  return best;
}

bool is_word_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::vector<Constraint> find_text_filters(std::string_view question, const std::vector<std::string>& tokens,
                                          const Stems& stems, const std::vector<ColumnSpan>& columns,
                                          const TextFilterPhrases& phrases) {
  std::vector<Constraint> filters;
  for (std::size_t at = 0; at < stems.size(); ++at) {
    const std::size_t verb = phrase_starting_at(stems, at, phrases.verbs);
    std::size_t marker = phrase_starting_at(stems, at + verb, phrases.markers);
    if (verb == 0 && marker == 0 && holds_in_column(stems, at, columns, phrases)) marker = 1;
    if (verb == 0 && marker == 0) continue;
    const std::size_t value = at + verb + marker;
    if (value >= tokens.size()) continue;
    // "the letters D or S": either value; "D and S" is left alone (both, or either?).
    const bool either = value + 2 < tokens.size() && tokens[value + 1] == "or" &&
                        tokens[value + 2].size() == tokens[value].size();
    const ColumnSpan* column = verb > 0 ? column_ending_before(at, kVerbColumnReach, columns) : nullptr;
    if (column == nullptr && marker > 0)
      column = column_after(stems, value + (either ? 3 : 1), columns, phrases.links);
    if (column == nullptr) continue;
    ParamValue values{{}, either};
    for (std::size_t v :
         either ? std::vector<std::size_t>{value, value + 2} : std::vector<std::size_t>{value}) {
      const std::string word = ascii_only(tokens[v]);
      const int nth = static_cast<int>(
          std::count(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(v), tokens[v]));
      if (!word.empty()) values.items.emplace_back(spelled_as_in(question, word, nth));
    }
    if (values.items.empty()) continue;
    const bool negated =
        negated_before(stems, at, phrases.negations) ||
        (verb > 0 && std::any_of(stems.begin() + static_cast<std::ptrdiff_t>(column->end),
                                 stems.begin() + static_cast<std::ptrdiff_t>(at), [&](const std::string& s) {
                                   return phrase_starting_at(Stems{s}, 0, phrases.negations) > 0;
                                 }));
    filters.push_back(
        {"filter", column->column, negated ? "not_contains" : "contains", std::move(values), "", 0});
    at = value;
  }
  return filters;
}

}  // namespace planfirst::autoviz
