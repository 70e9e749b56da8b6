#include "sources/neo4j_source.hpp"

#include "core/base64.hpp"
#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/sleeper.hpp"
#include "core/timestamp.hpp"
#include "core/url_query.hpp"
#include "sources/graph_answer.hpp"
#include "sources/neo4j_response.hpp"

namespace planfirst::sources {
namespace {

std::string variable(const core::Environment& env, const std::string& name) {
  if (name.empty()) return {};
  const auto it = env.find(name);
  return it == env.end() ? std::string() : it->second;
}

}  // namespace

core::Result<std::unique_ptr<Neo4jSource>> Neo4jSource::create(Neo4jOptions options,
                                                               const core::AssetStore& assets,
                                                               const core::Clock& clock) {
  return create(std::move(options), assets, clock, core::thread_sleeper(), core::process_environment());
}

core::Result<std::unique_ptr<Neo4jSource>> Neo4jSource::create(Neo4jOptions options,
                                                               const core::AssetStore& assets,
                                                               const core::Clock& clock,
                                                               core::Sleeper& sleeper,
                                                               const core::Environment& env) {
  if (options.database.empty()) return core::invalid_argument("names no database", "Neo4jOptions::database");
  core::Result<GraphQuestions> questions = GraphQuestions::load(assets);
  if (!questions) return questions.error();
  core::Result<core::HttpClient> http =
      core::HttpClient::create(options.base_url, options.http, sleeper, clock);
  if (!http) {
    core::Error error = std::move(http).error();
    error.where = "Neo4jOptions::base_url";
    return error;
  }
  core::HttpHeaders headers;
  const std::string user = variable(env, options.user_env);
  const std::string password = variable(env, options.password_env);
  if (!user.empty() || !password.empty()) {
    if (user.empty() || password.empty()) {
      return core::failed_precondition("Neo4j credentials need both $" + options.user_env + " and $" +
                                           options.password_env + "; one of them is unset or empty",
                                       "Neo4jOptions::user_env");
    }
    headers.emplace_back("Authorization", "Basic " + core::base64_encode(user + ":" + password));
  }
  return std::make_unique<Neo4jSource>(ConstructionKey{}, std::move(options), std::move(*questions),
                                       std::move(*http), std::move(headers), clock);
}

Neo4jSource::Neo4jSource(ConstructionKey, Neo4jOptions options, GraphQuestions questions,
                         core::HttpClient http, core::HttpHeaders headers, const core::Clock& clock)
    : options_(std::move(options)),
      questions_(std::move(questions)),
      http_(std::move(http)),
      headers_(std::move(headers)),
      clock_(&clock) {}

core::Result<std::vector<EvidenceItem>> Neo4jSource::fetch(const SourceQuery& query,
                                                           const core::CancellationToken* cancel) const {
  if (cancel != nullptr && cancel->cancelled()) return core::unavailable("neo4j: cancelled");
  const std::string path = "/db/" + core::percent_encode(options_.database) + "/tx/commit";
  const std::string url = http_.url(path);
  const GraphRunner run = [&](std::string_view statement,
                              const std::string* entity_id) -> core::Result<GraphRows> {
    std::map<std::string, std::string> parameters;
    if (entity_id != nullptr) parameters["id"] = *entity_id;
    core::Result<core::HttpResponse> response =
        http_.post_json(path, neo4j_request_body(statement, parameters), headers_, cancel);
    if (!response) {
      core::Error error = std::move(response).error();
      if (error.code == core::ErrorCode::kFailedPrecondition) {
        error.message = "Neo4j refused the credentials from $" + options_.user_env + " and $" +
                        options_.password_env + " (" + error.message + ")";
      } else {
        error.message = "neo4j: " + error.message;
      }
      return error;
    }
    return parse_neo4j_response(response->body, url);
  };
  const GraphAnswerContext context{"neo4j", http_.url("/db/" + options_.database),
                                   core::format_utc_timestamp(clock_->now())};
  return answer_graph_question(questions_, query, GraphLanguage::kCypher, run, context);
}

}  // namespace planfirst::sources
