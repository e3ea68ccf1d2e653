#include "harness/util/json_locate.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <iterator>
#include <vector>

namespace cuconform {
namespace {

// Reads the text for the parser and remembers how far it got: the parser reports a value
// right after reading its last character (a number, one character more).
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, const char** reached) : at_(at), reached_(reached) {}
  const char& operator*() const { return *at_; }
  CountingIterator& operator++() {
    *reached_ = ++at_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& o) const { return at_ == o.at_; }
  bool operator!=(const CountingIterator& o) const { return at_ != o.at_; }

 private:
  const char* at_;
  const char** reached_;
};

// Follows the parse with the path of each value and stops at the one wanted.
class Locator : public nlohmann::json_sax<nlohmann::ordered_json> {
 public:
  Locator(std::string target, const char* const* reached) : target_(std::move(target)), reached_(reached) {}
  const char* found = nullptr;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  struct Open {
    std::string path;
    bool array;
    std::size_t next = 0;
  };

  std::string next_path() {
    if (open_.empty()) return "";
    Open& o = open_.back();
    if (o.array) return o.path + "[" + std::to_string(o.next++) + "]";
    return o.path.empty() ? key_ : o.path + "." + key_;
  }
  bool value() { return next_path() != target_ || stop(); }
  bool open(bool array) {
    std::string p = next_path();
    if (p == target_) return stop();
    open_.push_back({p, array});
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
  bool stop() {
    found = *reached_;
    return false;
  }

  std::string target_, key_;
  const char* const* reached_;
  std::vector<Open> open_;
};

}  // namespace

TextPosition position_in(const std::string& text, std::size_t offset) {
  TextPosition p;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

std::size_t json_offset_of(const std::string& text, const std::string& path) {
  const char* begin = text.data();
  const char* reached = begin;
  Locator loc(path, &reached);
  nlohmann::ordered_json::sax_parse(CountingIterator(begin, &reached), CountingIterator(begin + text.size(), &reached), &loc);
  if (!loc.found) return std::string::npos;
  // Back over what the parser read past the value: a number's terminator, spaces, a newline.
  std::size_t at = static_cast<std::size_t>(loc.found - begin);
  while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  return at > 0 ? at - 1 : 0;
}

}  // namespace cuconform
