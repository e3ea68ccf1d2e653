// Text checks the host tests share, so that each test file need not define its own.
#pragma once

#include <initializer_list>
#include <string>

namespace cuconform::testing {

inline bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// `s` in single quotes, as one shell word of a command line (no quote inside it).
inline std::string q(const std::string& s) { return "'" + s + "'"; }

// The pieces of `needles` that `text` lacks, one a line; empty when it holds them all. One
// CHECK(lacks(...).empty()) for a list of pieces, whose failure names the missing ones.
inline std::string lacks(const std::string& text, std::initializer_list<std::string> needles) {
  std::string missing;
  for (const std::string& n : needles)
    if (!has(text, n)) missing += n + "\n";
  return missing;
}

}  // namespace cuconform::testing
