#pragma once
// What a verb is given: the options and arguments of its command line, parsed from the verb's own
// declarations (cli/verb_table.hpp) by cli/command_line.cpp.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/spec/selection.hpp"

namespace cuconform {

struct Options {
  std::string verb;   // "history"
  std::string sub;    // its subcommand, for verbs that have them ("runs"); else empty
  std::string specs;  // empty: default_specs_dir()
  Selection sel;
  std::map<std::string, std::string> values;  // other --flag VALUE (the last one given)
  std::set<std::string> switches;             // --flag with no value
  std::vector<std::string> positional;
  std::string get(const std::string& k, const std::string& fallback = "") const;
  bool has(const std::string& k) const { return values.count(k) || switches.count(k); }
};

// `text` as a whole number from lo to hi (strtol's syntax, nothing after it); false otherwise.
bool whole_number(const std::string& text, long lo, long hi, long* out);

}  // namespace cuconform
