// The verbs that read results files back (reporters/README.md):
//   report  RESULTS.json [--html F] [--md F] [--known K] [--history DB]   0 written, 2 bad input
//   compare BASE.json NEW.json [--known K] [--tolerance X] [--md F] [--history DB [--last N]]
//                                                               0 no regression, 1 regression or not judged, 2 bad input
//   merge   A.json B.json ... -o OUT.json                       0 written, 2 bad input
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/verbs.hpp"
#include "harness/util/output_file.hpp"
#include "harness/spec/coverage.hpp"
#include "history/html.hpp"
#include "history/judge.hpp"
#include "history/schema.hpp"
#include "history/store.hpp"
#include "reporters/compare.hpp"
#include "reporters/contract_compare.hpp"
#include "reporters/manifest.hpp"
#include "reporters/tier_summary.hpp"
#include "reporters/waivers.hpp"
#include "reporters/coverage_report.hpp"
#include "reporters/html_report.hpp"
#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"
#include "reporters/results_json.hpp"

namespace cuconform {

namespace {

// The specs' coverage of the documents' statements (from the specs and statements/, not from the
// results): absent when there is no statement index or the specs do not load.
std::optional<CoverageReport> coverage_of_specs(const Options& o, Catalog* cat, StatementIndex* idx) {
  const std::string dir = specs_dir_of(o);
  *cat = load_catalog(dir);
  *idx = load_statements(statements_dir_for(dir));
  if (!cat->ok() || !idx->available || !idx->errors.empty() || !unknown_statement_refs(*cat, *idx).empty()) return std::nullopt;
  return compute_coverage(*cat, *idx);
}

int report(const Options& o) {
  const std::string& in = o.positional[0];
  Fleet f = load_results(in);
  for (auto& r : f.runs)
    if (!r.has_device) std::cerr << "cuconform report: " << r.file << ": no device section: the report shows it as an unknown device\n";
  std::string html = o.get("--html"), md = o.get("--md");
  // Which known list: on stdout beside the files written, on stderr when a report itself goes to stdout.
  const bool report_on_stdout = (html.empty() && md.empty()) || (!md.empty() && !output_replaces_file(md)) ||
                                (!html.empty() && !output_replaces_file(html));
  // (A report on stdout keeps it clean: the line goes to stderr, and only when there is a list.)
  std::ostream* say = !report_on_stdout ? &std::cout : known_list_path(o, specs_dir_of(o)).empty() ? nullptr : &std::cerr;
  auto known = load_known_list(o, specs_dir_of(o), say);
  const KnownList* k = known ? &*known : nullptr;
  Catalog cat;
  StatementIndex idx;
  auto cov = coverage_of_specs(o, &cat, &idx);
  std::string cov_md = cov ? "\n" + coverage_markdown(*cov, false) : "", cov_html = cov ? coverage_html(*cov) : "";
  // The contract's sections (docs/contract.md): verdicts by tier, the waivers the run used.
  cov_md = tier_summary_markdown(f) + (k ? waivers_markdown(*k, f) : "") + cov_md;
  cov_html = tier_summary_html(f) + (k ? waivers_html(*k, f) : "") + cov_html;
  if (o.has("--history") && f.runs.size() == 1) {  // the history of this run's configuration, before the coverage
    QueryOptions q;
    std::string error;
    if (!history_query_options(o, &q, &error)) throw ResultsError(error);
    q.config_glob = glob_quote(run_identity(f.runs[0]).config_label());
    auto db = open_history(o.get("--history"), DbMode::read);
    cov_html = history_html_sections(*db, q) + cov_html;
  }
  if (html.empty() && md.empty()) {  // nothing asked: the summary on stdout (>> $GITHUB_STEP_SUMMARY)
    std::cout << markdown_report(f, k, in, "") << cov_md;
    return kExitOk;
  }
  if (!html.empty()) write_file_atomically(html, html_report(f, k, in, cov_html));
  if (!md.empty()) write_file_atomically(md, markdown_report(f, k, in, html) + cov_md);
  // Where a report went to stdout (--md -, /dev/stdout), no line after it says so.
  if (!html.empty() && !writes_to_stdout(html)) std::cout << "html: " << html << "\n";
  if (!md.empty() && !writes_to_stdout(md)) std::cout << "md:   " << md << "\n";
  return kExitOk;
}

Fleet single_run(const std::string& path) {
  Fleet f = load_results(path);
  if (f.schema != kResultsSchema)
    throw ResultsError(path + ": compare takes results files (" + kResultsSchema + "), this is " + f.schema);
  // A run of no case judges nothing: refused, never compared to green.
  if (f.cases.empty()) throw ResultsError(path + ": no case in it: a run that ran nothing cannot be compared");
  return f;
}

// --gate-tier core,extended: the tiers whose regressions gate (default: every tier).
std::vector<std::string> split_tiers(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string t = text.substr(start, comma - start);
    Tier parsed;
    if (!parse_tier(t, &parsed)) throw ResultsError("--gate-tier takes core, extended or informational (comma-separated), not '" + t + "'");
    out.push_back(t);
    start = comma + 1;
  }
  return out;
}

int compare(const Options& o) {
  Fleet now = single_run(o.positional[1]);
  // BASE may be a folder of baselines: the one of the same GPU model, driver and code path.
  std::string base_path = o.positional[0];
  if (std::filesystem::is_directory(base_path)) {
    std::string why;
    base_path = pick_baseline(base_path, now, &why);
    if (base_path.empty()) {
      std::cout << "compare: " << why << "; nothing to compare with (add one: cp NEW.json " << o.positional[0] << "/)\n";
      return kExitOk;
    }
    std::cout << "baseline: " << base_path << " (" << why << ")\n";
  }
  Fleet base = single_run(base_path);
  auto known = load_known_list(o, specs_dir_of(o), &std::cout);
  Tolerances tol;
  std::string error;
  if (o.has("--tolerance") && !tol.parse(o.get("--tolerance"), &error)) {
    std::cerr << "cuconform compare: " << error << "\n";
    return kExitBadInput;
  }
  // --history DB: NEW's measurements against the spread of its configuration's last runs.
  std::unique_ptr<Db> db;
  std::unique_ptr<HistoryJudge> judge;
  if (o.has("--history")) {
    QueryOptions q;
    if (!history_query_options(o, &q, &error)) throw ResultsError(error);
    db = open_history(o.get("--history"), DbMode::read);
    judge = std::make_unique<HistoryJudge>(*db, now, q);
  }
  CompareResult r = compare_runs(base, now, known ? &*known : nullptr, tol, judge.get());
  r.gate_time = o.has("--gate-time");
  ContractOptions contract{split_tiers(o.get("--gate-tier")), releases_dir_beside(specs_dir_of(o))};
  apply_contract(base, now, known ? &*known : nullptr, contract, &r);
  std::cout << compare_text(r);
  if (known) std::cout << waivers_text(*known, now);
  if (o.has("--md")) write_file_atomically(o.get("--md"), compare_markdown(r));
  return r.regressions() ? kExitFailed : kExitOk;
}

int merge(const Options& o) {
  if (!o.has("-o")) {
    std::cerr << "cuconform merge: -o OUT.json is required\n";
    return kExitBadInput;
  }
  std::vector<Fleet> parts;
  for (auto& p : o.positional) parts.push_back(load_results(p));
  Fleet f = merge_fleets(parts);
  write_file_atomically(o.get("-o"), fleet_json(f));
  std::cout << "merged " << f.runs.size() << " run(s), " << f.cases.size() << " case(s) into " << o.get("-o") << "\n";
  for (std::size_t i = 0; i < f.runs.size(); ++i)
    std::cout << "  D" << i + 1 << " " << f.runs[i].label << ": " << f.runs[i].device_line() << "\n";
  return kExitOk;
}

// Bad input of any kind (unreadable file, bad JSON with FILE:LINE, bad known list, an
// output that cannot be written) is exit 2 with one message on stderr.
int guarded(const char* verb, int (*fn)(const Options&), const Options& o) {
  try {
    return fn(o);
  } catch (const std::exception& e) {
    std::cerr << "cuconform " << verb << ": " << e.what() << "\n";
    return kExitBadInput;
  }
}

int cmd_report(const Options& o) { return guarded("report", report, o); }
int cmd_compare(const Options& o) { return guarded("compare", compare, o); }
int cmd_merge(const Options& o) { return guarded("merge", merge, o); }

}  // namespace

