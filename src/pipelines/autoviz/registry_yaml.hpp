// RegistryYaml reads one registry file of assets/registry/ (YAML) for the loaders of this folder and
// turns every fault into an Error whose `where` is "<origin>:<line>" (lines count from 1), so a
// user who edits tools.yaml is told the line and key at fault. yaml-cpp stays behind this header's
// .cpp users: only loaders in this folder include it. A value type; threads may share const ones.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

class RegistryYaml {
 public:
  // Reads and parses `path` (e.g. "registry/tools.yaml"); kNotFound when absent, kInvalidArgument
  // with the parser's line when it is not YAML or its root is not a mapping.
  static core::Result<RegistryYaml> load(const core::AssetStore& assets, std::string_view path);

  const YAML::Node& root() const { return root_; }
  const std::string& origin() const { return origin_; }

  // "<origin>:<line>" of `node`, or just the origin when the node carries no position.
  std::string where(const YAML::Node& node) const;
  // kInvalidArgument at `node`: "<context>: <message>".
  core::Error fault(const YAML::Node& node, std::string_view context, std::string_view message) const;

  // `parent[key]` as a mapping, sequence or scalar; kInvalidArgument naming the key when it is
  // missing or of another kind. `context` names the parent in messages (e.g. "tool aggregate").
  core::Result<YAML::Node> mapping(const YAML::Node& parent, std::string_view key, std::string_view context) const;
  core::Result<YAML::Node> sequence(const YAML::Node& parent, std::string_view key, std::string_view context) const;
  core::Result<std::string> scalar(const YAML::Node& parent, std::string_view key, std::string_view context) const;
  // A sequence of non-empty scalars without repeats, in file order.
  core::Result<std::vector<std::string>> names(const YAML::Node& parent, std::string_view key,
                                               std::string_view context) const;
  // A non-empty scalar without repeats, or a sequence of them, read from `node` itself.
  core::Result<std::vector<std::string>> names_at(const YAML::Node& node, std::string_view context) const;
  // Runs `read`, a loader's walk over root(), and turns a yaml-cpp exception it lets out into
  // kInvalidArgument at the exception's line.
  template <typename T, typename Read>
  core::Result<T> guarded(Read&& read) const {
    try {
      return read();
    } catch (const YAML::Exception& e) {
      return core::invalid_argument(e.msg, origin_ + ":" + std::to_string(e.mark.line + 1));
    }
  }
  // The `version` key every registry carries: a positive integer.
  core::Result<int> version() const;

 private:
  core::Result<YAML::Node> child_of_kind(const YAML::Node& parent, std::string_view key, std::string_view context,
                                         YAML::NodeType::value kind, std::string_view kind_text) const;

  RegistryYaml(YAML::Node root, std::string origin) : root_(std::move(root)), origin_(std::move(origin)) {}

  YAML::Node root_;
  std::string origin_;
};

// `parent[key]`, or an Undefined node when `parent` is not a mapping or lacks `key` (yaml-cpp's own
// lookup throws on those). Never throws.
YAML::Node child(const YAML::Node& parent, std::string_view key);

// `node` as JSON: mappings become objects, sequences arrays; a plain scalar becomes null, a boolean,
// an integer or a number when it reads as one (YAML 1.2 core schema), otherwise a string, as does
// every quoted scalar. Cannot fail.
core::Json yaml_to_json(const YAML::Node& node);

}  // namespace planfirst::autoviz
