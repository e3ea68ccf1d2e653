// The report pages of real-size results, read as text (test_reporters_html_render.cpp renders
// them): a whole H100 run's page is at most 1.5 MB and names no folder of the machine; new
// failures come first and the known findings are collapsed by class with their counts; the matrix
// links each count to the case list filtered to it; the case list holds every case; a node's
// page has one column per GPU. Plus the helpers the pages use.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "reporters/known_list.hpp"
#include "reporters/report_common.hpp"
#include "suites/host/test_report_pages.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

static int count_of(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The case list's data, as the page's script reads it.
static nlohmann::json case_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"case-data\">";
  auto at = html.find(open);
  REQUIRE(at != std::string::npos);
  at += open.size();
  return nlohmann::json::parse(html.substr(at, html.find("</script>", at) - at));
}

static std::string name_of(const nlohmann::json& data, const nlohmann::json& c) {
  int rule = c[0].get<int>();
  std::string suffix = c[1].get<std::string>();
  return rule < 0 ? suffix : data["rules"][rule].get<std::string>() + (suffix.empty() ? "" : "." + suffix);
}

// 1.5 MB as the issue counts it: 1.5 million bytes.
static constexpr std::size_t kMaxPageBytes = 1500000;

TEST_CASE("the report of a whole run is at most 1.5 MB and names no folder of the machine", "[host][reporters]") {
  std::string baseline = whole_run_baseline();
  REQUIRE_FALSE(baseline.empty());
  std::string dir = temp_dir("whole-run-page");
  std::string html = report_page(baseline, dir + "/run.html");
  INFO("page: " << html.size() << " bytes");
  CHECK(html.size() <= kMaxPageBytes);

  // The folders the results name (where it was built, its tools, where the file lies) are not
  // in the page; the file itself is named relative or by its name.
  Fleet f = load_results(baseline);
  const RunInfo& run = f.runs[0];
  std::vector<std::string> machine_paths = {fs::path(baseline).parent_path().string(), dir};
  for (const char* k : {"specs_dir"})
    if (run.get(run.suite, k).rfind('/', 0) == 0) machine_paths.push_back(run.get(run.suite, k));
  for (const char* k : {"toolchain.ptxas", "toolchain.disassembler"})
    if (run.get(run.run, k).rfind('/', 0) == 0) machine_paths.push_back(run.get(run.run, k));
  REQUIRE(machine_paths.size() >= 3);  // the baseline has an absolute specs folder and tool paths
  for (auto& p : machine_paths) {
    INFO(p);
    CHECK_FALSE(has(html, p));
  }
  CHECK(has(html, fs::path(baseline).filename().string()));
  // No value in the Environment box is an absolute path.
  std::string env = section_of(html, "environment");
  REQUIRE_FALSE(env.empty());
  std::smatch m;
  INFO(env);
  CHECK_FALSE(std::regex_search(env, m, std::regex("<td>(/|[A-Za-z]:\\\\)")));
  fs::remove_all(dir);
}

