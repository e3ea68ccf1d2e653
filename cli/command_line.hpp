#pragma once
// argv to the verb to run and its Options: CLI11 (Debian's libcli11-dev) parses with the verbs' own
// declarations (cli/verb_table.hpp). Help and --version are answered here (exit 0), and so is bad
// input (exit 2, one line naming what was wrong, with the nearest known names for a typo).
#include <iosfwd>

#include "cli/verb_table.hpp"

namespace cuconform {

struct CommandLine {
  const Verb* verb = nullptr;  // what to run; null: nothing, exit with `exit`
  Options options;
  int exit = 0;
};

CommandLine parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace cuconform
