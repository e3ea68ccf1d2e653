#include "reporters/known_summary.hpp"

#include <algorithm>
#include <sstream>

#include "reporters/report_common.hpp"

namespace cuconform {

std::string known_failures_summary(const Fleet& run, const KnownList& known) {
  if (run.runs.empty()) return "";
  // The grouping the reports use (failures the list does not explain, known failures by class,
  // known flakes), counted on one line.
  const std::vector<FailureGroup> groups = failures_by_class(run, 0, &known);
  if (groups.empty()) return "";
  std::size_t failures = 0, findings = 0, flakes = 0, toolchain = 0;
  std::string classes;
  std::vector<const CaseRow*> fresh;
  std::size_t breaks = 0;  // of the new ones: failures of rules of basis relied-upon
  for (const FailureGroup& g : groups) {
    failures += g.cases.size();
    if (g.known == FailureGroup::Known::no) fresh.insert(fresh.end(), g.cases.begin(), g.cases.end());
    if (g.known == FailureGroup::Known::no && g.cls == FindingClass::consumer_break) breaks += g.cases.size();
    if (g.known == FailureGroup::Known::flake) flakes += g.cases.size();
    if (g.known == FailureGroup::Known::toolchain) toolchain += g.cases.size();
    if (g.known != FailureGroup::Known::failure) continue;
    findings += g.cases.size();
    classes += (classes.empty() ? "" : ", ") +
               std::string(g.cls == FindingClass::none ? "unclassified" : to_string(g.cls)) + " " +
               std::to_string(g.cases.size());
  }
  std::ostringstream s;
  s << "of " << failures << " failure(s): " << findings << " known finding(s)";
  if (!classes.empty()) s << " (" << classes << ")";
  s << ", " << flakes << " known flake(s), ";
  if (toolchain) s << toolchain << " toolchain observation(s) changed (not conformance failures), ";
  s << fresh.size() << " new";
  if (breaks) s << " (" << breaks << " of them compatibility breaks, relied-upon)";
  s << " (" << known.file << ")\n";
  if (!fresh.empty()) {
    s << "NEW (not in the known list): ";
    const std::size_t shown = std::min<std::size_t>(fresh.size(), 10);
    for (std::size_t i = 0; i < shown; ++i) s << (i ? ", " : "") << fresh[i]->name << (fresh[i]->relied_upon() ? " [relied-upon]" : "");
    if (fresh.size() > shown) s << " (+" << fresh.size() - shown << " more)";
    s << "\n";
  }
  return s.str();
}

}  // namespace cuconform
