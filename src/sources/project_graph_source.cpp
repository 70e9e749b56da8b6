#include "sources/project_graph_source.hpp"

#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/timestamp.hpp"
#include "data/database.hpp"
#include "sources/graph_answer.hpp"

namespace planfirst::sources {

core::Result<std::unique_ptr<ProjectGraphSource>> ProjectGraphSource::create(data::Database& database,
                                                                             const core::AssetStore& assets,
                                                                             const core::Clock& clock) {
  core::Result<GraphQuestions> questions = GraphQuestions::load(assets);
  if (!questions) return questions.error();
  return std::make_unique<ProjectGraphSource>(ConstructionKey{}, database, std::move(*questions), clock);
}

ProjectGraphSource::ProjectGraphSource(ConstructionKey, data::Database& database, GraphQuestions questions,
                                       const core::Clock& clock)
    : database_(&database), questions_(std::move(questions)), clock_(&clock) {}

core::Result<std::vector<EvidenceItem>> ProjectGraphSource::fetch(
    const SourceQuery& query, const core::CancellationToken* cancel) const {
  if (cancel != nullptr && cancel->cancelled()) return core::unavailable("neo4j: cancelled");
  const std::lock_guard lock(mutex_);
  const GraphRunner run = [&](std::string_view statement,
                              const std::string* entity_id) -> core::Result<GraphRows> {
    std::vector<data::Value> params;
    if (entity_id != nullptr) params.emplace_back(*entity_id);
    core::Result<data::QueryResult> result = database_->query(statement, params);
    if (!result) {
      core::Error error = std::move(result).error();
      error.message = "neo4j (status database): " + error.message;
      return error;
    }
    GraphRows rows;
    for (const data::Column& column : result->columns()) rows.columns.push_back(column.name);
    for (std::size_t r = 0; r < result->row_count(); ++r) {
      std::vector<std::string> row;
      for (std::size_t c = 0; c < result->column_count(); ++c) {
        const data::Value& value = result->at(r, c);
        row.push_back(value.is_null() ? std::string() : value.to_string());
      }
      rows.rows.push_back(std::move(row));
    }
    return rows;
  };
  const GraphAnswerContext context{"neo4j", std::string(database_->engine()) + " status database",
                                   core::format_utc_timestamp(clock_->now())};
  return answer_graph_question(questions_, query, GraphLanguage::kSql, run, context);
}

}  // namespace planfirst::sources
