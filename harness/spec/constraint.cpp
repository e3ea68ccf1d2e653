#include "harness/spec/constraint.hpp"

#include <cctype>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace cuconform {
namespace {

struct Value {
  std::string text;
  bool numeric = false;
  long long n = 0;
};

Value make(const std::string& s) {
  Value v{s};
  char* end = nullptr;
  long long n = std::strtoll(s.c_str(), &end, 0);
  if (!s.empty() && *end == '\0') {
    v.numeric = true;
    v.n = n;
  }
  return v;
}

Value make_num(long long n) {
  Value v{std::to_string(n), true, n};
  return v;
}

class Parser {
 public:
  Parser(const std::string& e, const std::map<std::string, std::string>& p) : s_(e), p_(p) {}
  bool run() {
    Value v = parse_or();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_, 40) + "'");
    return truthy(v);
  }

 private:
  [[noreturn]] void fail(const std::string& why) {
    // A long expression is cut in the message (its file and line say where it is).
    const std::string shown = s_.size() > 80 ? s_.substr(0, 60) + "... (" + std::to_string(s_.size()) + " characters)" : s_;
    throw std::invalid_argument("bad where-expression '" + shown + "': " + why);
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const std::string& tok) {
    skip();
    if (s_.compare(i_, tok.size(), tok) == 0) {
      i_ += tok.size();
      return true;
    }
    return false;
  }
  static bool truthy(const Value& v) { return v.numeric ? v.n != 0 : !v.text.empty(); }
  Value parse_or() {
    Value l = parse_and();
    while (eat("||")) {
      Value r = parse_and();
      l = make_num(truthy(l) || truthy(r));
    }
    return l;
  }
  Value parse_and() {
    Value l = parse_cmp();
    while (eat("&&")) {
      Value r = parse_cmp();
      l = make_num(truthy(l) && truthy(r));
    }
    return l;
  }
  Value parse_cmp() {
    Value l = parse_sum();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (eat(op)) {
        Value r = parse_sum();
        std::string o = op;
        if (o == "==") return make_num(l.numeric && r.numeric ? l.n == r.n : l.text == r.text);
        if (o == "!=") return make_num(l.numeric && r.numeric ? l.n != r.n : l.text != r.text);
        if (!l.numeric || !r.numeric) fail("'" + o + "' needs numbers");
        if (o == "<=") return make_num(l.n <= r.n);
        if (o == ">=") return make_num(l.n >= r.n);
        if (o == "<") return make_num(l.n < r.n);
        return make_num(l.n > r.n);
      }
    }
    return l;
  }
  Value parse_sum() {
    Value l = parse_term();
    for (;;) {
      skip();
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) {
        char op = s_[i_++];
        Value r = parse_term();
        if (!l.numeric || !r.numeric) fail(std::string("'") + op + "' needs numbers");
        l = make_num(op == '+' ? l.n + r.n : l.n - r.n);
      } else {
        return l;
      }
    }
  }
  Value parse_term() {
    Value l = parse_unary();
    for (;;) {
      skip();
      if (i_ < s_.size() && (s_[i_] == '*' || s_[i_] == '/' || s_[i_] == '%')) {
        char op = s_[i_++];
        Value r = parse_unary();
        if (!l.numeric || !r.numeric) fail(std::string("'") + op + "' needs numbers");
        if (op != '*' && r.n == 0) fail("division by zero");
        l = make_num(op == '*' ? l.n * r.n : op == '/' ? l.n / r.n : l.n % r.n);
      } else {
        return l;
      }
    }
  }
  Value parse_unary() {
    skip();
    if (i_ < s_.size() && (s_[i_] == '!' || s_[i_] == '(')) {
      // Each '!' and '(' recurses: bounded, so a deep expression is an error, not a stack overflow.
      if (++depth_ > kMaxDepth) fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
      Value v;
      if (eat("!")) {
        v = make_num(!truthy(parse_unary()));
      } else {
        eat("(");
        v = parse_or();
        if (!eat(")")) fail("missing ')'");
      }
      --depth_;
      return v;
    }
    skip();
    std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.'))
      ++i_;
    if (start == i_) fail(i_ < s_.size() ? "unexpected '" + std::string(1, s_[i_]) + "'" : "expression ends early");
    std::string word = s_.substr(start, i_ - start);
    auto it = p_.find(word);
    return make(it != p_.end() ? it->second : word);
  }

  static constexpr int kMaxDepth = 64;
  const std::string& s_;
  const std::map<std::string, std::string>& p_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

bool eval_constraint(const std::string& expr, const std::map<std::string, std::string>& params) {
  return Parser(expr, params).run();
}

}  // namespace cuconform
