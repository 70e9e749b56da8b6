// embedder_from_config picks the embedder a run uses: the OpenAI-compatible one when config
// embed.base_url is set (model embed.model, API key from the environment variable that
// embed.api_key_env names, PLANFIRST_EMBED_API_KEY by default), else the built-in HashedEmbedder.
// A pure function of its inputs apart from the server it may contact to learn the embedding width.
// `metrics`, when given, receives the server embedder's embed_* metrics and must outlive it.
#pragma once

#include <memory>
#include <string_view>

#include "core/config.hpp"
#include "core/result.hpp"
#include "embed/embedder.hpp"

namespace planfirst::core {
class MetricsRegistry;
}

namespace planfirst::embed {

core::Result<std::unique_ptr<Embedder>> embedder_from_config(const core::Config& config,
                                                             const core::Environment& env,
                                                             core::MetricsRegistry* metrics = nullptr);

}  // namespace planfirst::embed
