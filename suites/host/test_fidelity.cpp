// Issue 37: what every rule rests on (`basis:`), findings classed by what they show (the
// documents' own contradictions apart), and known findings of a tool scoped by the tool's version.
#include <catch2/catch.hpp>

#include "harness/spec/catalog.hpp"
#include "harness/spec/machine_paths.hpp"
#include "reporters/compare.hpp"
#include "reporters/html_report.hpp"
#include "reporters/known_list.hpp"
#include "reporters/known_summary.hpp"
#include "reporters/report_common.hpp"
#include "reporters/results_file.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

// One rule of area `b` in DIR/b.yaml; `body` holds its kind, basis and whatever else it needs.
Catalog load_rule(const std::string& dir, const std::string& body) {
  write_text(dir + "/b.yaml", "area: b\nrules:\n  - id: b.r\n    rule: r\n    source: s\n    min_cc: \"8.0\"\n" + body);
  return load_spec_files({dir + "/b.yaml"});
}

std::string errors(const Catalog& c) {
  std::string s;
  for (auto& e : c.errors) s += e.str() + "\n";
  return s;
}

}  // namespace

TEST_CASE("an active rule without a basis is refused with file, line and column", "[host][spec][basis]") {
  const std::string dir = temp_dir("basis-missing");
  Catalog c = load_rule(dir, "    kind: positive\n    fixture: selftest.echo\n    params: {value: [1]}\n");
  INFO(errors(c));
  REQUIRE_FALSE(c.ok());
  CHECK(c.errors.front().str().rfind(dir + "/b.yaml:3:5: rule b.r needs 'basis:' (documented, undefined, toolchain, self-check, relied-upon, ambiguous)", 0) == 0);

  // Planned rules may leave it out until they are written; a declared one loads.
  CHECK(load_rule(dir, "    kind: positive\n    status: planned\n    reason: later\n").ok());
  Catalog ok = load_rule(dir, "    kind: positive\n    basis: documented\n    fixture: selftest.echo\n    params: {value: [1]}\n");
  INFO(errors(ok));
  REQUIRE(ok.ok());
  CHECK(ok.rules.front()->basis == Basis::documented);
}

TEST_CASE("a basis that does not fit the kind is refused", "[host][spec][basis]") {
  const std::string dir = temp_dir("basis-kind");
  struct Want {
    const char *kind, *basis, *text;
  };
  for (Want w : {Want{"undefined", "documented", "kind undefined records what the documents leave undefined or open: its basis is 'undefined'"},
                 Want{"positive", "undefined", "basis 'undefined' is recorded, never judged: it needs kind 'undefined', not 'positive'"},
                 Want{"positive", "toolchain", "basis 'toolchain' (what a compiler emits today) needs kind 'codegen', not 'positive'"},
                 Want{"negative", "self-check", "basis 'self-check' (a check of the suite's own kernels) needs kind positive or codegen"},
                 Want{"positive", "promised", "basis 'promised' must be one of documented, undefined, toolchain, self-check"}}) {
    const std::string extra = std::string(w.kind) == "negative" ? "    params: {variant: [control, violation], value: [1]}\n    violation: {value: 2}\n"
                                                                : "    params: {value: [1]}\n";
    Catalog c = load_rule(dir, std::string("    kind: ") + w.kind + "\n    basis: " + w.basis + "\n    fixture: selftest.echo\n" + extra);
    INFO(w.kind << " / " << w.basis << "\n" << errors(c));
    REQUIRE_FALSE(c.ok());
    CHECK(has(errors(c), dir + "/b.yaml:8:12: "));  // the basis value
    CHECK(has(errors(c), w.text));
  }
  // The pairs that fit: documented codegen (a document promises the code), toolchain codegen,
  // a self-check of the suite's kernels, undefined behaviour recorded.
  for (auto [kind, basis] : std::vector<std::pair<const char*, const char*>>{
           {"codegen", "documented"}, {"codegen", "toolchain"}, {"codegen", "self-check"}, {"positive", "self-check"}, {"undefined", "undefined"}}) {
    Catalog c = load_rule(dir, std::string("    kind: ") + kind + "\n    basis: " + basis + "\n    fixture: selftest.echo\n    params: {value: [1]}\n");
    INFO(kind << " / " << basis << "\n" << errors(c));
    CHECK(c.ok());
  }
}

