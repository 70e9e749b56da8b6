// Answer is what an autoviz run found, as the terminal and the reports lead with it: the table of the
// last step that produced one, how many rows it holds, and a description built from the steps that
// ran (the aggregate with its function, metrics and grouping, the time grain, the filters, the sort
// and limit), never from a dataset's own words: "count of rows where date in 2024 and region = West".
// A table of one number is one value, said in a headline: "Answer: 7,726 (count of rows where ...)".
// Pure: same state, same answer. A value type.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/json.hpp"
#include "data/query_result.hpp"

namespace planfirst::autoviz {

struct Answer {
  std::string step_id;                   // the step whose table answers
  std::size_t step_index = 0;            // its index in the state's execution steps
  data::QueryResult table;               // its rows as the state holds them
  std::optional<std::size_t> row_count;  // all its rows; unknown when the state kept only the first
  std::string description;               // "sum of revenue by region where date in 2024"
  std::optional<std::string> value;      // the one number, as shown: "7,726"; none for a table
  std::size_t value_column = 0;          // with `value`: the column of `table` that holds it

  // "Answer: 7,726 (count of rows where ...)" or "Answer: sum of revenue by region (5 rows)".
  std::string headline() const;
  // How many of the rows show: "1 row", "5 rows", "showing 10 of 14 rows", "showing 10 of more
  // than 10,000 rows".
  std::string rows_line(std::size_t shown) const;
};

// The answer of a run whose steps all ran (none failed), from its state after execute; none when
// no step that ran produced a table (a chart alone), when a step failed, or for a plan-only run.
std::optional<Answer> find_answer(const core::Json& state);

// "Showing 5,000 of 655,360 points, sampled." for a chart step whose marks were sampled (the step's
// "sampled": {"shown", "of"}); empty for any other step.
std::string sample_note(const core::Json& step);

}  // namespace planfirst::autoviz
