#pragma once
// The decision rule of every judged measurement (issue 45): two configurations measured in
// interleaved pairs, a distribution-free confidence bound on the median of the pairs' ratios,
// and three outcomes. Pass only when the bound's low end clears the boundary, fail only when its
// high end is below it; otherwise more pairs, up to a stated budget; then undecided, which a
// fixture reports as `inconclusive` with the bound (never a pass, gating only where asked).
//
// Why this bound: the pairs are measured side by side, so drift (clocks, temperature) moves both
// halves of a pair alike and cancels in its ratio; the k-th smallest and k-th largest of n ratios
// bound their median with probability at least 1 - 2 P(Binomial(n, 1/2) < k) whatever the
// noise's shape (the sign-test interval). No resampling: the same samples give the same bound.
//
// False alarms: each look errs on one side with probability <= alpha (0.005); the rule looks at
// most `looks` times (3), so a case whose true ratio clears the boundary fails with probability
// <= 1.5% at worst, far less where the truth is not on the boundary itself.
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace cuconform {

struct RatioBound {
  double median = std::numeric_limits<double>::quiet_NaN();  // median of the pairs' ratios
  double lo = -std::numeric_limits<double>::infinity();      // the bound; +-inf: too few pairs
  double hi = std::numeric_limits<double>::infinity();
  int pairs = 0;
  int order = 0;           // lo is the order-th smallest ratio, hi the order-th largest (0: none)
  double coverage = 0;     // the bound's two-sided coverage, >= 1 - 2 alpha
  bool bounded() const { return order > 0; }
  double half_width() const { return (hi - lo) / 2; }
};

// P(Binomial(n, 1/2) <= k).
double binomial_half_cdf(int n, int k);
// The bound on the median of a[i] / b[i] (rates: a pair with a value <= 0 or not finite counts as
// ratio 0), each side's miss probability <= alpha.
RatioBound paired_ratio_bound(const std::vector<double>& a, const std::vector<double>& b, double alpha);

enum class Decision { pass, fail, undecided };
const char* to_string(Decision d);
// "the median ratio >= boundary": pass when lo >= boundary, fail when hi < boundary.
Decision decide_at_least(const RatioBound& b, double boundary);

// Not-slower rules allow this much below 1 (the boundary of "not slower" is 1 - this): two equal
// configurations then pass once the bound is tighter than 5%, and a real 10% slow-down fails.
constexpr double kNotSlowerTolerance = 0.05;

struct DecisionPlan {
  int first_pairs = 9;    // at alpha 0.005 the extreme ratios bound the median from 8 pairs on
  int budget_pairs = 72;  // the stated budget: the pairs measured at most
  int looks = 3;          // first_pairs, then doubled, up to the budget
  double alpha = 0.005;
  // At least `reps` pairs first (the fixture's own count), budget 8x that; $CUCONFORM_PAIRS_BUDGET
  // raises or lowers the budget (at least the first look).
  static DecisionPlan for_reps(int reps);
  std::vector<int> stages() const;  // the pair counts at which the rule looks
};

// What the sampling saw, every pair kept.
struct SampledRatio {
  std::vector<double> first, second;  // the rates, pair by pair
  RatioBound bound;
  Decision decision = Decision::undecided;
  bool judged = false;           // a boundary was given (otherwise the first look only: recorded)
  double boundary = 0;
  std::vector<std::string> around;  // what `probe` said before the first pair and after each look
  double planted_slowdown = 0;      // $CUCONFORM_PLANT_SLOWDOWN (A/B runs), 0 otherwise
};

// Measures pairs (first then second, the order swapped every other pair so neither side always
// runs second) until the bound decides "ratio >= boundary" or the budget is spent; with no
// boundary, the first look only. `probe` (may be empty) reads the clocks: called before the
// first pair and after each look. $CUCONFORM_PLANT_SLOWDOWN=F (0 < F < 1) divides each rate of the
// first configuration by 1 + F, a planted slow-down of F for the A/B measurement of the rule's
// detection rate (ci/bench-verdicts.sh); the record says so.
SampledRatio sample_ratio(const std::function<double()>& first, const std::function<double()>& second, const DecisionPlan& plan,
                          const double* boundary, const std::function<std::string()>& probe = {});

// Reads $CUCONFORM_PLANT_SLOWDOWN: 0 when unset; throws std::invalid_argument when not in (0, 1).
double planted_slowdown_from_env();

}  // namespace cuconform
