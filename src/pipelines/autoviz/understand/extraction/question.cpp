#include "pipelines/autoviz/understand/extraction/question.hpp"

#include <cstddef>

#include "core/stemmer.hpp"
#include "core/tokenizer.hpp"

namespace planfirst::autoviz::extraction {

namespace {

// The values a question may name of `column`: all of them when the profile lists them, else its samples.
const std::vector<std::string>& known_values(const data::ColumnProfile& column) {
  return column.values.empty() ? column.samples : column.values;
}

// Fills q's categorical values from the profile, and its value words when `with_words` (only
// the WordNet tier reads them).
void index_values(const data::SchemaProfile& profile, core::Stemmer& stemmer, bool with_words, Question& q) {
  q.categorical_values.assign(profile.columns.size(), {});
  for (std::size_t c = 0; c < profile.columns.size(); ++c) {
    const data::ColumnProfile& column = profile.columns[c];
    if (!with_words && column.role != data::ColumnRole::kCategorical) continue;
    for (const std::string& value : known_values(column)) {
      const std::vector<std::string> words = core::tokenize(value);
      if (with_words) q.value_words.insert(words.begin(), words.end());
      if (column.role == data::ColumnRole::kCategorical)
        q.categorical_values[c].push_back({value, stems_of(words, stemmer), abbreviated_value(value)});
    }
  }
}

// For each token of core::tokenize(text) (at `spans`: core::token_spans(text)), whether it and the
// next are digits joined by one '.': "above 99.5" tokenizes as above, 99, 5.
std::vector<bool> decimal_points(std::string_view text, const std::vector<core::TokenSpan>& spans) {
  const auto digits = [&](const core::TokenSpan& span) {
    return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(span.begin),
                       text.begin() + static_cast<std::ptrdiff_t>(span.end),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  std::vector<bool> points(spans.size(), false);
  for (std::size_t i = 0; i + 1 < spans.size(); ++i) {
    points[i] = text[spans[i].end] == '.' && spans[i + 1].begin == spans[i].end + 1 && digits(spans[i]) &&
                digits(spans[i + 1]);
  }
  return points;
}

}  // namespace

bool in_mention(const std::vector<Mention>& mentions, std::size_t at) {
  return std::any_of(mentions.begin(), mentions.end(),
                     [&](const Mention& m) { return m.begin <= at && at < m.end; });
}

bool listed(const Stems& list, const std::string& stem) {
  return std::find(list.begin(), list.end(), stem) != list.end();
}

std::string stem_of(const std::string& word) {
  return stems_of({word}).front();
}

const Stems& column_stems(const Question& q, const data::SchemaProfile& profile,
                          const data::ColumnProfile& column) {
  return q.columns[static_cast<std::size_t>(&column - profile.columns.data())];
}

Question read_question(std::string_view text, const data::SchemaProfile& profile,
                       const std::map<std::string, std::int64_t>& number_scales, bool with_value_words,
                       core::Stemmer& stemmer) {
  Question q;
  q.tokens = core::tokenize(text);
  q.spans = core::token_spans(text);
  q.point_after = decimal_points(text, q.spans);
  if (q.spans.size() != q.tokens.size()) q.spans.clear();
  q.stems = stems_of(q.tokens, stemmer);
  for (const std::string& stem : q.stems) {
    auto scale = number_scales.find(stem);
    q.scale.push_back(scale == number_scales.end() ? 0 : scale->second);
  }
  q.table = stems_of(column_words(profile.table), stemmer);
  for (const data::ColumnProfile& column : profile.columns)
    q.columns.push_back(stems_of(column_words(column.name), stemmer));
  index_values(profile, stemmer, with_value_words, q);
  return q;
}

}  // namespace planfirst::autoviz::extraction