TEST_CASE("the shipped specs give every active rule a basis, and lint counts them", "[host][spec][basis]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  int active = 0;
  for (auto& r : cat.rules) active += !r->planned;
  Exe lint = cuconform_cli("lint");
  INFO(lint.out);
  REQUIRE(lint.rc == 0);
  CHECK(has(lint.out, "basis of the " + std::to_string(active) + " active rules: documented "));
  CHECK(has(lint.out, ", self-check "));
  Exe list = cuconform_cli("list --rule 'scopes.sass.shared_atomics_local*'");
  CHECK(has(list.out, " toolchain "));
}

TEST_CASE("a source citing a document by an absolute path is refused", "[host][spec][paths]") {
  CHECK(find_absolute_path("see /work/shared/gpu-machine.md (LDGDEPBAR seen)") == "/work/shared/gpu-machine.md");
  CHECK(find_absolute_path("`/usr/local/cuda/bin/ptxas`") == "/usr/local/cuda/bin/ptxas");
  std::size_t at = 0;
  CHECK(find_absolute_path("(file:/home/u/x.md)", &at) == "/home/u/x.md");
  CHECK(at == 6);
  for (const char* fine : {"../shared/reference/ptx-isa/10-async-copy-tensor.md", "https://github.com/NVIDIA/cccl/issues/6601",
                           "$CUDA_HOME/bin/ptxas", "1/2 of the tile", "cta/cluster/gpu", ".shared::cluster", "a / b", "/* 0x0 */"})
    CHECK(find_absolute_path(fine).empty());

  const std::string dir = temp_dir("abs-path");
  Catalog c = load_rule(dir, "    kind: positive\n    basis: documented\n    fixture: selftest.echo\n    params: {value: [1]}\n"
                             "    notes: \"seen on the GPU machine (/work/shared/gpu-machine.md)\"\n");
  INFO(errors(c));
  REQUIRE_FALSE(c.ok());
  CHECK(has(errors(c), dir + "/b.yaml:11:12: absolute path '/work/shared/gpu-machine.md'"));

  // The findings' READMEs beside the specs are checked by lint too.
  std::filesystem::create_directories(dir + "/findings/x.y");
  write_text(dir + "/findings/x.y/README.md", "# x.y\n\nSource: PTX ISA 9.7, `/work/shared/reference/ptx-isa/09-async-copy-bulk.md`\n");
  auto found = absolute_paths_in_findings(dir + "/findings");
  REQUIRE(found.size() == 1);
  CHECK(found[0].str().rfind(dir + "/findings/x.y/README.md:3:23: absolute path '/work/shared/reference/ptx-isa/09-async-copy-bulk.md'", 0) == 0);
  write_text(dir + "/findings/x.y/README.md", "# x.y\n\nSource: PTX ISA 9.7, `../shared/reference/ptx-isa/09-async-copy-bulk.md`\n");
  CHECK(absolute_paths_in_findings(dir + "/findings").empty());
  // The project's own findings and specs cite relatively.
  CHECK(absolute_paths_in_findings((source_root() / "findings").string()).empty());
}

TEST_CASE("lint refuses an absolute path in a finding's README", "[host][cli][paths]") {
  const std::string dir = temp_dir("lint-findings");
  std::filesystem::create_directories(dir + "/specs");
  std::filesystem::create_directories(dir + "/findings/b.r");
  write_text(dir + "/specs/b.yaml", "area: b\nrules:\n  - id: b.r\n    rule: r\n    source: s\n    min_cc: \"8.0\"\n    kind: positive\n"
                                    "    basis: documented\n    requires: [ptxas]\n    fixture: ptx.assemble\n    expect: {ptx: \"membar.cta;\"}\n");
  write_text(dir + "/findings/b.r/README.md", "Observed with /home/dev/ptxas\n");
  Exe e = cuconform_cli("lint --specs '" + dir + "/specs'");
  INFO(e.out);
  CHECK(e.rc == 2);
  CHECK(has(e.out, "findings/b.r/README.md:1:15: absolute path '/home/dev/ptxas'"));
  write_text(dir + "/findings/b.r/README.md", "Observed with $CUDA_HOME/bin/ptxas\n");
  Exe ok = cuconform_cli("lint --specs '" + dir + "/specs'");
  INFO(ok.out);
  CHECK(ok.rc == 0);
  CHECK(has(ok.out, "basis of the 1 active rules: documented 1, undefined 0, toolchain 0, self-check 0"));
}

