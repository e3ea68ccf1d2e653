// The decision rule of judged measurements (harness/util/decision_rule.hpp) on synthetic samples:
// a clear pass, a clear fail, a noisy case that ends inconclusive after the budget, the bounds
// themselves, and the case of issue 45 (ratio 0.86 +- 0.14 passed on one H200 and failed on the
// other): it can no longer pass.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <random>

#include "fixtures/common/rate_comparison.hpp"
#include "harness/util/decision_rule.hpp"

using namespace cuconform;

namespace {

// Rates around `centre` with relative noise `noise` (uniform), from a fixed seed.
struct Series {
  std::mt19937 gen;
  double centre, noise;
  Series(unsigned seed, double c, double n) : gen(seed), centre(c), noise(n) {}
  double operator()() { return centre * (1 + std::uniform_real_distribution<double>(-noise, noise)(gen)); }
};

struct EnvGuard {
  const char* name;
  explicit EnvGuard(const char* n, const char* v) : name(n) { setenv(n, v, 1); }
  ~EnvGuard() { unsetenv(name); }
};

}  // namespace

TEST_CASE("decision rule: the sign-test bound on the median ratio", "[host][decision-rule]") {
  CHECK(binomial_half_cdf(9, 0) == Approx(1.0 / 512));
  CHECK(binomial_half_cdf(9, 1) == Approx(10.0 / 512));
  CHECK(binomial_half_cdf(9, 9) == 1.0);
  CHECK(binomial_half_cdf(9, -1) == 0.0);
  // Nine pairs: at alpha 0.005 the bound is the smallest and the largest ratio (coverage 1 - 2/512).
  const std::vector<double> a = {0.90, 0.95, 1.00, 1.05, 1.10, 0.97, 1.02, 0.99, 1.01}, b(9, 1.0);
  RatioBound r = paired_ratio_bound(a, b, 0.005);
  CHECK(r.bounded());
  CHECK(r.order == 1);
  CHECK(r.lo == Approx(0.90));
  CHECK(r.hi == Approx(1.10));
  CHECK(r.median == Approx(1.00));
  CHECK(r.coverage == Approx(1 - 2.0 / 512));
  // Seven pairs cannot bound the median at alpha 0.005 (2^-7 > 0.005): unbounded, never decided.
  r = paired_ratio_bound(std::vector<double>(a.begin(), a.begin() + 7), std::vector<double>(7, 1.0), 0.005);
  CHECK_FALSE(r.bounded());
  CHECK(decide_at_least(r, 0.5) == Decision::undecided);
  // 36 pairs: the bound moves inwards to the largest k whose miss probability P(X <= k - 1) is
  // still <= alpha (k = 10), and each side misses with at most alpha.
  std::vector<double> many, ones(36, 1.0);
  for (int i = 0; i < 36; ++i) many.push_back(0.8 + 0.01 * i);
  r = paired_ratio_bound(many, ones, 0.005);
  CHECK(r.order == 10);
  CHECK(binomial_half_cdf(36, r.order - 1) <= 0.005);
  CHECK(binomial_half_cdf(36, r.order) > 0.005);
  CHECK(r.lo == Approx(many[static_cast<size_t>(r.order - 1)]));
  CHECK(r.hi == Approx(many[static_cast<size_t>(36 - r.order)]));
  // A rate of 0 (a launch that gave up) counts as ratio 0, never as a fast pair.
  r = paired_ratio_bound(std::vector<double>(9, 0.0), b, 0.005);
  CHECK(r.hi == 0.0);
}

TEST_CASE("decision rule: three outcomes, more pairs only while undecided", "[host][decision-rule]") {
  const DecisionPlan plan = DecisionPlan::for_reps(7);
  CHECK(plan.first_pairs == 9);
  CHECK(plan.budget_pairs == 72);
  CHECK(plan.stages() == std::vector<int>{9, 18, 72});
  const double boundary = not_slower_boundary(1.0);
  CHECK(boundary == Approx(0.95));

  SECTION("clear pass: equal configurations with 1% noise pass at the first look") {
    Series a(1, 100, 0.01), b(2, 100, 0.01);
    const SampledRatio s = sample_ratio(std::ref(a), std::ref(b), plan, &boundary);
    CHECK(s.decision == Decision::pass);
    CHECK(s.first.size() == 9);
  }
  SECTION("clear fail: 14% slower with 1% noise fails at the first look") {
    Series a(3, 86, 0.01), b(4, 100, 0.01);
    const SampledRatio s = sample_ratio(std::ref(a), std::ref(b), plan, &boundary);
    CHECK(s.decision == Decision::fail);
    CHECK(s.bound.hi < 0.95);
    CHECK(s.first.size() == 9);
  }
  SECTION("noisy, the truth near the boundary: more pairs, then undecided after the budget") {
    Series a(5, 95, 0.30), b(6, 100, 0.30);
    const SampledRatio s = sample_ratio(std::ref(a), std::ref(b), plan, &boundary);
    CHECK(s.decision == Decision::undecided);
    CHECK(s.first.size() == 72);
    CHECK(s.bound.lo < 0.95);
    CHECK(s.bound.hi >= 0.95);
  }
  SECTION("no boundary (recorded comparisons): the first look only") {
    Series a(7, 95, 0.30), b(8, 100, 0.30);
    const SampledRatio s = sample_ratio(std::ref(a), std::ref(b), plan, nullptr);
    CHECK_FALSE(s.judged);
    CHECK(s.first.size() == 9);
  }
}

