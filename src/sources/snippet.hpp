// Shortened text for evidence and answers. snippet_of cuts a record's body (a commit message, an issue
// description) at `max_bytes` on a UTF-8 boundary, "..." marking a cut. passage_of keeps whole blocks
// (paragraphs and list items) and, inside a block, whole sentences; lead_statement is a text's first
// sentence or list item. Pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace planfirst::sources {

std::string snippet_of(std::string_view text, std::size_t max_bytes = 1000);

// The longest prefix of `text` that ends at a block or sentence end within `max_bytes`; "..." marks
// a cut. A first sentence longer than `max_bytes` falls back to snippet_of.
std::string passage_of(std::string_view text, std::size_t max_bytes);

// The first sentence of `text`, or its first list item (with the lines it wraps onto), at most
// `max_bytes` as passage_of cuts it.
std::string lead_statement(std::string_view text, std::size_t max_bytes);

}  // namespace planfirst::sources
