#pragma once
// The fields every serialised case result shares (worker protocol, results file, fleet file):
// verdict, reason, expected, observed, measurements, facts. O is an Observation or a
// results-file Outcome; both name these members alike.
#include "harness/fixture/observation.hpp"
#include "harness/util/json_ordered_parse.hpp"
#include "harness/util/json_read.hpp"
#include "harness/util/json_write.hpp"

namespace cuconform {

template <class O>
void write_outcome_fields(Json& j, const O& o) {
  j["verdict"] = to_string(o.verdict);
  j["reason"] = o.reason;
  j["expected"] = o.expected;
  j["observed"] = o.observed;
  std::vector<std::pair<std::string, Json>> m, f;  // appended, not looked up: linear in their number
  for (auto& [k, v] : o.measurements) m.emplace_back(k, json_number(v));
  for (auto& [k, v] : o.facts) f.emplace_back(k, v);
  j["measurements"] = ordered_object(std::move(m));
  j["facts"] = ordered_object(std::move(f));
}

// Measurements read back NaN where the file has null; a fact that is not a string reads as
// its JSON text.
template <class O>
void read_outcome_fields(const JsonField& j, O* o) {
  JsonField v = j["verdict"];
  if (!parse_verdict(v.required().str(), &o->verdict))
    v.fail("unknown verdict '" + v.str() + "' (pass, fail, not-supported, timeout, crash, planned, flake, recorded)");
  o->reason = j["reason"].str();
  o->expected = j["expected"].str();
  o->observed = j["observed"].str();
  for (auto& [k, m] : j["measurements"].members()) o->measurements.emplace_back(k, m.num());
  for (auto& [k, f] : j["facts"].members()) o->facts.emplace_back(k, f.text());
}

}  // namespace cuconform
