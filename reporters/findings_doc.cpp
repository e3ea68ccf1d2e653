#include "reporters/findings_doc.hpp"

#include <sstream>

namespace cuconform {

namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \n\t"), e = s.find_last_not_of(" \n\t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string code(const std::string& s, bool md) { return md ? "`" + s + "`" : s; }

// A reproducer under findings/ is linked relative to docs/ (where the page is); other links as given.
std::string write_up(const std::string& link, bool md) {
  if (link.empty()) return "";
  if (!md) return link;
  if (link.rfind("findings/", 0) == 0) return "reproducer [" + link + "](../" + link + "/)";
  if (link.rfind("docs/findings.md", 0) == 0) return "";  // this page: its class is the write-up
  if (link.rfind("docs/", 0) == 0 || link.rfind("reporters/", 0) == 0) return "[" + link + "](../" + link + ")";
  return link;
}

void entry(std::ostringstream& out, const KnownEntry& e, bool md, bool with_class) {
  out << "- " << (e.id.empty() ? "cases " + code("/" + e.pattern + "/", md) : code(e.id, md));
  if (with_class && e.cls != FindingClass::none) out << " (" << to_string(e.cls) << ")";
  out << ": " << trimmed(e.reason);
  std::string scope;
  for (auto [key, value] : {std::pair{"tool", &e.tool}, {"driver", &e.driver}, {"device", &e.device}, {"toolchain", &e.toolchain}})
    if (!value->empty()) scope += (scope.empty() ? "" : ", ") + std::string(key) + " " + code(*value, md);
  if (!scope.empty()) out << "\n  Scope: " << scope << ".";
  const std::string w = write_up(e.link, md);
  if (!w.empty()) out << "\n  Write-up: " << w << ".";
  out << "\n";
  for (const auto& p : e.passages) out << "  - " << p.section << ": \"" << trimmed(p.quote) << "\"\n";
}

}  // namespace

std::string findings_document(const KnownList& known, bool md) {
  std::ostringstream out;
  const std::string h2 = md ? "## " : "";
  out << "Known failures: " << known.failures.size() << "; known flakes: " << known.flakes.size() << " (from "
      << (md ? "`ci/baselines/known.yaml`" : known.file) << ").\n";
  for (FindingClass c : finding_classes()) {
    bool any = false;
    for (const auto& e : known.failures) any = any || e.cls == c;
    if (!any) continue;
    out << "\n" << h2 << to_string(c) << ": " << finding_class_title(c) << "\n\n";
    for (const auto& e : known.failures)
      if (e.cls == c) entry(out, e, md, false);
  }
  bool unclassified = false;
  for (const auto& e : known.failures) unclassified = unclassified || e.cls == FindingClass::none;
  if (unclassified) {
    out << "\n" << h2 << "unclassified\n\n";
    for (const auto& e : known.failures)
      if (e.cls == FindingClass::none) entry(out, e, md, false);
  }
  if (!known.flakes.empty()) {
    out << "\n" << h2 << "known flakes: they neither gate nor count as findings\n\n";
    for (const auto& e : known.flakes) entry(out, e, md, true);
  }
  return out.str();
}

}  // namespace cuconform
