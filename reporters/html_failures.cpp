#include "reporters/html_failures.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "harness/util/json_write.hpp"
#include "harness/util/number_text.hpp"
#include "reporters/html_page.hpp"
#include "reporters/report_common.hpp"
#include "reporters/svg.hpp"  // short_number, verdict_color

namespace cuconform::html {

namespace {

std::vector<std::size_t> all_runs(const Fleet& f) {
  std::vector<std::size_t> runs;
  for (std::size_t i = 0; i < f.runs.size(); ++i) runs.push_back(i);
  return runs;
}

bool is_fleet(const Fleet& f) { return f.runs.size() != 1 || f.schema == kFleetSchema; }

void case_meta(std::ostringstream& o, const CaseRow& c, const std::string& seconds) {
  o << "<div class=\"meta\">rule <code>" << esc(c.rule) << "</code> · " << esc(c.kind)
    << (c.basis.empty() ? "" : " · basis " + esc(c.basis)) << " · min cc " << esc(c.min_cc)
    << (c.arch.empty() ? "" : " · " + esc(c.arch)) << seconds;
  if (!c.source.empty()) o << "<br>source: " << esc(c.source);
  o << "</div>";
}

void expected_observed(std::ostringstream& o, const Outcome& r) {
  if (!r.reason.empty()) o << "<p><b>reason:</b> " << esc(r.reason) << "</p>";
  o << "<div class=\"eo\"><div><h4>expected</h4><pre>" << esc(r.expected.empty() ? "(not recorded)" : r.expected)
    << "</pre></div><div><h4>observed</h4><pre>" << esc(r.observed.empty() ? "(not recorded)" : r.observed) << "</pre></div></div>";
}

void measurement_table(std::ostringstream& o, const Outcome& r) {
  if (r.measurements.empty() && r.facts.empty()) return;
  o << "<div class=\"tw\"><table><tr><th>measurement / fact</th><th>value</th></tr>";
  for (auto& [k, v] : r.measurements) o << "<tr><td><code>" << esc(k) << "</code></td><td class=\"n\">" << number_text(v) << "</td></tr>";
  for (auto& [k, v] : r.facts) o << "<tr><td><code>" << esc(k) << "</code></td><td>" << esc(v) << "</td></tr>";
  o << "</table></div>";
}

// One run's failing case; `banner`: why the known list explains it (empty: it does not, or the
// group above says it).
void run_card(std::ostringstream& o, const CaseRow& c, const Outcome& r, bool is_known, const std::string& banner) {
  o << "<article class=\"case" << (is_known ? " is-known" : "") << "\" id=\"f-" << esc(c.name) << "\"><h3>"
    << badge(to_string(r.verdict)) << " " << name_html(c.name) << "</h3>";
  if (!banner.empty()) o << "<div class=\"kb\">" << esc(banner) << "</div>";
  case_meta(o, c, " · " + short_number(r.duration_s) + " s");
  expected_observed(o, r);
  measurement_table(o, r);
  o << "</article>";
}

// A case failing on some runs of several: each run's verdict, then what the failing runs saw,
// runs that saw the same shown once. `banner_above`: its known-list entry is shown above it.
void fleet_card(std::ostringstream& o, const Fleet& f, const CaseRow& c, const KnownList* known, bool banner_above) {
  std::string label;
  std::vector<std::size_t> failing;
  for (std::size_t i = 0; i < f.runs.size(); ++i)
    if (c.by_run[i] && is_failure(c.by_run[i]->verdict)) {
      failing.push_back(i);
      if (label.empty()) label = known_label(known, c, f.runs[i]);
    }
  o << "<article class=\"case" << (label.empty() ? "" : " is-known") << "\" id=\"f-" << esc(c.name) << "\"><h3>" << name_html(c.name)
    << "</h3><div class=\"tw\"><table class=\"mx\"><tr>";
  for (std::size_t i = 0; i < f.runs.size(); ++i) o << "<th class=\"d\" title=\"" << esc(f.runs[i].label) << "\">D" << i + 1 << "</th>";
  o << "</tr><tr>";
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    if (!c.by_run[i]) {
      o << "<td class=\"c\" title=\"absent\">·</td>";
      continue;
    }
    std::string v = to_string(c.by_run[i]->verdict);
    o << "<td class=\"c\" style=\"background:" << tint(verdict_color(v), v == "pass" ? 0.35 : 0.55) << "\" title=\""
      << "D" << i + 1 << ": " << v << "\">" << verdict_abbrev(v) << "</td>";
  }
  o << "</tr></table></div>";
  if (!label.empty() && !banner_above) o << "<div class=\"kb\">" << esc(label) << "</div>";
  case_meta(o, c, "");
  std::vector<std::pair<std::string, const Outcome*>> seen;  // runs ("D1, D3") that saw one thing
  for (std::size_t i : failing) {
    const Outcome& r = *c.by_run[i];
    bool merged = false;
    for (auto& [runs, first] : seen)
      if (first->verdict == r.verdict && first->reason == r.reason && first->expected == r.expected && first->observed == r.observed) {
        runs += ", D" + std::to_string(i + 1);
        merged = true;
        break;
      }
    if (!merged) seen.emplace_back("D" + std::to_string(i + 1), &r);
  }
  for (auto& [runs, r] : seen) {
    o << "<h4>" << badge(to_string(r->verdict)) << " on " << esc(runs) << "</h4>";
    expected_observed(o, *r);
  }
  // Measurements and facts side by side, one column per failing run.
  std::vector<std::string> names;
  for (std::size_t i : failing)
    for (auto& [k, v] : c.by_run[i]->measurements)
      if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
  if (!names.empty()) {
    o << "<div class=\"tw\"><table><tr><th>measurement</th>";
    for (std::size_t i : failing) o << "<th>D" << i + 1 << "</th>";
    o << "</tr>";
    for (auto& n : names) {
      o << "<tr><td><code>" << esc(n) << "</code></td>";
      for (std::size_t i : failing) {
        std::string cell;
        for (auto& [k, v] : c.by_run[i]->measurements)
          if (k == n) cell = number_text(v);
        o << "<td class=\"n\">" << cell << "</td>";
      }
      o << "</tr>";
    }
    o << "</table></div>";
  }
  o << "</article>";
}

// The known list's entry that explains a failing case: that of the first run where it fails and
// one does (flakes first, as failures_by_class asks).
const KnownEntry* entry_of(const Fleet& f, const CaseRow& c, const KnownList* known) {
  if (!known) return nullptr;
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    if (!c.by_run[i] || !is_failure(c.by_run[i]->verdict)) continue;
    if (const KnownEntry* e = known->flake(c, &f.runs[i])) return e;
    if (const KnownEntry* e = known->failure(c, &f.runs[i])) return e;
  }
  return nullptr;
}

