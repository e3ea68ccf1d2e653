#pragma once
// How much of what the consumers rely on the specs prove (coverage --consumers): each behaviour
// of the relied-upon index is proved (an active judged rule names it in `relies:`), recorded
// (named only by active rules of kind undefined), not-testable here (the index says why: an
// sm_100 GPU, eight GPUs; the gated rules that name it are listed) or has nothing.
#include <array>
#include <string>
#include <vector>

#include "harness/spec/consumers.hpp"

namespace cuconform {

enum class ConsumerStatus { proved, recorded, not_testable, none };
constexpr std::size_t kConsumerStatuses = 4;
const char* to_string(ConsumerStatus s);  // "proved", "recorded", "not-testable", "nothing"
const std::array<ConsumerStatus, kConsumerStatuses>& all_consumer_statuses();

struct BehaviourCoverage {
  const Behaviour* behaviour;
  ConsumerStatus status;
  std::vector<const Rule*> rules;  // the rules naming it (active ones; planned ones never prove)
};

struct ConsumerCoverage {
  const Consumer* consumer;
  std::array<int, kConsumerStatuses> counts{};
  std::vector<BehaviourCoverage> behaviours;  // index order
  int count(ConsumerStatus s) const { return counts[static_cast<std::size_t>(s)]; }
  int total() const { return static_cast<int>(behaviours.size()); }
};

std::vector<ConsumerCoverage> compute_consumer_coverage(const Catalog& cat, const ConsumerIndex& index);
// "relied-upon behaviours: cutlass 52 (proved 46, recorded 1, not-testable 5, nothing 0); ..." for --summary.
std::string consumer_summary(const std::vector<ConsumerCoverage>& c);

}  // namespace cuconform
