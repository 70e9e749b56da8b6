// count_by_fields groups evidence items by the values of some of their fields and counts each group:
// the arithmetic behind the "metrics" kind (commits per author and day, issues per state). Groups come
// back sorted by their values; an item without a field counts under "". A pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sources/evidence_item.hpp"

namespace planfirst::sources {

struct FieldCount {
  std::vector<std::string> values;  // one per requested field, in the order asked
  std::size_t count = 0;
};

std::vector<FieldCount> count_by_fields(const std::vector<EvidenceItem>& items,
                                        const std::vector<std::string>& fields);

// The value of the first field named `name` among `fields`; `absent` when none is.
std::string field_value(const std::vector<std::pair<std::string, std::string>>& fields, std::string_view name,
                        std::string_view absent = "");
// The same in `item.fields`.
std::string field_value(const EvidenceItem& item, std::string_view name, std::string_view absent = "");

}  // namespace planfirst::sources
