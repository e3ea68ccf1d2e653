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

// The first key that an object of `text` repeats: its offset (the key's closing quote) and the
// path of the object that repeats it ("cases[3]", "" for the document); npos when none (or the
// text does not parse). One pass; the keys of the objects open at a time are kept.
std::size_t json_duplicate_key(const std::string& text, std::string* key, std::string* object_path);

// The offset of the first '[' or '{' that opens level `max_depth + 1` (strings skipped), npos
// when the text nests no deeper: one pass, nothing kept, before a parser builds anything.
std::size_t json_nesting_beyond(const std::string& text, std::size_t max_depth);

}  // namespace cuconform
