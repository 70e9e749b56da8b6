#include "pipelines/autoviz/understand/extraction/label_pass.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ascii_case.hpp"
#include "core/calendar.hpp"
#include "core/date_parse.hpp"
#include "core/join.hpp"
#include "core/similarity.hpp"
#include "core/stemmer.hpp"
#include "core/timestamp.hpp"
#include "core/tokenizer.hpp"
#include "core/wordnet_synonyms.hpp"
#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/row_count.hpp"
#include "pipelines/autoviz/understand/abbreviated_value.hpp"
#include "pipelines/autoviz/understand/extraction/column_pass.hpp"
#include "pipelines/autoviz/understand/extraction/comparison_pass.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/numbers.hpp"
#include "pipelines/autoviz/understand/extraction/period_pass.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/ranking_pass.hpp"
#include "pipelines/autoviz/understand/extraction/refusal_pass.hpp"
#include "pipelines/autoviz/understand/extraction/role_pass.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/extraction/value_pass.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz::extraction {

namespace {

// "in the artist table" names the data, not a table to output: clears "table" after the table's name.
void clear_table_references(const Question& q, Stems& words) {
  const Stems& table = q.table;
  for (std::size_t at = table.size(); !table.empty() && at < q.tokens.size(); ++at) {
    if (q.tokens[at] == "table" &&
        std::equal(table.begin(), table.end(),
                   q.stems.begin() + static_cast<std::ptrdiff_t>(at - table.size()))) {
      words[at].clear();
    }
  }
}

}  // namespace

void add_analysis(const LabelledPhrases& analysis, Findings& found) {
  for (const auto& [label, phrases] : analysis) {
    if (contains_phrase(found.words, phrases)) add_unique(found.requirements.analysis, label);
  }
}

void add_outputs(const Question& q, const LabelledPhrases& outputs,
                 const std::vector<std::string>& default_outputs, const Phrases& count_phrases,
                 const Phrases& aggregation_words, Findings& found) {
  Requirements& requirements = found.requirements;
  Stems& words = found.words;
  clear_table_references(q, words);
  for (const auto& [label, phrases] : outputs) {
    if (contains_phrase(words, phrases)) add_unique(requirements.outputs, label);
  }
  // Words outside column names ("dock count" names a column; it asks for no count).
  const bool asks_amount = contains_phrase(words, count_phrases) || contains_phrase(words, aggregation_words);
  const bool keyless = requirements.group_by.empty() && !requirements.time.column;
  const bool totalled = std::find(requirements.analysis.begin(), requirements.analysis.end(), "total") !=
                        requirements.analysis.end();
  const bool one_number = keyless && requirements.metrics.size() <= 1 &&
                          (asks_amount || totalled);  // "how many dogs were abandoned?"
  const bool rows_only = keyless && requirements.metrics.empty() && !asks_amount &&
                         requirements.analysis.empty();  // "list all orders in the Online channel"
  if (requirements.outputs.empty() && (one_number || rows_only)) {
    requirements.outputs = {"table"};  // no chart to draw
  } else if (requirements.outputs.empty()) {
    requirements.outputs = default_outputs;
  }
}

void order_analysis(const LabelledPhrases& analysis, Requirements& requirements) {
  // Keep the contract's order of labels, so the same question gives the same bytes.
  std::vector<std::string> ordered;
  for (const auto& [label, unused] : analysis) {
    if (std::find(requirements.analysis.begin(), requirements.analysis.end(), label) !=
        requirements.analysis.end()) {
      ordered.push_back(label);
    }
  }
  requirements.analysis = std::move(ordered);
}

}  // namespace planfirst::autoviz::extraction
