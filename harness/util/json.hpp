#pragma once
// Minimal JSON writing (one way to quote strings and numbers everywhere) and reading
// (through yaml-cpp, whose parser accepts JSON).
#include <string>

namespace YAML {
class Node;
}

namespace cuconform {

std::string json_quote(const std::string& s);
std::string json_number(double v);  // finite numbers as is; NaN/inf as null

// Streams a JSON document: obj/arr open scopes, key() names the next value.
class JsonWriter {
 public:
  explicit JsonWriter(bool pretty = false) : pretty_(pretty) {}
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(const std::string& k);
  JsonWriter& value(const std::string& s);
  JsonWriter& value(const char* s) { return value(std::string(s)); }
  JsonWriter& value(double v);
  JsonWriter& value(int v) { return value(static_cast<long long>(v)); }
  JsonWriter& value(long long v);
  JsonWriter& value(bool b);
  JsonWriter& null();
  JsonWriter& raw(const std::string& json);  // an already-encoded value
  template <class T>
  JsonWriter& field(const std::string& k, const T& v) {
    key(k);
    return value(v);
  }
  const std::string& str() const { return out_; }

 private:
  void before_value();
  void newline();
  std::string out_;
  bool pretty_;
  int depth_ = 0;
  bool first_ = true;
  bool after_key_ = false;
};

// Parses JSON text; throws std::runtime_error with a message on bad input.
YAML::Node parse_json(const std::string& text, const std::string& what);
YAML::Node parse_json_file(const std::string& path);

}  // namespace cuconform
