// The example datasets a server offers (GET /examples): those assets/server/examples.json names, each
// available when its file is in the examples folder and otherwise saying how to get it, then any other
// file of a dataset type (.csv, .tsv, .json, .jsonl, .parquet, .duckdb) directly in that folder. The
// folder is read on each call, so a file generated later (`make contacts`) shows up without a restart.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::server {

inline constexpr const char* kExamplesAsset = "server/examples.json";

struct Example {
  std::string name;          // the file's name in the folder, e.g. "contacts.csv"
  std::string assistant_id;  // the graph it is made for; "" when unknown
  std::string description;
  std::string how_to_get;  // for a missing example
  bool available = false;
  std::uintmax_t bytes = 0;

  // {"name", "available", "assistant_id"?, "description"?, "bytes"? (available), "how_to_get"? (missing)}.
  core::Json to_json() const;
};

// kInvalidArgument naming the asset when the catalogue is malformed. An empty or missing `folder`
// leaves every catalogued example unavailable.
core::Result<std::vector<Example>> bundled_examples(const core::AssetStore& assets,
                                                    const std::filesystem::path& folder);

}  // namespace planfirst::server
