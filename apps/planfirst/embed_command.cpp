// planfirst embed [--base-url URL] [--model M] TEXT... : the embedder's identity and dimensions, then
// the cosine similarity of every pair of texts. The built-in hashed embedder unless a base URL is
// given (flag or config embed.base_url).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "embed/embedder_from_config.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

struct EmbedArgs {
  std::string base_url;
  std::string model;
  std::vector<std::string> texts;
};

int exit_code_for(const core::Error& error) {
  return error.code == core::ErrorCode::kInvalidArgument ? kExitUsage : kExitCheckFailed;
}

int run_embed(CliContext& ctx, const EmbedArgs& args) {
  for (const auto& [key, value] :
       {std::pair{"embed.base_url", &args.base_url}, std::pair{"embed.model", &args.model}}) {
    if (value->empty()) continue;
    if (core::Result<void> set = ctx.config.set_flag(key, *value); !set) {
      std::cerr << "planfirst embed: " << set.error().describe() << "\n";
      return kExitUsage;
    }
  }
  core::Result<std::unique_ptr<embed::Embedder>> embedder =
      embed::embedder_from_config(ctx.config, core::process_environment());
  if (!embedder) {
    std::cerr << "planfirst embed: " << embedder.error().describe() << "\n";
    return exit_code_for(embedder.error());
  }
  core::Result<embed::EmbeddingMatrix> matrix = (*embedder)->embed(args.texts);
  if (!matrix) {
    std::cerr << "planfirst embed: " << matrix.error().describe() << "\n";
    return exit_code_for(matrix.error());
  }

  std::cout << "embedder:   " << (*embedder)->identity() << "\n";
  std::cout << "dimensions: " << matrix->dimensions << "\n\ntexts:\n";
  for (std::size_t i = 0; i < args.texts.size(); ++i)
    std::cout << fmt::format("  [{}] {}\n", i + 1, args.texts[i]);
  std::cout << "\ncosine similarity:\n     ";
  for (std::size_t j = 0; j < args.texts.size(); ++j)
    std::cout << fmt::format("{:>8}", fmt::format("[{}]", j + 1));
  std::cout << "\n";
  for (std::size_t i = 0; i < args.texts.size(); ++i) {
    std::cout << fmt::format("{:>5}", fmt::format("[{}]", i + 1));
    for (std::size_t j = 0; j < args.texts.size(); ++j) {
      std::cout << fmt::format("{:>8.4f}", embed::cosine_similarity(matrix->row(i), matrix->row(j)));
    }
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace

void add_embed_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<EmbedArgs>();
  CLI::App* embed = app.add_subcommand("embed", "Embed texts and print their cosine similarities");
  embed->add_option("--base-url", args->base_url,
                    "OpenAI-compatible embedding server, e.g. http://localhost:8080/v1 (default: config "
                    "embed.base_url; none: the built-in hashed embedder)");
  embed->add_option("--model", args->model, "Embedding model (default: config embed.model, bge-small-en)");
  embed->add_option("texts", args->texts, "Texts to compare")->required()->check(utf8_text());
  embed->callback([&ctx, args] {
    if (!prepare_run(ctx)) return;
    ctx.exit_code = run_embed(ctx, *args);
  });
}

}  // namespace planfirst::cli
