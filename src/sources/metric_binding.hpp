// bind_metric turns what a question mentions into the values one catalog entry's queries bind: each
// parameter from the question or its default, resolved against the StatusDirectory (sprint ids,
// period dates, component and person ids), plus reference_date and row_limit, and notes on what the
// question names that the entry cannot take. Values only, never SQL text. A pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "data/value.hpp"
#include "sources/metric_catalog.hpp"
#include "sources/question_mentions.hpp"
#include "sources/status_directory.hpp"

namespace planfirst::sources {

struct BoundParameter {
  std::string name;       // sprint, period_start, period_end, priority, component, person, issue_type,
                          // reference_date, row_limit
  data::Value value;      // NULL when the parameter is unset
  std::string described;  // for people: "Sprint 13 (2026-11-09 .. 2026-11-22)", "P1", "any"
};

struct MetricBinding {
  std::vector<BoundParameter> parameters;
  std::string period;     // what the values cover: a sprint, a date range, or "as of <reference date>"
  std::string statistic;  // the one the question asks for ("average"), or ""
  std::vector<std::string> notes;  // what the question names that the figure does not follow

  // The column holding `query`'s value: its value_column, or the column of the asked statistic.
  const std::string& value_column(const MetricQuery& query) const;
  // Why the figure is not the asked statistic ("lead_time is a median; no average is kept"), or "".
  std::string statistic_note(const MetricQuery& query, std::string_view entry) const;

  const BoundParameter* find(std::string_view name) const;  // nullptr when unbound
  // `query`'s params in order; REQUIRES: every one is bound (the catalog checks this at load).
  std::vector<data::Value> values_for(const MetricQuery& query) const;
  // "$1 sprint = 13, $2 reference_date = '2026-11-25'" for provenance.
  std::string describe(const MetricQuery& query) const;
};

// kInvalidArgument when a required parameter is missing (naming what the database offers) or a
// default is unknown; kNotFound when a default sprint ("current", "last_closed") does not exist on
// the reference day.
core::Result<MetricBinding> bind_metric(const MetricEntry& entry, const QuestionMentions& mentions,
                                        const StatusDirectory& directory, std::size_t row_limit);

}  // namespace planfirst::sources
