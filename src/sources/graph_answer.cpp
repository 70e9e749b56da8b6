#include "sources/graph_answer.hpp"

namespace planfirst::sources {

core::Result<std::vector<EvidenceItem>> answer_graph_question(const GraphQuestions& questions,
                                                              const SourceQuery& query,
                                                              GraphLanguage language, const GraphRunner& run,
                                                              const GraphAnswerContext& context) {
  const bool sql = language == GraphLanguage::kSql;
  GraphEntities entities;
  for (const GraphEntityQuery& entity : questions.entity_queries()) {
    core::Result<GraphRows> rows = run(sql ? entity.sql : entity.cypher, nullptr);
    if (!rows) return rows.error();
    auto& list = entities[entity.type];
    for (const std::vector<std::string>& row : rows->rows) {
      if (row.size() >= 2) list.emplace_back(row[0], row[1]);
    }
  }
  const std::optional<GraphMatch> match = questions.match(query.text, entities);
  if (!match) {
    return core::invalid_argument(context.source + ": no graph question matches \"" + query.text +
                                  "\"; it answers: " + questions.describe());
  }
  const GraphQuestion& question = *match->question;
  const std::string& statement = sql ? question.sql : question.cypher;
  core::Result<GraphRows> rows = run(statement, question.entity.empty() ? nullptr : &match->entity_id);
  if (!rows) return rows.error();
  if (rows->rows.size() > query.limit) rows->rows.resize(query.limit);
  Provenance origin{context.source, context.locator + "#" + question.id, statement, context.fetched_at};
  if (!question.entity.empty())
    origin.query += sql ? " -- $1 = '" + match->entity_id + "'" : " // $id = '" + match->entity_id + "'";
  return graph_evidence(*match, *rows, origin);
}

}  // namespace planfirst::sources
