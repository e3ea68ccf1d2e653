#include "harness/util/decision_rule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "harness/util/robust_stats.hpp"

namespace cuconform {

double binomial_half_cdf(int n, int k) {
  if (k < 0) return 0;
  if (k >= n) return 1;
  // Sum of C(n, i) / 2^n in logs: n stays well under a few thousand.
  double sum = 0;
  for (int i = 0; i <= k; ++i)
    sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
  return std::min(sum, 1.0);
}

RatioBound paired_ratio_bound(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
  RatioBound r;
  const size_t n = std::min(a.size(), b.size());
  std::vector<double> ratios;
  for (size_t i = 0; i < n; ++i) {
    const double q = b[i] > 0 && std::isfinite(a[i]) && std::isfinite(b[i]) && a[i] > 0 ? a[i] / b[i] : 0.0;
    ratios.push_back(q);
  }
  r.pairs = static_cast<int>(n);
  if (n == 0) return r;
  r.median = median_of(ratios);
  std::sort(ratios.begin(), ratios.end());
  int k = 0;  // the largest k with P(X <= k - 1) <= alpha
  while (k + 1 <= static_cast<int>(n) / 2 && binomial_half_cdf(static_cast<int>(n), k) <= alpha) ++k;
  if (k == 0) return r;
  r.order = k;
  r.lo = ratios[static_cast<size_t>(k - 1)];
  r.hi = ratios[n - static_cast<size_t>(k)];
  r.coverage = 1 - 2 * binomial_half_cdf(static_cast<int>(n), k - 1);
  return r;
}

const char* to_string(Decision d) {
  switch (d) {
    case Decision::pass: return "pass";
    case Decision::fail: return "fail";
    case Decision::undecided: return "undecided";
  }
  return "?";
}

Decision decide_at_least(const RatioBound& b, double boundary) {
  if (!b.bounded()) return Decision::undecided;
  if (b.lo >= boundary) return Decision::pass;
  if (b.hi < boundary) return Decision::fail;
  return Decision::undecided;
}

DecisionPlan DecisionPlan::for_reps(int reps) {
  DecisionPlan p;
  p.first_pairs = std::max(reps, p.first_pairs);
  p.budget_pairs = 8 * p.first_pairs;
  if (const char* e = std::getenv("CUCONFORM_PAIRS_BUDGET"); e && *e) {
    char* end = nullptr;
    const long v = std::strtol(e, &end, 10);
    if (*end || v < 1 || v > 10000) throw std::invalid_argument("CUCONFORM_PAIRS_BUDGET must be a whole number in 1..10000");
    p.budget_pairs = std::max(static_cast<int>(v), p.first_pairs);
  }
  return p;
}

std::vector<int> DecisionPlan::stages() const {
  std::vector<int> s;
  int n = first_pairs;
  for (int i = 0; i < looks; ++i) {
    s.push_back(std::min(n, budget_pairs));
    if (n >= budget_pairs) break;
    n = i + 2 == looks ? budget_pairs : 2 * n;  // the last look spends the whole budget
  }
  return s;
}

double planted_slowdown_from_env() {
  const char* e = std::getenv("CUCONFORM_PLANT_SLOWDOWN");
  if (!e || !*e) return 0;
  char* end = nullptr;
  const double v = std::strtod(e, &end);
  if (*end || !(v > 0 && v < 1)) throw std::invalid_argument("CUCONFORM_PLANT_SLOWDOWN must be a fraction in (0, 1), e.g. 0.10");
  return v;
}

SampledRatio sample_ratio(const std::function<double()>& first, const std::function<double()>& second, const DecisionPlan& plan,
                          const double* boundary, const std::function<std::string()>& probe) {
  SampledRatio s;
  s.planted_slowdown = planted_slowdown_from_env();
  s.judged = boundary != nullptr;
  if (boundary) s.boundary = *boundary;
  if (probe) s.around.push_back(probe());
  const std::vector<int> stages = boundary ? plan.stages() : std::vector<int>{plan.first_pairs};
  for (int upto : stages) {
    while (static_cast<int>(s.first.size()) < upto) {
      double a = 0, b = 0;
      if (s.first.size() % 2 == 0) {
        a = first();
        b = second();
      } else {
        b = second();
        a = first();
      }
      s.first.push_back(a / (1 + s.planted_slowdown));
      s.second.push_back(b);
    }
    s.bound = paired_ratio_bound(s.first, s.second, plan.alpha);
    if (probe) s.around.push_back(probe());
    if (!boundary) break;
    s.decision = decide_at_least(s.bound, *boundary);
    if (s.decision != Decision::undecided) break;
  }
  return s;
}

}  // namespace cuconform
