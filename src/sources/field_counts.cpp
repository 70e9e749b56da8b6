#include "sources/field_counts.hpp"

#include <map>

namespace planfirst::sources {

std::string field_value(const std::vector<std::pair<std::string, std::string>>& fields, std::string_view name,
                        std::string_view absent) {
  for (const auto& [key, value] : fields) {
    if (key == name) return value;
  }
  return std::string(absent);
}

std::string field_value(const EvidenceItem& item, std::string_view name, std::string_view absent) {
  return field_value(item.fields, name, absent);
}

std::vector<FieldCount> count_by_fields(const std::vector<EvidenceItem>& items,
                                        const std::vector<std::string>& fields) {
  std::map<std::vector<std::string>, std::size_t> counts;
  for (const EvidenceItem& item : items) {
    std::vector<std::string> key;
    key.reserve(fields.size());
    for (const std::string& field : fields) key.push_back(field_value(item, field));
    ++counts[std::move(key)];
  }
  std::vector<FieldCount> out;
  out.reserve(counts.size());
  for (auto& [values, count] : counts) out.push_back({values, count});
  return out;
}

}  // namespace planfirst::sources
