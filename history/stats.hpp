#pragma once
// Robust statistics for measurements over runs: median and MAD (the spread that decides a
// tolerance), the Mann-Kendall rank test (is there a monotone trend?) and the Theil-Sen slope
// (how steep), none of them thrown off by a few wild values.
#include <string>
#include <vector>

#include "harness/util/robust_stats.hpp"  // median_of, mad_of

namespace cuconform {

struct MannKendall {
  double s = 0, z = 0, p = 1;  // S statistic, normal score (continuity- and tie-corrected), two-sided p
};
MannKendall mann_kendall(const std::vector<double>& v);
double theil_sen_slope(const std::vector<double>& v);  // per step; NaN with fewer than 2 values

// How a series of values (oldest first) is judged, and the thresholds.
struct DriftPolicy {
  int min_runs = 5;         // fewer values: no judgement
  double z = 4.0;           // a value is off when |x - median| > z * 1.4826 * MAD ...
  double min_rel = 0.05;    // ... and more than this share of the median (smaller moves never gate)
  double alpha = 0.001;     // Mann-Kendall p below this ...
  double drift_min = 0.10;  // ... and a Theil-Sen drift over the series of at least this share of the median
  double tolerance(double median, double sigma) const;  // the absolute distance from the median that is off
  std::string tolerance_rule() const;  // "median ± max(4 × 1.4826 × MAD, 5% of the median)"
  std::string drift_rule() const;      // "Mann-Kendall p < 0.001 with a Theil-Sen change of 10%+ of the median"
};

struct SeriesStats {
  int n = 0;
  double median = 0, mad = 0, sigma = 0;  // sigma = 1.4826 * MAD, floored so a constant series is not 0
  MannKendall mk;
  double slope = 0, slope_rel = 0;  // per run; relative to |median|
  double drift_rel = 0;             // slope * (n - 1) / |median|: the fitted change over the series
  bool drift = false;
  std::string describe() const;     // "median 3757 (MAD 4.2), trend +3.0%/run (Mann-Kendall p=2e-07)"
};
SeriesStats series_stats(const std::vector<double>& values, const DriftPolicy& p);

// `value` against `history` (oldest first): off by the median/MAD rule, or drifting once the
// value is appended. Only judged with at least p.min_runs values of history.
struct ValueJudgement {
  bool judged = false, off = false, drift = false;
  double tolerance_rel = 0;  // max(z * sigma, min_rel * |median|) / |median|
  SeriesStats history, with_value;
};
ValueJudgement judge_value(const std::vector<double>& history, double value, const DriftPolicy& p);

std::string sig(double v, int digits = 3);  // "3.76e+03" style kept short: "3757.5", "2e-07"
std::string percent(double rel);             // 0.031 -> "+3.1%"

}  // namespace cuconform
