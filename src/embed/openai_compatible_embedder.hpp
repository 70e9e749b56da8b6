// OpenAiCompatibleEmbedder embeds through a server speaking the OpenAI embeddings protocol (a local
// bge-small-en behind vLLM, llama.cpp's server, Ollama, text-embeddings-inference, a hosted API):
// POST {base_url}/embeddings in batches, rows put back in input order by each item's `index`, width
// checked, rows L2-normalized so inner product is cosine. Retries, timeouts and TLS are HttpClient's.
// Each request (the width probe included) counts in embed_requests_total{model,outcome} (outcome ok or
// error), embed_latency_seconds{model} and, when it succeeds, embed_texts_total{model}.
// Immutable after create(); threads may share one.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "core/http_client.hpp"
#include "embed/embedder.hpp"

namespace planfirst::core {
class Clock;
class MetricsRegistry;
class Sleeper;
}  // namespace planfirst::core

namespace planfirst::embed {

inline constexpr std::string_view kDefaultEmbeddingModel = "bge-small-en";  // seed 002

struct OpenAiEmbedderOptions {
  std::string base_url;  // "http://localhost:8080/v1"
  std::string model{kDefaultEmbeddingModel};
  std::string api_key;          // sent as "Authorization: Bearer ..." when set
  std::size_t batch_size = 64;  // texts per request; at least 1
  std::size_t dimensions = 0;   // expected width; 0: create() asks the server once
  bool normalize = true;        // L2-normalize every row
  core::HttpOptions http;
  core::MetricsRegistry* metrics = nullptr;  // borrowed, outlives the embedder; null: no metrics
};

class OpenAiCompatibleEmbedder final : public Embedder {
 public:
  // kInvalidArgument for a bad base URL or a zero batch size; when options.dimensions is 0, the
  // error of the one-text request that learns the width.
  static core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> create(OpenAiEmbedderOptions options);
  // REQUIRES: `sleeper` and `clock` outlive the embedder (tests pass a RecordingSleeper).
  static core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> create(OpenAiEmbedderOptions options,
                                                                        core::Sleeper& sleeper,
                                                                        const core::Clock& clock);

  std::string identity() const override;  // "openai:<model>:<dimensions>"
  std::size_t dimensions() const override { return options_.dimensions; }
  // Errors: HttpClient's (unreachable, non-2xx after retries); kUnavailable for a reply that is not
  // JSON, lacks fields, or has the wrong number of rows or a bad index; kInvalidArgument for rows
  // of another width than dimensions() (the configured model is not the served one).
  core::Result<EmbeddingMatrix> embed(std::span<const std::string> texts) const override;

 private:
  OpenAiCompatibleEmbedder(OpenAiEmbedderOptions options, core::HttpClient client, const core::Clock& clock);
  static core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> finish(OpenAiEmbedderOptions options,
                                                                        core::Result<core::HttpClient> client,
                                                                        const core::Clock& clock);
  // One request for `texts`; rows of `width` floats (0: whatever the server sends, all alike).
  core::Result<EmbeddingMatrix> embed_batch(std::span<const std::string> texts, std::size_t width) const;
  // embed_batch, counted in the embed_* metrics.
  core::Result<EmbeddingMatrix> embed_batch_metered(std::span<const std::string> texts,
                                                    std::size_t width) const;

  OpenAiEmbedderOptions options_;
  core::HttpClient client_;
  const core::Clock* clock_;  // borrowed; measures latency
};

}  // namespace planfirst::embed
