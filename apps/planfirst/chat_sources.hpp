// The sources `planfirst chat` lets analyst plans fetch from, made from --project DIR (the project's
// status database, docs/ and policies/) and --db URI (PostgreSQL instead of the project's DuckDB
// file), and how to configure one that is missing. The one place that will know the db, doc, policy
// and neo4j source classes; until they are wired, the map is empty and every hint says so.
#pragma once

#include <map>
#include <string>

#include "core/result.hpp"
#include "sources/source_map.hpp"

namespace planfirst::cli {

struct ChatSourceFlags {
  std::string project_dir;  // --project DIR
  std::string db_uri;       // --db postgresql://...; empty: the project's embedded database
};

struct ChatSources {
  sources::SourceMap sources;
  std::map<std::string, std::string, std::less<>> hints;  // source -> how to configure it
};

// kInvalidArgument (naming the flag) for a --project that is not a folder or a --db that is not a
// postgresql:// or postgres:// URI.
core::Result<ChatSources> make_chat_sources(const ChatSourceFlags& flags);

}  // namespace planfirst::cli
