#include "pipelines/autoviz/understand/extraction/token_claims.hpp"

#include "pipelines/autoviz/understand/extraction/question.hpp"

namespace planfirst::autoviz::extraction {

std::set<std::size_t> TokenClaims::taken(Claims reasons) const {
  std::set<std::size_t> tokens;
  for (const auto& [at, bits] : reasons_) {
    if ((bits & reasons.bits) != 0) tokens.insert(tokens.end(), at);
  }
  return tokens;
}

void blank_claimed(std::size_t begin, std::size_t end, Claim why, Question& q, TokenClaims& claims) {
  for (std::size_t at = begin; at < end; ++at) {
    q.tokens[at] = q.stems[at] = "";
    claims.claim(at, why);
  }
}

}  // namespace planfirst::autoviz::extraction
