// FrictionServices is what the friction graph's nodes share, loaded once per graph: the assets (for
// the report template), the lens and column rules, the dataset pool data_discovery and data_prep
// read the user's file through (so a run loads it once), and the SVG renderer for the report's
// charts (null: charts keep their Vega-Lite specs only). Immutable but for the pool, which is
// thread-safe; threads may share one.
#pragma once

#include <memory>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "data/dataset_pool.hpp"
#include "pipelines/autoviz/report/svg_renderer.hpp"
#include "pipelines/friction/friction_rules.hpp"

namespace planfirst::friction {

struct FrictionServices {
  core::AssetStore assets;
  FrictionRules rules;
  std::shared_ptr<data::DatasetPool> datasets;     // always set by load()
  std::unique_ptr<autoviz::SvgRenderer> renderer;  // may be null

  // kNotFound / kInvalidArgument naming the asset at fault. `render_svgs`: use the installed renderer.
  static core::Result<std::shared_ptr<const FrictionServices>> load(const core::AssetStore& assets,
                                                                    bool render_svgs);
};

}  // namespace planfirst::friction
