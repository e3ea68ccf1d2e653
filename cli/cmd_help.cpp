// cuconform help [VERB [SUBCOMMAND]]: the same text as --help.
#include <iostream>

#include "cli/help.hpp"
#include "cli/suggest.hpp"
#include "cli/verbs.hpp"

namespace cuconform {

namespace {

int cmd_help(const Options& o) {
  if (o.positional.empty()) {
    std::cout << root_help();
    return kExitOk;
  }
  const Verb* v = find_verb(o.positional[0]);
  std::vector<std::string> names;
  if (!v) {
    for (const Verb* known : all_verbs()) names.push_back(known->name());
    std::cerr << "cuconform help: unknown verb '" << o.positional[0] << "'" << did_you_mean(o.positional[0], names) << "\n";
    return kExitBadInput;
  }
  if (o.positional.size() > 1) {
    const Verb* s = v->find_sub(o.positional[1]);
    if (!s) {
      for (auto& known : v->subs()) names.push_back(known->name());
      std::cerr << "cuconform help: '" << v->name() << "' has no subcommand '" << o.positional[1] << "'"
                << did_you_mean(o.positional[1], names) << "\n";
      return kExitBadInput;
    }
    v = s;
  }
  std::cout << verb_help(*v);
  return kExitOk;
}

}  // namespace

const VerbRegistration kHelpVerb("help", "this overview, or a verb's options (the same as VERB --help)", cmd_help,
                                 [](Verb& v) { v.args(0, 2, "[VERB [SUBCOMMAND]]", "verb"); });

}  // namespace cuconform
