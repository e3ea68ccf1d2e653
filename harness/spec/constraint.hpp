#pragma once
// `where:` expressions that prune a rule's parameter matrix, e.g. "src <= cp",
// "mode == ca || cp == 16", "offset % size != 0". Identifiers name parameters; an
// identifier that is no parameter is a string literal. Numbers compare as numbers.
#include <map>
#include <string>

namespace cuconform {

// Evaluates `expr` with the given parameter values; throws std::invalid_argument with a
// message on a syntax error.
bool eval_constraint(const std::string& expr, const std::map<std::string, std::string>& params);

}  // namespace cuconform
