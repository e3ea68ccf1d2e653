#pragma once
// Bounded waits: a deadline, and the milliseconds left before it for poll().
#include <algorithm>
#include <chrono>

namespace cuconform {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

inline SteadyClock::time_point after(double seconds) {
  return SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(seconds));
}

// Milliseconds left until `until`, at most `cap`, rounded up: 0 only once it has passed. Rounded
// down, a wait had up to 1 ms left when it gave up, and a hang was read as a crash (CI, 2026-11-26).
inline int ms_left(SteadyClock::time_point until, int cap = 1 << 30) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - SteadyClock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, cap));
}

}  // namespace cuconform
