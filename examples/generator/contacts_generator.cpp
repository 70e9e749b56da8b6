// Writes the example customer-contacts dataset of the friction pipeline: a contact centre's
// contacts over six months, with drivers of very different volumes, repeat contacts that follow a
// first contact within days, digital-journey failures that drive calls, and policy-driven contacts.
// Byte-for-byte deterministic for a given seed and row count: its own random generator and
// formatting, no implementation-defined distributions.
//
//   contacts_generator OUT.csv [ROWS] [SEED]     (defaults: 300000 rows, seed 20250101)
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "generator/split_mix64.hpp"

namespace {

using planfirst::examples::SplitMix64;

// One reason customers contact the centre, with how such contacts behave.
struct Driver {
  std::string_view reason;  // the agent's disposition code
  double weight;            // share of first contacts
  std::array<std::string_view, 3> summaries;
  std::array<double, 5> channel_mix;  // phone, chat, email, app, social
  double handle_minutes;              // mean; log-normal spread
  double transfer_rate;
  double repeat_rate;   // chance a contact is followed by another about the same issue
  double resolve_rate;  // chance a contact ends resolved
};

constexpr std::array<std::string_view, 5> kChannels{"phone", "chat", "email", "app", "social"};

// Volumes differ by an order of magnitude; digital failures and policy rules drive the most contacts.
constexpr std::array<Driver, 16> kDrivers{{
    {"Login issue",
     0.135,
     {"customer cannot log in to the app, login error after update", "app login fails with error code 401",
      "locked out after password reset, cannot sign in"},
     {0.62, 0.25, 0.05, 0.06, 0.02},
     9.5,
     0.18,
     0.34,
     0.71},
    {"Payment failed",
     0.105,
     {"payment page error at checkout, card declined message",
      "payment page times out when paying bill online", "online payment error, charged twice after retry"},
     {0.58, 0.27, 0.08, 0.05, 0.02},
     11.0,
     0.22,
     0.29,
     0.66},
    {"Password reset",
     0.060,
     {"password reset email never arrives", "reset link expired, needs new password",
      "cannot reset password in app"},
     {0.45, 0.35, 0.12, 0.06, 0.02},
     6.0,
     0.05,
     0.21,
     0.86},
    {"Website search",
     0.030,
     {"could not find the form on the website", "search on website shows no results for invoice",
      "cannot find where to update address online"},
     {0.40, 0.45, 0.10, 0.03, 0.02},
     5.5,
     0.06,
     0.12,
     0.90},
    {"Late fee",
     0.095,
     {"disputes late fee charged on account", "late fee applied although paid on time",
      "asks to waive late fee, policy allows one waiver"},
     {0.66, 0.18, 0.12, 0.02, 0.02},
     8.0,
     0.25,
     0.24,
     0.58},
    {"Refund request",
     0.085,
     {"refund refused, outside 14 day refund window", "asks why refund takes 10 days under refund policy",
      "refund denied for opened item per refund rules"},
     {0.55, 0.22, 0.19, 0.02, 0.02},
     10.5,
     0.31,
     0.33,
     0.49},
    {"Cancellation fee",
     0.040,
     {"cancellation fee charged when closing contract", "wants to cancel without early termination fee",
      "complains about cancellation fee in contract terms"},
     {0.70, 0.15, 0.12, 0.01, 0.02},
     12.5,
     0.35,
     0.20,
     0.52},
    {"Order status",
     0.080,
     {"where is my order, delivery delayed", "order shows shipped but no tracking update",
      "delivery missed, wants new delivery date"},
     {0.48, 0.32, 0.12, 0.05, 0.03},
     5.0,
     0.08,
     0.27,
     0.80},
    {"Technician appointment",
     0.045,
     {"technician did not show up for appointment", "needs to reschedule technician visit",
      "appointment window too long, asks for exact time"},
     {0.72, 0.14, 0.10, 0.02, 0.02},
     9.0,
     0.28,
     0.31,
     0.63},
    {"Callback missing",
     0.035,
     {"promised callback never came", "waiting for callback from billing team",
      "asked for callback twice, nobody called"},
     {0.80, 0.10, 0.07, 0.01, 0.02},
     7.5,
     0.40,
     0.45,
     0.55},
    {"Bill explanation",
     0.075,
     {"does not understand charges on bill", "bill higher than expected, asks for explanation",
      "confusing line items on invoice"},
     {0.60, 0.24, 0.12, 0.02, 0.02},
     8.5,
     0.12,
     0.22,
     0.84},
    {"Notification confusion",
     0.040,
     {"received confusing email about plan change", "sms notification unclear, thought account was closed",
      "letter says payment overdue but it was paid"},
     {0.50, 0.26, 0.18, 0.03, 0.03},
     6.5,
     0.10,
     0.18,
     0.88},
    {"Plan change",
     0.055,
     {"wants to upgrade plan", "asks to switch to cheaper plan", "change of tariff at renewal"},
     {0.52, 0.30, 0.10, 0.06, 0.02},
     7.0,
     0.09,
     0.08,
     0.93},
    {"Address update",
     0.035,
     {"moving house, update address", "change billing address", "update contact details"},
     {0.40, 0.36, 0.14, 0.08, 0.02},
     4.0,
     0.03,
     0.05,
     0.97},
    {"Outage report",
     0.050,
     {"service down in area, reports outage", "no connection since morning", "intermittent service drops"},
     {0.70, 0.16, 0.04, 0.06, 0.04},
     6.0,
     0.15,
     0.26,
     0.61},
    {"General enquiry",
     0.035,
     {"general question about opening hours", "asks about store locations",
      "question about product features"},
     {0.35, 0.40, 0.15, 0.05, 0.05},
     3.5,
     0.04,
     0.03,
     0.96},
}};

const Driver& pick_driver(SplitMix64& rng) {
  double total = 0;
  for (const Driver& d : kDrivers) total += d.weight;
  double r = rng.uniform() * total;
  for (const Driver& d : kDrivers) {
    if ((r -= d.weight) < 0) return d;
  }
  return kDrivers.back();
}

std::string_view pick_channel(SplitMix64& rng, const Driver& driver, bool repeat) {
  double r = rng.uniform();
  if (repeat) return r < 0.75 ? kChannels[0] : kChannels[1];  // a customer who comes back calls
  for (std::size_t i = 0; i < kChannels.size(); ++i) {
    if ((r -= driver.channel_mix[i]) < 0) return kChannels[i];
  }
  return kChannels[0];
}

// Days from 1970-01-01 to y-m-d (proleptic Gregorian).
std::int64_t days_from_civil(int y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097LL + static_cast<std::int64_t>(doe) - 719468;
}

std::string timestamp_text(std::int64_t seconds) {
  std::int64_t days = seconds / 86400;
  const std::int64_t rest = seconds % 86400;
  days += 719468;
  const std::int64_t era = days / 146097;
  const unsigned doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", y, m, d, rest / 3600, rest % 3600 / 60,
                     rest % 60);
}

