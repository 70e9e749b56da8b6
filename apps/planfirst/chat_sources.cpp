#include "planfirst/chat_sources.hpp"

#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "core/clock.hpp"
#include "data/database.hpp"
#include "data/open_database.hpp"
#include "embed/embedder.hpp"
#include "embed/embedder_from_config.hpp"
#include "sources/db_source.hpp"
#include "sources/document_store.hpp"
#include "sources/neo4j_source.hpp"
#include "sources/project_graph_source.hpp"
#include "sources/status_database.hpp"

namespace planfirst::cli {
namespace {

namespace fs = std::filesystem;

// The project graph with the read-only connection it borrows, owned together.
struct OwnedGraph {
  std::unique_ptr<data::Database> database;
  std::unique_ptr<sources::ProjectGraphSource> source;
};

// Adds `made` as `name`, or the reason it could not be made as `name`'s hint.
template <typename Pointer>
void add(ChatSources& chat, const std::string& name, core::Result<Pointer> made, const std::string& how) {
  if (made) {
    chat.sources.emplace(name, std::shared_ptr<const sources::RetrievalSource>(std::move(*made)));
  } else {
    chat.hints[name] = made.error().message + "; " + how;
  }
}

// The status database as a data::Database URI for the graph: the PostgreSQL URI, or the DuckDB
// file the db source built from the project's scripts.
core::Result<std::string> graph_database_uri(const ChatSourceFlags& flags) {
  if (!flags.db_uri.empty()) return flags.db_uri;
  core::Result<fs::path> file =
      sources::StatusDatabase::build_duckdb_cache(fs::path(flags.project_dir) / "status");
  if (!file) return file.error();
  return file->string();
}

// The project graph as a source that owns the read-only connection it borrows.
core::Result<std::shared_ptr<const sources::RetrievalSource>> project_graph(const ChatSourceFlags& flags,
                                                                            const core::AssetStore& assets) {
  core::Result<std::string> uri = graph_database_uri(flags);
  if (!uri) return uri.error();
  data::DatabaseOptions options;
  options.read_only = true;
  core::Result<std::unique_ptr<data::Database>> database = data::open_database(*uri, options);
  if (!database) return database.error();
  auto owned = std::make_shared<OwnedGraph>();
  owned->database = std::move(*database);
  core::Result<std::unique_ptr<sources::ProjectGraphSource>> graph =
      sources::ProjectGraphSource::create(*owned->database, assets, core::system_clock());
  if (!graph) return graph.error();
  owned->source = std::move(*graph);
  const sources::ProjectGraphSource* source = owned->source.get();
  return std::shared_ptr<const sources::RetrievalSource>(std::move(owned), source);
}

// A document store with the embedder it borrows for re-ranking (null: bm25 order), owned together.
struct OwnedStore {
  std::shared_ptr<const embed::Embedder> reranker;
  std::unique_ptr<sources::DocumentStore> store;
};

core::Result<std::shared_ptr<const sources::RetrievalSource>> document_store(
    const std::string& name, const fs::path& folder, const core::AssetStore& assets,
    std::shared_ptr<const embed::Embedder> reranker) {
  sources::DocumentStoreOptions options;
  options.name = name;
  options.folder = folder;
  options.reranker = reranker.get();
  core::Result<std::unique_ptr<sources::DocumentStore>> store =
      sources::DocumentStore::create(std::move(options), assets, core::system_clock());
  if (!store) return store.error();
  auto owned = std::make_shared<OwnedStore>(OwnedStore{std::move(reranker), std::move(*store)});
  const sources::DocumentStore* source = owned->store.get();
  return std::shared_ptr<const sources::RetrievalSource>(std::move(owned), source);
}

}  // namespace

core::Result<ChatSources> make_chat_sources(const ChatSourceFlags& flags, const core::AssetStore& assets,
                                            const core::Config& config) {
  std::error_code ec;
  if (!fs::is_directory(flags.project_dir, ec)) {
    return core::invalid_argument("not a folder: " + flags.project_dir, "--project");
  }
  if (!flags.db_uri.empty() && !data::is_postgres_uri(flags.db_uri)) {
    return core::invalid_argument("expected a postgresql://... URI, got " + flags.db_uri, "--db");
  }
  const fs::path project(flags.project_dir);
  ChatSources chat;
  add(chat, "db",
      sources::DbSource::open(flags.db_uri.empty() ? flags.project_dir : flags.db_uri, assets,
                              core::system_clock()),
      "put status/schema.sql and status/data.sql in the project folder, or pass --db postgresql://...");
  std::shared_ptr<const embed::Embedder> reranker;
  if (flags.rerank) {
    core::Result<std::unique_ptr<embed::Embedder>> embedder =
        embed::embedder_from_config(config, core::process_environment());
    if (!embedder) return core::Error{embedder.error().code, embedder.error().message, "--rerank"};
    reranker = std::move(*embedder);
  }
  for (const auto& [name, folder] : {std::pair{"doc", project / "docs"}, {"policy", project / "policies"}}) {
    add(chat, name, document_store(name, folder, assets, reranker),
        "put Markdown or text files in " + folder.string());
  }
  if (flags.neo4j_url.empty()) {
    add(chat, "neo4j", project_graph(flags, assets), "pass --neo4j URL for a Neo4j server");
  } else {
    sources::Neo4jOptions options;
    options.base_url = flags.neo4j_url;
    add(chat, "neo4j", sources::Neo4jSource::create(std::move(options), assets, core::system_clock()),
        "check --neo4j and $NEO4J_USER / $NEO4J_PASSWORD");
  }
  return chat;
}

}  // namespace planfirst::cli
