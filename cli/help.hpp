#pragma once
// The help texts, made from the verb table (cli/verb_table.hpp): `cuconform --help`, `cuconform
// VERB --help`, `cuconform help VERB`.
#include <string>

#include "cli/verb_table.hpp"

namespace cuconform {

std::string root_help();
std::string verb_help(const Verb& v);
std::string verb_usage(const Verb& v);  // "usage: cuconform compare BASE.json NEW.json [options]"

}  // namespace cuconform
