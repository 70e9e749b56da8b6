// FrictionServices is what the friction graph's nodes share, loaded once per graph: the assets (for
// the report template), the lens and column rules, and the SVG renderer for the report's charts
// (null: charts keep their Vega-Lite specs only). Immutable; threads may share one.
#pragma once

#include <memory>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/report/svg_renderer.hpp"
#include "pipelines/friction/friction_rules.hpp"

namespace planfirst::friction {

struct FrictionServices {
  core::AssetStore assets;
  FrictionRules rules;
  std::unique_ptr<autoviz::SvgRenderer> renderer;  // may be null

  // kNotFound / kInvalidArgument naming the asset at fault. `render_svgs`: use the installed renderer.
  static core::Result<std::shared_ptr<const FrictionServices>> load(const core::AssetStore& assets,
                                                                    bool render_svgs);
};

}  // namespace planfirst::friction
