#include "data/text_timestamp.hpp"

#include <fmt/format.h>

namespace planfirst::data {

std::string duckdb_text_timestamp(std::string_view text) {
  return fmt::format(
      "COALESCE(TRY_CAST({0} AS TIMESTAMP), try_strptime({0}, ['%m/%d/%Y', '%m/%d/%Y %H:%M', '%m/%d/%Y "
      "%H:%M:%S', "
      "'%d.%m.%Y', '%Y/%m/%d', '%d %b %Y', '%b %d, %Y', '%B %d, %Y', '%d %B %Y', '%d-%b-%Y']))",
      text);
}

}  // namespace planfirst::data
