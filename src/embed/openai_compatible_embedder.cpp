#include "embed/openai_compatible_embedder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "core/clock.hpp"
#include "core/json.hpp"
#include "core/metrics.hpp"
#include "core/sleeper.hpp"

namespace planfirst::embed {
namespace {

constexpr std::string_view kPath = "/embeddings";

void normalize_row(float* row, std::size_t width) {
  double sum = 0.0;
  for (std::size_t d = 0; d < width; ++d) sum += static_cast<double>(row[d]) * row[d];
  if (sum == 0.0) return;
  const double norm = std::sqrt(sum);
  for (std::size_t d = 0; d < width; ++d) row[d] = static_cast<float>(row[d] / norm);
}

void record(core::MetricsRegistry* metrics, const std::string& model, bool ok, std::size_t texts,
            std::chrono::nanoseconds latency) {
  if (metrics == nullptr) return;
  metrics->counter("embed_requests_total", {{"model", model}, {"outcome", ok ? "ok" : "error"}}).inc();
  metrics->histogram("embed_latency_seconds", {{"model", model}})
      .observe(std::chrono::duration<double>(latency).count());
  if (ok) metrics->counter("embed_texts_total", {{"model", model}}).inc(static_cast<double>(texts));
}

}  // namespace

OpenAiCompatibleEmbedder::OpenAiCompatibleEmbedder(OpenAiEmbedderOptions options, core::HttpClient client,
                                                   const core::Clock& clock)
    : options_(std::move(options)), client_(std::move(client)), clock_(&clock) {}

core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> OpenAiCompatibleEmbedder::create(
    OpenAiEmbedderOptions options) {
  return create(std::move(options), core::thread_sleeper(), core::system_clock());
}

core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> OpenAiCompatibleEmbedder::create(
    OpenAiEmbedderOptions options, core::Sleeper& sleeper, const core::Clock& clock) {
  core::Result<core::HttpClient> client =
      core::HttpClient::create(options.base_url, options.http, sleeper, clock);
  return finish(std::move(options), std::move(client), clock);
}

core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> OpenAiCompatibleEmbedder::finish(
    OpenAiEmbedderOptions options, core::Result<core::HttpClient> client, const core::Clock& clock) {
  if (!client) return client.error();
  if (options.batch_size == 0)
    return core::invalid_argument("embedding batch size must be at least 1", "batch_size");
  if (options.model.empty()) return core::invalid_argument("no embedding model named", "embed.model");
  std::unique_ptr<OpenAiCompatibleEmbedder> embedder(
      new OpenAiCompatibleEmbedder(std::move(options), std::move(*client), clock));
  if (embedder->options_.dimensions == 0) {
    const std::string probe[] = {"dimension probe"};
    core::Result<EmbeddingMatrix> row = embedder->embed_batch_metered(probe, 0);
    if (!row) return row.error();
    if (row->dimensions == 0) {
      return core::unavailable("the embedding server returned an empty vector", embedder->client_.url(kPath));
    }
    embedder->options_.dimensions = row->dimensions;
  }
  return embedder;
}

std::string OpenAiCompatibleEmbedder::identity() const {
  return fmt::format("openai:{}:{}{}", options_.model, options_.dimensions, options_.normalize ? "" : ":raw");
}

core::Result<EmbeddingMatrix> OpenAiCompatibleEmbedder::embed(std::span<const std::string> texts) const {
  EmbeddingMatrix matrix{texts.size(), options_.dimensions, {}};
  matrix.values.reserve(texts.size() * options_.dimensions);
  for (std::size_t start = 0; start < texts.size(); start += options_.batch_size) {
    const std::size_t count = std::min(options_.batch_size, texts.size() - start);
    core::Result<EmbeddingMatrix> batch =
        embed_batch_metered(texts.subspan(start, count), options_.dimensions);
    if (!batch) return batch.error();
    matrix.values.insert(matrix.values.end(), batch->values.begin(), batch->values.end());
  }
  return matrix;
}

core::Result<EmbeddingMatrix> OpenAiCompatibleEmbedder::embed_batch_metered(
    std::span<const std::string> texts, std::size_t width) const {
  const auto started = clock_->steady_now();
  core::Result<EmbeddingMatrix> batch = embed_batch(texts, width);
  record(options_.metrics, options_.model, batch.has_value(), texts.size(), clock_->steady_now() - started);
  return batch;
}

core::Result<EmbeddingMatrix> OpenAiCompatibleEmbedder::embed_batch(std::span<const std::string> texts,
                                                                    std::size_t width) const {
  const std::string url = client_.url(kPath);
  core::Json request = {{"model", options_.model}, {"input", core::Json::array()}};
  for (const std::string& text : texts) request["input"].push_back(text);
  core::HttpHeaders headers;
  if (!options_.api_key.empty()) headers.emplace_back("Authorization", "Bearer " + options_.api_key);

  core::Result<core::HttpResponse> response =
      client_.post_json(kPath, request.dump(-1, ' ', false, core::Json::error_handler_t::replace), headers);
  if (!response) return response.error();

  const core::Json reply = core::Json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (reply.is_discarded()) return core::unavailable("the embedding server's reply is not JSON", url);
  if (!reply.is_object() || !reply.contains("data") || !reply["data"].is_array()) {
    return core::unavailable("the embedding server's reply has no \"data\" array", url + " /data");
  }
  const core::Json& data = reply["data"];
  if (data.size() != texts.size()) {
    return core::unavailable(
        fmt::format("the embedding server returned {} vectors for {} texts", data.size(), texts.size()),
        url + " /data");
  }

  EmbeddingMatrix matrix{texts.size(), width, {}};
  std::vector<bool> seen(texts.size(), false);
  for (std::size_t i = 0; i < data.size(); ++i) {
    const std::string where = fmt::format("{} /data/{}", url, i);
    const core::Json& item = data[i];
    if (!item.is_object() || !item.contains("embedding") || !item["embedding"].is_array()) {
      return core::unavailable("item has no \"embedding\" array of floats (was encoding_format base64?)",
                               where);
    }
    const std::size_t index = item.contains("index") && item["index"].is_number_unsigned()
                                  ? item["index"].get<std::size_t>()
                                  : (item.contains("index") ? texts.size() : i);  // absent: trust the order
    if (index >= texts.size() || seen[index]) {
      return core::unavailable(
          fmt::format("item has a missing, repeated or out-of-range \"index\" (batch of {})", texts.size()),
          where + "/index");
    }
    seen[index] = true;
    const core::Json& values = item["embedding"];
    if (matrix.dimensions == 0) {
      matrix.dimensions = values.size();
      matrix.values.assign(texts.size() * matrix.dimensions, 0.0f);
    } else if (matrix.values.empty()) {
      matrix.values.assign(texts.size() * matrix.dimensions, 0.0f);
    }
    if (values.size() != matrix.dimensions) {
      return core::invalid_argument(fmt::format("model '{}' returned {} dimensions, expected {}",
                                                options_.model, values.size(), matrix.dimensions),
                                    where + "/embedding");
    }
    float* row = matrix.values.data() + index * matrix.dimensions;
    for (std::size_t d = 0; d < values.size(); ++d) {
      if (!values[d].is_number() || !std::isfinite(values[d].get<double>())) {
        return core::unavailable("embedding holds a value that is not a finite number",
                                 fmt::format("{}/embedding/{}", where, d));
      }
      row[d] = values[d].get<float>();
    }
    if (options_.normalize) normalize_row(row, matrix.dimensions);
  }
  return matrix;
}

}  // namespace planfirst::embed
