#pragma once
// JUnit XML of a run, one <testsuite> per area: not-supported and planned cases are
// <skipped> with their reason (never passed), timeouts and crashes are <error>. A flake
// (failed, passed on a re-run) is <skipped message="flake: ..."> too: neither a pass nor a
// failure, and JUnit has no element of its own for it.
#include <string>

#include "reporters/run_report.hpp"

namespace cuconform {

std::string junit_xml(const RunReport& run);
std::string xml_escape(const std::string& s);

}  // namespace cuconform
