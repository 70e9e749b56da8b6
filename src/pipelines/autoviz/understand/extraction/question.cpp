#include "pipelines/autoviz/understand/extraction/question.hpp"

namespace planfirst::autoviz::extraction {

bool in_mention(const std::vector<Mention>& mentions, std::size_t at) {
  return std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) { return m.begin <= at && at < m.end; });
}

bool listed(const Stems& list, const std::string& stem) { return std::find(list.begin(), list.end(), stem) != list.end(); }

std::string stem_of(const std::string& word) { return stems_of({word}).front(); }

const Stems& column_stems(const Question& q, const data::SchemaProfile& profile, const data::ColumnProfile& column) {
  return q.columns[static_cast<std::size_t>(&column - profile.columns.data())];
}

}  // namespace planfirst::autoviz::extraction