TEST_CASE("decision rule: the issue-45 case (ratio 0.86, spread 0.03 on one GPU, 0.14 on the other) never passes",
          "[host][decision-rule]") {
  const double boundary = not_slower_boundary(1.0);
  for (unsigned seed = 0; seed < 50; ++seed) {
    Series tight_a(100 + seed, 86.2, 0.03), tight_b(200 + seed, 100, 0.001);
    Series wide_a(300 + seed, 86.2, 0.14), wide_b(400 + seed, 100, 0.001);
    const SampledRatio tight = sample_ratio(std::ref(tight_a), std::ref(tight_b), DecisionPlan::for_reps(7), &boundary);
    const SampledRatio wide = sample_ratio(std::ref(wide_a), std::ref(wide_b), DecisionPlan::for_reps(7), &boundary);
    INFO("seed " << seed);
    CHECK(tight.decision == Decision::fail);
    CHECK(wide.decision != Decision::pass);  // more pairs, then fail (or inconclusive): the same side
  }
}

TEST_CASE("decision rule: a planted 10% slow-down of equal configurations fails", "[host][decision-rule]") {
  const double boundary = not_slower_boundary(1.0);
  EnvGuard plant("CUCONFORM_PLANT_SLOWDOWN", "0.10");
  Series a(11, 100, 0.02), b(12, 100, 0.02);
  const SampledRatio s = sample_ratio(std::ref(a), std::ref(b), DecisionPlan::for_reps(7), &boundary);
  CHECK(s.planted_slowdown == Approx(0.10));
  CHECK(s.decision == Decision::fail);
  CHECK(s.bound.median == Approx(1 / 1.1).epsilon(0.03));
}

TEST_CASE("decision rule: bad environment values are refused, not guessed", "[host][decision-rule]") {
  {
    EnvGuard plant("CUCONFORM_PLANT_SLOWDOWN", "1.5");
    CHECK_THROWS_AS(planted_slowdown_from_env(), std::invalid_argument);
  }
  {
    EnvGuard plant("CUCONFORM_PLANT_SLOWDOWN", "abc");
    CHECK_THROWS_AS(planted_slowdown_from_env(), std::invalid_argument);
  }
  {
    EnvGuard budget("CUCONFORM_PAIRS_BUDGET", "-3");
    CHECK_THROWS_AS(DecisionPlan::for_reps(7), std::invalid_argument);
  }
  {
    EnvGuard budget("CUCONFORM_PAIRS_BUDGET", "100");
    CHECK(DecisionPlan::for_reps(7).stages() == std::vector<int>{9, 18, 100});
  }
}

TEST_CASE("decision rule: an undecided comparison is judged inconclusive, with its bound; never passed",
          "[host][decision-rule]") {
  Series a(21, 95, 0.30), b(22, 100, 0.30);
  const RateComparison c = compare_rates(std::ref(a), std::ref(b), 7, not_slower_boundary(1.0));
  Observation o;
  c.judge(o, "first not slower than second", "rates");
  CHECK(o.verdict == Verdict::inconclusive);
  CHECK_FALSE(is_failure(o.verdict));
  CHECK(o.reason.find("straddles 0.95") != std::string::npos);
  CHECK(o.fact_value("decision") == "undecided");
  // A failed check beside the rate fails whatever the bound.
  Observation o2;
  c.judge(o2, "first not slower than second", "rates", false);
  CHECK(o2.verdict == Verdict::fail);
  // A clear pass states its bound.
  Series p(23, 100, 0.01), q(24, 100, 0.01);
  const RateComparison d = compare_rates(std::ref(p), std::ref(q), 7, not_slower_boundary(1.0));
  Observation o3;
  d.judge(o3, "first not slower than second", "rates");
  CHECK(o3.verdict == Verdict::pass);
  bool has_lo = false;
  for (auto& [k, v] : o3.measurements) has_lo = has_lo || k == "ratio_lo";
  CHECK(has_lo);
}
