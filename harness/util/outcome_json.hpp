#pragma once
// The fields every serialised case result shares (worker protocol, results file, fleet file):
// verdict, reason, expected, observed, measurements, facts. O is an Observation or a
// results-file Outcome; both name these members alike.
#include "harness/fixture/observation.hpp"
#include "harness/util/json_read.hpp"
#include "harness/util/json_write.hpp"

namespace cuconform {

template <class O>
void write_outcome_fields(Json& j, const O& o) {
  j["verdict"] = to_string(o.verdict);
  j["reason"] = o.reason;
  j["expected"] = o.expected;
  j["observed"] = o.observed;
  Json& m = j["measurements"] = Json::object();
  for (auto& [k, v] : o.measurements) m[k] = json_number(v);
  Json& f = j["facts"] = Json::object();
  for (auto& [k, v] : o.facts) f[k] = v;
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
