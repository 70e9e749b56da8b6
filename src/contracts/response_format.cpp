#include "contracts/response_format.hpp"

#include <nlohmann/json.hpp>
#include <vector>

#include "contracts/contract.hpp"

namespace planfirst::contracts {
namespace {

using Schema = nlohmann::ordered_json;

// Removes "$schema" and "$comment" wherever a schema can hold them, without recursion.
void strip_annotations(Schema& schema) {
  std::vector<Schema*> pending{&schema};
  while (!pending.empty()) {
    Schema* node = pending.back();
    pending.pop_back();
    if (node->is_object()) {
      node->erase("$schema");
      node->erase("$comment");
      for (auto& [key, child] : node->items()) {
        if (key != "enum" && key != "const" && key != "default" && key != "examples")
          pending.push_back(&child);
      }
    } else if (node->is_array()) {
      for (Schema& child : *node) pending.push_back(&child);
    }
  }
}

}  // namespace

std::string response_format(const Contract& contract, int indent) {
  Schema schema = Schema::parse(contract.schema_text(), nullptr, /*allow_exceptions=*/false);
  strip_annotations(schema);
  Schema format = Schema::object();
  format["type"] = "json_schema";
  format["json_schema"] = Schema::object();
  format["json_schema"]["name"] = contract.name();
  format["json_schema"]["schema"] = std::move(schema);
  format["json_schema"]["strict"] = true;
  return format.dump(indent, ' ', false, Schema::error_handler_t::replace);
}

}  // namespace planfirst::contracts
