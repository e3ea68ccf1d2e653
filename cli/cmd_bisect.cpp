// cuconform bisect RESULTS CASE [--devices SEL]: the earlier case that changes CASE's verdict or
// recorded category. RESULTS is the run where CASE behaved otherwise (a shuffled run that
// `compare` flagged): the cases that ran before CASE in its worker process are replayed in front
// of it, in one worker on the GPU, halving them until the one that does it is left.
#include <algorithm>
#include <iostream>
#include <map>
#include <tuple>

#include "cli/verbs.hpp"
#include "harness/driver/gpu_list.hpp"
#include "harness/runner/bisect.hpp"
#include "harness/runner/supervisor.hpp"
#include "harness/spec/catalog.hpp"
#include "reporters/compare.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {
namespace {

int cmd_bisect(const Options& o) {
  const std::string& file = o.positional[0];
  const std::string& target = o.positional[1];
  Fleet f;
  try {
    f = load_results(file);
  } catch (const std::exception& e) {
    std::cerr << "cuconform bisect: " << e.what() << "\n";
    return kExitBadInput;
  }
  const CaseRow* row = f.find(target);
  if (!row || row->by_run.empty() || !row->by_run[0]) {
    std::cerr << "cuconform bisect: " << file << " has no result for " << target << "\n";
    return kExitBadInput;
  }
  const Outcome& t = *row->by_run[0];
  if (t.worker == 0) {
    std::cerr << "cuconform bisect: " << file << " does not record which worker ran each case (a run before bisect existed)\n";
    return kExitBadInput;
  }
  std::vector<std::pair<int, std::string>> before;
  for (const CaseRow& c : f.cases)
    if (!c.by_run.empty() && c.by_run[0] && c.by_run[0]->worker == t.worker && c.by_run[0]->order < t.order)
      before.emplace_back(c.by_run[0]->order, c.name);
  std::sort(before.begin(), before.end());
  std::vector<std::string> predecessors;
  for (auto& [k, name] : before) predecessors.push_back(name);

  Catalog cat;
  if (!load_or_report(o, &cat)) return kExitBadInput;
  if (!cat.find_case(target)) {
    std::cerr << "cuconform bisect: the specs have no case " << target << "\n";
    return kExitBadInput;
  }
  std::string why;
  std::vector<NodeGpu> gpus = list_gpus(&why), picked;
  if (!gpus.empty() && !select_gpus(o.get("--devices", std::to_string(gpus.front().ordinal)), gpus, &picked, &why)) {
    std::cerr << "cuconform bisect: " << why << "\n";
    return kExitBadInput;
  }
  SuperviseOptions so;
  so.specs_dir = cat.dir;
  so.one_worker = true;
  if (!picked.empty()) so.worker_env = {"CUCONFORM_DEVICE=0", "CUDA_VISIBLE_DEVICES=" + picked.front().uuid};
  std::cout << "bisect " << target << " (" << to_string(t.verdict) << " in " << file << "): " << predecessors.size()
            << " case(s) ran before it in worker " << t.worker << "\n";
  const ReplayFn replay = [&](const std::vector<std::string>& names) {
    std::vector<const Case*> list;
    for (auto& n : names)
      if (const Case* c = cat.find_case(n)) list.push_back(c);
    SuperviseOutcome out = supervise(list, so);
    if (out.finished.empty() || !out.finished.back()) return std::string("no result");
    const Observation& obs = out.results.back().obs;
    const std::string cat_ = outcome_category(obs.fact_value("outcome"));
    const std::string r = std::string(to_string(obs.verdict)) + (cat_.empty() ? "" : ": " + cat_);
    std::cout << "  " << names.size() - 1 << " before it: " << r << "\n";
    return r;
  };
  const BisectResult b = bisect_order(target, predecessors, replay);
  std::cout << b.summary << "\n";
  if (!b.reproduced) return kExitOk;
  return kExitFailed;  // an order dependence: a finding or a harness bug
}

}  // namespace

const VerbRegistration kBisectVerb(
    "bisect", "the earlier case that changes a case's verdict or recorded category (an order dependence)", cmd_bisect,
    [](Verb& v) {
      v.args(2, 2, "RESULTS.json CASE")
          .about("RESULTS is the run where CASE behaved otherwise (a shuffled run that compare flagged): the cases "
                 "that ran before CASE in its worker process are replayed in front of it, in one worker, halving them "
                 "until the one that does it is left. Exit 0: not reproduced, 1: the earlier case is named, 2: bad input.")
          .value("--devices", "0|GPU-UUID", "the GPU to replay on (default: the first)");
    });

}  // namespace cuconform
