// A Contract is one compiled JSON Schema (draft-07) plus its named cross-field rules; validate()
// reports every violation with its JSON pointer, schema keyword and a plain message. Compiled
// once; immutable after construction, so threads may share one. Move-only; validation never
// throws, whatever the value.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/contract_rules.hpp"
#include "contracts/validation_report.hpp"
#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::contracts {

// Engine limits checked before the schema, so that no value can make validation slow or deep:
// a deeper value, or an array with more items, is reported as one violation (keyword "limits").
inline constexpr std::size_t kMaxValidatedDepth = 256;
inline constexpr std::size_t kMaxValidatedArrayItems = 10000;

class Contract {
 public:
  // Parses and compiles `schema_text`; kInvalidArgument naming the fault if it is not JSON or not
  // a schema valijson can compile (e.g. a $ref to a remote document). `name` is for messages.
  static core::Result<Contract> compile(std::string name, std::string_view schema_text,
                                        std::vector<ContractRule> rules = {});

  Contract(Contract&&) noexcept;
  Contract& operator=(Contract&&) noexcept;
  ~Contract();

  const std::string& name() const;
  const std::string& schema_text() const;  // as written: key order kept for the exporters
  const core::Json& schema() const;
  std::string title() const;        // the schema's "title", or the name
  std::string description() const;  // the schema's "description", or ""
  const std::vector<ContractRule>& rules() const;

  // Every schema violation, then every rule violation, in a stable order.
  ValidationReport validate(const core::Json& value) const;

 private:
  struct Compiled;
  explicit Contract(std::unique_ptr<const Compiled> compiled);

  std::unique_ptr<const Compiled> compiled_;
};

inline ValidationReport validate(const Contract& contract, const core::Json& value) {
  return contract.validate(value);
}

}  // namespace planfirst::contracts
