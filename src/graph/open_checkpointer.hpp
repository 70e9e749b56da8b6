// open_checkpointer turns a checkpointer URI into a store: `memory:`, `sqlite:PATH` (the folder is
// created; `?sync=full` asks for an fsync per append) or `postgresql://...` / `postgres://...`.
// The default store is a SQLite file under the user's data directory.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>

#include "core/config.hpp"
#include "core/result.hpp"
#include "graph/checkpointer.hpp"

namespace planfirst::graph {

// kInvalidArgument for a URI of no known scheme or without a path; otherwise what the store's
// open() returns (kUnavailable when it cannot be reached or created).
core::Result<std::unique_ptr<Checkpointer>> open_checkpointer(std::string_view uri);

// $XDG_DATA_HOME/planfirst/checkpoints.sqlite, else $HOME/.local/share/planfirst/checkpoints.sqlite,
// else ./planfirst-checkpoints.sqlite when neither variable is set.
std::filesystem::path default_checkpointer_path(const core::Environment& env);
std::string default_checkpointer_uri(const core::Environment& env);  // "sqlite:" + the path above

}  // namespace planfirst::graph
