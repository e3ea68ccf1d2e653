#pragma once
// UTC times as the results files and the history write them: "2026-11-21T10:22:56Z".
#include <ctime>
#include <string>

namespace cuconform {

// Seconds since the epoch of "2026-11-21T10:22:56Z"; NaN when it does not read so.
double utc_seconds_of(const std::string& iso);
// "2026-11-21T10:22:56Z" of seconds since the epoch.
std::string utc_iso8601(std::time_t t);

}  // namespace cuconform
