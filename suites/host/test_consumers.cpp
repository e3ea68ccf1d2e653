// The relied-upon index (consumers/), the basis relied-upon and its `relies:` key, coverage
// --consumers, and the class consumer-break in run's summary, compare, the reports and the known
// list (issue 43).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/spec/consumer_coverage.hpp"
#include "reporters/compare.hpp"
#include "reporters/console.hpp"
#include "reporters/html_report.hpp"
#include "reporters/known_summary.hpp"
#include "reporters/report_common.hpp"
#include "reporters/results_file.hpp"
#include "suites/host/test_reporters_support.hpp"
#include "suites/host/test_text.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

namespace {

std::string testdata(const std::string& p) { return std::string(CUCONFORM_TESTDATA) + "/" + p; }

std::string all_errors(const std::vector<SpecError>& errors) {
  std::string s;
  for (auto& e : errors) s += e.str() + "\n";
  return s;
}

// One rule of area rel, of basis relied-upon, running selftest.echo, as rel.yaml's tests write it;
// `relies` the key's value (none when empty).
std::string rel_rule(const std::string& id, const std::string& rule, const std::string& kind, const std::string& relies,
                     const std::string& source = "demo/lib include/a.hpp:10") {
  std::string s = "  - id: " + id + "\n    rule: " + rule + "\n    source: " + source + "\n    min_cc: \"1.0\"\n    kind: " + kind +
                  "\n    requires: []\n    fixture: selftest.echo\n    params: {value: [1]}\n    expect: {value: 1}\n"
                  "    basis: relied-upon\n";
  if (!relies.empty()) s += "    relies: " + relies + "\n";
  return s;
}

// A copy of the testdata specs and index, for the CLI (which has no selftest fixture): rules on
// ptx.assemble, which the executable registers.
std::string cli_root(const std::string& name) {
  fs::path root = temp_dir(name);
  fs::create_directories(root / "specs");
  fs::copy(testdata("consumers/consumers"), root / "consumers");
  fs::copy(testdata("coverage/statements"), root / "statements");
  std::ofstream(root / "specs" / "rel.yaml") << R"(area: rel
rules:
  - id: rel.proved
    rule: Proved.
    source: demo/lib include/a.hpp:10
    min_cc: "1.0"
    kind: positive
    requires: [ptxas]
    fixture: ptx.assemble
    expect: {ptx: "membar.cta;"}
    basis: relied-upon
    relies: [demo.topic.proved, demo.topic.both, demo.topic.by_documented]
  - id: rel.recorded
    rule: Recorded.
    source: demo/lib include/a.hpp:20
    min_cc: "1.0"
    kind: undefined
    requires: [ptxas]
    fixture: ptx.assemble
    expect: {ptx: "membar.cta;"}
    basis: relied-upon
    relies: [demo.topic.recorded]
)";
  return (root / "specs").string();
}

}  // namespace

TEST_CASE("consumers: the index loads with each behaviour's where, documents and status", "[host][spec][consumers]") {
  ConsumerIndex idx = load_consumers(consumers_dir_for(testdata("consumers/specs")));
  INFO(all_errors(idx.errors));
  REQUIRE(idx.available);
  REQUIRE(idx.errors.empty());
  REQUIRE(idx.consumers.size() == 1);
  CHECK(idx.consumers[0].commit == "0123456789abcdef0123456789abcdef01234567");
  REQUIRE(idx.behaviours.size() == 6);
  const Behaviour* r = idx.find("demo.topic.recorded");
  REQUIRE(r);
  CHECK(r->where == std::vector<std::string>{"include/a.hpp:20", "issue 1234"});
  CHECK(r->loc.line == 11);
  CHECK_FALSE(idx.find("demo.topic.blackwell")->testable);
  CHECK(idx.find("demo.topic.blackwell")->reason == "needs an sm_100 GPU");
  CHECK(consumers_dir_for("a/specs/") == "a/consumers");
  CHECK(consumer_of("cuda-samples.x.y") == "cuda-samples");
  CHECK(consumers_of({"cutlass.a.b", "cub.c.d", "cutlass.e.f"}) == "cutlass, cub");
  CHECK_FALSE(load_consumers(consumers_dir_for(temp_dir("consumers-none") + "/specs")).available);
}

