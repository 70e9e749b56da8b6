#include "embed/openai_compatible_embedder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/config.hpp"
#include "core/metrics.hpp"
#include "core/sleeper.hpp"
#include "embed/embedder_from_config.hpp"
#include "support/openai_test_server.hpp"

namespace planfirst::embed {
namespace {

using nlohmann::json;
using test_support::OpenAiTestServer;
using test_support::ScriptedReply;

constexpr std::string_view kEmbeddingsPath = "/v1/embeddings";

ScriptedReply reply(int status, std::string body, std::string content_type = "application/json") {
  ScriptedReply r;
  r.status = status;
  r.body = std::move(body);
  r.content_type = std::move(content_type);
  return r;
}

ScriptedReply embeddings(const json& data) {
  return reply(200, json{{"object", "list"}, {"model", "bge-small-en"}, {"data", data}}.dump());
}

json item(int index, std::vector<double> vector) {
  return {{"object", "embedding"}, {"index", index}, {"embedding", vector}};
}

std::vector<std::size_t> batch_sizes(const OpenAiTestServer& server) {
  std::vector<std::size_t> sizes;
  for (const auto& request : server.requests(kEmbeddingsPath))
    sizes.push_back(json::parse(request.body)["input"].size());
  return sizes;
}

class OpenAiCompatibleEmbedderTest : public ::testing::Test {
 protected:
  OpenAiEmbedderOptions options(std::size_t dimensions = 4) const {
    OpenAiEmbedderOptions o;
    o.base_url = server_.base_url();
    o.dimensions = dimensions;
    o.http.max_retries = 2;
    o.http.jitter_seed = 7;
    o.http.read_timeout = std::chrono::seconds(5);
    return o;
  }
  std::unique_ptr<OpenAiCompatibleEmbedder> make(OpenAiEmbedderOptions o) {
    auto embedder = OpenAiCompatibleEmbedder::create(std::move(o), sleeper_, clock_);
    EXPECT_TRUE(embedder.has_value()) << embedder.error().describe();
    return embedder ? std::move(*embedder) : nullptr;
  }

