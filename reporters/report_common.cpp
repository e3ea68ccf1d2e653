#include <algorithm>
#include "reporters/report_common.hpp"

#include <regex>
#include <set>
#include <sstream>

namespace cuconform {

MeasureKind measure_kind(const std::string& n) {
  static const std::regex cycles("cycles|latency|(_ns|_us|_ms)$"), ratio("ratio|_over_|speedup"),
      throughput("gbps|bandwidth|_bps$");
  if (n.rfind("outcome_", 0) == 0) return MeasureKind::outcome;
  if (std::regex_search(n, ratio)) return MeasureKind::ratio;
  if (std::regex_search(n, cycles)) return MeasureKind::cycles;
  if (std::regex_search(n, throughput)) return MeasureKind::throughput;
  return MeasureKind::other;
}

const char* measure_kind_title(MeasureKind k) {
  switch (k) {
    case MeasureKind::cycles: return "latency / cycles";
    case MeasureKind::ratio: return "ratios";
    case MeasureKind::throughput: return "throughput";
    case MeasureKind::outcome: return "litmus outcomes";
    case MeasureKind::other: return "other";
  }
  return "?";
}

std::string known_label(const KnownList* known, const CaseRow& c, const RunInfo& run) {
  if (!known) return "";
  if (auto* e = known->flake(c, &run)) return "known flake: " + e->reason;
  if (auto* e = known->failure(c, &run)) {
    std::string s = "known failure (" + std::string(to_string(e->cls)) + "): " + e->reason;
    for (const Passage& p : e->passages) s += " | §" + p.section + ": \"" + p.quote + "\"";
    return s;
  }
  return "";
}

std::vector<FailureGroup> failures_by_class(const Fleet& f, std::size_t run, const KnownList* known) {
  return failures_by_class(f, std::vector<std::size_t>{run}, known);
}

std::vector<FailureGroup> failures_by_class(const Fleet& f, const std::vector<std::size_t>& runs, const KnownList* known) {
  std::vector<FailureGroup> g;
  using Known = FailureGroup::Known;
  g.push_back({"not in the known list", {}});
  // Unexplained failures of rules of basis relied-upon: new too, but named apart, as what a driver
  // team reads as "this upgrade breaks CUTLASS" rather than "the GPU violates the ISA".
  g.push_back({"not in the known list, compatibility breaks (relied-upon: a behaviour a named consumer's code depends on "
               "does not hold)",
               {}, Known::no, FindingClass::consumer_break});
  g.push_back({"toolchain observations that changed (what a compiler emits today, which no document promises: a change "
               "to look at, not a conformance failure)",
               {}, Known::toolchain});
  constexpr std::size_t first_class = 3;
  for (FindingClass c : finding_classes())
    g.push_back({"known, " + std::string(to_string(c)) + ": " + finding_class_title(c), {}, Known::failure, c});
  g.push_back({"known, unclassified", {}, Known::failure, FindingClass::none});
  g.push_back({"known flakes", {}, Known::flake});
  const std::size_t flakes = g.size() - 1;
  const auto& all = finding_classes();
  for (auto& c : f.cases) {
    std::size_t at = flakes + 1;  // none yet
    for (std::size_t run : runs) {
      if (!c.by_run[run] || !is_failure(c.by_run[run]->verdict)) continue;
      const RunInfo& info = f.runs.at(run);
      std::size_t here = c.relied_upon() ? 1 : c.basis == "toolchain" ? 2 : 0;
      if (known && known->flake(c, &info)) {
        here = flakes;
      } else if (const KnownEntry* e = known ? known->failure(c, &info) : nullptr) {
        auto it = std::find(all.begin(), all.end(), e->cls);
        here = first_class + (it == all.end() ? all.size() : static_cast<std::size_t>(it - all.begin()));
      }
      // Not explained anywhere beats a toolchain change, which beats a known failure, which beats
      // a flake; among known failures the first run's class stands.
      if (at > flakes || (here < first_class && here < at) || (at == flakes && here != flakes)) at = here;
      if (at == 0) break;
    }
    if (at <= flakes) g[at].cases.push_back(&c);
  }
  std::vector<FailureGroup> out;
  for (auto& x : g)
    if (!x.cases.empty()) out.push_back(std::move(x));
  return out;
}

std::vector<std::string> areas_of(const Fleet& f) {
  std::set<std::string> s;
  for (auto& c : f.cases) s.insert(c.area);
  return {s.begin(), s.end()};
}

int failures_in(const Fleet& f, std::size_t run) {
  int n = 0;
  for (auto& c : f.cases) n += c.by_run[run] && is_failure(c.by_run[run]->verdict);
  return n;
}

std::vector<std::string> run_column_labels(const Fleet& f) {
  std::vector<std::vector<std::string>> words;
  for (auto& r : f.runs) {
    std::vector<std::string> w;
    std::istringstream in(r.label);
    for (std::string t; in >> t;) w.push_back(t);
    words.push_back(w);
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string s;
    for (auto& t : words[i]) {
      bool everywhere = words.size() > 1;
      for (auto& other : words) everywhere = everywhere && std::find(other.begin(), other.end(), t) != other.end();
      if (!everywhere) s += (s.empty() ? "" : " ") + t;
    }
    out.push_back(s.empty() ? f.runs[i].label : s);
  }
  return out;
}

std::vector<std::string> run_trouble(const Fleet& f, std::size_t i) {
  const RunInfo& r = f.runs.at(i);
  std::vector<std::string> out;
  if (r.unhealthy()) out.push_back("GPU " + r.health_verdict);
  if (!r.xids.empty())
    out.push_back(std::to_string(r.xids.size()) + " Xid or health event(s) no case expected, the first: " + r.xids.front());
  const int not_run = f.counts(i)["not-run"];
  if (not_run) out.push_back(std::to_string(not_run) + " case(s) not-run (their GPU was stopped first)");
  if (!r.cut_off().empty()) out.push_back("run " + r.cut_off() + ": the other cases have no result");
  return out;
}

std::string display_path(const std::string& path) {
  bool absolute = !path.empty() && (path[0] == '/' || path[0] == '\\' ||
                                    (path.size() > 2 && path[1] == ':' && (path[2] == '/' || path[2] == '\\')));
  if (!absolute) return path;
  std::string p = path;
  while (p.size() > 1 && (p.back() == '/' || p.back() == '\\')) p.pop_back();
  auto at = p.find_last_of("/\\");
  return at == std::string::npos ? p : p.substr(at + 1);
}

std::string verdict_abbrev(const std::string& v) {
  if (v == "pass") return "P";
  if (v == "fail") return "F";
  if (v == "timeout") return "T";
  if (v == "crash") return "C";
  if (v == "not-supported") return "NS";
  if (v == "planned") return "PL";
  if (v == "flake") return "FL";
  if (v == "recorded") return "R";
  return "-";
}

}  // namespace cuconform
