#pragma once
// One check for every verb, before it runs: the files it would write never name one of its
// inputs nor each other. `report a.json --html a.json` overwrote the results it read, `run
// --known k.yaml --json k.yaml` the known list, `report --html x --md x` kept one of two; and an
// empty path (`--html ''`) wrote nothing, with exit 0.
#include <string>

#include "cli/options.hpp"
#include "cli/verb_table.hpp"

namespace cuconform {

// The options that name a file a verb writes.
bool is_output_option(const std::string& flag);

// "" when the outputs are fine; else the message (exit 2), naming both options: "--html a.json
// and the argument a.json name the same file (/abs/a.json): ...". Paths are compared as the
// files they reach (symbolic links, ./ and .. resolved; hard links by inode). Outputs that do not
// replace a file ("-", /dev/stdout, /dev/null, a FIFO) are not compared.
std::string output_path_clash(const Options& o, const Verb& verb);

}  // namespace cuconform
