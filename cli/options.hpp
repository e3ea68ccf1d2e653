#pragma once
// Command-line parsing shared by the verbs: strict (an unknown or incomplete flag is an
// error, exit 2), every verb takes --specs DIR and the filters.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/spec/selection.hpp"

namespace cuconform {

struct Options {
  std::string verb;
  std::string specs;  // empty: default_specs_dir()
  Selection sel;
  std::map<std::string, std::string> values;  // other --flag VALUE
  std::set<std::string> switches;             // --flag with no value
  std::vector<std::string> positional;
  std::string get(const std::string& k, const std::string& fallback = "") const;
  bool has(const std::string& k) const { return values.count(k) || switches.count(k); }
};

struct VerbSpec {
  std::set<std::string> value_flags;  // besides --specs and the filters
  std::set<std::string> switch_flags;
  bool filters = true;
  int min_positional = 0, max_positional = 0;
};

// `text` as a whole number from lo to hi (strtol's syntax, nothing after it); false otherwise.
bool whole_number(const std::string& text, long lo, long hi, long* out);

// Parses argv[2..]; false with `error` on bad input.
bool parse_options(const std::string& verb, const VerbSpec& spec, int argc, char** argv, Options* out, std::string* error);

}  // namespace cuconform