TEST_CASE("consumers: bad index files are errors at file:line:col", "[host][spec][consumers]") {
  const std::string dir = temp_dir("consumers-bad");
  std::ofstream(dir + "/demo.yaml") << R"(consumer: demo
title: Bad
repository: demo/lib
commit: 0123abc
colour: blue
behaviours:
  - id: other.topic.x
    behaviour: Wrong prefix.
    where: ["include/a.hpp"]
    documents: silent
    status: tested
  - id: demo.topic.y
    behaviour: No reason.
    where: ["include/a.hpp:3"]
    documents: silent
    status: not-testable
  - id: demo.topic.y
    behaviour: Twice, and a bad status.
    where: ["issue 12"]
    documents: silent
    status: maybe
)";
  std::ofstream(dir + "/other.yaml") << "consumer: notother\n";
  ConsumerIndex idx = load_consumers(dir);
  const std::string e = all_errors(idx.errors);
  INFO(e);
  CHECK(lacks(e, {"demo.yaml:4:9: commit '0123abc' must be the 40 hex digits",
                  "demo.yaml:5:1: unknown key 'colour' in consumer file",
                  "demo.yaml:7:9: behaviour id 'other.topic.x' must start with its consumer 'demo.'",
                  "demo.yaml:9:13: 'where' entries are path:line",
                  "demo.yaml:12:5: behaviour demo.topic.y is not-testable: say why in 'reason:'",
                  "demo.yaml:21:13: status 'maybe' must be tested or not-testable",
                  "demo.yaml:17:9: duplicate behaviour id 'demo.topic.y'",
                  "other.yaml:1:11: consumer 'notother' must live in notother.yaml",
                  "other.yaml:1:1: 'behaviours' must be a list"})
            .empty());
}

TEST_CASE("basis relied-upon: fits judged kinds and undefined, needs relies:, ids checked against the index",
          "[host][spec][consumers]") {
  Catalog cat = load_catalog(testdata("consumers/specs"));
  INFO(all_errors(cat.errors));
  REQUIRE(cat.ok());
  const Rule* proved = nullptr;
  for (auto& r : cat.rules)
    if (r->id == "rel.proved") proved = r.get();
  REQUIRE(proved);
  CHECK(proved->basis == Basis::relied_upon);
  CHECK(proved->relies == std::vector<std::string>{"demo.topic.proved", "demo.topic.both"});
  CHECK(proved->relies_locs[1].line == 16);
  CHECK(proved->relies_locs[1].col == 33);
  CHECK(basis_conflict(Basis::relied_upon, Kind::negative).empty());
  CHECK(basis_conflict(Basis::relied_upon, Kind::performance).empty());
  CHECK(basis_conflict(Basis::relied_upon, Kind::undefined).empty());
  CHECK(has(basis_conflict(Basis::relied_upon, Kind::codegen), "not 'codegen'"));

  ConsumerIndex idx = load_consumers(consumers_dir_for(cat.dir));
  CHECK(consumer_ref_errors(cat, idx).empty());  // demo.topic.eight_gpus is not-testable: no rule needed

  const std::string dir = temp_dir("consumers-refs");
  std::ofstream(dir + "/rel.yaml") << "area: rel\nrules:\n"
                                    << rel_rule("rel.no_relies", "Relied-upon without relies.", "positive", "")
                                    << rel_rule("rel.codegen", "Relied-upon codegen.", "codegen", "[demo.topic.proved]")
                                    << rel_rule("rel.unknown", "Names an unknown behaviour.", "positive",
                                                "[demo.topic.nowhere, Not_An_Id]");
  Catalog bad = load_spec_files({dir + "/rel.yaml"});
  const std::string e = all_errors(bad.errors);
  INFO(e);
  CHECK(has(e, "rel.yaml:12:12: rule rel.no_relies of basis relied-upon needs 'relies:'"));
  CHECK(has(e, "rel.yaml:22:12: rule rel.codegen: basis 'relied-upon'"));
  CHECK(has(e, "rel.yaml:34:34: 'relies' entries are behaviour ids"));

  // The unknown id (once the malformed one is gone) and a tested behaviour no active rule names.
  std::ofstream(dir + "/rel.yaml") << "area: rel\nrules:\n"
                                    << rel_rule("rel.unknown", "Unknown.", "positive", "[demo.topic.nowhere]", "x");
  Catalog unknown = load_spec_files({dir + "/rel.yaml"});
  REQUIRE(unknown.ok());
  const std::string refs = all_errors(consumer_ref_errors(unknown, idx));
  INFO(refs);
  CHECK(has(refs, "rel.yaml:13:14: rule rel.unknown relies on unknown behaviour 'demo.topic.nowhere'"));
  CHECK(has(refs, "demo.yaml:6:5: behaviour demo.topic.proved has status tested but no active rule names it"));
  CHECK_FALSE(has(refs, "demo.topic.eight_gpus"));
}

