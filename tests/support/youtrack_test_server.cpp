#include "support/youtrack_test_server.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace planfirst::test_support {
namespace {

using nlohmann::json;

struct BadQuery {
  std::string message;
};

// One term of the query subset: an attribute with values (or a day range), or a #tag.
struct Term {
  std::string attribute;            // "project", "state", "created", "updated", "#resolved", "sort by"
  std::vector<std::string> values;  // for ranges: {from, to}
};

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::vector<Term> parse_query(std::string_view text) {
  std::vector<Term> terms;
  std::size_t at = 0;
  auto skip_spaces = [&] {
    while (at < text.size() && text[at] == ' ') ++at;
  };
  auto read_value = [&]() -> std::string {
    skip_spaces();
    if (at < text.size() && text[at] == '{') {
      const std::size_t close = text.find('}', at);
      if (close == std::string_view::npos) throw BadQuery{"unclosed {"};
      std::string value(text.substr(at + 1, close - at - 1));
      at = close + 1;
      return value;
    }
    const std::size_t start = at;
    while (at < text.size() && text[at] != ' ' && text[at] != ',') ++at;
    if (start == at) throw BadQuery{"a value is missing at " + std::to_string(start)};
    return std::string(text.substr(start, at - start));
  };
  while (true) {
    skip_spaces();
    if (at >= text.size()) break;
    if (text[at] == '#') {
      const std::size_t start = at;
      while (at < text.size() && text[at] != ' ') ++at;
      const std::string tag = lower(std::string(text.substr(start, at - start)));
      if (tag != "#resolved" && tag != "#unresolved") throw BadQuery{"unknown tag " + tag};
      terms.push_back({tag, {}});
      continue;
    }
    const std::size_t colon = text.find(':', at);
    if (colon == std::string_view::npos) throw BadQuery{"expected attribute: value at " + std::to_string(at)};
    Term term{lower(std::string(text.substr(at, colon - at))), {}};
    at = colon + 1;
    if (term.attribute == "sort by") {
      term.values = {lower(read_value())};
      skip_spaces();
      const std::size_t start = at;
      while (at < text.size() && text[at] != ' ') ++at;
      term.values.push_back(lower(std::string(text.substr(start, at - start))));
    } else if (term.attribute == "created" || term.attribute == "updated") {
      term.values.push_back(read_value());
      skip_spaces();
      if (text.substr(at, 2) != "..") throw BadQuery{term.attribute + " needs a range a .. b"};
      at += 2;
      term.values.push_back(read_value());
    } else if (term.attribute == "project" || term.attribute == "state" || term.attribute == "for" ||
               term.attribute == "reporter") {
      term.values.push_back(read_value());
      while (true) {
        skip_spaces();
        if (at >= text.size() || text[at] != ',') break;
        ++at;
        term.values.push_back(read_value());
      }
    } else {
      throw BadQuery{"unknown attribute " + term.attribute};
    }
    terms.push_back(std::move(term));
  }
  return terms;
}

// The value of the custom field `name`: its "name", or for a user field `key` ("login").
std::string custom_field(const json& issue, const char* name, const char* key = "name") {
  for (const json& field : issue["customFields"]) {
    if (field["name"] == name && field["value"].is_object()) return field["value"].value(key, "");
  }
  return "";
}

bool matches(const json& issue, const Term& term) {
  auto any_equal = [&](const std::string& actual) {
    return std::any_of(term.values.begin(), term.values.end(),
                       [&](const std::string& v) { return lower(v) == lower(actual); });
  };
  if (term.attribute == "project") {
    return any_equal(issue["project"]["shortName"]) || any_equal(issue["project"]["name"]);
  }
  if (term.attribute == "state") return any_equal(custom_field(issue, "State"));
  if (term.attribute == "for") return any_equal(custom_field(issue, "Assignee", "login"));
  if (term.attribute == "reporter") return any_equal(issue["reporter"].value("login", ""));
  if (term.attribute == "#resolved") return !issue["resolved"].is_null();
  if (term.attribute == "#unresolved") return issue["resolved"].is_null();
  if (term.attribute == "created" || term.attribute == "updated") {
    const std::optional<long long> from = epoch_seconds(term.values[0]), to = epoch_seconds(term.values[1]);
    if (!from || !to) throw BadQuery{"bad date in " + term.attribute};
    const long long at = issue[term.attribute].get<long long>() / 1000;
    return at >= *from && at < *to + 86400;  // whole days, both inclusive
  }
  return true;  // sort by
}

// "a,b(c,d),e" -> the object with only those members, recursively.
json project_fields(const json& value, std::string_view fields) {
  if (value.is_array()) {
    json out = json::array();
    for (const json& element : value) out.push_back(project_fields(element, fields));
    return out;
  }
  if (!value.is_object()) return value;
  json out = json::object();
  if (value.contains("$type")) out["$type"] = value["$type"];
  std::size_t at = 0;
  while (at < fields.size()) {
    std::size_t end = at;
    int depth = 0;
    while (end < fields.size() && (depth > 0 || fields[end] != ',')) {
      depth += fields[end] == '(' ? 1 : fields[end] == ')' ? -1 : 0;
      ++end;
    }
    const std::string_view field = fields.substr(at, end - at);
    const std::size_t open = field.find('(');
    const std::string name(field.substr(0, open));
    if (value.contains(name)) {
      out[name] = open == std::string_view::npos
                      ? value[name]
                      : project_fields(value[name], field.substr(open + 1, field.size() - open - 2));
    }
    at = end + 1;
  }
  return out;
}

}  // namespace

