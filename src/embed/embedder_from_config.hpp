// embedder_from_config picks the embedder a run uses: the OpenAI-compatible one when config
// embed.base_url is set (model embed.model, API key from the environment variable
// PLANFIRST_EMBED_API_KEY when set), else the built-in HashedEmbedder. A pure function of its inputs
// apart from the server it may contact to learn the embedding width.
#pragma once

#include <memory>
#include <string_view>

#include "core/config.hpp"
#include "core/result.hpp"
#include "embed/embedder.hpp"

namespace planfirst::embed {

inline constexpr std::string_view kEmbedApiKeyVariable = "PLANFIRST_EMBED_API_KEY";

core::Result<std::unique_ptr<Embedder>> embedder_from_config(const core::Config& config,
                                                             const core::Environment& env);

}  // namespace planfirst::embed
