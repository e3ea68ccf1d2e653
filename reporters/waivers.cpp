#include "reporters/waivers.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <sstream>

#include "reporters/html_page.hpp"  // esc

namespace cuconform {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
long days_from_civil(int y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

bool parse_date(const std::string& s, int* y, unsigned* m, unsigned* d) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  *y = std::atoi(s.substr(0, 4).c_str());
  *m = static_cast<unsigned>(std::atoi(s.substr(5, 2).c_str()));
  *d = static_cast<unsigned>(std::atoi(s.substr(8, 2).c_str()));
  static const unsigned len[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (*m < 1 || *m > 12 || *d < 1) return false;
  const bool leap = (*y % 4 == 0 && *y % 100 != 0) || *y % 400 == 0;
  return *d <= len[*m - 1] + (*m == 2 && leap ? 1u : 0u);
}

std::string expiry(const KnownEntry& e) { return e.expires.empty() ? "never" : e.expires; }

}  // namespace

bool is_iso_date(const std::string& s) {
  int y;
  unsigned m, d;
  return parse_date(s, &y, &m, &d);
}

std::string waiver_today() {
  if (const char* env = std::getenv("CUCONFORM_TODAY"); env && *env) {
    if (!is_iso_date(env)) throw ResultsError(std::string("$CUCONFORM_TODAY: '") + env + "' is not a date YYYY-MM-DD");
    return env;
  }
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &utc);
  return buf;
}

int days_between(const std::string& from, const std::string& to) {
  int y1, y2;
  unsigned m1, d1, m2, d2;
  if (!parse_date(from, &y1, &m1, &d1) || !parse_date(to, &y2, &m2, &d2)) return 0;
  return static_cast<int>(days_from_civil(y2, m2, d2) - days_from_civil(y1, m1, d1));
}

std::vector<std::string> waiver_warnings(const KnownList& known, int within_days) {
  std::vector<std::string> out;
  for (auto* list : {&known.failures, &known.flakes})
    for (const KnownEntry& e : *list) {
      const std::string who = e.where + ": known entry " + e.what();
      if (e.expired) {
        out.push_back(who + " expired on " + e.expires + (e.owner.empty() ? "" : " (owner " + e.owner + ")") +
                      ": it waives nothing now, its cases gate again; renew it with the evidence, or fix the cause");
      } else if (!e.expires.empty() && days_between(known.today, e.expires) <= within_days) {
        const int left = days_between(known.today, e.expires);
        out.push_back(who + " expires on " + e.expires + " (in " + std::to_string(left) + " day" + (left == 1 ? "" : "s") +
                      (e.owner.empty() ? "" : ", owner " + e.owner) + ")");
      }
      std::string missing;
      for (auto [key, value] : {std::pair{"owner", &e.owner}, {"expires", &e.expires}, {"link", &e.link}})
        if (value->empty()) missing += (missing.empty() ? "" : ", ") + std::string(key);
      if (!missing.empty()) out.push_back(who + " has no " + missing + " (a waiver names who answers for it, until when, and where it is written up)");
    }
  return out;
}

std::vector<WaiverUse> waivers_used(const KnownList& known, const Fleet& f) {
  std::map<const KnownEntry*, int> count;
  for (const CaseRow& c : f.cases)
    for (std::size_t i = 0; i < f.runs.size() && i < c.by_run.size(); ++i) {
      if (!c.by_run[i]) continue;
      const Verdict v = c.by_run[i]->verdict;
      if (!is_failure(v) && v != Verdict::flake) continue;
      const KnownEntry* e = known.flake(c, &f.runs[i]);
      if (!e) e = known.failure(c, &f.runs[i]);
      if (!e) e = known.expired(c, &f.runs[i]);
      if (e) ++count[e];
    }
  std::vector<WaiverUse> out;
  for (auto& [e, n] : count) out.push_back({e, n});
  // Soonest expiry first; entries without one last; then by where they are written.
  std::sort(out.begin(), out.end(), [](const WaiverUse& a, const WaiverUse& b) {
    const std::string ka = a.entry->expires.empty() ? "9999" : a.entry->expires, kb = b.entry->expires.empty() ? "9999" : b.entry->expires;
    return ka != kb ? ka < kb : a.entry->where < b.entry->where;
  });
  return out;
}

std::string waivers_markdown(const KnownList& known, const Fleet& f) {
  std::vector<WaiverUse> used = waivers_used(known, f);
  if (used.empty()) return "";
  std::ostringstream o;
  o << "\n## Waivers in force (by expiry, judged on " << known.today << ")\n\n";
  o << "| expires | entry | class | owner | cases | link |\n|---|---|---|---|---|---|\n";
  for (auto& u : used) {
    const KnownEntry& e = *u.entry;
    o << "| " << expiry(e) << (e.expired ? " **EXPIRED: gates again**" : "") << " | `" << e.what() << "` | " << to_string(e.cls) << " | "
      << (e.owner.empty() ? "(none)" : e.owner) << " | " << u.cases << " | " << (e.link.empty() ? "(none)" : e.link) << " |\n";
  }
  return o.str();
}

std::string waivers_text(const KnownList& known, const Fleet& f) {
  std::vector<WaiverUse> used = waivers_used(known, f);
  if (used.empty()) return "";
  std::ostringstream o;
  o << "\nWAIVERS IN FORCE (by expiry, judged on " << known.today << ")\n";
  for (auto& u : used) {
    const KnownEntry& e = *u.entry;
    o << "  " << expiry(e) << (e.expired ? " EXPIRED (gates again)" : "") << "  " << e.what() << "  " << u.cases << " case(s), owner "
      << (e.owner.empty() ? "(none)" : e.owner) << (e.link.empty() ? "" : ", " + e.link) << "\n";
  }
  return o.str();
}

std::string waivers_html(const KnownList& known, const Fleet& f) {
  std::vector<WaiverUse> used = waivers_used(known, f);
  if (used.empty()) return "";
  std::ostringstream o;
  o << "<section id=\"waivers\"><h2>Waivers in force (by expiry, judged on " << html::esc(known.today) << ")</h2>\n"
    << "<table style=\"width:100%;table-layout:fixed;overflow-wrap:anywhere;word-break:break-all\"><thead><tr><th>expires</th><th>entry</th><th>class</th><th>owner</th><th>cases</th><th>link</th></tr></thead><tbody>\n";
  for (auto& u : used) {
    const KnownEntry& e = *u.entry;
    o << "<tr><td>" << html::esc(expiry(e)) << (e.expired ? " <b>EXPIRED: gates again</b>" : "") << "</td><td><code>" << html::esc(e.what())
      << "</code></td><td>" << html::esc(to_string(e.cls)) << "</td><td>" << html::esc(e.owner.empty() ? "(none)" : e.owner) << "</td><td>" << u.cases
      << "</td><td>" << html::esc(e.link.empty() ? "(none)" : e.link) << "</td></tr>\n";
  }
  o << "</tbody></table></section>\n";
  return o.str();
}

}  // namespace cuconform
