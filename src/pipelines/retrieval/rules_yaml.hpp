// RulesYaml reads one of this pipeline's rule files (assets/registry/retrieval_*.yaml) and reports
// each fault as kInvalidArgument at "<origin>:<line>", so whoever edits a rule is told where it is
// wrong. yaml-cpp stays in this folder's loaders. A value; threads may share const ones.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/asset_store.hpp"
#include "core/result.hpp"

namespace planfirst::retrieval {

class RulesYaml {
 public:
  // kNotFound when `path` is no asset; kInvalidArgument when it is not YAML or not a mapping.
  static core::Result<RulesYaml> load(const core::AssetStore& assets, std::string_view path);

  const YAML::Node& root() const { return root_; }
  core::Error fault(const YAML::Node& node, std::string_view message) const;

  // `parent[key]`, Undefined when absent (never throws).
  static YAML::Node at(const YAML::Node& parent, std::string_view key);
  // A non-empty scalar.
  core::Result<std::string> text(const YAML::Node& node, std::string_view what) const;
  // A finite number.
  core::Result<double> number(const YAML::Node& node, std::string_view what) const;
  // A sequence of non-empty scalars; empty when the node is absent.
  core::Result<std::vector<std::string>> texts(const YAML::Node& node, std::string_view what) const;
  // A mapping of scalar to scalar, in file order; empty when the node is absent.
  core::Result<std::vector<std::pair<std::string, std::string>>> pairs(const YAML::Node& node,
                                                                      std::string_view what) const;
  // Runs a loader's walk and turns a yaml-cpp exception it lets out into kInvalidArgument.
  template <typename T, typename Walk>
  core::Result<T> guarded(Walk&& walk) const {
    try {
      return walk();
    } catch (const YAML::Exception& e) {
      return core::invalid_argument(e.msg, origin_ + ":" + std::to_string(e.mark.line + 1));
    }
  }

 private:
  RulesYaml(YAML::Node root, std::string origin) : root_(std::move(root)), origin_(std::move(origin)) {}

  YAML::Node root_;
  std::string origin_;
};

}  // namespace planfirst::retrieval
