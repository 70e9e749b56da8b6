// `planfirst embed` as a user runs it: the built-in hashed embedder (384 dimensions, a similarity
// matrix, the same bytes every run) and an OpenAI-compatible embedding server, here the scripted
// test server on loopback, with the API key read from the variable embed.api_key_env names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/command_runner.hpp"
#include "support/openai_test_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

using test_support::OpenAiTestServer;
using test_support::TempDir;

constexpr const char* kEmbeddingsPath = "/v1/embeddings";
constexpr const char* kTexts = "'revenue by region' 'revenue per region' 'employee onboarding policy'";

// The rows of the "cosine similarity:" table that `planfirst embed` prints.
std::vector<std::vector<double>> similarity_matrix(const std::string& output) {
  std::vector<std::vector<double>> rows;
  const std::size_t table = output.find("cosine similarity:");
  if (table == std::string::npos) return rows;
  std::istringstream lines(output.substr(table));
  std::string line;
  std::getline(lines, line);  // the title
  std::getline(lines, line);  // the column headers
  while (std::getline(lines, line) && line.find(']') != std::string::npos) {
    std::istringstream cells(line.substr(line.find(']') + 1));
    std::vector<double> row;
    for (double value = 0; cells >> value;) row.push_back(value);
    rows.push_back(row);
  }
  return rows;
}

TEST(EmbedCli, HashedEmbedderGives384DimensionsAndASymmetricSimilarityMatrix) {
  const CommandOutcome run = run_command(planfirst(std::string("embed ") + kTexts));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("embedder:   hashed:v1:384\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("dimensions: 384\n"), std::string::npos) << run.output;
  const std::vector<std::vector<double>> matrix = similarity_matrix(run.output);
  ASSERT_EQ(matrix.size(), 3u) << run.output;
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(matrix[i].size(), 3u) << run.output;
    EXPECT_DOUBLE_EQ(matrix[i][i], 1.0);
    for (std::size_t j = 0; j < 3; ++j) EXPECT_DOUBLE_EQ(matrix[i][j], matrix[j][i]);
  }
  EXPECT_GT(matrix[0][1], matrix[0][2]) << "near paraphrases are closer than unrelated texts\n" << run.output;
}

TEST(EmbedCli, HashedEmbedderPrintsTheSameBytesTwice) {
  const std::string command = planfirst(std::string("embed ") + kTexts);

  const CommandOutcome first = run_command(command);
  const CommandOutcome second = run_command(command);

  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(first.output, second.output);
}

TEST(EmbedCli, BaseUrlEmbedsThroughTheServerWithTheDefaultModel) {
  OpenAiTestServer server;

  const CommandOutcome run = run_command(
      planfirst("embed --base-url " + server.base_url() + " 'revenue by region' 'churn by month'"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("embedder:   openai:bge-small-en:4\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("dimensions: 4\n"), std::string::npos) << run.output;
  EXPECT_EQ(similarity_matrix(run.output).size(), 2u) << run.output;
  const auto requests = server.requests(kEmbeddingsPath);
  ASSERT_EQ(requests.size(), 2u);  // the width probe, then both texts in one batch
  const nlohmann::json body = nlohmann::json::parse(requests[1].body);
  EXPECT_EQ(body.at("model"), "bge-small-en");
  EXPECT_EQ(body.at("input"), nlohmann::json::array({"revenue by region", "churn by month"}));
}

TEST(EmbedCli, SendsTheApiKeyFromTheVariableThatTheConfigNames) {
  OpenAiTestServer server;
  const TempDir dir;
  const auto config =
      dir.write("planfirst.toml", "[embed]\nmodel = \"bge-base-en\"\napi_key_env = \"E2E_EMBED_TOKEN\"\n");

  const CommandOutcome run =
      run_command("E2E_EMBED_TOKEN=sk-e2e " + planfirst("--config " + config.string() + " embed --base-url " +
                                                        server.base_url() + " 'a text'"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("openai:bge-base-en:4"), std::string::npos) << run.output;
  ASSERT_FALSE(server.requests(kEmbeddingsPath).empty());
  for (const auto& request : server.requests(kEmbeddingsPath)) {
    EXPECT_EQ(request.header("Authorization"), "Bearer sk-e2e");
  }
}

TEST(EmbedCli, AServerThatIsDownIsAFailureNamingTheUrl) {
  const std::string url = test_support::unreachable_base_url();

  const CommandOutcome run = run_command(planfirst("embed --base-url " + url + " 'a text'"));

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("planfirst embed: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(url), std::string::npos) << run.output;
}

}  // namespace
}  // namespace planfirst::e2e
