#include "pipelines/autoviz/understand/sort_clause.hpp"

#include <algorithm>

namespace planfirst::autoviz {
namespace {

constexpr std::size_t kVerbReach = 8;  // tokens between a verb and the direction it governs
constexpr std::size_t kOfReach = 5;    // "in descending order of the amount of endowment"
constexpr std::size_t kTailReach = 5;  // tokens after a direction that may still name the axis

struct AxisHit {
  std::string axis;
  std::size_t end = 0;
};

// Whether "total" at `at` heads a column's name ("by total revenue from high to low") rather than
// naming the values ("sorted by the total in descending order", "the total of each bar").
bool heads_a_name(const Stems& text, std::size_t at, std::size_t end) {
  static const std::vector<std::string> kAfterValues = {"in", "from", "order", "of", "and"};
  return text[at] == "total" && at + 1 < end && !text[at + 1].empty() &&
         std::find(kAfterValues.begin(), kAfterValues.end(), text[at + 1]) == kAfterValues.end();
}

// The axis phrase nearest `from` in [begin, end); the x axis wins ties ("x" before "names").
std::optional<AxisHit> axis_in(const Stems& text, std::size_t begin, std::size_t end,
                               const SortPhrases& phrases) {
  for (std::size_t at = begin; at < end; ++at) {
    if (std::size_t n = phrase_starting_at(text, at, phrases.x_axis)) return AxisHit{"x", at + n};
    const std::size_t n = phrase_starting_at(text, at, phrases.y_axis);
    if (n > 0 && !(n == 1 && heads_a_name(text, at, end))) return AxisHit{"y", at + n};
  }
  return std::nullopt;
}

// One past the last token of the sentence holding token `at`.
std::size_t sentence_end(const Stems& text, const std::vector<std::size_t>& ends, std::size_t at) {
  return at < ends.size() ? std::min(ends[at], text.size()) : text.size();
}

// The first token of the sentence holding token `at`.
std::size_t sentence_begin(const std::vector<std::size_t>& ends, std::size_t at) {
  if (at >= ends.size()) return 0;
  while (at > 0 && ends[at - 1] == ends[at]) --at;
  return at;
}

// Whether the word at `at` is a noun by the words before it: a noun marker, or one and a count ("the
// number of orders by region", "top 2 orders by number of items" order nothing; "bigger than 100
// ordered by year" orders).
bool noun_by_word_before(const Stems& text, std::size_t at, const SortPhrases& phrases) {
  const auto digits = [](const std::string& word) {
    return !word.empty() &&
           std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (phrase_ending_at(text, at, phrases.noun_markers) > 0) return true;
  return at >= 2 && digits(text[at - 1]) && phrase_ending_at(text, at - 1, phrases.noun_markers) > 0;
}

std::optional<SortClause> clause_with_direction(const Stems& text, const SortPhrases& phrases,
                                                const std::vector<std::size_t>& ends) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    const std::size_t desc = phrase_starting_at(text, at, phrases.desc);
    const std::size_t asc = desc == 0 ? phrase_starting_at(text, at, phrases.asc) : 0;
    if (desc == 0 && asc == 0) continue;
    SortClause clause{at, at + std::max(desc, asc), desc > 0 ? "desc" : "asc", ""};
    clause.magnitude = phrase_starting_at(text, at, phrases.magnitude) > 0;
    const std::size_t first = sentence_begin(ends, at);
    const std::size_t last = sentence_end(text, ends, at);
    // A verb right after a noun marker is a noun: "the number of orders by region" orders nothing.
    const auto verb_at = [&](std::size_t i) {
      return phrase_starting_at(text, i, phrases.verbs) > 0 && !noun_by_word_before(text, i, phrases);
    };
    bool grouped = false;  // "by" or "per" after a word that is no verb or object: "revenue by region"
    for (std::size_t back = 1; back <= kVerbReach && back <= at - first; ++back) {
      if (text[at - back] == "and")
        break;  // "list each result and its count in descending order": no verb of it
      const bool grouping = text[at - back] == "per" || text[at - back] == "by";
      grouped = grouped || (grouping && at - back > first && !verb_at(at - back - 1) &&
                            phrase_starting_at(text, at - back - 1, phrases.objects) == 0);
      if (verb_at(at - back)) {
        // "arrange the regions by revenue in descending order" sorts by revenue; "show revenue by
        // region from high to low" shows a grouping and orders its amounts
        if (!grouped || phrase_starting_at(text, at - back, phrases.plain) > 0) clause.begin = at - back;
        break;
      }
    }
    const std::size_t tail = std::min(last, clause.end + kTailReach);
    if (std::optional<AxisHit> hit = axis_in(text, clause.begin, clause.end, phrases)) {
      clause.axis = hit->axis;
    } else if (std::optional<AxisHit> after = axis_in(text, clause.end, tail, phrases)) {
      clause.axis = after->axis;
      clause.end = after->end;
    }
    if (clause.end < last && phrase_at(text, clause.end, {"order"})) ++clause.end;
    if (clause.axis.empty() && clause.end < last && text[clause.end] == "by") {
      clause.end = std::min(last, clause.end + 3);  // "in desc by the <column>", "in descending order by age"
    } else if (clause.axis.empty() && clause.end < last && text[clause.end] == "of") {
      clause.end = std::min(last, clause.end + kOfReach);  // the column after "order of" is the key
    }
    return clause;
  }
  return std::nullopt;
}

}  // namespace

std::optional<SortClause> find_sort_clause(const Stems& text, const SortPhrases& phrases,
                                           const std::vector<std::size_t>& sentence_ends) {
  if (std::optional<SortClause> clause = clause_with_direction(text, phrases, sentence_ends)) return clause;
  for (std::size_t at = 0; at + 1 < text.size(); ++at) {
    const std::size_t verb = phrase_starting_at(text, at, phrases.plain);
    if (verb == 0 || at + verb >= text.size() || text[at + verb] != "by") continue;
    if (noun_by_word_before(text, at, phrases)) continue;  // "the number of orders by region"
    SortClause clause{at, std::min(sentence_end(text, sentence_ends, at), at + verb + 3), "asc", ""};
    clause.stated = false;
    if (std::optional<AxisHit> hit = axis_in(text, at + verb + 1, clause.end, phrases)) {
      clause.axis = hit->axis;
      clause.end = hit->end;
    }
    return clause;
  }
  return std::nullopt;
}

}  // namespace planfirst::autoviz
