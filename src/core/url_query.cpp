#include "core/url_query.hpp"

namespace planfirst::core {

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
                            (byte >= '0' && byte <= '9') || byte == '-' || byte == '.' || byte == '_' ||
                            byte == '~';
    if (unreserved) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0x0F];
    }
  }
  return out;
}

std::string query_string(const QueryParams& params) {
  std::string out;
  for (const auto& [name, value] : params) {
    out += out.empty() ? '?' : '&';
    out += percent_encode(name);
    out += '=';
    out += percent_encode(value);
  }
  return out;
}

}  // namespace planfirst::core
