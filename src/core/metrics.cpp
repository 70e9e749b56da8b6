#include "core/metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace planfirst::core {

struct MetricsRegistry::Family {
  MetricType type = MetricType::kCounter;
  std::string help;
  std::vector<double> upper_bounds;  // histograms only
  std::map<Labels, std::unique_ptr<Counter>> counters;
  std::map<Labels, std::unique_ptr<Gauge>> gauges;
  std::map<Labels, std::unique_ptr<Histogram>> histograms;
};

namespace {

std::string_view type_name(MetricType type) {
  switch (type) {
    case MetricType::kCounter: return "counter";
    case MetricType::kGauge: return "gauge";
    case MetricType::kHistogram: return "histogram";
  }
  return "untyped";
}

bool is_name_char(char c, bool first, bool allow_colon) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  const bool digit = c >= '0' && c <= '9';
  return letter || (allow_colon && c == ':') || (!first && digit);
}

bool is_valid_name(std::string_view name, bool allow_colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!is_name_char(name[i], i == 0, allow_colon)) return false;
  }
  return true;
}

void check_metric_name(std::string_view name) {
  if (!is_valid_name(name, true)) throw std::logic_error("invalid metric name '" + std::string(name) + "'");
}

void check_labels(std::string_view metric, const Labels& labels, MetricType type) {
  for (const auto& [name, value] : labels) {
    const bool reserved = name.starts_with("__") || (type == MetricType::kHistogram && name == "le");
    if (!is_valid_name(name, false) || reserved) {
      throw std::logic_error("invalid label name '" + name + "' on metric '" + std::string(metric) + "'");
    }
  }
}

void check_bounds(std::string_view metric, const std::vector<double>& bounds) {
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    if (!std::isfinite(bounds[i]) || (i > 0 && bounds[i] <= bounds[i - 1])) {
      throw std::logic_error("histogram '" + std::string(metric) +
                             "' needs finite, strictly ascending bucket bounds");
    }
  }
}

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

std::string escape(std::string_view text, bool quote) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quote) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

// {a="1",b="2"} with `extra` (e.g. le) last; empty when there are no labels at all.
std::string label_text(const Labels& labels, std::string_view extra_name = {},
                       std::string_view extra_value = {}) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : labels) parts.push_back(name + "=\"" + escape(value, true) + "\"");
  if (!extra_name.empty()) parts.push_back(fmt::format("{}=\"{}\"", extra_name, extra_value));
  if (parts.empty()) return {};
  return fmt::format("{{{}}}", fmt::join(parts, ","));
}

void append_sample(std::string& out, std::string_view name, const std::string& labels, double value) {
  fmt::format_to(std::back_inserter(out), "{}{} {}\n", name, labels, format_number(value));
}

void append_histogram(std::string& out, std::string_view name, const Labels& labels,
                      const Histogram& histogram) {
  const Histogram::Snapshot snap = histogram.snapshot();
  const std::string bucket = std::string(name) + "_bucket";
  for (std::size_t i = 0; i < snap.upper_bounds.size(); ++i) {
    const auto count = static_cast<double>(snap.cumulative[i]);
    append_sample(out, bucket, label_text(labels, "le", format_number(snap.upper_bounds[i])), count);
  }
  append_sample(out, bucket, label_text(labels, "le", "+Inf"), static_cast<double>(snap.count));
  append_sample(out, std::string(name) + "_sum", label_text(labels), snap.sum);
  append_sample(out, std::string(name) + "_count", label_text(labels), static_cast<double>(snap.count));
}

template <typename Metric, typename Make>
Metric& find_or_add(std::map<Labels, std::unique_ptr<Metric>>& series, std::string_view name,
                    const Labels& labels, MetricType type, Make make) {
  if (auto found = series.find(labels); found != series.end()) return *found->second;
  check_labels(name, labels, type);
  return *series.emplace(labels, make()).first->second;
}

}  // namespace

void Counter::inc(double amount) {
  if (!(amount >= 0)) throw std::logic_error("a counter cannot decrease");
  value_.fetch_add(amount, std::memory_order_relaxed);
}

