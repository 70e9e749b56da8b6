// count_by_fields groups evidence items by the values of some of their fields and counts each group:
// the arithmetic behind the "metrics" kind (commits per author and day, issues per state). Groups come
// back sorted by their values; an item without a field counts under "". A pure function.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sources/evidence_item.hpp"

namespace planfirst::sources {

struct FieldCount {
  std::vector<std::string> values;  // one per requested field, in the order asked
  std::size_t count = 0;
};

std::vector<FieldCount> count_by_fields(const std::vector<EvidenceItem>& items, const std::vector<std::string>& fields);

// The value of `name` in `item.fields`; "" when absent.
std::string field_value(const EvidenceItem& item, std::string_view name);

}  // namespace planfirst::sources