  OpenAiTestServer server_;
  core::RecordingSleeper sleeper_;
  core::SystemClock clock_;
};

TEST_F(OpenAiCompatibleEmbedderTest, LearnsTheWidthAndEmbedsEachTextAsAUnitRow) {
  OpenAiEmbedderOptions o = options(0);
  o.api_key = "sk-test";
  const auto embedder = make(o);
  ASSERT_NE(embedder, nullptr);
  const std::vector<std::string> texts = {"plot a line chart", "detect anomalies", "plot a line chart"};

  core::Result<EmbeddingMatrix> matrix = embedder->embed(texts);

  ASSERT_TRUE(matrix.has_value()) << matrix.error().describe();
  EXPECT_EQ(embedder->identity(), "openai:bge-small-en:4");
  ASSERT_EQ(matrix->rows, 3u);
  ASSERT_EQ(matrix->dimensions, 4u);
  EXPECT_NEAR(cosine_similarity(matrix->row(0), matrix->row(0)), 1.0, 1e-6);
  double norm = 0.0;
  for (const float v : matrix->row(1)) norm += static_cast<double>(v) * v;
  EXPECT_NEAR(norm, 1.0, 1e-6);
  EXPECT_EQ(std::memcmp(matrix->row(0).data(), matrix->row(2).data(), 4 * sizeof(float)), 0);
  const auto requests = server_.requests(kEmbeddingsPath);
  ASSERT_EQ(requests.size(), 2u);  // the width probe, then the batch
  const json body = json::parse(requests[1].body);
  EXPECT_EQ(body["model"], "bge-small-en");
  EXPECT_EQ(body["input"], json(texts));
  EXPECT_EQ(requests[1].header("Authorization"), "Bearer sk-test");
}

TEST_F(OpenAiCompatibleEmbedderTest, SplitsTextsIntoBatchesAndKeepsTheirOrder) {
  OpenAiEmbedderOptions batched = options();
  batched.batch_size = 2;
  const auto by_two = make(batched);
  const auto all_at_once = make(options());
  ASSERT_TRUE(by_two && all_at_once);
  const std::vector<std::string> texts = {"a", "bb", "ccc", "dddd", "eeeee"};

  core::Result<EmbeddingMatrix> split = by_two->embed(texts);
  const std::vector<std::size_t> sizes = batch_sizes(server_);
  core::Result<EmbeddingMatrix> whole = all_at_once->embed(texts);

  ASSERT_TRUE(split.has_value() && whole.has_value());
  EXPECT_EQ(sizes, (std::vector<std::size_t>{2, 2, 1}));
  EXPECT_EQ(split->values, whole->values);
}

TEST_F(OpenAiCompatibleEmbedderTest, PutsRowsBackInInputOrderByTheirIndex) {
  server_.script(
      kEmbeddingsPath,
      {embeddings(json::array({item(2, {0, 0, 3, 0}), item(0, {2, 0, 0, 0}), item(1, {0, 5, 0, 0})}))});
  const auto embedder = make(options());
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> matrix =
      embedder->embed(std::vector<std::string>{"first", "second", "third"});

  ASSERT_TRUE(matrix.has_value()) << matrix.error().describe();
  EXPECT_EQ(matrix->values, (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
}

TEST_F(OpenAiCompatibleEmbedderTest, RefusesRowsOfAnotherWidthThanConfigured) {
  const auto embedder = make(options(384));
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> matrix = embedder->embed(std::vector<std::string>{"revenue by region"});

  ASSERT_FALSE(matrix.has_value());
  EXPECT_EQ(matrix.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(matrix.error().message.find("returned 4 dimensions, expected 384"), std::string::npos)
      << matrix.error().describe();
  EXPECT_NE(matrix.error().where.find("/data/0/embedding"), std::string::npos);
}

TEST_F(OpenAiCompatibleEmbedderTest, RefusesAReplyWithTheWrongNumberOfRows) {
  server_.script(kEmbeddingsPath, {embeddings(json::array({item(0, {1, 0, 0, 0})}))});
  const auto embedder = make(options());
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> matrix = embedder->embed(std::vector<std::string>{"one", "two"});

  ASSERT_FALSE(matrix.has_value());
  EXPECT_EQ(matrix.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(matrix.error().message.find("returned 1 vectors for 2 texts"), std::string::npos);
}

TEST_F(OpenAiCompatibleEmbedderTest, RefusesARepeatedIndex) {
  server_.script(kEmbeddingsPath, {embeddings(json::array({item(0, {1, 0, 0, 0}), item(0, {0, 1, 0, 0})}))});
  const auto embedder = make(options());
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> matrix = embedder->embed(std::vector<std::string>{"one", "two"});

  ASSERT_FALSE(matrix.has_value());
  EXPECT_NE(matrix.error().where.find("/data/1/index"), std::string::npos) << matrix.error().describe();
}

TEST_F(OpenAiCompatibleEmbedderTest, RefusesAReplyThatIsNotJson) {
  server_.script(kEmbeddingsPath,
                 {reply(200, "<html>gateway</html>", "text/html"), reply(200, R"({"data": "nope"})")});
  const auto embedder = make(options());
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> not_json = embedder->embed(std::vector<std::string>{"x"});
  core::Result<EmbeddingMatrix> no_data = embedder->embed(std::vector<std::string>{"x"});

  ASSERT_FALSE(not_json.has_value());
  EXPECT_EQ(not_json.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(not_json.error().message.find("not JSON"), std::string::npos);
  ASSERT_FALSE(no_data.has_value());
  EXPECT_NE(no_data.error().message.find("\"data\" array"), std::string::npos);
}

TEST_F(OpenAiCompatibleEmbedderTest, RetriesAServerErrorThenSucceeds) {
  server_.script(kEmbeddingsPath, {ScriptedReply::error(500, "warming up")});
  const auto embedder = make(options());
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> matrix = embedder->embed(std::vector<std::string>{"retry me"});

  ASSERT_TRUE(matrix.has_value()) << matrix.error().describe();
  EXPECT_EQ(matrix->rows, 1u);
  EXPECT_EQ(server_.requests(kEmbeddingsPath).size(), 2u);
  EXPECT_EQ(sleeper_.sleeps().size(), 1u);
}

TEST_F(OpenAiCompatibleEmbedderTest, GivesUpAfterTheLastRetryWithTheStatus) {
  server_.script(kEmbeddingsPath, {ScriptedReply::error(503, "down"), ScriptedReply::error(503, "down"),
                                   ScriptedReply::error(503, "down")});
  const auto embedder = make(options());
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> matrix = embedder->embed(std::vector<std::string>{"x"});

  ASSERT_FALSE(matrix.has_value());
  EXPECT_EQ(matrix.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(matrix.error().describe().find("503"), std::string::npos) << matrix.error().describe();
  EXPECT_EQ(server_.requests(kEmbeddingsPath).size(), 3u);
}

TEST_F(OpenAiCompatibleEmbedderTest, SendsNoRequestForAnEmptyBatch) {
  const auto embedder = make(options());
  ASSERT_NE(embedder, nullptr);

  core::Result<EmbeddingMatrix> matrix = embedder->embed(std::vector<std::string>{});

  ASSERT_TRUE(matrix.has_value());
  EXPECT_EQ(matrix->rows, 0u);
  EXPECT_TRUE(server_.requests(kEmbeddingsPath).empty());
}

TEST_F(OpenAiCompatibleEmbedderTest, RefusesAZeroBatchSize) {
  OpenAiEmbedderOptions o = options();
  o.batch_size = 0;

  auto embedder = OpenAiCompatibleEmbedder::create(o, sleeper_, clock_);

  ASSERT_FALSE(embedder.has_value());
  EXPECT_EQ(embedder.error().code, core::ErrorCode::kInvalidArgument);
}

TEST(EmbedderFromConfig, UsesTheHashedEmbedderWithoutABaseUrl) {
  const core::Config config;

  core::Result<std::unique_ptr<Embedder>> embedder = embedder_from_config(config, {});

  ASSERT_TRUE(embedder.has_value());
  EXPECT_EQ((*embedder)->identity(), "hashed:v1:384");
}

TEST(EmbedderFromConfig, UsesTheConfiguredServerModelAndKey) {
  OpenAiTestServer server;
  core::Config config;
  ASSERT_TRUE(config.set_flag("embed.base_url", server.base_url()).has_value());
  ASSERT_TRUE(config.set_flag("embed.model", "bge-base-en").has_value());

  core::Result<std::unique_ptr<Embedder>> embedder =
      embedder_from_config(config, {{"PLANFIRST_EMBED_API_KEY", "sk-env"}});

  ASSERT_TRUE(embedder.has_value()) << embedder.error().describe();
  EXPECT_EQ((*embedder)->identity(), "openai:bge-base-en:4");
  ASSERT_EQ(server.requests(kEmbeddingsPath).size(), 1u);
  EXPECT_EQ(server.requests(kEmbeddingsPath)[0].header("Authorization"), "Bearer sk-env");
}

TEST(EmbedderFromConfig, SendsTheKeyFromTheVariableThatEmbedApiKeyEnvNames) {
  OpenAiTestServer server;
  core::Config config;
  ASSERT_TRUE(config.set_flag("embed.base_url", server.base_url()).has_value());
  ASSERT_TRUE(config.set_flag("embed.api_key_env", "TEI_TOKEN").has_value());
  const core::Environment env{{"PLANFIRST_EMBED_API_KEY", "sk-default"}, {"TEI_TOKEN", "sk-tei"}};

  core::Result<std::unique_ptr<Embedder>> embedder = embedder_from_config(config, env);
  ASSERT_TRUE(embedder.has_value()) << embedder.error().describe();
  ASSERT_TRUE((*embedder)->embed(std::vector<std::string>{"revenue by region"}).has_value());

  ASSERT_EQ(server.requests(kEmbeddingsPath).size(), 2u);  // the width probe, then the text
  for (const auto& request : server.requests(kEmbeddingsPath))
    EXPECT_EQ(request.header("Authorization"), "Bearer sk-tei");
}

TEST(EmbedderFromConfig, SendsNoAuthorizationWhenTheNamedVariableIsUnset) {
  OpenAiTestServer server;
  core::Config config;
  ASSERT_TRUE(config.set_flag("embed.base_url", server.base_url()).has_value());

  core::Result<std::unique_ptr<Embedder>> embedder =
      embedder_from_config(config, {{"PLANFIRST_LLM_API_KEY", "sk-llm"}});

  ASSERT_TRUE(embedder.has_value()) << embedder.error().describe();
  ASSERT_EQ(server.requests(kEmbeddingsPath).size(), 1u);
  EXPECT_EQ(server.requests(kEmbeddingsPath)[0].header("Authorization"), "");
}

TEST_F(OpenAiCompatibleEmbedderTest, CountsRequestsTextsAndLatencyByModelAndOutcome) {
  core::MetricsRegistry metrics;
  OpenAiEmbedderOptions o = options();
  o.model = "bge-small-en";
  o.batch_size = 2;
  o.http.max_retries = 0;
  o.metrics = &metrics;
  const auto embedder = make(o);
  ASSERT_NE(embedder, nullptr);
  ASSERT_TRUE(embedder->embed(std::vector<std::string>{"a", "b", "c"}).has_value());
  server_.script(kEmbeddingsPath, {ScriptedReply::error(503, "loading")});

  EXPECT_FALSE(embedder->embed(std::vector<std::string>{"d"}).has_value());

  const core::Labels ok{{"model", "bge-small-en"}, {"outcome", "ok"}};
  const core::Labels error{{"model", "bge-small-en"}, {"outcome", "error"}};
  EXPECT_EQ(metrics.counter("embed_requests_total", ok).value(), 2.0);
  EXPECT_EQ(metrics.counter("embed_requests_total", error).value(), 1.0);
  EXPECT_EQ(metrics.counter("embed_texts_total", {{"model", "bge-small-en"}}).value(), 3.0);
  EXPECT_EQ(metrics.histogram("embed_latency_seconds", {{"model", "bge-small-en"}}).snapshot().count, 3u);
}

TEST_F(OpenAiCompatibleEmbedderTest, CountsTheWidthProbeAsARequest) {
  core::MetricsRegistry metrics;
  OpenAiEmbedderOptions o = options(/*dimensions=*/0);
  o.metrics = &metrics;

  const auto embedder = make(o);

  ASSERT_NE(embedder, nullptr);
  EXPECT_EQ(metrics.counter("embed_requests_total", {{"model", "bge-small-en"}, {"outcome", "ok"}}).value(),
            1.0);
  EXPECT_NE(metrics.render_prometheus().find("embed_texts_total{model=\"bge-small-en\"} 1"),
            std::string::npos)
      << metrics.render_prometheus();
}

}  // namespace
}  // namespace planfirst::embed
