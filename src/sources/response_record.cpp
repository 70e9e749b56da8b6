#include "sources/response_record.hpp"

#include <nlohmann/json.hpp>

#include "core/timestamp.hpp"

namespace planfirst::sources {

core::Result<core::Json> parse_json_array(std::string_view body, std::string_view url) {
  core::Json value = core::Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return core::invalid_argument("the response from " + std::string(url) + " is not valid JSON",
                                  std::string(url));
  }
  if (!value.is_array()) {
    return core::invalid_argument("the response from " + std::string(url) + " is a JSON " +
                                      std::string(value.type_name()) + ", expected an array",
                                  "/");
  }
  return value;
}

core::Result<std::vector<EvidenceItem>> parse_records(
    std::string_view body, std::string_view url,
    const std::function<core::Result<EvidenceItem>(ResponseRecord&)>& make_item) {
  core::Result<core::Json> array = parse_json_array(body, url);
  if (!array) return array.error();
  std::vector<EvidenceItem> items;
  items.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i) {
    ResponseRecord record((*array)[i], url, i);
    core::Result<EvidenceItem> item = make_item(record);
    if (!item) return item.error();
    items.push_back(std::move(*item));
  }
  return items;
}

ResponseRecord::ResponseRecord(const core::Json& value, std::string_view url, std::size_t index)
    : value_(value), url_(url), index_(index) {
  if (!value_.is_object()) fail({}, "an object");
}

std::string ResponseRecord::pointer(std::string_view path) const {
  std::string out = "/" + std::to_string(index_);
  if (path.empty()) return out;
  out += '/';
  for (const char c : path) out += c == '.' ? '/' : c;
  return out;
}

void ResponseRecord::fail(std::string_view path, std::string_view expected) {
  if (error_) return;
  const core::Json* found = path.empty() ? &value_ : find(path);
  const std::string actual = found == nullptr ? "missing" : "a " + std::string(found->type_name());
  error_ = core::invalid_argument("field " + pointer(path) + " of the response from " + std::string(url_) +
                                      " is " + actual + ", expected " + std::string(expected),
                                  pointer(path));
}

core::Result<void> ResponseRecord::status() const {
  if (error_) return *error_;
  return core::ok();
}

const core::Json* ResponseRecord::find(std::string_view path) const {
  const core::Json* at = &value_;
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    const std::string_view key = path.substr(0, dot);
    if (!at->is_object()) return nullptr;
    const auto it = at->find(std::string(key));
    if (it == at->end()) return nullptr;
    at = &*it;
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return at->is_null() ? nullptr : at;
}

std::string ResponseRecord::text(std::string_view path) {
  const core::Json* found = find(path);
  if (found != nullptr && found->is_string()) return found->get<std::string>();
  fail(path, "a string");
  return {};
}

std::string ResponseRecord::optional_text(std::string_view path) {
  const core::Json* found = find(path);
  if (found == nullptr) return {};
  if (found->is_string()) return found->get<std::string>();
  fail(path, "a string or null");
  return {};
}

std::string ResponseRecord::timestamp(std::string_view path, bool required) {
  std::string text = required ? this->text(path) : optional_text(path);
  if (text.empty() || core::parse_timestamp(text)) return text;
  fail(path, "an RFC 3339 timestamp");
  return {};
}

std::int64_t ResponseRecord::integer(std::string_view path) {
  const core::Json* found = find(path);
  if (found != nullptr && found->is_number_integer()) return found->get<std::int64_t>();
  fail(path, "an integer");
  return 0;
}

std::optional<std::int64_t> ResponseRecord::optional_integer(std::string_view path) {
  const core::Json* found = find(path);
  if (found == nullptr) return std::nullopt;
  if (found->is_number_integer()) return found->get<std::int64_t>();
  fail(path, "an integer or null");
  return std::nullopt;
}

std::vector<std::string> ResponseRecord::texts(std::string_view path, std::string_view member) {
  std::vector<std::string> out;
  const core::Json* found = find(path);
  if (found == nullptr) return out;
  const std::string expected = member.empty()
                                   ? "an array of strings"
                                   : "an array of objects with a string \"" + std::string(member) + "\"";
  if (!found->is_array()) {
    fail(path, expected);
    return {};
  }
  for (const core::Json& element : *found) {
    const core::Json* text = &element;
    if (!member.empty()) {
      const auto it = element.is_object() ? element.find(std::string(member)) : element.end();
      text = it == element.end() ? nullptr : &*it;
    }
    if (text == nullptr || !text->is_string()) {
      fail(path, expected);
      return {};
    }
    out.push_back(text->get<std::string>());
  }
  return out;
}

}  // namespace planfirst::sources
