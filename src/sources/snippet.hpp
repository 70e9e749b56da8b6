// snippet_of shortens a record's body text (a commit message, an issue description) for an evidence
// item: at most `max_bytes`, cut at a UTF-8 character boundary, "..." marking a cut. A pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace planfirst::sources {

std::string snippet_of(std::string_view text, std::size_t max_bytes = 1000);

}  // namespace planfirst::sources
