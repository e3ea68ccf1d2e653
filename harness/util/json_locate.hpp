#pragma once
// Where a value sits in JSON text, for error messages: the parsed document keeps no
// positions, so on an error the text is read again up to the value in question.
#include <cstddef>
#include <string>

namespace cuconform {

struct TextPosition {
  std::size_t line = 1, column = 1;  // both from 1
};

// The line and column of byte `offset` of `text` (clamped to its end).
TextPosition position_in(const std::string& text, std::size_t offset);

// The offset of the value at `path` ("cases[12].verdict", "" for the whole document: the paths
// JsonField names): an object's or array's opening bracket, a scalar's last character;
// std::string::npos when the text has no such value.
std::size_t json_offset_of(const std::string& text, const std::string& path);

// The offset of the first '[' or '{' that opens level `max_depth + 1` (strings skipped), npos
// when the text nests no deeper: one pass, nothing kept, before a parser builds anything.
std::size_t json_nesting_beyond(const std::string& text, std::size_t max_depth);

}  // namespace cuconform
