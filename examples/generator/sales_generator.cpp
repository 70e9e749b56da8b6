// Writes the example sales dataset: daily orders over two years with weekly and yearly seasonality,
// growth, regional and channel mix, and a few planted anomalies. Byte-for-byte deterministic for a
// given seed: it uses its own random generator and formatting, not implementation-defined ones.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "generator/split_mix64.hpp"

namespace {

using planfirst::examples::SplitMix64;

struct Product {
  std::string_view category;
  std::string_view name;
  double unit_price;
  double margin;
  double summer_boost;  // extra demand in June-August (clothing, fans)
};

constexpr std::array<Product, 14> kProducts{{
    {"Electronics", "Laptop", 1099.0, 0.18, 0.0},
    {"Electronics", "Smartphone", 749.0, 0.22, 0.0},
    {"Electronics", "Headphones", 149.0, 0.35, 0.1},
    {"Electronics", "Monitor", 289.0, 0.25, 0.0},
    {"Furniture", "Office Chair", 239.0, 0.30, 0.0},
    {"Furniture", "Standing Desk", 549.0, 0.28, 0.0},
    {"Furniture", "Bookshelf", 129.0, 0.33, 0.0},
    {"Office Supplies", "Paper Pack", 24.0, 0.45, -0.1},
    {"Office Supplies", "Printer Ink", 39.0, 0.55, 0.0},
    {"Office Supplies", "Notebook Set", 12.0, 0.50, -0.2},
    {"Clothing", "Rain Jacket", 89.0, 0.48, -0.3},
    {"Clothing", "T-Shirt", 19.0, 0.52, 0.6},
    {"Clothing", "Sneakers", 79.0, 0.44, 0.3},
    {"Clothing", "Wool Sweater", 64.0, 0.47, -0.5},
}};

struct Weighted {
  std::string_view name;
  double weight;
};
constexpr std::array<Weighted, 5> kRegions{
    {{"North", 1.0}, {"South", 1.2}, {"East", 1.5}, {"West", 1.4}, {"Central", 0.7}}};
constexpr std::array<Weighted, 3> kChannels{{{"Online", 1.6}, {"Retail", 1.2}, {"Wholesale", 0.5}}};
constexpr std::array<Weighted, 3> kSegments{{{"Consumer", 1.8}, {"Corporate", 1.0}, {"Small Business", 0.8}}};

template <std::size_t N>
std::string_view pick(const std::array<Weighted, N>& options, SplitMix64& rng) {
  double total = 0;
  for (const auto& o : options) total += o.weight;
  double x = rng.uniform() * total;
  for (const auto& o : options) {
    if ((x -= o.weight) < 0) return o.name;
  }
  return options.back().name;
}

double yearly_season(unsigned month) {  // retail shape: slow Q1, December peak
  constexpr std::array<double, 12> kFactor{0.82, 0.80, 0.92, 0.95, 0.98, 1.00,
                                           0.97, 1.02, 1.00, 1.05, 1.25, 1.45};
  return kFactor[month - 1];
}

struct Day {
  std::chrono::year_month_day ymd;
  unsigned weekday;  // 0 = Sunday
  double years_in;   // time since the start, for growth
};

// Planted anomalies an analyst should find: a West electronics spike, an online outage, Black Friday.
double anomaly_factor(const Day& day, std::string_view region, std::string_view channel,
                      std::string_view category) {
  const auto ymd = day.ymd;
  using namespace std::chrono;
  if (ymd == year{2023} / July / 14 && region == "West" && category == "Electronics") return 9.0;
  if (ymd >= year{2024} / March / 11 && ymd <= year{2024} / March / 13 && channel == "Online") return 0.05;
  if ((ymd == year{2023} / November / 24 || ymd == year{2024} / November / 29)) return 3.5;
  return 1.0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* out_path = argc > 1 ? argv[1] : "sales.csv";
  std::FILE* out = std::fopen(out_path, "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "sales_generator: cannot write %s\n", out_path);
    return 3;
  }
  SplitMix64 rng(20240131);
  std::fputs("order_id,date,region,product_category,product,channel,customer_segment,units,revenue,cost\n",
             out);
  using namespace std::chrono;
  const sys_days first = year{2023} / January / 1;
  const sys_days last = year{2024} / December / 31;
  long order_id = 100000;
  for (sys_days d = first; d <= last; d += days{1}) {
    const Day day{year_month_day{d}, weekday{d}.c_encoding(), (d - first).count() / 365.25};
    const double weekly = (day.weekday == 0 || day.weekday == 6) ? 0.75 : 1.08;
    const int orders = static_cast<int>(58 + 14 * day.years_in + rng.below(21));
    for (int i = 0; i < orders; ++i) {
      const Product& p = kProducts[rng.below(static_cast<int>(kProducts.size()))];
      const std::string_view region = pick(kRegions, rng);
      const std::string_view channel = pick(kChannels, rng);
      const std::string_view segment = pick(kSegments, rng);
      const unsigned month = static_cast<unsigned>(day.ymd.month());
      const double summer = (month >= 6 && month <= 8) ? 1.0 + p.summer_boost : 1.0 - p.summer_boost * 0.3;
      const double demand = weekly * yearly_season(month) * summer * (1.0 + 0.18 * day.years_in) *
                            anomaly_factor(day, region, channel, p.category);
      const double base_units = (channel == "Wholesale" ? 12.0 : 2.0) * demand;
      const int units =
          std::max(1, static_cast<int>(std::lround(base_units * std::exp(0.35 * rng.normal()))));
      const double price = p.unit_price * (1.0 + 0.04 * rng.normal()) * (channel == "Wholesale" ? 0.85 : 1.0);
      const double revenue = units * price;
      const double cost = revenue * (1.0 - p.margin) * (1.0 + 0.03 * rng.normal());
      fmt::print(out, "{},{:04}-{:02}-{:02},{},{},{},{},{},{},{:.2f},{:.2f}\n", order_id++,
                 static_cast<int>(day.ymd.year()), month, static_cast<unsigned>(day.ymd.day()), region,
                 p.category, p.name, channel, segment, units, revenue, cost);
    }
  }
  std::fclose(out);
  return 0;
}