struct Contact {
  std::int64_t at;  // seconds since the epoch
  const Driver* driver;
  std::int64_t customer;
  bool repeat;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: contacts_generator OUT.csv [ROWS] [SEED]\n");
    return 2;
  }
  const long rows = argc > 2 ? std::atol(argv[2]) : 300000;
  const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 20250101ULL;
  if (rows <= 0) {
    std::fprintf(stderr, "contacts_generator: ROWS must be a positive number\n");
    return 2;
  }
  SplitMix64 rng(seed);
  const std::int64_t start = days_from_civil(2025, 1, 1) * 86400;
  const std::int64_t span = (days_from_civil(2025, 7, 1) - days_from_civil(2025, 1, 1)) * 86400;

  // First contacts spread over the period (busier on weekdays and in office hours); each may be
  // followed by repeats about the same issue, hours to days later.
  std::vector<Contact> contacts;
  contacts.reserve(static_cast<std::size_t>(rows) + 16);
  std::int64_t customer = 100000;
  while (static_cast<long>(contacts.size()) < rows) {
    const Driver& driver = pick_driver(rng);
    std::int64_t day = rng.below(static_cast<int>(span / 86400));
    if ((day + 3) % 7 >= 5 && rng.chance(0.45)) day = (day + 2) % (span / 86400);  // weekends are quieter
    double hour = 13.0 + 3.2 * rng.normal();
    while (hour < 7.0 || hour >= 23.0) hour = 13.0 + 3.2 * rng.normal();  // open 07:00-23:00
    std::int64_t at = start + day * 86400 + static_cast<std::int64_t>(hour * 3600);
    ++customer;
    contacts.push_back({at, &driver, customer, false});
    double repeat_chance = driver.repeat_rate;
    while (rng.chance(repeat_chance) && static_cast<long>(contacts.size()) < rows) {
      at += 3600 * (2 + rng.below(24 * 6));
      if (at >= start + span) break;
      contacts.push_back({at, &driver, customer, true});
      repeat_chance *= 0.55;
    }
  }
  std::stable_sort(contacts.begin(), contacts.end(),
                   [](const Contact& a, const Contact& b) { return a.at < b.at; });

  std::FILE* out = std::fopen(argv[1], "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "contacts_generator: cannot write %s\n", argv[1]);
    return 1;
  }
  std::fputs(
      "contact_id,contact_timestamp,customer_id,channel,contact_reason,summary,handle_time_sec,transfers,"
      "repeat_contact,resolution\n",
      out);
  std::int64_t id = 0;
  for (const Contact& c : contacts) {
    const Driver& d = *c.driver;
    const std::string_view channel = pick_channel(rng, d, c.repeat);
    const double asynchronous = channel == "email" ? 0.6 : channel == "app" ? 0.7 : 1.0;
    const double minutes =
        d.handle_minutes * asynchronous * (c.repeat ? 1.25 : 1.0) * std::exp(0.45 * rng.normal());
    const int seconds = std::max(30, static_cast<int>(minutes * 60));
    int transfers = 0;
    double transfer_chance = d.transfer_rate * (c.repeat ? 1.3 : 1.0);
    while (transfers < 4 && rng.chance(transfer_chance)) {
      ++transfers;
      transfer_chance *= 0.35;
    }
    const double resolve = d.resolve_rate * (transfers > 0 ? 0.85 : 1.0);
    const std::string_view resolution = rng.chance(resolve) ? "resolved"
                                        : rng.chance(0.6)   ? "unresolved"
                                                            : "escalated";
    const std::string_view summary = d.summaries[static_cast<std::size_t>(rng.below(3))];
    fmt::print(out, "C{:07},{},K{},{},{},\"{}\",{},{},{},{}\n", ++id, timestamp_text(c.at), c.customer,
               channel, d.reason, summary, seconds, transfers, c.repeat ? "true" : "false", resolution);
  }
  if (std::fclose(out) != 0) {
    std::fprintf(stderr, "contacts_generator: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
