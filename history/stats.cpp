#include "history/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace cuconform {

MannKendall mann_kendall(const std::vector<double>& v) {
  MannKendall r;
  const std::size_t n = v.size();
  if (n < 3) return r;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) r.s += (v[j] > v[i]) - (v[j] < v[i]);
  // Variance with the correction for tied groups.
  std::map<double, int> ties;
  for (double x : v) ++ties[x];
  double nn = static_cast<double>(n), var = nn * (nn - 1) * (2 * nn + 5);
  for (auto& [x, t] : ties) var -= static_cast<double>(t) * (t - 1) * (2.0 * t + 5);
  var /= 18;
  if (var <= 0) return r;
  r.z = r.s > 0 ? (r.s - 1) / std::sqrt(var) : r.s < 0 ? (r.s + 1) / std::sqrt(var) : 0;
  r.p = std::erfc(std::fabs(r.z) / std::sqrt(2.0));
  return r;
}

double theil_sen_slope(const std::vector<double>& v) {
  std::vector<double> slopes;
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = i + 1; j < v.size(); ++j) slopes.push_back((v[j] - v[i]) / static_cast<double>(j - i));
  return median_of(slopes);
}

std::string sig(double v, int digits) {
  if (std::isnan(v)) return "n/a";
  char b[48];
  std::snprintf(b, sizeof b, "%.*g", digits, v);
  return b;
}

std::string percent(double rel) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", rel * 100);
  return b;
}

std::string SeriesStats::describe() const {
  std::string s = "median " + sig(median, 6) + " (MAD " + sig(mad, 3) + ") of " + std::to_string(n) + " run(s)";
  if (n >= 3) s += "; trend " + percent(slope_rel) + "/run, Mann-Kendall p=" + sig(mk.p, 2);
  return s + (drift ? "; DRIFT " + percent(drift_rel) + " over the runs" : "");
}

double DriftPolicy::tolerance(double median, double sigma) const { return std::max(z * sigma, min_rel * std::fabs(median)); }

std::string DriftPolicy::tolerance_rule() const {
  return "median ± max(" + sig(z, 2) + " × 1.4826 × MAD, " + sig(min_rel * 100, 3) + "% of the median)";
}

std::string DriftPolicy::drift_rule() const {
  return "Mann-Kendall p < " + sig(alpha, 2) + " with a Theil-Sen change over the runs of " + sig(drift_min * 100, 3) + "%+ of the median";
}

SeriesStats series_stats(const std::vector<double>& values, const DriftPolicy& p) {
  SeriesStats s;
  s.n = static_cast<int>(values.size());
  if (values.empty()) return s;
  s.median = median_of(values);
  s.mad = mad_of(values);
  double scale = std::max(std::fabs(s.median), 1e-300);
  s.sigma = std::max(1.4826 * s.mad, 1e-9 * scale);
  s.mk = mann_kendall(values);
  s.slope = values.size() >= 2 ? theil_sen_slope(values) : 0;
  s.slope_rel = s.slope / scale;
  s.drift_rel = s.slope * (s.n - 1) / scale;
  s.drift = s.n >= p.min_runs && s.mk.p < p.alpha && std::fabs(s.drift_rel) >= p.drift_min;
  return s;
}

ValueJudgement judge_value(const std::vector<double>& history, double value, const DriftPolicy& p) {
  ValueJudgement j;
  if (static_cast<int>(history.size()) < p.min_runs || !std::isfinite(value)) return j;
  j.judged = true;
  j.history = series_stats(history, p);
  std::vector<double> all = history;
  all.push_back(value);
  j.with_value = series_stats(all, p);
  double scale = std::max(std::fabs(j.history.median), 1e-300), tolerance = p.tolerance(j.history.median, j.history.sigma);
  j.tolerance_rel = tolerance / scale;
  j.off = std::fabs(value - j.history.median) > tolerance;
  j.drift = j.with_value.drift;
  return j;
}

}  // namespace cuconform
