// answer_question answers a question about a finished friction analysis from its artifacts: it reads
// the drivers CSV the reporting node wrote (with DuckDB), picks the drivers the question names (by
// their label or id), a lens it names, or a metric it ranks by ("highest repeat rate", "most
// contacts", "longest handle time"), else the top three by Impact x Ease, and answers with their
// figures, citing the file and the rows used and the report. Deterministic.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::friction {

struct QaAnswer {
  std::string text;  // the answer, its citations included
};

// kNotFound when the drivers file is missing; the engine's error when it does not read.
core::Result<QaAnswer> answer_question(std::string_view question, const std::filesystem::path& drivers_csv,
                                       const std::filesystem::path& report);

}  // namespace planfirst::friction
