#include "sources/graph_evidence.hpp"

#include <algorithm>

namespace planfirst::sources {
namespace {

const std::string* cell(const GraphRows& rows, std::size_t row, std::string_view column) {
  const auto it = std::find(rows.columns.begin(), rows.columns.end(), column);
  if (it == rows.columns.end()) return nullptr;
  return &rows.rows[row][static_cast<std::size_t>(it - rows.columns.begin())];
}

}  // namespace

std::string fill_graph_template(const std::string& text, const GraphRows& rows, std::size_t row,
                                const std::string& entity_id) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find('{', at);
    const std::size_t close = open == std::string::npos ? std::string::npos : text.find('}', open);
    if (close == std::string::npos) {
      out += text.substr(at);
      break;
    }
    out += text.substr(at, open - at);
    const std::string name = text.substr(open + 1, close - open - 1);
    const std::string* value = name == "entity" ? &entity_id : cell(rows, row, name);
    out += value != nullptr ? *value : text.substr(open, close - open + 1);
    at = close + 1;
  }
  return out;
}

std::vector<EvidenceItem> graph_evidence(const GraphMatch& match, const GraphRows& rows,
                                         const Provenance& origin) {
  const GraphQuestion& question = *match.question;
  std::vector<EvidenceItem> items;
  for (std::size_t r = 0; r < rows.rows.size(); ++r) {
    EvidenceItem item;
    item.source = origin.source;
    item.id = origin.source + ":" + question.id + "/" + (match.entity_id.empty() ? "*" : match.entity_id);
    for (const std::string& key : question.key_columns) {
      const std::string* value = cell(rows, r, key);
      item.id += "/" + (value != nullptr ? *value : std::string());
    }
    item.title = fill_graph_template(question.title, rows, r, match.entity_id);
    item.snippet = item.title + ".";
    item.fields.emplace_back("question", question.id);
    if (!match.entity_id.empty()) item.fields.emplace_back("subject", match.entity_id);
    for (std::size_t c = 0; c < rows.columns.size(); ++c)
      item.fields.emplace_back(rows.columns[c], rows.rows[r][c]);
    item.provenance = origin;
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace planfirst::sources
