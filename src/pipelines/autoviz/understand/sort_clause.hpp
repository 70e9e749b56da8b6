// A sort clause of a question ("order by the y-axis from high to low", "in alphabetical order",
// "sorted by year"): where it is, its direction and the axis it names. Its words are about the
// order of the result, so they name no column to group by and ask for no analysis. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz {

struct SortPhrases {
  Phrases verbs;         // order, sort, rank, list, ...: start a clause with a direction
  Phrases plain;         // order, sort, ...: start one without a direction when "by" follows
  Phrases desc;          // descending, high to low, ...
  Phrases asc;           // ascending, low to high, alphabetical, ...
  Phrases magnitude;     // high to low, low to high, ...: directions that order values, not labels
  Phrases x_axis;        // x, x axis, names, ...
  Phrases y_axis;        // y, y axis, total number, ...
  Phrases noun_markers;  // the, of, ...: a plain verb after one is a noun ("count the orders by region")
  Phrases objects;       // them, the result, ...: between a sort verb and the "by" of its key
};

struct SortClause {
  std::size_t begin = 0;   // first token of the clause
  std::size_t end = 0;     // one past its last token
  std::string direction;   // "asc" or "desc"
  std::string axis;        // "x", "y", or "" when it names neither (then a column inside it may)
  bool magnitude = false;  // its direction orders amounts ("from high to low")
  bool stated = true;      // the direction is a word of the clause, not the ascending default
};

// The first sort clause of `text`: a direction phrase, with the verb before it (not across an
// "and", nor across the "by" of a grouping after a verb that is no plain sort verb: "show revenue by
// region from high to low") and an axis phrase around it, or the words after "order of"; or a
// verb followed by "by" and an axis phrase or a word (ascending by default, not `stated`).
// `sentence_ends` (core::sentence_ends of the text; empty: one sentence) keeps a clause inside its
// sentence: "in descending order of height. Show a scatter chart." ends at "height".
std::optional<SortClause> find_sort_clause(const Stems& text, const SortPhrases& phrases,
                                           const std::vector<std::size_t>& sentence_ends = {});

}  // namespace planfirst::autoviz