struct YouTrackTestServer::Fixtures {
  json issues;

  RestReply answer(const RestRequest& request) const {
    if (request.raw_path != "/api/issues") {
      return RestReply::json(404,
                             R"({"error":"Not Found","error_description":"Entity with id issue not found"})");
    }
    std::vector<Term> terms;
    try {
      terms = parse_query(request.param("query"));
    } catch (const BadQuery& bad) {
      return RestReply::json(400,
                             json{{"error", "invalid_query"}, {"error_description", bad.message}}.dump());
    }
    std::vector<json> kept;
    try {
      for (const json& issue : issues) {
        if (std::all_of(terms.begin(), terms.end(), [&](const Term& t) { return matches(issue, t); })) {
          kept.push_back(issue);
        }
      }
    } catch (const BadQuery& bad) {
      return RestReply::json(400,
                             json{{"error", "invalid_query"}, {"error_description", bad.message}}.dump());
    }
    for (const Term& term : terms) {
      if (term.attribute == "sort by" && term.values[0] == "created") {
        std::stable_sort(kept.begin(), kept.end(), [&](const json& a, const json& b) {
          return term.values[1] == "asc" ? a["created"] < b["created"] : a["created"] > b["created"];
        });
      }
    }
    const std::size_t skip = request.has_param("$skip") ? std::stoul(request.param("$skip")) : 0;
    const std::size_t top = request.has_param("$top") ? std::stoul(request.param("$top")) : 42;
    const std::string fields = request.has_param("fields") ? request.param("fields") : "id";
    json body = json::array();
    for (std::size_t i = skip; i < kept.size() && i < skip + top; ++i)
      body.push_back(project_fields(kept[i], fields));
    return RestReply::json(200, body.dump());
  }
};

YouTrackTestServer::YouTrackTestServer() : fixtures_(std::make_unique<Fixtures>()) {
  const std::filesystem::path file =
      std::filesystem::path(PLANFIRST_TEST_FIXTURES) / "youtrack" / "issues.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error("YouTrackTestServer: cannot read " + file.string());
  fixtures_->issues = json::parse(in);
  const Fixtures* fixtures = fixtures_.get();
  server_ = std::make_unique<RestTestServer>(
      AuthCheck{"Authorization", std::string("Bearer ") + kToken,
                R"({"error":"Unauthorized","error_description":"You are not logged in."})"},
      [fixtures](const RestRequest& request) { return fixtures->answer(request); });
}

YouTrackTestServer::~YouTrackTestServer() = default;

}  // namespace planfirst::test_support
