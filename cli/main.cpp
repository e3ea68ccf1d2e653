// cuconform: the conformance suite's command line. The verbs, their options and their help are
// declared in the verbs' own files (cli/verb_table.hpp); this only dispatches.
#include <iostream>

#include "cli/command_line.hpp"
#include "harness/runner/worker.hpp"

using namespace cuconform;

int main(int argc, char** argv) {
  // The supervisor's worker processes (not a user's verb): their own protocol, no parsing here.
  if (argc >= 2 && std::string(argv[1]) == kWorkerVerb) return worker_main(argc, argv);
  CommandLine c = parse_command_line(argc, argv, std::cout, std::cerr);
  if (!c.verb) return c.exit;
  return c.verb->fn()(c.options);
}
