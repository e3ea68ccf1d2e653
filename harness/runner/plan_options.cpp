#include <cstdlib>
#include <string>

#include "harness/runner/plan.hpp"
#include "harness/runner/supervisor.hpp"

namespace cuconform {
namespace {

bool yes_no(const char* name, bool* out, std::string* error) {
  const char* v = std::getenv(name);
  if (!v) return true;
  const std::string s = v;
  if (s != "0" && s != "1") {
    *error = std::string("$") + name + " takes 0 or 1, not '" + s + "'";
    return false;
  }
  *out = s == "1";
  return true;
}

bool whole_number(const char* name, int lo, int hi, int* out, std::string* error) {
  const char* v = std::getenv(name);
  if (!v) return true;
  const std::string s = v;
  const bool digits = !s.empty() && s.size() <= 3 && s.find_first_not_of("0123456789") == std::string::npos;
  const int n = digits ? std::stoi(s) : -1;
  if (n < lo || n > hi) {
    *error = std::string("$") + name + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + s + "'";
    return false;
  }
  *out = n;
  return true;
}

}  // namespace

bool plan_options_from_env(PlanOptions* o, std::string* error) {
  auto note = [&](const char* name) {
    if (std::getenv(name)) o->sources.emplace_back(name, std::string("$") + name);
  };
  if (!yes_no("CUCONFORM_PRESTART", &o->prestart, error)) return false;
  note("CUCONFORM_PRESTART");
  if (const char* p = std::getenv("CUCONFORM_PRESTART_DEPTH")) {
    const int d = std::atoi(p);
    if (d < 1 || d > 16 || std::string(p).find_first_not_of("0123456789") != std::string::npos) {
      *error = std::string("$CUCONFORM_PRESTART_DEPTH takes a whole number from 1 to 16, not '") + p + "'";
      return false;
    }
    o->prestart_depth = d;
  }
  note("CUCONFORM_PRESTART_DEPTH");
  if (!whole_number("CUCONFORM_LANE_CHUNKS", 1, 4, &o->lane_chunks, error)) return false;
  note("CUCONFORM_LANE_CHUNKS");
  if (!whole_number("CUCONFORM_HOST_LANES", 1, 64, &o->host_lanes, error)) return false;
  note("CUCONFORM_HOST_LANES");
  if (!whole_number("CUCONFORM_HOST_LANES_LATE", 1, 64, &o->host_lanes_late, error)) return false;
  note("CUCONFORM_HOST_LANES_LATE");
  if (!yes_no("CUCONFORM_BATCH_RECORDS", &o->records_share, error)) return false;
  note("CUCONFORM_BATCH_RECORDS");
  if (!yes_no("CUCONFORM_FAULTS_SHARE", &o->faults_share, error)) return false;
  note("CUCONFORM_FAULTS_SHARE");
  bool alone = true;
  if (!yes_no("CUCONFORM_ISOLATED_ALONE", &alone, error)) return false;
  o->isolated_alone = o->isolated_alone && alone;
  note("CUCONFORM_ISOLATED_ALONE");
  return true;
}

void apply_plan_options(const PlanOptions& o, SuperviseOptions* so) {
  so->gpu_lanes = o.gpu_lanes;
  so->host_lanes = o.host_lanes;
  so->host_lanes_late = o.host_lanes_late;
  so->prestart_isolated = o.prestart;
  so->prestart_depth = o.prestart_depth;
  so->lane_chunks = o.lane_chunks;
  so->records_share_workers = o.records_share;
  so->faults_share_workers = o.faults_share;
  so->isolated_alone = o.isolated_alone;
  so->shuffle = !o.shuffle_seed.empty();
  so->shuffle_seed = o.shuffle_seed.empty() ? 0 : std::stoull(o.shuffle_seed);
}

PlanOptions plan_options_of(const SuperviseOptions& so) {
  PlanOptions o;
  o.gpu_lanes = so.gpu_lanes;
  o.host_lanes = so.host_lanes;
  o.host_lanes_late = so.host_lanes_late;
  o.host_beside_gpu = so.host_late_go != nullptr;
  o.prestart = so.prestart_isolated;
  o.prestart_depth = so.prestart_depth;
  o.lane_chunks = so.lane_chunks;
  o.records_share = so.records_share_workers;
  o.faults_share = so.faults_share_workers;
  o.isolated_alone = so.isolated_alone;
  o.shuffle_seed = so.shuffle ? std::to_string(so.shuffle_seed) : std::string();
  // reruns stay 0: a GPU's executor runs no re-runs; the node run does (NodeRunOptions::reruns).
  return o;
}

}  // namespace cuconform
