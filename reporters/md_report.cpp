// The Markdown summary: short enough for a CI job page ($GITHUB_STEP_SUMMARY, a GitLab
// artifact); the HTML report has the rest.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "reporters/html_report.hpp"
#include "reporters/report_common.hpp"
#include "reporters/throughput_table.hpp"

namespace cuconform {

namespace {

constexpr int kMaxRows = 50;

// A table cell: one line, no pipes, not too long.
std::string cell(std::string s, std::size_t max = 160) {
  for (auto& c : s)
    if (c == '\n' || c == '\r' || c == '|') c = ' ';
  return s.size() > max ? s.substr(0, max) + "…" : s;
}

}  // namespace

std::string markdown_report(const Fleet& f, const KnownList* known, const std::string& source, const std::string& html_name) {
  std::ostringstream o;
  auto more = [&](int shown, int total) {
    if (total > shown) o << "\n… and " << total - shown << " more" << (html_name.empty() ? "" : " (see `" + html_name + "`)") << "\n";
  };
  bool single = f.runs.size() == 1 && f.schema != kFleetSchema;
  if (single) {
    const RunInfo& run = f.runs[0];
    auto n = f.counts(0);
    int failing = failures_in(f, 0), known_failing = 0;
    for (auto& c : f.cases)
      if (c.by_run[0] && is_failure(c.by_run[0]->verdict) && !known_label(known, c, run).empty()) ++known_failing;
    // No GPU proves nothing about a device: never a green tick.
    // Nor does a run whose GPU went unhealthy, or that was cut off: the headline says so first.
    const std::vector<std::string> trouble = run_trouble(f, 0);
    const char* mark = !run.has_device ? "⚠️ unknown device: " : !run.available() ? "⚠️ no GPU: "
                       : !trouble.empty()                      ? "❌ not judged: "
                       : failing - known_failing               ? "❌ "
                                                               : "✅ ";
    o << "## cuconform: " << mark << n["pass"] << " passed, " << failing << " failed";
    if (known_failing) o << " (" << known_failing << " known)";
    if (n["flake"]) o << ", " << n["flake"] << " flaky";
    if (n["not-run"]) o << ", " << n["not-run"] << " not-run";
    o << "\n\n";
    for (auto& t : trouble) o << "> ❌ **" << cell(t, 300) << "**\n";
    if (!trouble.empty()) o << "\n";
    o << "- device: " << cell(run.device_line()) << (run.dev("uuid").empty() ? "" : " (`" + run.dev("uuid") + "`)") << "\n";
    o << "- suite " << run.get(run.suite, "version") << " (" << run.get(run.suite, "commit") << "), built with CUDA "
      << run.get(run.suite, "built_with_cuda") << " for " << run.get(run.suite, "archs") << "\n";
    o << "- host " << run.get(run.run, "host") << ", started " << run.get(run.run, "started") << ", file `" << display_path(source) << "`\n";
    if (!html_name.empty()) o << "- full report: `" << html_name << "`\n";
    o << "\n| area |";
    for (Verdict v : all_verdicts()) o << " " << to_string(v) << " |";
    o << "\n|---|";
    for (std::size_t i = 0; i < all_verdicts().size(); ++i) o << "---:|";
    o << "\n";
    for (auto& area : areas_of(f)) {
      std::map<std::string, int> k;
      for (auto& c : f.cases)
        if (c.area == area && c.by_run[0]) ++k[to_string(c.by_run[0]->verdict)];
      o << "| " << area << " |";
      for (Verdict v : all_verdicts()) o << " " << k[to_string(v)] << " |";
      o << "\n";
    }
    o << "| **total** |";
    for (Verdict v : all_verdicts()) o << " **" << n[to_string(v)] << "** |";
    o << "\n";
    if (failing) {
      // Grouped: what the known list does not explain first, then known failures by class.
      o << "\n### Failing cases (" << failing << ")\n";
      int shown = 0;
      // As in the HTML report, the known findings are collapsed, one group per class.
      for (auto& g : failures_by_class(f, 0, known)) {
        if (shown >= kMaxRows) break;
        const bool collapsed = g.known != FailureGroup::Known::no;
        if (collapsed)
          o << "\n<details><summary>" << g.title << " (" << g.cases.size() << ")</summary>\n\n";
        else
          o << "\n**" << g.title << "** (" << g.cases.size() << ")\n\n";
        o << "| case | verdict | reason | expected | observed | known |\n|---|---|---|---|---|---|\n";
        for (const CaseRow* c : g.cases) {
          if (shown >= kMaxRows) break;
          const Outcome& r = *c->by_run[0];
          o << "| `" << c->name << "` | " << to_string(r.verdict) << " | " << cell(r.reason) << " | " << cell(r.expected, 100) << " | "
            << cell(r.observed, 100) << " | " << cell(known_label(known, *c, run)) << " |\n";
          ++shown;
        }
        if (collapsed) o << "\n</details>\n";
      }
      more(shown, failing);
    }
    if (n["flake"]) {
      o << "\n### Flaky cases (" << n["flake"] << "): failed, then passed on a re-run\n\n";
      int shown = 0;
      for (auto& c : f.cases)
        if (c.by_run[0] && c.by_run[0]->verdict == Verdict::flake && shown++ < kMaxRows)
          o << "- `" << c.name << "`: " << cell(c.by_run[0]->reason) << "\n";
      more(std::min(shown, kMaxRows), n["flake"]);
    }
    if (n["recorded"]) {
      o << "\n### Recorded behaviour (" << n["recorded"] << "): undefined behaviour, what the GPU did (not judged)\n\n"
           "| case | outcome | details |\n|---|---|---|\n";
      int shown = 0;
      for (auto& c : f.cases)
        if (c.by_run[0] && c.by_run[0]->verdict == Verdict::recorded && shown++ < kMaxRows)
          o << "| `" << c.name << "` | " << cell(c.by_run[0]->fact("outcome"), 100) << " | " << cell(c.by_run[0]->observed, 100) << " |\n";
      more(std::min(shown, kMaxRows), n["recorded"]);
    }
    o << throughput_markdown(throughput_rows(f, 0));
    std::map<std::string, int> why;
    for (auto& c : f.cases)
      if (c.by_run[0] && c.by_run[0]->verdict == Verdict::not_supported) ++why[c.by_run[0]->reason];
    if (!why.empty()) {
      o << "\n<details><summary>not-supported: " << n["not-supported"] << " cases, " << why.size() << " reason(s)</summary>\n\n| reason | cases |\n|---|---:|\n";
      int shown = 0;
      for (auto& [reason, k] : why)
        if (shown++ < kMaxRows) o << "| " << cell(reason) << " | " << k << " |\n";
      o << "\n</details>\n";
    }
    return o.str();
  }

  o << "## cuconform fleet: " << f.runs.size() << " runs, " << f.cases.size() << " cases\n\n";
  for (std::size_t i = 0; i < f.runs.size(); ++i)
    for (auto& t : run_trouble(f, i)) o << "> ❌ **D" << i + 1 << " " << cell(f.runs[i].label) << ": " << cell(t, 300) << "**\n";
  o << "| # | run | device | host | pass | fail | not run |\n|---|---|---|---|---:|---:|---:|\n";
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    auto n = f.counts(i);
    o << "| D" << i + 1 << " | " << cell(f.runs[i].label) << " | " << cell(f.runs[i].device_line()) << " | " << f.runs[i].get(f.runs[i].run, "host")
      << " | " << n["pass"] << " | " << failures_in(f, i) << " | " << n["not-supported"] + n["planned"] << " |\n";
  }
  o << "\n| area |";
  for (std::size_t i = 0; i < f.runs.size(); ++i) o << " D" << i + 1 << " |";
  o << "\n|---|";
  for (std::size_t i = 0; i < f.runs.size(); ++i) o << "---|";
  o << "\n";
  for (auto& area : areas_of(f)) {
    o << "| " << area << " |";
    for (std::size_t i = 0; i < f.runs.size(); ++i) {
      int pass = 0, fail = 0;
      for (auto& c : f.cases)
        if (c.area == area && c.by_run[i]) pass += c.by_run[i]->verdict == Verdict::pass, fail += is_failure(c.by_run[i]->verdict);
      o << " " << pass << "/" << pass + fail << (fail ? " ❌" : "") << " |";
    }
    o << "\n";
  }
  // As in the HTML report: the cases whose verdicts differ between devices first, then those
  // failing on every device.
  std::vector<const CaseRow*> differ, fail_all;
  for (auto& c : f.cases) {
    std::set<std::string> vs;
    bool fails = false;
    for (auto& r : c.by_run)
      if (r) vs.insert(to_string(r->verdict)), fails |= is_failure(r->verdict);
    if (vs.size() > 1) differ.push_back(&c);
    else if (fails) fail_all.push_back(&c);
  }
  differ.insert(differ.end(), fail_all.begin(), fail_all.end());
  if (!differ.empty()) {
    o << "\n### Cases that fail somewhere or differ between devices (" << differ.size() << ")\n\n| case |";
    for (std::size_t i = 0; i < f.runs.size(); ++i) o << " D" << i + 1 << " |";
    o << "\n|---|";
    for (std::size_t i = 0; i < f.runs.size(); ++i) o << "---|";
    o << "\n";
    int shown = 0;
    for (auto* c : differ) {
      if (shown++ >= kMaxRows) break;
      o << "| `" << c->name << "` |";
      for (auto& r : c->by_run) o << " " << (r ? verdict_abbrev(to_string(r->verdict)) : "·") << " |";
      o << "\n";
    }
    more(std::min<int>(kMaxRows, static_cast<int>(differ.size())), static_cast<int>(differ.size()));
  }
  return o.str();
}

}  // namespace cuconform
