#include "harness/spec/consumer_coverage.hpp"

#include <map>

namespace cuconform {

const char* to_string(ConsumerStatus s) {
  switch (s) {
    case ConsumerStatus::proved: return "proved";
    case ConsumerStatus::recorded: return "recorded";
    case ConsumerStatus::not_testable: return "not-testable";
    case ConsumerStatus::none: return "nothing";
  }
  return "?";
}

const std::array<ConsumerStatus, kConsumerStatuses>& all_consumer_statuses() {
  static const std::array<ConsumerStatus, kConsumerStatuses> all = {ConsumerStatus::proved, ConsumerStatus::recorded,
                                                                    ConsumerStatus::not_testable, ConsumerStatus::none};
  return all;
}

std::vector<ConsumerCoverage> compute_consumer_coverage(const Catalog& cat, const ConsumerIndex& index) {
  std::map<std::string, std::vector<const Rule*>> naming;
  for (auto& r : cat.rules)
    if (!r->planned)
      for (auto& id : r->relies) naming[id].push_back(r.get());
  std::vector<ConsumerCoverage> out;
  for (const Consumer& c : index.consumers) {
    ConsumerCoverage cc{&c, {}, {}};
    for (std::size_t at : c.behaviours) {
      const Behaviour& b = index.behaviours[at];
      BehaviourCoverage bc{&b, ConsumerStatus::none, {}};
      if (auto it = naming.find(b.id); it != naming.end()) bc.rules = it->second;
      // A toolchain observation or a self-check proves nothing a consumer relies on.
      for (const Rule* r : bc.rules) {
        if (r->basis == Basis::toolchain || r->basis == Basis::self_check) continue;
        ConsumerStatus s = r->kind == Kind::undefined ? ConsumerStatus::recorded : ConsumerStatus::proved;
        if (static_cast<int>(s) < static_cast<int>(bc.status)) bc.status = s;
      }
      // Not testable here wins: a rule gated to a GPU this fleet lacks exists, but proves nothing yet.
      if (!b.testable) bc.status = ConsumerStatus::not_testable;
      ++cc.counts[static_cast<std::size_t>(bc.status)];
      cc.behaviours.push_back(std::move(bc));
    }
    out.push_back(std::move(cc));
  }
  return out;
}

std::string consumer_summary(const std::vector<ConsumerCoverage>& c) {
  if (c.empty()) return "relied-upon behaviours: no consumer in the index (consumers/)";
  std::string s = "relied-upon behaviours:";
  for (std::size_t i = 0; i < c.size(); ++i) {
    s += (i ? "; " : " ") + c[i].consumer->id + " " + std::to_string(c[i].total()) + " (";
    for (ConsumerStatus st : all_consumer_statuses())
      s += std::string(st == ConsumerStatus::proved ? "" : ", ") + to_string(st) + " " + std::to_string(c[i].count(st));
    s += ")";
  }
  return s;
}

}  // namespace cuconform
