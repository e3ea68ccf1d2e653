#pragma once
// Known-list entries as waivers (docs/contract.md): each has an owner, an expiry date and a
// link; an expired one waives nothing (its cases gate again), `lint` warns before that day, and
// reports list the waivers a run used, soonest expiry first.
#include <string>
#include <vector>

#include "reporters/known_list.hpp"

namespace cuconform {

// YYYY-MM-DD, a real calendar date.
bool is_iso_date(const std::string& s);
// The date expiry is judged on: $CUCONFORM_TODAY (YYYY-MM-DD; for tests and for judging a run as of
// another day), else today's UTC date. Throws ResultsError on a malformed $CUCONFORM_TODAY.
std::string waiver_today();
// Whole days from `from` to `to` (both YYYY-MM-DD): negative when `to` is earlier.
int days_between(const std::string& from, const std::string& to);

// What `lint` says of the list: expired entries, entries expiring within `within_days`, and
// entries without an owner, an expiry or a link (a waiver nobody answers for, or that never ends).
std::vector<std::string> waiver_warnings(const KnownList& known, int within_days = 30);

// A waiver a run used: the entry and how many of the run's cases it waived (failing or flaky cases
// it matches); expired entries that would have matched are listed too (they waived nothing).
struct WaiverUse {
  const KnownEntry* entry = nullptr;
  int cases = 0;
};
std::vector<WaiverUse> waivers_used(const KnownList& known, const Fleet& f);
// "Waivers in force" for reports, soonest expiry first (entries with none last): Markdown table, or text.
std::string waivers_markdown(const KnownList& known, const Fleet& f);
std::string waivers_text(const KnownList& known, const Fleet& f);
std::string waivers_html(const KnownList& known, const Fleet& f);  // a <section id="waivers">, "" when none

}  // namespace cuconform
