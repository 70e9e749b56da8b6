// OpenAiCompatibleEmbedder against llama.cpp's own llama-server --embeddings serving the embedding model
// scripts/bootstrap converts (all-MiniLM-L6-v2 by scripts/bert-to-gguf): the width it learns, meaning
// (paraphrases closer than unrelated texts), the same vector on repeat, and agreement with reference
// vectors computed without llama.cpp (scripts/bert-reference-vectors: a NumPy forward pass with the
// model's own tokenizer), token for token and at cosine >= 0.99 per sentence.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "embed/openai_compatible_embedder.hpp"
#include "support/llama_server.hpp"

namespace planfirst::embed {
namespace {

using nlohmann::json;
using test_support::LlamaServer;

constexpr std::size_t kDimensions = 384;
constexpr double kMinReferenceCosine = 0.99;

class LlamaEmbeddingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string failure;
    server_ = LlamaServer::shared_embeddings(&failure);
    ASSERT_NE(server_, nullptr) << failure;
    OpenAiEmbedderOptions options;
    options.base_url = server_->base_url();
    options.model = server_->model_id();
    options.http.read_timeout = std::chrono::seconds(120);  // two shared cores: slow, never hung
    core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> made = OpenAiCompatibleEmbedder::create(options);
    ASSERT_TRUE(made) << made.error().describe();
    embedder_ = std::move(*made);
  }

  EmbeddingMatrix embed(const std::vector<std::string>& texts) const {
    core::Result<EmbeddingMatrix> rows = embedder_->embed(texts);
    EXPECT_TRUE(rows) << rows.error().describe();
    return rows ? *rows : EmbeddingMatrix{};
  }

  static json reference() {
    std::ifstream in(std::string(PLANFIRST_SOURCE_DIR) + "/tests/embed/llama_server/minilm_reference.json");
    return json::parse(in);
  }

  LlamaServer* server_ = nullptr;
  std::unique_ptr<OpenAiCompatibleEmbedder> embedder_;
};

TEST_F(LlamaEmbeddingTest, LearnsTheModelsWidthFromTheServer) {
  EXPECT_EQ(embedder_->dimensions(), kDimensions);
  EXPECT_EQ(embedder_->identity(), "openai:all-minilm-l6-v2:384");
  const EmbeddingMatrix rows = embed({"revenue by region", "orders per month"});
  EXPECT_EQ(rows.rows, 2u);
  EXPECT_EQ(rows.dimensions, kDimensions);
}

TEST_F(LlamaEmbeddingTest, ParaphrasesAreCloserThanUnrelatedTexts) {
  struct Triple {
    std::string text, paraphrase, unrelated;
  };
  const std::vector<Triple> triples = {
      {"How many orders were placed per month in 2024?", "Count the orders placed in each month of 2024.",
       "The cat sleeps on the warm windowsill."},
      {"revenue by region", "revenue per region", "employee onboarding policy"},
      {"plot a line chart of sales over time", "draw sales as a time series", "detect outliers in latency"},
  };
  for (const Triple& t : triples) {
    const EmbeddingMatrix rows = embed({t.text, t.paraphrase, t.unrelated});
    ASSERT_EQ(rows.rows, 3u);
    const double close = cosine_similarity(rows.row(0), rows.row(1));
    const double far = cosine_similarity(rows.row(0), rows.row(2));
    EXPECT_GT(close, far) << t.text << ": paraphrase " << close << ", unrelated " << far;
  }
}

TEST_F(LlamaEmbeddingTest, GivesTheSameVectorsOnRepeat) {
  const std::vector<std::string> texts = {"aggregate the metric revenue", "group by region", "hello world"};
  const EmbeddingMatrix first = embed(texts);
  const EmbeddingMatrix second = embed(texts);
  ASSERT_EQ(first.rows, texts.size());
  EXPECT_EQ(first.values, second.values);
}

TEST_F(LlamaEmbeddingTest, TokenizesLikeTheModelsOwnTokenizer) {
  httplib::Client client("127.0.0.1", server_->port());
  client.set_read_timeout(std::chrono::seconds(60));
  for (const json& c : reference()["cases"]) {
    const json body{{"content", c["text"]}, {"add_special", true}};
    httplib::Result reply = client.Post("/tokenize", body.dump(), "application/json");
    ASSERT_TRUE(reply && reply->status == 200) << c["text"];
    EXPECT_EQ(json::parse(reply->body)["tokens"], c["tokens"]) << c["text"];
  }
}

TEST_F(LlamaEmbeddingTest, MatchesReferenceVectorsComputedWithoutLlamaCpp) {
  const json cases = reference()["cases"];
  std::vector<std::string> texts;
  for (const json& c : cases) texts.push_back(c["text"].get<std::string>());
  const EmbeddingMatrix rows = embed(texts);
  ASSERT_EQ(rows.rows, cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::vector<float> expected = cases[i]["embedding"].get<std::vector<float>>();
    ASSERT_EQ(expected.size(), kDimensions);
    const double cosine = cosine_similarity(rows.row(i), expected);
    EXPECT_GE(cosine, kMinReferenceCosine) << texts[i];
    RecordProperty("cosine_" + std::to_string(i), std::to_string(cosine));
  }
}

}  // namespace
}  // namespace planfirst::embed
