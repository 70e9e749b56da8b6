// split_into_sections cuts one document into the pieces the doc and policy sources index: a Markdown
// file at every ATX heading ("#" to "######", not inside ``` or ~~~ fences), each section keeping its
// heading path ("Release process > Hotfixes") and 1-based line range; text before the first heading
// is a section named after the file. A plain-text file is one section. A pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::sources {

struct DocumentSection {
  std::string file;            // path relative to the indexed folder, '/'-separated: "architecture.md"
  std::string heading;         // the section's own heading: "Hotfixes"
  std::string heading_path;    // its headings from the top, joined by " > ": "Release process > Hotfixes"
  std::size_t first_line = 0;  // the heading's line (1-based)
  std::size_t last_line = 0;   // the line before the next heading, or the last line
  std::string body;            // the section's text without the heading line, trimmed
};

// Sections of `text`, in document order; a section with no body text (a heading directly followed by
// a subheading, an empty preamble) is left out.
std::vector<DocumentSection> split_into_sections(std::string_view file, std::string_view text);

}  // namespace planfirst::sources
