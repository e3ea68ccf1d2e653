// cuconform: the conformance suite's command line.
#include <functional>
#include <iostream>
#include <map>

#include "cli/verbs.hpp"
#include "harness/runner/worker.hpp"

using namespace cuconform;

static const char* kUsage = R"(usage: cuconform <verb> [options]

  list     [filters] [--cc X.Y]         the cases, with their gates (--cc: plan for another GPU)
  run      [filters] [--out DIR] [--json FILE] [--junit FILE] [--rerun N] [--codegen PATH]
           [--jobs N] [--known FILE] [--timing] [--verbose] [--isolated-beside]
           [--devices all|0,2|GPU-UUID,...] [--shuffle SEED|nightly]
                                        run on the local GPU; reports go to DIR (default results/);
                                        --known FILE: the recorded findings its summary counts the
                                        failures against (default: $CUCONFORM_KNOWN, else the
                                        ci/baselines/known.yaml beside the specs); the exit code
                                        does not change
                                        --rerun N: re-run failures up to N times (a later pass = flake)
                                        --codegen sass|jit|ptxas=FILE: the code path under test: the
                                        SASS nvcc embedded (default), the driver's JIT of the embedded
                                        PTX, or that PTX assembled by another ptxas
                                        --jobs N: GPU lanes side by side for shared cases (default: from
                                        the GPU's SMs, memory and the CPU cores, at most 8;
                                        $CUCONFORM_JOBS); cases that time something get the GPU to
                                        themselves, isolated cases run one at a time, last, with
                                        nothing else on the GPU (--isolated-beside: beside the
                                        lanes; faster, and unsafe: twice a fault beside running
                                        work left an H100 needing a reset)
                                        --timing: where the run's time went, and the 20 slowest rules
                                        --devices (or $CUCONFORM_DEVICES): every chosen GPU at once,
                                        a results file per GPU (DIR/results.gpuN.json) and the
                                        node's matrix (DIR/node.json); host-only cases run once
                                        --shuffle SEED|nightly: the cases in an order drawn from SEED
                                        (nightly: a new seed, recorded in the results)
  lint                                  validate specs/ (and statements/, tables/) strictly
  device   [--devices SEL]              every GPU (identity, CC, SMs, memory, peer access); the
                                        driver, the toolkit and archs built in
  health   [--devices SEL] [--format text|json]   each GPU's state now (clocks, throttling,
                                        temperature, power, ECC, remapped rows); exit 4 when
                                        one needs attention before a run (pending/failed remap)
  fixtures                              the fixtures specs can name
  errata   [filters]                    the documents' mistakes: what each example says, what is wrong, the fix, the evidence
  coverage [--format text|md|json] [--summary]   the documents' statements (statements/) that the
                                        rules prove, record, plan, or that are marked not-testable
           --tables                     the rule-table audit (tables/): per documented table, rows
                                        run on the GPU / assembled / rejected / not-testable /
                                        planned / gap (no rule yet), then the gap rows
  report   RESULTS.json [--html F] [--md F] [--known FILE]   human reports of a results (or fleet) file
  compare  BASE.json NEW.json [--known FILE] [--tolerance X] [--md FILE] [--gate-time]
                                        what changed; exit 1 on regressions (a wall time 25% above
                                        BASE's is reported, and a regression with --gate-time)
  merge    A.json B.json ... -o OUT.json                     one fleet matrix from several runs
  bisect   RESULTS.json CASE [--devices SEL]   the earlier case that changes CASE's verdict or
                                        recorded category in RESULTS (a shuffled run compare
                                        flagged): its worker's predecessors replayed and halved
  history  add RESULTS.json...          store runs in the history database (--db PATH or
                                        postgresql://...; default $CUCONFORM_HISTORY_DB, else
                                        results/history.sqlite); the same run twice is stored once
           runs | changes | flaky | trend [CASE [MEASUREMENT]]   [--format text|md|json]
                                        [--config GLOB] [--last N] [--window N] [--min-flips K]
           report --html FILE           timeline grid, trend plots, changes, flaky cases
  compare/report ... --history DB [--last N]   compare: tolerances from the last N runs of NEW's
                                        configuration (median/MAD, Mann-Kendall); report: + history

filters (every verb that lists or runs): --area A  --rule GLOB  --tag T  --kind K
                                         --profile smoke (one case per rule, for every commit)
every verb: --specs DIR (default: the specs the executable was built with)
exit codes: 0 ok, 1 something failed, 2 bad input, 3 no case could run on a GPU,
            4 a GPU became unhealthy during the run (its remaining cases not-run)
)";

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return kExitBadInput;
  }
  std::string verb = argv[1];
  if (verb == kWorkerVerb) return worker_main(argc, argv);
  if (verb == "help" || verb == "--help" || verb == "-h") {
    std::cout << kUsage;
    return kExitOk;
  }
  struct Entry {
    VerbSpec spec;
    std::function<int(const Options&)> fn;
  };
  std::map<std::string, Entry> verbs = {
      {"list", {{{"--cc"}, {}, true}, cmd_list}},
      {"run", {{{"--out", "--json", "--junit", "--rerun", "--codegen", "--jobs", "--known", "--devices", "--shuffle"}, {"--verbose", "--timing", "--isolated-beside"}, true}, cmd_run}},
      {"lint", {{{}, {}, false}, cmd_lint}},
      {"device", {{{"--devices"}, {}, false}, cmd_device}},
      {"health", {{{"--devices", "--format"}, {}, false}, cmd_health}},
      {"fixtures", {{{}, {}, false}, cmd_fixtures}},
      {"errata", {{{}, {}, true}, cmd_errata}},
      {"coverage", {{{"--format"}, {"--summary", "--tables"}, false}, cmd_coverage}},
      {"report", {{{"--html", "--md", "--known", "--history", "--last"}, {}, false, 1, 1}, cmd_report}},
      {"compare", {{{"--known", "--tolerance", "--md", "--history", "--last"}, {"--gate-time"}, false, 2, 2}, cmd_compare}},
      {"merge", {{{"-o"}, {}, false, 1, 100000}, cmd_merge}},
      {"bisect", {{{"--devices"}, {}, false, 2, 2}, cmd_bisect}},
      {"history", {{{"--db", "--format", "--config", "--last", "--window", "--min-flips", "--html"}, {}, false, 0, 1000000}, cmd_history}},
  };
  auto it = verbs.find(verb);
  if (it == verbs.end()) {
    std::cerr << "cuconform: unknown verb '" << verb << "'\n\n" << kUsage;
    return kExitBadInput;
  }
  Options o;
  std::string error;
  if (!parse_options(verb, it->second.spec, argc, argv, &o, &error)) {
    std::cerr << "cuconform " << verb << ": " << error << "\n";
    return kExitBadInput;
  }
  return it->second.fn(o);
}