TEST_CASE("a whole run's page: new failures first, known findings collapsed by class, the matrix linking to its cases", "[host][reporters]") {
  std::string baseline = whole_run_baseline();
  REQUIRE_FALSE(baseline.empty());
  std::string dir = temp_dir("whole-run-structure");
  std::string html = report_page(baseline, dir + "/run.html");
  Fleet f = load_results(baseline);
  KnownList known = load_known(CUCONFORM_KNOWN_FILE);

  // A contents bar that names every section.
  for (const char* id : {"summary", "matrix", "environment", "failures", "measurements", "cases"}) {
    INFO(id);
    CHECK(has(html, std::string("<a href=\"#") + id + "\">"));
    CHECK(has(html, std::string("<section id=\"") + id + "\""));
  }

  // Failures: the new ones first and open, then one closed group per finding class the known
  // list gives these failures, headed by its class and count.
  std::string failures = section_of(html, "failures");
  auto groups = failures_by_class(f, 0, &known);
  REQUIRE_FALSE(groups.empty());
  auto fresh = failures.find("<h3 id=\"new-failures\">");
  REQUIRE(fresh != std::string::npos);
  int closed = 0;
  for (auto& g : groups) {
    if (g.known == FailureGroup::Known::no) continue;
    ++closed;
    std::string head = g.known == FailureGroup::Known::flake ? "known flakes" : to_string(g.cls);
    auto at = failures.find("<details class=\"grp\" id=\"known-");
    INFO(head << " (" << g.cases.size() << ")");
    CHECK(has(failures, "<summary>" + head));
    CHECK(has(failures, "<span class=\"cnt\">(" + std::to_string(g.cases.size()) + ")</span></summary>"));
    CHECK(fresh < at);
  }
  CHECK(count_of(failures, "<details class=\"grp\"") == closed);
  CHECK_FALSE(has(failures, "<details class=\"grp\" open"));
  for (auto& c : f.cases)
    if (c.by_run[0] && is_failure(c.by_run[0]->verdict)) CHECK(has(failures, "id=\"f-" + c.name + "\""));

  // Matrix: every count a link to the case list filtered to that area and verdict.
  std::string matrix = section_of(html, "matrix");
  for (auto& area : areas_of(f)) {
    std::map<std::string, int> n;
    for (auto& c : f.cases)
      if (c.area == area && c.by_run[0]) ++n[to_string(c.by_run[0]->verdict)];
    for (auto& [v, k] : n) {
      std::string link = "<a href=\"#cases?area=" + area + "&verdict=" + v + "\">" + std::to_string(k) + "</a>";
      INFO(link);
      CHECK(has(matrix, link));
    }
  }

  // The case list has every case, with its verdict, in the results' order.
  nlohmann::json data = case_data(html);
  REQUIRE(data["cases"].size() == f.cases.size());
  for (std::size_t i = 0; i < f.cases.size(); ++i) {
    const auto& c = data["cases"][i];
    if (name_of(data, c) != f.cases[i].name || data["verdicts"][c[3].get<int>()] != to_string(f.cases[i].by_run[0]->verdict)) {
      FAIL_CHECK("case " << i << ": " << name_of(data, c) << " vs " << f.cases[i].name);
      break;
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("a node's page: one column per GPU named by what tells it apart, the GPU that differs first", "[host][reporters]") {
  std::string baseline = whole_run_baseline();
  REQUIRE_FALSE(baseline.empty());
  std::string dir = temp_dir("node-page");
  std::string node = make_node(baseline, 8, dir);
  std::string html = report_page(node, dir + "/node8.html");
  INFO("page: " << html.size() << " bytes");
  // Eight runs of a whole run stay in the budget of one (the old page drew a case x device row
  // per case per GPU).
  CHECK(html.size() <= kMaxPageBytes);
  std::string matrix = section_of(html, "matrix");
  for (int k = 0; k < 8; ++k) {
    char head[96];
    std::snprintf(head, sizeof head, "\">D%d<small>#%d %08x</small></th>", k + 1, k, 0x5f0c2a9eu + 0x1111u * static_cast<unsigned>(k));
    INFO(head);
    CHECK(has(matrix, head));
  }
  // What all eight share is said once.
  std::string devices = section_of(html, "devices");
  CHECK(has(devices, "All 8 runs: "));
  CHECK(has(devices, "<b>host</b> node7"));
  CHECK_FALSE(has(devices, "<th>host</th>"));
  // The case that fails on GPU 2 only (D3) is the first of the differences, and its card says where.
  std::string diff = section_of(html, "differences");
  auto first_row = diff.find("<tr><td><code>");
  REQUIRE(first_row != std::string::npos);
  CHECK(diff.substr(first_row, 60).find("ldgsts.<wbr>l1.<wbr>") != std::string::npos);
  CHECK(has(section_of(html, "failures"), "</span> on D3</h4>"));
  CHECK(has(html, "href=\"#cases?area=ldgsts&device=3&verdict=fail,timeout,crash\""));
  fs::remove_all(dir);
}

TEST_CASE("report helpers: column labels, paths without the machine's folders, failures grouped over several runs", "[host][reporters]") {
  Fleet f;
  for (const char* label : {"NVIDIA H200 #0 5f0c2a9e @ node7", "NVIDIA H200 #1 7a1b3c4d @ node7", "NVIDIA H100 80GB HBM3 #0 aa11bb22 @ node7"}) {
    RunInfo r;
    r.label = label;
    f.runs.push_back(r);
  }
  auto cols = run_column_labels(f);
  CHECK(cols == std::vector<std::string>{"H200 #0 5f0c2a9e", "H200 #1 7a1b3c4d", "H100 80GB HBM3 #0 aa11bb22"});
  f.runs.pop_back();
  CHECK(run_column_labels(f) == std::vector<std::string>{"#0 5f0c2a9e", "#1 7a1b3c4d"});
  f.runs.pop_back();
  CHECK(run_column_labels(f) == std::vector<std::string>{"NVIDIA H200 #0 5f0c2a9e @ node7"});  // nothing to tell apart

  CHECK(display_path("/work/main/specs") == "specs");
  CHECK(display_path("/work/main/specs/") == "specs");
  CHECK(display_path("/usr/local/cuda/bin/ptxas") == "ptxas");
  CHECK(display_path("C:\\runs\\results.json") == "results.json");
  CHECK(display_path("results/results.gpu1.json") == "results/results.gpu1.json");
  CHECK(display_path("../shared/gpu-machine.md") == "../shared/gpu-machine.md");
  CHECK(display_path("") == "");

  // A case known on one run and not on another is a new failure; known on every run, in its
  // class; a known flake on one run and a known failure on another, a known failure.
  std::string dir = temp_dir("groups");
  write_text(dir + "/known.yaml",
             "known_failures:\n  - id: a.x\n    reason: known on H200 only\n    class: runtime\n    device: H200\n"
             "  - id: b.x\n    reason: known everywhere\n    class: performance\n  - id: c.x\n    reason: known on H100\n"
             "    class: tool-accepts-forbidden\n    device: H100\nknown_flakes:\n  - id: c.x\n    reason: flaky on H200\n    device: H200\n");
  KnownList known = load_known(dir + "/known.yaml");
  Fleet g;
  for (const char* name : {"NVIDIA H200", "NVIDIA H100 80GB HBM3"}) {
    RunInfo r;
    r.device = {{"available", "true"}, {"name", name}};
    g.runs.push_back(r);
  }
  for (const char* name : {"a.x", "b.x", "c.x"}) {
    CaseRow c;
    c.name = name;
    c.rule = name;
    Outcome o;
    o.verdict = Verdict::fail;
    c.by_run = {o, o};
    g.cases.push_back(c);
  }
  auto groups = failures_by_class(g, std::vector<std::size_t>{0, 1}, &known);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].known == FailureGroup::Known::no);
  CHECK(groups[0].cases.at(0)->name == "a.x");
  CHECK(groups[1].cls == FindingClass::tool_accepts_forbidden);
  CHECK(groups[1].cases.at(0)->name == "c.x");
  CHECK(groups[2].cls == FindingClass::performance);
  CHECK(groups[2].cases.at(0)->name == "b.x");
  // One run: as before (the H200 alone explains a.x; c.x there is a known flake).
  auto h200 = failures_by_class(g, 0, &known);
  REQUIRE(h200.size() == 3);
  CHECK(h200[0].cls == FindingClass::runtime);
  CHECK(h200[1].cls == FindingClass::performance);
  CHECK(h200[2].known == FailureGroup::Known::flake);
  fs::remove_all(dir);
}
