#pragma once
// gzip (zlib from Debian's zlib1g-dev) for results and fleet files: `.json.gz` is read by every
// verb that reads results, and written where an output's name ends in `.gz`.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cuconform {

struct GzipError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The two bytes every gzip member starts with.
bool looks_gzip(const std::string& data);

// The inflated bytes of `data` (one or more gzip members). `name` starts every message:
// "NAME: not gzip", "NAME: truncated gzip (...)", "NAME: corrupt gzip: ...", and
// "NAME: inflates to more than LIMIT" once the output would pass `max_bytes` (a gzip bomb
// never allocates more than that).
std::string gunzip(const std::string& data, const std::string& name, std::size_t max_bytes);

// `data` as one gzip member (level 6, no file name, time 0: the same input gives the same bytes).
std::string gzip(const std::string& data);

}  // namespace cuconform
