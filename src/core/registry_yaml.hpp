// RegistryYaml reads one registry or rule file of a pipeline's assets/<pipeline>/ folder (YAML) for a
// loader and turns every fault into kInvalidArgument whose `where` is "<origin>:<line>" (lines count
// from 1), so a user who edits autoviz/tools.yaml or retrieval/plans.yaml is told the line and key at
// fault. yaml-cpp stays behind this header: only loaders' .cpp files include it, and their layer
// links yaml-cpp.
// A value type; threads may share const ones.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::core {

class RegistryYaml {
 public:
  // Reads and parses `path` (e.g. "autoviz/tools.yaml"); kNotFound when absent, kInvalidArgument
  // with the parser's line when it is not YAML or its root is not a mapping.
  static Result<RegistryYaml> load(const AssetStore& assets, std::string_view path);
  // The same from YAML `text`; `origin` names it in every `where`.
  static Result<RegistryYaml> parse(std::string_view text, std::string origin);

  const YAML::Node& root() const { return root_; }
  const std::string& origin() const { return origin_; }

  // "<origin>:<line>" of `node`, or just the origin when the node carries no position.
  std::string where(const YAML::Node& node) const;
  // kInvalidArgument at `node` with `message`.
  Error fault(const YAML::Node& node, std::string_view message) const;
  // kInvalidArgument at `node`: "<context>: <message>".
  Error fault(const YAML::Node& node, std::string_view context, std::string_view message) const;

  // `parent[key]` as a mapping, sequence or scalar; kInvalidArgument naming the key when it is
  // missing or of another kind. `context` names the parent in messages (e.g. "tool aggregate").
  Result<YAML::Node> mapping(const YAML::Node& parent, std::string_view key, std::string_view context) const;
  Result<YAML::Node> sequence(const YAML::Node& parent, std::string_view key, std::string_view context) const;
  Result<std::string> scalar(const YAML::Node& parent, std::string_view key, std::string_view context) const;
  // `parent[key]` as text: "" when it is absent or null, else a scalar (which may be empty);
  // kInvalidArgument naming the key when it is of another kind.
  Result<std::string> optional_scalar(const YAML::Node& parent, std::string_view key,
                                      std::string_view context) const;
  // A sequence of non-empty scalars without repeats, in file order.
  Result<std::vector<std::string>> names(const YAML::Node& parent, std::string_view key,
                                         std::string_view context) const;
  // A non-empty scalar without repeats, or a sequence of them, read from `node` itself.
  Result<std::vector<std::string>> names_at(const YAML::Node& node, std::string_view context) const;

  // Readers of `node` itself whose messages start with `what` ("<what> must be ..."):
  // a non-empty scalar;
  Result<std::string> text(const YAML::Node& node, std::string_view what) const;
  // a finite number;
  Result<double> number(const YAML::Node& node, std::string_view what) const;
  // a sequence of non-empty scalars, repeats allowed; empty when the node is absent or null;
  Result<std::vector<std::string>> texts(const YAML::Node& node, std::string_view what) const;
  // a mapping of scalar to scalar, in file order; empty when the node is absent or null.
  Result<std::vector<std::pair<std::string, std::string>>> pairs(const YAML::Node& node,
                                                                 std::string_view what) const;

  // Runs `read`, a loader's walk over root(), and turns a yaml-cpp exception it lets out into
  // kInvalidArgument at the exception's line.
  template <typename T, typename Read>
  Result<T> guarded(Read&& read) const {
    try {
      return read();
    } catch (const YAML::Exception& e) {
      return invalid_argument(e.msg, origin_ + ":" + std::to_string(e.mark.line + 1));
    }
  }
  // The `version` key every registry carries: a positive integer.
  Result<int> version() const;

 private:
  Result<YAML::Node> child_of_kind(const YAML::Node& parent, std::string_view key, std::string_view context,
                                   YAML::NodeType::value kind, std::string_view kind_text) const;

  RegistryYaml(YAML::Node root, std::string origin) : root_(std::move(root)), origin_(std::move(origin)) {}

  YAML::Node root_;
  std::string origin_;
};

// `parent[key]`, or an Undefined node when `parent` is not a mapping or lacks `key` (yaml-cpp's own
// lookup throws on those). Never throws.
YAML::Node yaml_child(const YAML::Node& parent, std::string_view key);

// `node` as JSON: mappings become objects, sequences arrays; a plain scalar becomes null, a boolean,
// an integer or a number when it reads as one (YAML 1.2 core schema), otherwise a string, as does
// every quoted scalar. Cannot fail.
Json yaml_to_json(const YAML::Node& node);

}  // namespace planfirst::core
