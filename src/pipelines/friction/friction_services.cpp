#include "pipelines/friction/friction_services.hpp"

namespace planfirst::friction {

core::Result<std::shared_ptr<const FrictionServices>> FrictionServices::load(const core::AssetStore& assets,
                                                                             bool render_svgs) {
  core::Result<FrictionRules> rules = FrictionRules::load(assets);
  if (!rules) return rules.error();
  auto services = std::make_shared<FrictionServices>();
  services->assets = assets;
  services->rules = std::move(*rules);
  services->datasets = std::make_shared<data::DatasetPool>();
  if (render_svgs) {
    services->renderer = std::make_unique<autoviz::SvgRenderer>(autoviz::SvgRendererOptions::installed());
  }
  return std::shared_ptr<const FrictionServices>(std::move(services));
}

}  // namespace planfirst::friction
