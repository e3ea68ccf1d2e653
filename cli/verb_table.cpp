#include "cli/verb_table.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace cuconform {

namespace {

// Filled before main() by the registrations; read only after.
std::map<std::string, std::unique_ptr<Verb>>& registry() {
  static std::map<std::string, std::unique_ptr<Verb>> r;
  return r;
}

// A verb declared twice, or an option twice in one verb, is a mistake of the source: said at start-up.
[[noreturn]] void bad_declaration(const std::string& what) {
  std::fprintf(stderr, "cuconform: bad verb declaration: %s\n", what.c_str());
  std::abort();
}

}  // namespace

Verb::Verb(std::string name, std::string summary, VerbFn fn, const Verb* parent)
    : name_(std::move(name)), summary_(std::move(summary)), fn_(std::move(fn)), parent_(parent) {}

std::string Verb::path() const { return parent_ ? parent_->path() + " " + name_ : name_; }

Verb& Verb::add(OptionDecl d) {
  for (const OptionDecl* o : accepted())
    if (o->flag == d.flag) bad_declaration("'" + path() + "' declares " + d.flag + " twice");
  own_.push_back(std::move(d));
  return *this;
}

Verb& Verb::value(const std::string& flag, const std::string& meta, const std::string& help, ValueHint hint,
                  const std::vector<std::string>& choices) {
  return add({flag, meta, help, hint, choices, false});
}

Verb& Verb::choice(const std::string& flag, const std::vector<std::string>& values, const std::string& help) {
  std::string meta;
  for (auto& v : values) meta += (meta.empty() ? "" : "|") + v;
  return add({flag, meta, help, ValueHint::choices, values, false});
}

Verb& Verb::flag(const std::string& flag, const std::string& help) { return add({flag, "", help}); }

Verb& Verb::filters() {
  for (auto& f : filter_options())
    for (auto& o : own_)
      if (o.flag == f.flag) bad_declaration("'" + path() + "' declares the filter " + f.flag + " itself");
  filters_ = true;
  return *this;
}

Verb& Verb::args(int min, int max, const std::string& meta, const std::string& noun) {
  min_args_ = min;
  max_args_ = max;
  args_meta_ = meta;
  args_noun_ = noun;
  return *this;
}

Verb& Verb::about(const std::string& text) {
  about_ = text;
  return *this;
}

Verb& Verb::sub(const std::string& name, const std::string& summary, VerbFn fn) {
  if (find_sub(name)) bad_declaration("'" + path() + "' declares the subcommand '" + name + "' twice");
  subs_.push_back(std::make_unique<Verb>(name, summary, fn ? std::move(fn) : fn_, this));
  return *subs_.back();
}

const Verb* Verb::find_sub(const std::string& name) const {
  for (auto& s : subs_)
    if (s->name() == name) return s.get();
  return nullptr;
}

std::vector<const OptionDecl*> Verb::options() const {
  std::vector<const OptionDecl*> out = parent_ ? parent_->options() : std::vector<const OptionDecl*>{};
  for (auto& o : own_) out.push_back(&o);
  return out;
}

std::vector<const OptionDecl*> Verb::accepted() const {
  std::vector<const OptionDecl*> out = options();
  if (takes_filters())
    for (auto& o : filter_options()) out.push_back(&o);
  for (auto& o : global_options()) out.push_back(&o);
  return out;
}

VerbRegistration::VerbRegistration(const std::string& name, const std::string& summary, VerbFn fn,
                                   const std::function<void(Verb&)>& declare) {
  auto& r = registry();
  if (r.count(name)) bad_declaration("the verb '" + name + "' is registered twice");
  auto v = std::make_unique<Verb>(name, summary, std::move(fn), nullptr);
  declare(*v);
  r.emplace(name, std::move(v));
}

std::vector<const Verb*> all_verbs() {
  std::vector<const Verb*> out;
  for (auto& [name, v] : registry()) out.push_back(v.get());
  return out;
}

const Verb* find_verb(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second.get();
}

const std::vector<OptionDecl>& global_options() {
  static const std::vector<OptionDecl> g = {
      {"--specs", "DIR", "the specs folder (default: the one the executable was built with)", ValueHint::dir},
  };
  return g;
}

const std::vector<OptionDecl>& filter_options() {
  static const std::vector<OptionDecl> f = {
      {"--area", "AREA", "an area (a spec file's name: ldgsts, mbarrier, ...)", ValueHint::area, {}, true},
      {"--rule", "GLOB", "a rule id or case name (shell glob)", ValueHint::text, {}, true},
      {"--tag", "TAG", "a tag", ValueHint::text, {}, true},
      {"--kind", "KIND", "positive, negative, performance, codegen or undefined", ValueHint::kind, {}, true},
      {"--tier", "TIER", "core (the gate), extended or informational", ValueHint::choices, {"core", "extended", "informational"}, true},
      {"--profile", "smoke", "smoke: one case per rule and variant, for every commit (default: full)", ValueHint::choices,
       {"smoke", "full"}},
  };
  return f;
}

std::string version_line() { return std::string("cuconform ") + CUCONFORM_VERSION + " (commit " + CUCONFORM_COMMIT + ")"; }

}  // namespace cuconform
