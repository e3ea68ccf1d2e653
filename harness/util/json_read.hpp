#pragma once
// Reading JSON (results and fleet files, the worker's lines) with errors that say where:
//   a.json:3:14: syntax error while parsing object key - ...   text that does not parse
//   a.json:1:65: nesting deeper than 64 levels ...             text no cuconform file is
//   a.json:57: cases[12].verdict: expected a string            a value the reader cannot use
// All are a JsonError; bad input never crashes a reader, nor costs more than a few times its size.
#include <nlohmann/json.hpp>

#include "harness/util/json_ordered_parse.hpp"  // JsonPrune

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cuconform {

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class JsonDoc;

// The deepest nesting a document may have: a fleet file nests 6 levels (cases[].results[]
// .measurements), so deeper text is not ours, and is refused before it is parsed.
constexpr std::size_t kMaxJsonDepth = 64;

// A value of a document with its path ("cases[12].verdict"). A missing key reads as null, so
// optional fields need no test; required() says when one must be there.
class JsonField {
 public:
  const nlohmann::ordered_json& value() const { return *value_; }
  const std::string& path() const { return path_; }
  bool is_null() const { return value_->is_null(); }
  bool is_object() const { return value_->is_object(); }

  JsonField operator[](const std::string& key) const;  // null unless an object has it
  const JsonField& required() const;                    // fails "missing" when null
  std::vector<JsonField> elements() const;             // an array's; fails on anything but an array
  std::vector<std::pair<std::string, JsonField>> members() const;  // an object's, in file order; null: none

  std::string str() const;   // a string; null: ""
  double num() const;        // a number; null: NaN
  bool boolean() const;      // true or false; null: false
  std::string text() const;  // a string as it is, any other value as JSON (null: ""), for display

  [[noreturn]] void fail(const std::string& what) const;  // "FILE:LINE: PATH: what"

 private:
  friend class JsonDoc;
  JsonField(const JsonDoc* doc, const nlohmann::ordered_json* value, std::string path)
      : doc_(doc), value_(value), path_(std::move(path)) {}
  const JsonDoc* doc_;
  const nlohmann::ordered_json* value_;
  std::string path_;
};

// A parsed document; `name` (a file, "worker result") starts every message. Fields point into
// it, so it stays where it was made.
class JsonDoc {
 public:
  // `prune` (harness/util/json_ordered_parse.hpp): members the reader never looks at, left out
  // (null) as the text is parsed, for a reader that needs a few fields of a large file.
  JsonDoc(std::string text, std::string name, JsonPrune prune = nullptr);
  // The file's text, gzip or not (harness/util/input_file.hpp): "PATH: cannot open: ...".
  static JsonDoc from_file(const std::string& path, JsonPrune prune = nullptr);
  JsonDoc(const JsonDoc&) = delete;
  JsonDoc& operator=(const JsonDoc&) = delete;

  JsonField root() const { return JsonField(this, &root_, ""); }
  // "NAME:LINE" of the value at `path`, "NAME" where the text has no such value.
  std::string where(const std::string& path) const;

 private:
  std::string text_, name_;
  nlohmann::ordered_json root_;
};

}  // namespace cuconform
