#include "harness/util/json_read.hpp"

#include <limits>

#include "harness/util/input_file.hpp"
#include "harness/util/json_locate.hpp"
#include "harness/util/json_ordered_parse.hpp"

namespace cuconform {

namespace {

const nlohmann::ordered_json kNull;

// What a value is, for "expected a string, got a number".
std::string kind_of(const nlohmann::ordered_json& v) {
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return v.dump();  // true, false, null
}

// nlohmann's message less its "[json.exception.parse_error.101] parse error at line 3, column 14: " head.
std::string parse_message(const nlohmann::json::parse_error& e) {
  std::string m = e.what();
  auto at = m.find(": ");
  return at == std::string::npos ? m : m.substr(at + 2);
}

}  // namespace

JsonDoc::JsonDoc(std::string text, std::string name, JsonPrune prune) : text_(std::move(text)), name_(std::move(name)) {
  std::size_t deep = json_nesting_beyond(text_, kMaxJsonDepth);
  if (deep != std::string::npos) {
    TextPosition p = position_in(text_, deep);
    throw JsonError(name_ + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": nesting deeper than " +
                    std::to_string(kMaxJsonDepth) + " levels: not a cuconform file (one nests about 6)");
  }
  std::vector<std::string> repeated;
  try {
    root_ = parse_ordered_json(text_, &repeated, prune);  // linear in the members (harness/util/json_ordered_parse.hpp)
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte counts the characters read, the offending one included.
    TextPosition p = position_in(text_, e.byte > 0 ? e.byte - 1 : 0);
    throw JsonError(name_ + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + parse_message(e));
  }
  // A repeated key reads as its last value (a trailing "cases": [] empties a run): refused. The
  // parse finds one; a second pass, linear, only then, finds the first in the text for the message.
  std::string key, in;
  if (repeated.empty()) return;
  if (const std::size_t at = json_duplicate_key(text_, &key, &in); at != std::string::npos) {
    const TextPosition p = position_in(text_, at);
    if (key.size() > 80) key = key.substr(0, 80) + "...";
    throw JsonError(name_ + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + (in.empty() ? "" : in + ": ") +
                    "key \"" + key + "\" appears twice in one object (which one counts would be a guess)");
  }
}

JsonDoc JsonDoc::from_file(const std::string& path, JsonPrune prune) {
  try {
    return JsonDoc(read_input_file(path), path, prune);
  } catch (const InputError& e) {
    throw JsonError(e.what());
  }
}

std::string JsonDoc::where(const std::string& path) const {
  // A missing key is not in the text: point at the object that lacks it.
  for (std::string p = path;;) {
    std::size_t at = json_offset_of(text_, p);
    if (at != std::string::npos) return name_ + ":" + std::to_string(position_in(text_, at).line);
    if (p.empty()) return name_;
    std::size_t cut = p.find_last_of(".[");
    p = cut == std::string::npos ? "" : p.substr(0, cut);
  }
}

JsonField JsonField::operator[](const std::string& key) const {
  std::string p = path_.empty() ? key : path_ + "." + key;
  if (!value_->is_object()) return JsonField(doc_, &kNull, p);
  auto it = value_->find(key);
  return JsonField(doc_, it == value_->end() ? &kNull : &*it, p);
}

const JsonField& JsonField::required() const {
  if (is_null()) fail("missing");
  return *this;
}

std::vector<JsonField> JsonField::elements() const {
  if (!value_->is_array()) fail("expected an array, got " + kind_of(*value_));
  std::vector<JsonField> out;
  for (std::size_t i = 0; i < value_->size(); ++i) out.push_back(JsonField(doc_, &(*value_)[i], path_ + "[" + std::to_string(i) + "]"));
  return out;
}

std::vector<std::pair<std::string, JsonField>> JsonField::members() const {
  std::vector<std::pair<std::string, JsonField>> out;
  if (is_null()) return out;
  if (!value_->is_object()) fail("expected an object, got " + kind_of(*value_));
  for (auto it = value_->begin(); it != value_->end(); ++it)
    out.emplace_back(it.key(), JsonField(doc_, &it.value(), path_.empty() ? it.key() : path_ + "." + it.key()));
  return out;
}

std::string JsonField::str() const {
  if (is_null()) return "";
  if (!value_->is_string()) fail("expected a string, got " + kind_of(*value_));
  return value_->get<std::string>();
}

double JsonField::num() const {
  if (is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!value_->is_number()) fail("expected a number, got " + kind_of(*value_));
  return value_->get<double>();
}

bool JsonField::boolean() const {
  if (is_null()) return false;
  if (!value_->is_boolean()) fail("expected true or false, got " + kind_of(*value_));
  return value_->get<bool>();
}

std::string JsonField::text() const {
  if (is_null()) return "";
  return value_->is_string() ? value_->get<std::string>() : value_->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void JsonField::fail(const std::string& what) const {
  throw JsonError(doc_->where(path_) + ": " + (path_.empty() ? "" : path_ + ": ") + what);
}

}  // namespace cuconform
