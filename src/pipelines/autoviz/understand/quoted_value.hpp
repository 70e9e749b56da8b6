// Values a question quotes: "whose occupation is not "Researcher"", "incidents with incident type
// code "NOISE"", "classified as 'Good Customer' status". Each becomes a filter on the column named
// just before the quote (else just after it), "!=" when a negation word stands around the column.
// A quote must open after a space or the start and close before one, so "dog's" quotes nothing. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz {

// The quoted texts of `question`, in order, without their quotes.
std::vector<std::string> quoted_texts(std::string_view question);

struct QuotedSpan {
  std::string text;
  std::size_t begin = 0;  // its first token in the question's tokens
  std::size_t end = 0;    // one past its last
};

// The quoted texts of `question` whose words stand in order in its `tokens`, with where they stand.
std::vector<QuotedSpan> quoted_spans(std::string_view question, const std::vector<std::string>& tokens);

// The filters the quoted values of `question` state, `tokens` its tokens, on `columns` (the
// columns it names); `negations` as stems.
std::vector<Constraint> find_quoted_filters(std::string_view question, const std::vector<std::string>& tokens,
                                            const Stems& stems, const std::vector<ColumnSpan>& columns,
                                            const Stems& negations);

}  // namespace planfirst::autoviz
