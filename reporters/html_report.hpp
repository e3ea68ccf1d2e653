#pragma once
// The human reports of a results or fleet file: one self-contained HTML page (inline CSS, SVG
// and script; nothing fetched, no other file) and a Markdown summary for CI job pages.
#include <string>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

// `known` may be null. `source` names the input file in the page. `extra`: ready HTML sections
// placed before the footer (the statement coverage of the specs).
std::string html_report(const Fleet& f, const KnownList* known, const std::string& source, const std::string& extra = "");
// The start of a page in the reports' style (doctype, inline CSS, header, <main>), for other
// pages built from the same parts (the history report); close it with "</main></body></html>".
std::string html_page_start(const std::string& title, const std::string& subtitle);
// `html_name`, when not empty, is linked as the full report.
std::string markdown_report(const Fleet& f, const KnownList* known, const std::string& source, const std::string& html_name);

}  // namespace cuconform