std::string group_title(const FailureGroup& g) {
  if (g.known == FailureGroup::Known::flake) return "known flakes";
  if (g.cls == FindingClass::none) return "unclassified";
  return std::string(to_string(g.cls)) + ": " + finding_class_title(g.cls);
}

std::string group_id(const FailureGroup& g) {
  if (g.known == FailureGroup::Known::flake) return "known-flakes";
  return std::string("known-") + to_string(g.cls);
}

}  // namespace

FailureCounts count_failures(const Fleet& f, const KnownList* known) {
  FailureCounts n;
  for (auto& g : failures_by_class(f, all_runs(f), known)) {
    int k = static_cast<int>(g.cases.size());
    n.total += k;
    if (g.known == FailureGroup::Known::no) n.fresh += k;
    if (g.known == FailureGroup::Known::failure) n.known += k;
    if (g.known == FailureGroup::Known::flake) n.flakes += k;
  }
  return n;
}

std::string failures_section(const Fleet& f, const KnownList* known) {
  const bool fleet = is_fleet(f);
  auto groups = failures_by_class(f, all_runs(f), known);
  FailureCounts n = count_failures(f, known);
  std::ostringstream o;
  o << "<section id=\"failures\"><h2>Failing cases (" << n.total << ")</h2>";
  if (!n.total) {
    o << "<p class=\"ok\">No case failed" << (fleet ? " on any device" : "") << ".</p></section>";
    return o.str();
  }
  auto card = [&](const CaseRow& c, bool banner_above) {
    if (fleet) {
      fleet_card(o, f, c, known, banner_above);
    } else {
      std::string label = known_label(known, c, f.runs[0]);
      run_card(o, c, *c.by_run[0], !label.empty(), banner_above ? "" : label);
    }
  };
  // Within a class, the cases one known entry explains together, under one banner: the entry's
  // reason once, not on every card.
  auto known_group = [&](const FailureGroup& g) {
    std::vector<std::pair<const KnownEntry*, std::vector<const CaseRow*>>> by_entry;
    for (const CaseRow* c : g.cases) {
      const KnownEntry* e = entry_of(f, *c, known);
      auto it = std::find_if(by_entry.begin(), by_entry.end(), [&](auto& x) { return x.first == e; });
      if (it == by_entry.end()) by_entry.push_back({e, {c}});
      else it->second.push_back(c);
    }
    for (auto& [e, cases] : by_entry) {
      if (e) {
        const bool flake = g.known == FailureGroup::Known::flake;
        o << "<div class=\"kb\"><b>" << (flake ? "known flake" : "known failure (" + std::string(to_string(e->cls)) + ")") << "</b> <code>"
          << esc(e->what()) << "</code> · " << cases.size() << " case" << (cases.size() > 1 ? "s" : "") << ": " << esc(e->reason)
          << (e->issue.empty() ? "" : " (" + esc(e->issue) + ")") << "</div>";
      }
      for (const CaseRow* c : cases) card(*c, e != nullptr);
    }
  };
  o << "<p class=\"note\">" << (fleet ? "Cases that fail on at least one device, one card each. " : "")
    << (known ? "New failures (not in the known list " + esc(display_path(known->file)) + ") first, then the known findings by class."
              : "No known list was given (<code>--known FILE</code>): every failure is shown as new.")
    << "</p>";
  o << "<h3 id=\"new-failures\">New failures: not in the known list (" << n.fresh << ")</h3>";
  if (!n.fresh) o << "<p class=\"ok\">Every failure is a known finding or a known flake.</p>";
  bool known_head = false;
  for (auto& g : groups) {
    if (g.known == FailureGroup::Known::no) {
      if (g.cls == FindingClass::consumer_break)
        o << "<h4 id=\"compatibility-breaks\">Compatibility breaks (relied-upon): " << g.cases.size()
          << ", a behaviour a named consumer's code depends on does not hold</h4>";
      for (const CaseRow* c : g.cases) card(*c, false);
      continue;
    }
    if (g.known == FailureGroup::Known::toolchain) {  // a change to look at, open: not a finding
      o << "<h3 id=\"toolchain-changes\">" << esc(g.title) << " (" << g.cases.size() << ")</h3>";
      for (const CaseRow* c : g.cases) card(*c, false);
      continue;
    }
    if (!known_head) {
      o << "<h3 id=\"known-findings\">Known findings (" << n.known + n.flakes << "), by class</h3>";
      known_head = true;
    }
    o << "<details class=\"grp\" id=\"" << esc(group_id(g)) << "\"><summary>" << esc(group_title(g)) << " <span class=\"cnt\">("
      << g.cases.size() << ")</span></summary>";
    known_group(g);
    o << "</details>";
  }
  o << "</section>";
  return o.str();
}

}  // namespace cuconform::html
