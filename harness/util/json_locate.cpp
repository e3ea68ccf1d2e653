#include "harness/util/json_locate.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <iterator>
#include <set>
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

// The parse's events as the walkers below need them: every scalar is a value(), every object or
// array an open(array) and a close(); a malformed text stops the walk. key() is each walker's own.
template <class Walker>
class LevelSax : public nlohmann::json_sax<nlohmann::ordered_json> {
 public:
  bool null() override { return walker().value(); }
  bool boolean(bool) override { return walker().value(); }
  bool number_integer(number_integer_t) override { return walker().value(); }
  bool number_unsigned(number_unsigned_t) override { return walker().value(); }
  bool number_float(number_float_t, const string_t&) override { return walker().value(); }
  bool string(string_t&) override { return walker().value(); }
  bool binary(binary_t&) override { return walker().value(); }
  bool start_object(std::size_t) override { return walker().open(false); }
  bool start_array(std::size_t) override { return walker().open(true); }
  bool end_object() override { return walker().close(); }
  bool end_array() override { return walker().close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  Walker& walker() { return static_cast<Walker&>(*this); }
};

// Follows the parse and stops at the value wanted. Only the levels on the way to it are kept
// (how far into the path they match, an array's next index): memory grows with the depth of
// the path asked for, not of the document, and each character is read once.
class Locator : public LevelSax<Locator> {
  friend class LevelSax<Locator>;

 public:
  Locator(std::string target, const char* const* reached) : target_(std::move(target)), reached_(reached) {}
  const char* found = nullptr;

  bool key(string_t& k) override {
    if (off_path_ == 0) key_ = k;  // keys below a level off the path are never looked at
    return true;
  }

 private:
  struct Level {
    std::size_t matched;  // characters of the target this level's path matches
    bool array;
    std::size_t next = 0;
  };

  // How far the next value's path matches the target (npos: it leaves it), its index counted.
  std::size_t next_match() {
    if (on_path_.empty()) return 0;  // the document itself: the path ""
    Level& l = on_path_.back();
    std::string step = l.array ? "[" + std::to_string(l.next++) + "]" : (l.matched == 0 ? key_ : "." + key_);
    return target_.compare(l.matched, step.size(), step) == 0 ? l.matched + step.size() : std::string::npos;
  }
  bool value() {
    if (off_path_ > 0) return true;
    return next_match() != target_.size() || stop();
  }
  bool open(bool array) {
    if (off_path_ > 0) {
      ++off_path_;
      return true;
    }
    std::size_t m = next_match();
    if (m == target_.size()) return stop();
    if (m == std::string::npos) ++off_path_;
    else on_path_.push_back({m, array});
    return true;
  }
  bool close() {
    if (off_path_ > 0) --off_path_;
    else on_path_.pop_back();
    return true;
  }
  bool stop() {
    found = *reached_;
    return false;
  }

  std::string target_, key_;
  const char* const* reached_;
  std::vector<Level> on_path_;  // the open levels whose paths are a prefix of the target
  std::size_t off_path_ = 0;    // open levels below the first one that left the path
};

// Follows the parse with the keys of each open object, and stops at the first repeated one.
class DuplicateFinder : public LevelSax<DuplicateFinder> {
  friend class LevelSax<DuplicateFinder>;

 public:
  explicit DuplicateFinder(const char* const* reached) : reached_(reached) {}
  const char* found = nullptr;
  std::string repeated, in;  // the key, and the path of the object that repeats it

  bool key(string_t& k) override {
    Level& l = open_.back();
    if (!l.keys.insert(k).second) {
      found = *reached_;
      repeated = k;
      in = l.path;
      return false;
    }
    key_ = k;
    return true;
  }

 private:
  struct Level {
    bool array;
    std::string path;
    std::size_t next = 0;
    std::set<std::string> keys;
  };
  std::string next_path() {
    if (open_.empty()) return "";
    Level& l = open_.back();
    if (l.array) return l.path + "[" + std::to_string(l.next++) + "]";
    return l.path.empty() ? key_ : l.path + "." + key_;
  }
  bool value() {
    if (!open_.empty() && open_.back().array) ++open_.back().next;
    return true;
  }
  bool open(bool array) {
    std::string p = next_path();
    open_.push_back({array, std::move(p)});
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  const char* const* reached_;
  std::string key_;
  std::vector<Level> open_;
};

}  // namespace

std::size_t json_duplicate_key(const std::string& text, std::string* key, std::string* object_path) {
  const char* begin = text.data();
  const char* reached = begin;
  DuplicateFinder finder(&reached);
  nlohmann::ordered_json::sax_parse(CountingIterator(begin, &reached), CountingIterator(begin + text.size(), &reached), &finder);
  if (!finder.found) return std::string::npos;
  *key = finder.repeated;
  *object_path = finder.in;
  std::size_t at = static_cast<std::size_t>(finder.found - begin);
  return at > 0 ? at - 1 : 0;
}

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

std::size_t json_nesting_beyond(const std::string& text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string::npos;
}

}  // namespace cuconform