Histogram::Histogram(std::vector<double> upper_bounds)
    : upper_bounds_(std::move(upper_bounds)), bucket_counts_(upper_bounds_.size() + 1, 0) {}

void Histogram::observe(double value) {
  const auto bucket =
      std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value) - upper_bounds_.begin();
  std::lock_guard lock(mutex_);
  ++bucket_counts_[static_cast<std::size_t>(bucket)];
  sum_ += value;
}

Histogram::Snapshot Histogram::snapshot() const {
  Snapshot snap;
  snap.upper_bounds = upper_bounds_;
  std::lock_guard lock(mutex_);
  std::uint64_t running = 0;
  for (std::uint64_t count : bucket_counts_) {
    running += count;
    snap.cumulative.push_back(running);
  }
  snap.count = running;
  snap.sum = sum_;
  return snap;
}

const std::vector<double>& default_buckets() {
  static const std::vector<double> buckets{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};
  return buckets;
}

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

MetricsRegistry::Family& MetricsRegistry::family(std::string_view name, MetricType type) {
  auto found = families_.find(name);
  if (found == families_.end()) {
    check_metric_name(name);
    auto created = std::make_unique<Family>();
    created->type = type;
    if (type == MetricType::kHistogram) created->upper_bounds = default_buckets();
    found = families_.emplace(std::string(name), std::move(created)).first;
  }
  Family& family = *found->second;
  if (family.type != type) {
    throw std::logic_error(
        fmt::format("metric '{}' is a {}, not a {}", name, type_name(family.type), type_name(type)));
  }
  return family;
}

Counter& MetricsRegistry::counter(std::string_view name, const Labels& labels) {
  std::lock_guard lock(mutex_);
  return find_or_add(family(name, MetricType::kCounter).counters, name, labels, MetricType::kCounter,
                     [] { return std::make_unique<Counter>(); });
}

Gauge& MetricsRegistry::gauge(std::string_view name, const Labels& labels) {
  std::lock_guard lock(mutex_);
  return find_or_add(family(name, MetricType::kGauge).gauges, name, labels, MetricType::kGauge,
                     [] { return std::make_unique<Gauge>(); });
}

Histogram& MetricsRegistry::histogram(std::string_view name, const Labels& labels,
                                      const std::vector<double>& upper_bounds) {
  check_bounds(name, upper_bounds);
  std::lock_guard lock(mutex_);
  Family& fam = family(name, MetricType::kHistogram);
  if (!upper_bounds.empty() && fam.upper_bounds != upper_bounds) {
    if (!fam.histograms.empty()) {
      throw std::logic_error("histogram '" + std::string(name) + "' already has other bucket bounds");
    }
    fam.upper_bounds = upper_bounds;
  }
  return find_or_add(fam.histograms, name, labels, MetricType::kHistogram,
                     [&fam] { return std::make_unique<Histogram>(fam.upper_bounds); });
}

void MetricsRegistry::describe(std::string_view name, MetricType type, std::string_view help) {
  std::lock_guard lock(mutex_);
  family(name, type).help = std::string(help);
}

std::string MetricsRegistry::render_prometheus() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& [name, family] : families_) append_family(out, name, *family);
  return out;
}

void MetricsRegistry::append_family(std::string& out, std::string_view name, const Family& family) {
  auto sink = std::back_inserter(out);
  if (!family.help.empty()) fmt::format_to(sink, "# HELP {} {}\n", name, escape(family.help, false));
  fmt::format_to(sink, "# TYPE {} {}\n", name, type_name(family.type));
  for (const auto& [labels, counter] : family.counters) {
    append_sample(out, name, label_text(labels), counter->value());
  }
  for (const auto& [labels, gauge] : family.gauges) {
    append_sample(out, name, label_text(labels), gauge->value());
  }
  for (const auto& [labels, histogram] : family.histograms) {
    append_histogram(out, name, labels, *histogram);
  }
}

}  // namespace planfirst::core
