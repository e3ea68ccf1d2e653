#include "harness/util/json.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cuconform {

std::string json_quote(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

void JsonWriter::newline() {
  if (!pretty_) return;
  out_ += "\n";
  out_.append(static_cast<std::size_t>(depth_) * 2, ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_) out_ += ",";
  if (depth_ > 0) newline();
  first_ = false;
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ += "{";
  ++depth_;
  first_ = true;
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  --depth_;
  if (!first_) newline();
  out_ += "}";
  first_ = false;
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ += "[";
  ++depth_;
  first_ = true;
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  --depth_;
  if (!first_) newline();
  out_ += "]";
  first_ = false;
  return *this;
}
JsonWriter& JsonWriter::key(const std::string& k) {
  before_value();
  out_ += json_quote(k) + (pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}
JsonWriter& JsonWriter::value(const std::string& s) {
  before_value();
  out_ += json_quote(s);
  return *this;
}
JsonWriter& JsonWriter::value(double v) {
  before_value();
  out_ += json_number(v);
  return *this;
}
JsonWriter& JsonWriter::value(long long v) {
  before_value();
  out_ += std::to_string(v);
  return *this;
}
JsonWriter& JsonWriter::value(bool b) {
  before_value();
  out_ += b ? "true" : "false";
  return *this;
}
JsonWriter& JsonWriter::raw(const std::string& json) {
  before_value();
  out_ += json;
  return *this;
}
JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

YAML::Node parse_json(const std::string& text, const std::string& what) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(what + ":" + std::to_string(e.mark.line + 1) + ":" +
                             std::to_string(e.mark.column + 1) + ": not valid JSON: " + e.msg);
  }
}

YAML::Node parse_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_json(ss.str(), path);
}

}  // namespace cuconform
