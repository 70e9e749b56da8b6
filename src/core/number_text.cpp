#include "core/number_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace planfirst::core {
namespace {

// "-1234567.5" -> "-1,234,567.5": commas between the integer part's groups of three digits.
std::string grouped(const std::string& digits) {
  const std::size_t sign = !digits.empty() && digits.front() == '-' ? 1 : 0;
  const std::size_t point = std::min(digits.find('.'), digits.size());
  std::string out = digits.substr(0, sign);
  for (std::size_t i = sign; i < point; ++i) {
    if (i > sign && (point - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out + digits.substr(point);
}

}  // namespace

std::string format_number(double value, double group_from) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  const double magnitude = std::fabs(value);
  if (magnitude != 0 && magnitude < 1) return fmt::format("{:.3g}", value);
  std::string text = fmt::format("{:.2f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  if (text == "-0") text = "0";
  const bool large = std::fabs(std::stod(text)) >= group_from;  // as rounded: 999.999 shows "1,000"
  return large ? grouped(text) : text;
}

std::string format_integer(std::int64_t value, double group_from) {
  const std::string text = std::to_string(value);
  return std::fabs(static_cast<double>(value)) >= group_from ? grouped(text) : text;
}

}  // namespace planfirst::core
