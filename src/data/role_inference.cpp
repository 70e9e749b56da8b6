#include "data/role_inference.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace planfirst::data {
namespace {

constexpr double kDateLikeShare = 0.95;
constexpr std::int64_t kMaxCategoricalIdentifierValues = 20;
constexpr std::int64_t kMinRowNumberRows = 20;
constexpr std::int64_t kMaxOrdinalValues = 12;
constexpr double kLongTextChars = 25.0;
constexpr double kLongTextWords = 4.0;
constexpr std::int64_t kMaxCategoryValues = 50;
constexpr double kUniqueTokenShare = 0.9;

// Lower-case words of a column name: "customer_id" -> customer, id; "CustomerId" -> customer, id.
std::vector<std::string> name_tokens(std::string_view name) {
  std::vector<std::string> tokens;
  std::string current;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      if (!current.empty()) tokens.push_back(current);
      current.clear();
      continue;
    }
    const bool boundary = std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1]));
    if (boundary && !current.empty()) {
      tokens.push_back(current);
      current.clear();
    }
    current += static_cast<char>(std::tolower(c));
  }
  if (!current.empty()) tokens.push_back(current);
  return tokens;
}

bool has_token(const std::vector<std::string>& tokens, std::initializer_list<std::string_view> words) {
  return std::any_of(tokens.begin(), tokens.end(), [&](const std::string& token) {
    return std::find(words.begin(), words.end(), token) != words.end();
  });
}

bool is_identifier_name(std::string_view name) {
  const std::vector<std::string> tokens = name_tokens(name);
  if (tokens.empty()) return false;
  if (has_token(tokens,
                {"id", "key", "code", "uuid", "guid", "sku", "phone", "fax", "zip", "zipcode", "postcode"})) {
    return true;
  }
  const std::string& last = tokens.back();
  return tokens.size() > 1 && (last == "number" || last == "no" || last == "nr");
}

bool is_ordinal_name(std::string_view name) {
  return has_token(name_tokens(name), {"rating", "score", "stars", "rank", "level", "grade", "tier",
                                       "priority", "severity", "quarter", "month", "weekday", "dow", "hour"});
}

double share(std::int64_t part, std::int64_t whole) {
  return whole <= 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

std::string_view to_string(ColumnRole role) {
  switch (role) {
    case ColumnRole::kTemporal: return "temporal";
    case ColumnRole::kMeasure: return "measure";
    case ColumnRole::kCategorical: return "categorical";
    case ColumnRole::kIdentifier: return "identifier";
    case ColumnRole::kText: return "text";
    case ColumnRole::kBoolean: return "boolean";
  }
  return "text";
}

bool is_year_name(std::string_view name) {
  return has_token(name_tokens(name), {"year", "yr", "date"});
}

ColumnRole infer_role(const ColumnStats& s) {
  const bool is_text = s.type == ColumnType::kText || s.type == ColumnType::kOther;
  const bool has_values = s.non_null_count > 0;
  const double distinct_share = share(s.distinct_count, s.non_null_count);

  // 1. boolean
  if (s.type == ColumnType::kBoolean) return ColumnRole::kBoolean;
  if (s.type == ColumnType::kInteger && s.distinct_count == 2 && s.min_number && s.max_number &&
      *s.min_number == 0.0 && *s.max_number == 1.0) {
    return ColumnRole::kBoolean;
  }
  if (is_text && has_values && s.boolean_like_count == s.non_null_count && s.distinct_count <= 2) {
    return ColumnRole::kBoolean;
  }

  // 2. temporal
  if (is_temporal(s.type)) return ColumnRole::kTemporal;
  if (is_text && has_values && share(s.date_like_count, s.non_null_count) >= kDateLikeShare) {
    return ColumnRole::kTemporal;
  }
  if (s.type == ColumnType::kInteger && is_year_name(s.name) && s.min_number && s.max_number &&
      *s.min_number >= 1800.0 && *s.max_number <= 2200.0) {
    return ColumnRole::kTemporal;
  }

  // 3. identifier
  const bool repeats_like_category =
      s.distinct_count <= kMaxCategoricalIdentifierValues && distinct_share < 0.5;
  if ((s.type == ColumnType::kInteger || s.type == ColumnType::kText) && is_identifier_name(s.name)) {
    return repeats_like_category ? ColumnRole::kCategorical : ColumnRole::kIdentifier;
  }
  if (s.type == ColumnType::kInteger && s.non_null_count >= kMinRowNumberRows &&
      s.distinct_count == s.non_null_count && s.min_number && s.max_number &&
      *s.max_number - *s.min_number + 1.0 == static_cast<double>(s.distinct_count)) {
    return ColumnRole::kIdentifier;
  }

  // 4. numbers
  if (is_numeric(s.type)) {
    if (s.type == ColumnType::kInteger && is_ordinal_name(s.name) && s.distinct_count <= kMaxOrdinalValues) {
      return ColumnRole::kCategorical;
    }
    return ColumnRole::kMeasure;
  }

  // 5. text
  const double average_chars = share(s.total_chars, s.non_null_count);
  const double average_words = share(s.total_words, s.non_null_count);
  const bool long_values = average_chars >= kLongTextChars || average_words >= kLongTextWords;
  const bool varied = s.distinct_count > kMaxCategoryValues || distinct_share >= 0.5;
  if (long_values && varied) return ColumnRole::kText;
  if (s.distinct_count <= kMaxCategoryValues || distinct_share < 0.5) return ColumnRole::kCategorical;
  if (average_words < 1.5 && distinct_share >= kUniqueTokenShare) return ColumnRole::kIdentifier;
  return ColumnRole::kCategorical;
}

}  // namespace planfirst::data
