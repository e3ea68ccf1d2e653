#pragma once
// A regular expression from a file someone wrote (the known list's regex, device, driver, tool
// and toolchain scopes), matched by RE2 (Debian's libre2-dev): time linear in the text and a
// bounded stack whatever the pattern and the name. std::regex recursed once per character
// (a `.*` against a 50,000-character case name overflowed the stack) and backtracked
// exponentially (`^([a-z_0-9]+\.?)*X$` ran for minutes). What RE2 cannot match in linear time
// (backreferences, lookaround) is refused when the file is read, not at match time.
#include <memory>
#include <string>

namespace re2 {
class RE2;
}

namespace cuconform {

class SafeRegex {
 public:
  SafeRegex() = default;
  // Null with `error` set ("invalid escape sequence: \1 (...)") where RE2 refuses the pattern.
  static SafeRegex compile(const std::string& pattern, std::string* error);
  explicit operator bool() const { return re_ != nullptr; }
  // Found anywhere in `text` (std::regex_search's meaning); an empty SafeRegex finds nothing.
  bool search(const std::string& text) const;

 private:
  std::shared_ptr<const re2::RE2> re_;  // shared: known entries are copied
};

}  // namespace cuconform