TEST_CASE("coverage --consumers: proved, recorded, not-testable or nothing, per consumer", "[host][spec][consumers]") {
  Catalog cat = load_catalog(testdata("consumers/specs"));
  REQUIRE(cat.ok());
  ConsumerIndex idx = load_consumers(consumers_dir_for(cat.dir));
  auto c = compute_consumer_coverage(cat, idx);
  REQUIRE(c.size() == 1);
  CHECK(c[0].total() == 6);
  CHECK(c[0].count(ConsumerStatus::proved) == 3);        // proved, both (the judged rule wins), by_documented
  CHECK(c[0].count(ConsumerStatus::recorded) == 1);      // recorded
  CHECK(c[0].count(ConsumerStatus::not_testable) == 2);  // blackwell (its gated rule exists), eight_gpus
  CHECK(c[0].count(ConsumerStatus::none) == 0);
  CHECK(c[0].behaviours[4].rules.size() == 1);  // the gated rule is listed
  CHECK(consumer_summary(c) == "relied-upon behaviours: demo 6 (proved 3, recorded 1, not-testable 2, nothing 0)");

  const std::string specs = cli_root("consumers-cli");
  Exe lint = cuconform_cli("lint --specs '" + specs + "'");
  INFO(lint.out);
  CHECK(lint.rc == 0);
  CHECK(has(lint.out, "consumers: 1 in "));
  CHECK(has(lint.out, "6 relied-upon behaviours; 2 rules name the behaviours they prove"));
  CHECK(has(lint.out, "relied-upon 2"));  // the count per basis
  Exe summary = cuconform_cli("coverage --summary --specs '" + specs + "'");
  INFO(summary.out);
  CHECK(summary.rc == 0);
  CHECK(has(summary.out, "\nrelied-upon behaviours: demo 6 (proved 3, recorded 1, not-testable 2, nothing 0)\n"));
  Exe text = cuconform_cli("coverage --consumers --specs '" + specs + "'");
  INFO(text.out);
  CHECK(text.rc == 0);
  CHECK(has(text.out, "relied-upon behaviours: demo 6 (proved 3, recorded 1, not-testable 2, nothing 0)"));
  CHECK(has(text.out, "not-testable demo.topic.eight_gpus  needs eight GPUs"));
  CHECK(has(text.out, "proved       demo.topic.proved  rel.proved"));
  Exe md = cuconform_cli("coverage --consumers --summary --format md --specs '" + specs + "'");
  CHECK(md.rc == 0);
  CHECK(has(md.out, "| `demo` | 6 | 3 | 1 | 2 | 0 |"));
  CHECK_FALSE(has(md.out, "demo.topic.proved"));  // --summary: the counts only
  Exe json = cuconform_cli("coverage --consumers --format json --specs '" + specs + "'");
  CHECK(json.rc == 0);
  CHECK(has(json.out, "\"not-testable\": 2"));
  CHECK(has(json.out, "\"reason\": \"needs eight GPUs\""));

  // A tested behaviour no active rule names: lint fails naming it; run and list still load.
  std::string text_specs = read_text(specs + "/rel.yaml");
  write_text(specs + "/rel.yaml", text_specs.substr(0, text_specs.find("  - id: rel.recorded")));
  Exe unnamed = cuconform_cli("lint --specs '" + specs + "'");
  INFO(unnamed.out);
  CHECK(unnamed.rc == 2);
  CHECK(has(unnamed.out, "demo.yaml:11:5: behaviour demo.topic.recorded has status tested but no active rule names it"));
  CHECK(cuconform_cli("list --specs '" + specs + "'").rc == 0);
  CHECK(has(cuconform_cli("coverage --consumers --specs '" + specs + "'").out, "nothing      demo.topic.recorded"));
}