TEST_CASE("the results file carries each case's basis", "[host][reporters][basis]") {
  auto s = synthetic_run();
  s->add("scopes", "scopes.sass.x", "sm_90a", Verdict::pass);
  s->rules.back().kind = Kind::codegen;
  s->rules.back().basis = Basis::toolchain;
  s->add("ldgsts", "ldgsts.copy.data", "ca4", Verdict::pass);
  const std::string dir = temp_dir("basis-results");
  write_text(dir + "/r.json", results_json(s->run));
  Fleet f = load_results(dir + "/r.json");
  CHECK(f.find("scopes.sass.x.sm_90a")->basis == "toolchain");
  CHECK(f.find("ldgsts.copy.data.ca4")->basis == "documented");
  // A fleet file keeps it.
  write_text(dir + "/f.json", fleet_json(f));
  CHECK(load_results(dir + "/f.json").find("scopes.sass.x.sm_90a")->basis == "toolchain");
}

namespace {

KnownList known_from(const std::string& dir, const std::string& text) {
  write_text(dir + "/known.yaml", text);
  return load_known(dir + "/known.yaml");
}

RunInfo run_of(const std::string& codegen, const std::string& compiler, const std::string& ptxas_version = "") {
  RunInfo r;
  r.suite = {{"built_with_cuda", "13.0"}};
  r.run = {{"toolchain.codegen", codegen}, {"toolchain.compiler", compiler}};
  if (!ptxas_version.empty()) r.run.emplace_back("toolchain.ptxas_version", ptxas_version);
  r.device = {{"available", "true"}, {"name", "NVIDIA H100 80GB HBM3"}, {"driver_version", "580.159.04"}};
  return r;
}

CaseRow case_row(const std::string& name, Verdict v, const std::string& basis = "documented") {
  CaseRow c;
  c.name = name;
  c.rule = name.substr(0, name.rfind('.'));
  c.basis = basis;
  Outcome o;
  o.verdict = v;
  c.by_run.push_back(o);
  return c;
}

const char* kDocumentsEntry = R"Y(  - id: d.open.case
    class: documents-ambiguous
    reason: the syntax and the text disagree
    passages:
      - section: "9.7.13.7 red.async (Syntax)"
        quote: ".scope = { .gpu, .cluster };"
      - section: "9.7.13.7 red.async (PTX ISA Notes)"
        quote: ".gpu and .sys scopes introduced in PTX ISA version 8.7."
)Y";

}  // namespace

TEST_CASE("a known finding of a tool is scoped by the tool's version, whatever the code path", "[host][reporters][known]") {
  const std::string dir = temp_dir("known-tool");
  KnownList k = known_from(dir, R"(known_failures:
  - id: t.ptx.case
    class: tool-accepts-forbidden
    reason: ptxas 13.0.88 accepts it
    tool: '^ptxas 13\.0(\.|$)'
)");
  const CaseRow c = case_row("t.ptx.case", Verdict::fail);
  // The same ptxas: as the build's (sass, its version recorded), as --codegen ptxas=PATH, and in a
  // results file written before the version was (the CUDA release it was built with).
  for (const RunInfo& r : {run_of("sass", "nvcc 13.0 (SASS embedded at build time)", "13.0.88"), run_of("ptxas", "ptxas 13.0.88"),
                           run_of("", "")}) {
    INFO(r.tool_line());
    CHECK(k.failure(c, &r));
  }
  CHECK(run_of("sass", "nvcc 13.0 (SASS embedded at build time)", "13.0.88").tool_line() == "ptxas 13.0.88");
  CHECK(run_of("jit", "driver JIT").tool_line() == "driver JIT 580.159.04");
  // Another tool: another ptxas under any code-path name, the driver's JIT.
  for (const RunInfo& r : {run_of("ptxas", "ptxas 12.8.93"), run_of("sass", "nvcc 13.1 (...)", "13.1.42"), run_of("jit", "driver JIT")}) {
    INFO(r.tool_line());
    CHECK_FALSE(k.failure(c, &r));
  }
  // A tool's finding may not be scoped by a code-path name.
  CHECK_THROWS_WITH(known_from(dir, "known_failures:\n  - id: t.x\n    class: tool-rejects-allowed\n    reason: r\n    toolchain: '^sass'\n"),
                    Catch::Contains(dir + "/known.yaml:5: 't.x' is a finding of a tool: scope it by the tool's version"));
  // The project's list holds no such entry, and its ptxas findings match a ptxas 13.0.88 run as
  // --codegen ptxas=PATH exactly as they do on the sass path.
  KnownList project = load_known(CUCONFORM_KNOWN_FILE);
  for (auto& e : project.failures) {
    if (e.cls == FindingClass::tool_accepts_forbidden || e.cls == FindingClass::tool_rejects_allowed) CHECK(e.toolchain.empty());
  }
  const CaseRow st_bulk = case_row("tma_bulk.ptx.sm100.st_bulk_size_32bit_since_ptx90.violation.s32", Verdict::fail);
  const RunInfo as_path = run_of("ptxas", "ptxas 13.0.88"), as_sass = run_of("sass", "nvcc 13.0 (SASS embedded at build time)", "13.0.88"),
                older = run_of("ptxas", "ptxas 12.8.93");
  CHECK(project.failure(st_bulk, &as_path));
  CHECK(project.failure(st_bulk, &as_sass));
  CHECK_FALSE(project.failure(st_bulk, &older));
}

