#pragma once
// The history in the HTML report: per series a timeline grid (rules × runs, coloured by verdict,
// a changed cell linking to its change), a small trend plot per flagged measurement, the changes
// (each case linking to its first changed run), the flaky cases and the runs. Inline CSS and
// SVG only, like the run report: no script, nothing fetched.
#include <string>

#include "history/db.hpp"
#include "history/query.hpp"

namespace cuconform {

// The sections for the configurations o.config_glob matches (all when empty).
std::string history_html_sections(Db& db, const QueryOptions& o);
// A whole page of them (`cuconform history report --html FILE`).
std::string history_html_page(Db& db, const QueryOptions& o);

}  // namespace cuconform