TEST_CASE("a failing relied-upon rule is a compatibility break: run's summary, compare, reports, known list",
          "[host][reporters][consumers]") {
  const std::string dir = temp_dir("consumers-break");
  auto make = [&](const std::string& file, Verdict cutlass, Verdict doc) {
    auto s = synthetic_run();
    s->add("cutlass", "cutlass.mbarrier.fresh_parity", "cluster1", cutlass, {}, "observed differs from expected",
           "parity 1 complete on a fresh barrier", "parity 1 pending");
    s->rules.back().basis = Basis::relied_upon;
    s->rules.back().relies = {"cutlass.mbarrier.fresh_parity1_complete"};
    s->add("mbarrier", "mbarrier.phase.flip", "case", doc);
    write_text(dir + "/" + file, results_json(s->run));
    return s;
  };
  auto base_run = make("base.json", Verdict::pass, Verdict::pass);
  auto new_run = make("new.json", Verdict::fail, Verdict::pass);

  std::ostringstream console;
  print_summary(console, new_run->run);
  INFO(console.str());
  CHECK(has(console.str(), "compatibility breaks (relied-upon): 1 of 1 cases of rules named consumers rely on, e.g. cutlass 1: "
                           "cutlass.mbarrier.fresh_parity.cluster1; documentation violations and other failures: 4\n"));
  std::ostringstream quiet;
  print_summary(quiet, base_run->run);
  CHECK(has(quiet.str(), "compatibility breaks (relied-upon): 0 of 1 cases"));

  const Fleet base = load_results(dir + "/base.json"), now = load_results(dir + "/new.json");
  REQUIRE(now.find("cutlass.mbarrier.fresh_parity.cluster1"));
  CHECK(now.find("cutlass.mbarrier.fresh_parity.cluster1")->relies == std::vector<std::string>{"cutlass.mbarrier.fresh_parity1_complete"});
  CompareResult r = compare_runs(base, now, nullptr, Tolerances{});
  CHECK(r.count(Change::consumer_break) == 1);
  CHECK(r.count(Change::new_failure) == 0);
  CHECK(r.regressions() == 1);
  const std::string text = compare_text(r);
  INFO(text);
  CHECK(has(text, "COMPATIBILITY BREAKS (relied-upon"));
  CHECK(has(text, "compatibility break: cutlass.mbarrier.fresh_parity.cluster1"));
  CHECK(has(text, "0 measurement(s) moved, 1 compatibility break(s) (relied-upon); "));
  CHECK(has(text, "RESULT: REGRESSION (exit 1)"));
  CHECK(has(compare_markdown(r), "| compatibility break | `cutlass.mbarrier.fresh_parity.cluster1` |"));

  // The reports: its own group among the new failures; the known list's class consumer-break.
  auto groups = failures_by_class(now, 0, nullptr);
  auto it = std::find_if(groups.begin(), groups.end(), [](auto& g) { return g.cls == FindingClass::consumer_break; });
  REQUIRE(it != groups.end());
  CHECK(it->known == FailureGroup::Known::no);
  REQUIRE(it->cases.size() == 1);
  CHECK(it->cases[0]->name == "cutlass.mbarrier.fresh_parity.cluster1");
  CHECK(has(html_report(now, nullptr, "new.json"), "Compatibility breaks (relied-upon): 1"));
  CHECK(has(markdown_report(now, nullptr, "new.json", ""), "compatibility breaks (relied-upon: a behaviour a named consumer"));

  write_text(dir + "/known.yaml", "known_failures:\n  - id: cutlass.mbarrier.fresh_parity\n    class: consumer-break\n"
                                  "    reason: the driver breaks CUTLASS's first producer wait\n");
  const KnownList known = load_known(dir + "/known.yaml");
  const std::string summary = known_failures_summary(now, known);
  INFO(summary);
  CHECK(has(summary, "known finding(s) (consumer-break 1)"));
  CompareResult known_r = compare_runs(base, now, &known, Tolerances{});
  CHECK(known_r.count(Change::known_failure) == 1);
  CHECK(has(compare_text(known_r), "KNOWN FAILURES, consumer-break: a behaviour a named consumer's code relies on does not hold"));
  // Unexplained, run's console names it among the new ones.
  write_text(dir + "/empty.yaml", "known_failures: []\n");
  CHECK(has(known_failures_summary(now, load_known(dir + "/empty.yaml")),
            "(1 of them compatibility breaks, relied-upon)"));
}
