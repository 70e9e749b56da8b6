// The sources `planfirst chat` lets analyst plans fetch from: `db` (the project's status database, or
// PostgreSQL with --db), `doc` and `policy` (the project's docs/ and policies/ folders, indexed with
// SQLite FTS5) and `neo4j` (a Neo4j server with --neo4j, else the project graph in the status
// database). The one place that knows the source classes; a source that cannot be made is left out
// with a hint saying why and how to configure it.
#pragma once

#include <map>
#include <string>

#include "core/asset_store.hpp"
#include "core/config.hpp"
#include "core/result.hpp"
#include "sources/source_map.hpp"

namespace planfirst::cli {

struct ChatSourceFlags {
  std::string project_dir;  // --project DIR
  std::string db_uri;       // --db postgresql://...; empty: the project's embedded database
  std::string neo4j_url;    // --neo4j http://host:7474; empty: the built-in project graph
  bool rerank = false;      // --rerank: doc and policy hits re-ranked by the configured embedder
};

struct ChatSources {
  sources::SourceMap sources;
  std::map<std::string, std::string, std::less<>> hints;  // source -> why it is missing, how to configure it
};

// kInvalidArgument (naming the flag) for a --project that is not a folder or a --db that is not a
// postgresql:// or postgres:// URI. The sources keep what they need (databases, indexes) alive.
// `config` picks the embedder for --rerank (embed.*; none set: the built-in hashed embedder).
core::Result<ChatSources> make_chat_sources(const ChatSourceFlags& flags, const core::AssetStore& assets,
                                            const core::Config& config);

}  // namespace planfirst::cli
