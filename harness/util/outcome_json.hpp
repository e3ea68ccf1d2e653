#pragma once
// The fields every serialised case result shares (worker protocol, results file, fleet file):
// verdict, reason, expected, observed, measurements, facts. O is an Observation or a
// results-file Outcome; both name these members alike.
#include "harness/fixture/observation.hpp"
#include "harness/util/json.hpp"

namespace cuconform {

template <class O>
void write_outcome_fields(JsonWriter& w, const O& o) {
  w.field("verdict", to_string(o.verdict)).field("reason", o.reason);
  w.field("expected", o.expected).field("observed", o.observed);
  w.key("measurements").begin_object();
  for (auto& [k, v] : o.measurements) w.field(k, v);
  w.end_object();
  w.key("facts").begin_object();
  for (auto& [k, v] : o.facts) w.field(k, v);
  w.end_object();
}

}  // namespace cuconform
