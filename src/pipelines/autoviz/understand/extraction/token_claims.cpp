#include "pipelines/autoviz/understand/extraction/token_claims.hpp"

namespace planfirst::autoviz::extraction {

std::set<std::size_t> TokenClaims::taken(Claims reasons) const {
  std::set<std::size_t> tokens;
  for (const auto& [at, bits] : reasons_) {
    if ((bits & reasons.bits) != 0) tokens.insert(tokens.end(), at);
  }
  return tokens;
}

}  // namespace planfirst::autoviz::extraction
