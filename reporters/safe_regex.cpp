#include "reporters/safe_regex.hpp"

#include <re2/re2.h>

namespace cuconform {

SafeRegex SafeRegex::compile(const std::string& pattern, std::string* error) {
  RE2::Options opt;
  opt.set_log_errors(false);  // the error goes into the caller's message, not to stderr
  auto re = std::make_shared<const RE2>(pattern, opt);
  SafeRegex out;
  if (!re->ok()) {
    *error = re->error();
    if (re->error_code() == RE2::ErrorBadEscape || re->error_code() == RE2::ErrorBadPerlOp ||
        re->error_code() == RE2::ErrorPatternTooLarge)
      *error += " (known-list regexes are RE2 syntax, matched in time linear in the name: no backreferences, no lookaround)";
    return out;
  }
  out.re_ = std::move(re);
  return out;
}

bool SafeRegex::search(const std::string& text) const { return re_ && RE2::PartialMatch(text, *re_); }

}  // namespace cuconform