constexpr const char* kKnownHelp =
    "the known failures, flakes and measurement tolerances (default: $CUCONFORM_KNOWN, else ci/baselines/known.yaml "
    "beside the specs, as for run; '' for none); the output names the file";

const VerbRegistration kReportVerb("report", "human reports of a results (or fleet) file: HTML, Markdown", cmd_report, [](Verb& v) {
  v.args(1, 1, "RESULTS.json")
      .about("With neither --html nor --md the Markdown summary goes to stdout (>> $GITHUB_STEP_SUMMARY).")
      .value("--html", "FILE", "a self-contained HTML page", ValueHint::file)
      .value("--md", "FILE", "a Markdown summary", ValueHint::file)
      .value("--known", "FILE", kKnownHelp, ValueHint::file)
      .value("--history", "DB", "add the history of the run's configuration from this database (SQLite file or postgresql://...)",
             ValueHint::file)
      .value("--last", "N", "with --history: the last N runs");
});

const VerbRegistration kCompareVerb("compare", "what changed between two runs; exit 1 on regressions", cmd_compare, [](Verb& v) {
  v.args(2, 2, "BASE NEW")
      .about("BASE is a results file or a folder of baselines (ci/baselines: the one of NEW's GPU model, code path and "
             "driver). Exit 0: no regression, 1: a new failure, lost coverage or a measurement moved beyond its "
             "tolerance (known failures and flakes do not gate), or NEW did not judge what BASE judged (cases not-run, "
             "missing or cut off; NEW cut off, its GPU unhealthy or absent), 2: bad input (a results file with no case, "
             "a baseline that does not read).")
      .value("--known", "FILE", kKnownHelp, ValueHint::file)
      .value("--tolerance", "X",
             "measurement tolerances before the known list's: a default and/or overrides, e.g. 0.1 or "
             "'0.25,*_cycles=0.5,outcome_*=off'")
      .value("--md", "FILE", "the comparison as Markdown too", ValueHint::file)
      .value("--history", "DB",
             "judge NEW's measurements against the spread of its configuration's last runs in this database "
             "(median/MAD, Mann-Kendall) instead of a fixed tolerance",
             ValueHint::file)
      .value("--last", "N", "with --history: the last N runs")
      .flag("--gate-time", "a whole-run wall time more than 25% above BASE's is a regression (otherwise only reported)")
      .value("--gate-tier", "TIERS",
             "only regressions of cases of these tiers gate (core, extended, informational; comma-separated; default: every "
             "tier): the others are listed as outside the gate");
});

const VerbRegistration kMergeVerb("merge", "one fleet matrix (cuconform-fleet/1) from several runs", cmd_merge, [](Verb& v) {
  v.args(1, -1, "A.json B.json ...").value("-o", "OUT.json", "the fleet file to write (required)", ValueHint::file);
});

}  // namespace cuconform