TEST_CASE("a finding in the documents quotes both passages by section", "[host][reporters][known]") {
  const std::string dir = temp_dir("known-documents");
  KnownList k = known_from(dir, std::string("known_failures:\n") + kDocumentsEntry);
  REQUIRE(k.failures.size() == 1);
  CHECK(k.failures[0].cls == FindingClass::documents);
  REQUIRE(k.failures[0].passages.size() == 2);
  CHECK(k.failures[0].passages[1].section == "9.7.13.7 red.async (PTX ISA Notes)");
  CHECK_THROWS_WITH(known_from(dir, "known_failures:\n  - id: d.x\n    class: documents-ambiguous\n    reason: r\n"),
                    Catch::Contains(dir + "/known.yaml:2: 'd.x' is of class documents-ambiguous: quote the passages"));
  CHECK_THROWS_WITH(known_from(dir, "known_failures:\n  - id: d.x\n    class: documents-ambiguous\n    reason: r\n    passages:\n"
                                    "      - {section: a, quote: b}\n"),
                    Catch::Contains("at least two {section, quote}"));
  CHECK_THROWS_WITH(known_from(dir, "known_failures:\n  - id: d.x\n    class: runtime\n    reason: r\n    passages:\n      - {section: a, qoute: b}\n"),
                    Catch::Contains(dir + "/known.yaml:6: unknown key 'qoute' in a passage (section, quote)"));
  // The project's documents findings quote two passages each.
  int documents = 0;
  for (auto& e : load_known(CUCONFORM_KNOWN_FILE).failures)
    if (e.cls == FindingClass::documents) {
      ++documents;
      CHECK(e.passages.size() >= 2);
    }
  CHECK(documents >= 4);
}

TEST_CASE("reports group failures by class: new, toolchain observations, known classes, the documents' own apart", "[host][reporters][known]") {
  const std::string dir = temp_dir("known-groups");
  KnownList k = known_from(dir, std::string("known_failures:\n  - id: r.bad.case\n    class: runtime\n    reason: wrong data\n") + kDocumentsEntry);
  Fleet f;
  f.runs.push_back(run_of("sass", "nvcc", "13.0.88"));
  f.cases = {case_row("d.open.case", Verdict::fail), case_row("r.bad.case", Verdict::fail), case_row("n.new.case", Verdict::fail),
             case_row("c.sass.case", Verdict::fail, "toolchain"), case_row("c.sass.ok", Verdict::pass, "toolchain")};
  const auto groups = failures_by_class(f, 0, &k);
  REQUIRE(groups.size() == 4);
  CHECK(groups[0].cases.front()->name == "n.new.case");
  CHECK(groups[1].known == FailureGroup::Known::toolchain);
  CHECK(groups[1].cases.front()->name == "c.sass.case");
  CHECK(groups[2].cls == FindingClass::runtime);
  CHECK(groups[3].cls == FindingClass::documents);  // after every class of a tool or GPU
  CHECK(has(groups[3].title, "the documents contradict themselves or leave the point open"));
  const std::string label = known_label(&k, f.cases[0], f.runs[0]);
  CHECK(has(label, "known failure (documents-ambiguous)"));
  CHECK(has(label, "\u00a79.7.13.7 red.async (Syntax): \".scope = { .gpu, .cluster };\""));
  const std::string summary = known_failures_summary(f, k);
  INFO(summary);
  CHECK(summary.rfind("of 4 failure(s): 2 known finding(s) (runtime 1, documents-ambiguous 1), 0 known flake(s), "
                      "1 toolchain observation(s) changed (not conformance failures), 1 new",
                      0) == 0);
  CHECK(has(summary, "NEW (not in the known list): n.new.case\n"));
}

