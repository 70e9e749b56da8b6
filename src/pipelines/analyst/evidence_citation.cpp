#include "pipelines/analyst/evidence_citation.hpp"

#include <algorithm>
#include <set>

namespace planfirst::analyst {
namespace {

bool is_source_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string citation_key(const sources::EvidenceItem& item) {
  const std::string prefix = item.source + ":";
  return item.id.rfind(prefix, 0) == 0 ? item.id : prefix + item.id;
}

std::vector<std::string> citations_in(std::string_view text) {
  std::vector<std::string> keys;
  std::size_t open = text.find('[');
  while (open != std::string_view::npos) {
    const std::size_t close = text.find_first_of("[]", open + 1);
    if (close == std::string_view::npos) break;
    if (text[close] == '[') {
      open = close;
      continue;
    }
    const std::string_view inside = text.substr(open + 1, close - open - 1);
    const std::size_t colon = inside.find(':');
    if (colon != std::string_view::npos && colon > 0 && colon + 1 < inside.size() &&
        std::all_of(inside.begin(), inside.begin() + static_cast<std::ptrdiff_t>(colon), is_source_char)) {
      std::string key(inside);
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
    }
    open = text.find('[', close + 1);
  }
  return keys;
}

std::vector<std::string> unknown_keys(std::vector<std::string> keys,
                                      const std::vector<sources::EvidenceItem>& retrieved) {
  std::set<std::string, std::less<>> known;
  for (const sources::EvidenceItem& item : retrieved) known.insert(citation_key(item));
  std::erase_if(keys, [&](const std::string& key) { return known.count(key) != 0; });
  return keys;
}

}  // namespace planfirst::analyst
