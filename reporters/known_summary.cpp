#include "reporters/known_summary.hpp"

#include <map>
#include <sstream>
#include <vector>

namespace cuconform {

std::string known_failures_summary(const Fleet& run, const KnownList& known) {
  if (run.runs.empty()) return "";
  const RunInfo& info = run.runs.front();
  std::map<FindingClass, int> by_class;
  int failures = 0, findings = 0, flakes = 0;
  std::vector<std::string> fresh;
  for (const CaseRow& c : run.cases) {
    if (c.by_run.empty() || !c.by_run[0] || !is_failure(c.by_run[0]->verdict)) continue;
    ++failures;
    if (const KnownEntry* e = known.failure(c, &info)) {
      ++findings;
      ++by_class[e->cls];
    } else if (known.flake(c, &info)) {
      ++flakes;
    } else {
      fresh.push_back(c.name);
    }
  }
  if (!failures) return "";
  std::ostringstream s;
  s << "of " << failures << " failure(s): " << findings << " known finding(s)";
  std::string classes;
  for (FindingClass cls : finding_classes())
    if (by_class[cls]) classes += (classes.empty() ? "" : ", ") + std::string(to_string(cls)) + " " + std::to_string(by_class[cls]);
  if (by_class[FindingClass::none]) classes += (classes.empty() ? "" : ", ") + std::string("unclassified ") + std::to_string(by_class[FindingClass::none]);
  if (!classes.empty()) s << " (" << classes << ")";
  s << ", " << flakes << " known flake(s), " << fresh.size() << " new (" << known.file << ")\n";
  if (!fresh.empty()) {
    s << "NEW (not in the known list): ";
    const std::size_t shown = std::min<std::size_t>(fresh.size(), 10);
    for (std::size_t i = 0; i < shown; ++i) s << (i ? ", " : "") << fresh[i];
    if (fresh.size() > shown) s << " (+" << fresh.size() - shown << " more)";
    s << "\n";
  }
  return s.str();
}

}  // namespace cuconform
