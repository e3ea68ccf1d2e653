#pragma once
// The verbs of `cuconform` and the options each one declares, next to its implementation: every
// verb file registers itself with one VerbRegistration at namespace scope. From this one table come
// the parsing (CLI11, cli/command_line.cpp), every --help (cli/help.cpp), the "did you mean"
// suggestions and the bash completion (`cuconform completion bash`), so none can drift from the
// others. Adding a verb or an option: cli/README.md.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/options.hpp"

namespace cuconform {

using VerbFn = std::function<int(const Options&)>;

// What the bash completion offers for an option's value.
enum class ValueHint { text, file, dir, choices, area, kind };

struct OptionDecl {
  std::string flag;  // "--json", "-o"
  std::string meta;  // "FILE"; empty: a switch, which takes no value
  std::string help;
  ValueHint hint = ValueHint::text;
  std::vector<std::string> choices;  // ValueHint::choices
  bool repeats = false;              // given again it adds a value (the filters); otherwise the last one wins
  bool takes_value() const { return !meta.empty(); }
};

class Verb {
 public:
  Verb(std::string name, std::string summary, VerbFn fn, const Verb* parent);

  // --flag VALUE (also --flag=VALUE); the last one given wins. `hint`: what completion offers
  // (`choices` with ValueHint::choices: "sass", "jit", "ptxas=").
  Verb& value(const std::string& flag, const std::string& meta, const std::string& help, ValueHint hint = ValueHint::text,
              const std::vector<std::string>& choices = {});
  // --flag VALUE with a fixed set of values, offered by the completion (the verb still checks the value).
  Verb& choice(const std::string& flag, const std::vector<std::string>& values, const std::string& help);
  // --flag, no value.
  Verb& flag(const std::string& flag, const std::string& help);
  // The case filters (--area, --rule, --tag, --kind, --profile), before or after the verb.
  Verb& filters();
  // Positional arguments, from `min` to `max` of them (-1: no limit), shown as `meta` ("BASE.json
  // NEW.json"); `noun` names them in messages ("'compare' takes 2 file argument(s), got 1").
  Verb& args(int min, int max, const std::string& meta, const std::string& noun = "file");
  // A paragraph for --help, below the usage line.
  Verb& about(const std::string& text);
  // A subcommand (`history add`): it takes this verb's options as well as its own, and runs
  // `fn`, or this verb's function, with Options::sub set to its name. Declare this verb's own
  // options first.
  Verb& sub(const std::string& name, const std::string& summary, VerbFn fn = nullptr);

  const std::string& name() const { return name_; }
  const std::string& summary() const { return summary_; }
  const std::string& about_text() const { return about_; }
  std::string path() const;  // "history runs"
  const Verb* parent() const { return parent_; }
  const VerbFn& fn() const { return fn_; }
  bool takes_filters() const { return filters_ || (parent_ && parent_->takes_filters()); }
  int min_args() const { return min_args_; }
  int max_args() const { return max_args_; }
  const std::string& args_meta() const { return args_meta_; }
  const std::string& args_noun() const { return args_noun_; }
  const std::vector<std::unique_ptr<Verb>>& subs() const { return subs_; }
  const Verb* find_sub(const std::string& name) const;
  // Its own options and those it inherits from the verbs above it (not --specs, --help, filters).
  std::vector<const OptionDecl*> options() const;
  // Everything it accepts: options(), the filters when it takes them, --specs.
  std::vector<const OptionDecl*> accepted() const;

 private:
  Verb& add(OptionDecl d);
  std::string name_, summary_, about_;
  VerbFn fn_;
  const Verb* parent_;
  std::vector<OptionDecl> own_;
  bool filters_ = false;
  int min_args_ = 0, max_args_ = 0;
  std::string args_meta_, args_noun_ = "file";
  std::vector<std::unique_ptr<Verb>> subs_;
};

// One per verb, at namespace scope in the verb's file:
//   const VerbRegistration kList("list", "the cases, with their gates", cmd_list,
//                                [](Verb& v) { v.filters().value("--cc", "X.Y", "plan for another GPU"); });
struct VerbRegistration {
  VerbRegistration(const std::string& name, const std::string& summary, VerbFn fn, const std::function<void(Verb&)>& declare);
};

// The registered verbs, by name.
std::vector<const Verb*> all_verbs();
const Verb* find_verb(const std::string& name);

// Options every verb takes (--specs DIR) and the filters.
const std::vector<OptionDecl>& global_options();
const std::vector<OptionDecl>& filter_options();

// "cuconform 0.1.0 (commit 49683d2)"
std::string version_line();

}  // namespace cuconform
