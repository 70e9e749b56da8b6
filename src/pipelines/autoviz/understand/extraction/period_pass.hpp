// The period pass reads the periods a question keeps: one relative period ("last year", "the past
// 30 days", counted back from the data's latest date), calendar periods with their year ("March
// 2024", "Q4 2024") and years ("in 2024", "after 1928", "between 2010 and 2015"), kept or compared
// on a column of dates or years. Each step claims the tokens it used.
#pragma once

#include <optional>

#include "core/result.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"

namespace planfirst::autoviz {
struct PeriodWords;
}  // namespace planfirst::autoviz

namespace planfirst::autoviz::extraction {

// The one relative period that keeps rows, when the data holds dates: its tokens are claimed as
// Claim::kRelativePeriod and blanked ("last year" is a filter, not the year grain). Two periods
// ("this year vs last year") compare; nothing keeps them.
std::optional<RelativePeriod> claim_relative_period(const data::SchemaProfile& profile,
                                                    const RelativePeriodPhrases& phrases, Question& q,
                                                    TokenClaims& claims);

// Filters for the calendar periods named with their year (ground_calendar_periods), claimed as
// Claim::kCalendarPeriod, then for the years named (ground_years), claimed as Claim::kYear, each
// where no comparison took its tokens. kInvalidArgument for a date no calendar has ("2024-02-30").
core::Result<void> claim_named_periods(const Question& q, const data::SchemaProfile& profile,
                                       const LabelledPhrases& months, const PeriodWords& words,
                                       const Stems& period_links, const Stems& year_links,
                                       TokenClaims& claims, Findings& found);

// Several named years kept on a date column (Findings::years_column) are compared: split by year
// when the question sets no other time column or grain.
void split_named_years(Findings& found);

// Filters keeping the dates of Findings::period on the time column, else the first column of dates
// (keep_period); sets Findings::period_column.
void keep_relative_period(const data::SchemaProfile& profile, Findings& found);

}  // namespace planfirst::autoviz::extraction
