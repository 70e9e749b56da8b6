#include "data/sql_quoting.hpp"

namespace planfirst::data {
namespace {

std::string quote(std::string_view text, char mark) {
  std::string out(1, mark);
  for (char c : text) {
    out += c;
    if (c == mark) out += mark;
  }
  out += mark;
  return out;
}

}  // namespace

std::string quote_identifier(std::string_view name) {
  return quote(name, '"');
}
std::string quote_literal(std::string_view text) {
  return quote(text, '\'');
}

}  // namespace planfirst::data