TEST_CASE("compare reports a changed toolchain observation as a change, never as a regression", "[host][reporters][compare]") {
  const std::string dir = temp_dir("compare-toolchain");
  auto make = [&](const std::string& file, Verdict sass_fact, Verdict doc) {
    auto s = synthetic_run("NVIDIA H100 80GB HBM3");
    s->add("scopes", "scopes.sass.shared_atomics_local", "sm_90a", sass_fact);
    s->rules.back().kind = Kind::codegen;
    s->rules.back().basis = Basis::toolchain;
    s->add("ldgsts", "ldgsts.copy.data", "ca4", doc);
    write_text(dir + "/" + file, results_json(s->run));
    return load_results(dir + "/" + file);
  };
  const Fleet base = make("base.json", Verdict::pass, Verdict::pass);
  CompareResult r = compare_runs(base, make("new.json", Verdict::fail, Verdict::pass), nullptr, Tolerances{});
  CHECK(r.count(Change::toolchain_changed) == 1);
  CHECK(r.regressions() == 0);
  const std::string text = compare_text(r);
  INFO(text);
  CHECK(has(text, "TOOLCHAIN OBSERVATIONS CHANGED"));
  CHECK(has(text, "1 toolchain observation(s) changed"));
  CHECK(has(text, "RESULT: no regression (exit 0)"));
  // Back again: a change too, not a fix; a documented rule that fails still gates.
  CHECK(compare_runs(make("b2.json", Verdict::fail, Verdict::pass), base, nullptr, Tolerances{}).count(Change::toolchain_changed) == 1);
  CompareResult doc = compare_runs(base, make("n2.json", Verdict::pass, Verdict::fail), nullptr, Tolerances{});
  CHECK(doc.count(Change::new_failure) == 1);
  CHECK(doc.regressions() == 1);
  // The report says what a failing case rests on, and puts the observation in its own group.
  const std::string html = html_report(make("n3.json", Verdict::fail, Verdict::fail), nullptr, "n3.json");
  CHECK(has(html, "codegen · basis toolchain"));
  CHECK(has(html, "toolchain observations that changed"));
  CHECK(has(html, "not in the known list"));
}

TEST_CASE("compare shows findings in the documents apart, with both passages", "[host][reporters][compare]") {
  const std::string dir = temp_dir("compare-documents");
  write_text(dir + "/known.yaml", std::string("known_failures:\n") + kDocumentsEntry +
                                      "  - id: r.bad.case\n    class: runtime\n    reason: wrong data\n");
  auto make = [&](const std::string& file) {
    auto s = synthetic_run("NVIDIA H100 80GB HBM3");
    s->add("d", "d.open", "case", Verdict::fail);
    s->add("r", "r.bad", "case", Verdict::fail);
    write_text(dir + "/" + file, results_json(s->run));
    return dir + "/" + file;
  };
  Exe e = cuconform_cli("compare '" + make("a.json") + "' '" + make("b.json") + "' --known '" + dir + "/known.yaml'");
  INFO(e.out);
  CHECK(e.rc == 0);
  const auto runtime = e.out.find("KNOWN FAILURES, runtime"), documents = e.out.find("KNOWN FINDINGS IN THE DOCUMENTS, documents-ambiguous");
  REQUIRE(runtime != std::string::npos);
  REQUIRE(documents != std::string::npos);
  CHECK(runtime < documents);
  CHECK(has(e.out, "\u00a79.7.13.7 red.async (PTX ISA Notes): \".gpu and .sys scopes introduced in PTX ISA version 8.7.\""));
  CHECK(has(e.out, "known failure(s) (runtime 1, documents-ambiguous 1)"));
}

TEST_CASE("every reproducer under findings/ ends with an outcome line, a fault in its last variant too", "[host][findings]") {
  // The script stands in for nvcc (no GPU here) and runs the ptxas-only reproducers for real.
  const std::string log = temp_dir("findings-outcomes") + "/check.log";
  const std::string cmd = "bash '" + (source_root() / "findings" / "check-outcome-lines.sh").string() + "' >'" + log + "' 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string out = read_text(log);
  INFO(out);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(has(out, "ok   b64 (fault in the last variant): RESULT REPRODUCED"));
}
