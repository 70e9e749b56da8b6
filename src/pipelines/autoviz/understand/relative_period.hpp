// A period a question names relative to the data's latest date: "this year", "last month", "the
// last 30 days", "the past 6 months", "year to date". Found in the question's stems, then turned
// into a half-open range of ISO dates once the latest date of the time column is known. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz {

struct RelativePeriodPhrases {
  Phrases current;        // this, current: the calendar period holding the latest date
  Phrases previous;       // last, previous: the calendar period before it
  Phrases trailing;       // last, past: followed by a count, the periods ending with the latest date
  Phrases to_date;        // "to date": from the start of the period to the latest date
  Phrases part_of;        // of each, ...: "the last day of each month" is a part of other periods
  Phrases not_before;     // that, which, ...: a period the question asks about, kept by no filter
  Phrases compare_words;  // compare, versus, ...: with two periods, even a part of one, they are compared
  Stems number_words;     // zero, one, two, ...: a count written out, by its index
  LabelledPhrases units;  // day, week, month, quarter, year -> their phrases
};

enum class PeriodKind { kCurrent, kPrevious, kTrailing, kToDate };

struct RelativePeriod {
  std::size_t begin = 0;  // first token of the phrase
  std::size_t end = 0;    // one past its last token
  PeriodKind kind = PeriodKind::kCurrent;
  std::string unit;        // day, week, month, quarter or year
  int count = 1;           // periods, for kTrailing ("the last 30 days": 30)
  bool part = false;       // followed by a "part_of" word: a part of other periods, no period of its own
  bool qualified = false;  // followed by a "not_before" word: a period asked about, kept by no filter
};

struct DateRange {
  std::string from;  // first day kept, "YYYY-MM-DD"
  std::string to;    // first day after, "YYYY-MM-DD"
};

// The relative periods `stems` names, in order: a "current" or "previous" word before a unit, a
// "trailing" word, a count (1 to 1000) and a unit, or a unit and "to date"; those followed by a
// "part_of" word are `part`, those followed by a "not_before" word `qualified`. "The last month" and "the
// past year" (no count) are the one period ending with the latest date; "last month" and "the previous month"
// are the calendar month before it.
std::vector<RelativePeriod> find_relative_periods(const Stems& stems, const RelativePeriodPhrases& phrases);

// The dates `period` keeps, counted from `latest` ("2024-12-31", or a timestamp starting so);
// nothing when `latest` does not start with a valid date or the range would start before year 1.
// Weeks start on Monday.
std::optional<DateRange> period_dates(const RelativePeriod& period, std::string_view latest);

}  // namespace planfirst::autoviz
