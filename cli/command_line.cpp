#include "cli/command_line.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <ostream>
#include <set>

#include "cli/help.hpp"
#include "cli/output_paths.hpp"
#include "cli/short_option_value.hpp"
#include "cli/suggest.hpp"
#include "cli/verbs.hpp"

namespace cuconform {

namespace {

bool is_option(const std::string& token) { return token.size() > 1 && token[0] == '-'; }

// "--area=ldgsts" -> "--area"
std::string option_name(const std::string& token) { return token.substr(0, token.find('=')); }

// One CLI11 app per verb (and per subcommand), with the options the verb declares.
struct Node {
  const Verb* verb = nullptr;  // null: the root, before any verb
  CLI::App* app = nullptr;
  std::vector<std::pair<const OptionDecl*, CLI::Option*>> options;
};

// Every verb that accepts `flag` (below `under` when given), as "history changes, history report".
std::string verbs_taking(const std::string& flag, const Verb* under = nullptr) {
  std::vector<std::string> names;
  std::function<void(const Verb&)> visit = [&](const Verb& v) {
    for (const OptionDecl* d : v.accepted())
      if (d->flag == flag && &v != under) names.push_back(v.path());
    for (auto& s : v.subs()) visit(*s);
  };
  if (under) visit(*under);
  else
    for (const Verb* v : all_verbs()) visit(*v);
  std::string s;
  for (auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

class Parser {
 public:
  Parser(std::ostream& out, std::ostream& err) : out_(out), err_(err) {
    root_.set_help_flag("-h,--help");  // before the verbs are added: they take it too
    root_.set_version_flag("--version", version_line());
    root_.allow_extras();
    root_.require_subcommand(0, 1);
    Node root{nullptr, &root_, {}};
    for (auto& d : global_options()) bind(root, d);
    for (auto& d : filter_options()) bind(root, d);
    nodes_.push_back(root);
    for (const Verb* v : all_verbs()) build(*v, &root_);
  }

  CommandLine parse(int argc, const char* const* argv) {
    CommandLine c;
    if (argc < 2) {  // no verb: the usage on stderr, as for any bad command line
      err_ << root_help();
      c.exit = kExitBadInput;
      return c;
    }
    // "-o=FILE" as "-o FILE", like "--json=FILE" (CLI11 reads "=FILE" as the value of -o).
    std::vector<std::string> args = split_short_option_values(argc, argv, [](const std::string& flag) { return !verbs_taking(flag).empty(); });
    try {
      root_.parse(std::vector<std::string>(args.rbegin(), args.rend()));
    } catch (const CLI::CallForHelp&) {
      const Node at = chain().back();
      out_ << (at.verb ? verb_help(*at.verb) : root_help());
      return c;
    } catch (const CLI::CallForVersion& e) {
      out_ << e.what() << "\n";
      return c;
    } catch (const CLI::ArgumentMismatch& e) {  // "--json: 1 required TEXT missing"
      const std::string what = e.what();
      return fail(chain().back(), what.substr(0, what.find(':')) + " needs a value");
    } catch (const CLI::ParseError& e) {
      return fail(chain().back(), e.what());
    }
    return collect();
  }

 private:
  void bind(Node& n, const OptionDecl& d) {
    CLI::Option* o = d.takes_value() ? n.app->add_option(d.flag)->expected(1) : n.app->add_flag(d.flag);
    if (d.takes_value()) d.repeats ? o->take_all() : o->take_last();
    n.options.push_back({&d, o});
  }

  void build(const Verb& v, CLI::App* parent) {
    Node n{&v, parent->add_subcommand(v.name(), v.summary()), {}};
    n.app->allow_extras();  // unknown options and the arguments: judged in collect(), with our messages
    n.app->set_version_flag("--version", version_line());  // every verb takes it, as the help says
    if (!v.subs().empty()) n.app->require_subcommand(0, 1);
    for (const OptionDecl* d : v.accepted()) bind(n, *d);
    nodes_.push_back(n);
    for (auto& s : v.subs()) build(*s, n.app);
  }

  // The root, then the verb and its subcommand as far as they were given.
  std::vector<Node> chain() const {
    std::vector<Node> c = {nodes_.front()};
    for (;;) {
      auto subs = c.back().app->get_subcommands();
      if (subs.empty()) return c;
      auto it = std::find_if(nodes_.begin(), nodes_.end(), [&](const Node& n) { return n.app == subs.front(); });
      if (it == nodes_.end()) return c;
      c.push_back(*it);
    }
  }

  static std::string where(const Node& n) { return n.verb ? "cuconform " + n.verb->path() : "cuconform"; }

  CommandLine fail(const Node& n, const std::string& message) {
    err_ << where(n) << ": " << message << "\n";
    CommandLine c;
    c.exit = kExitBadInput;
    return c;
  }

  // An option this place does not take: one another verb takes "does not apply", else the
  // nearest names it does take.
  CommandLine unknown_option(const Node& n, const std::string& token) {
    const std::string flag = option_name(token);
    const std::string help = n.verb ? "cuconform " + n.verb->path() + " --help" : "cuconform --help";
    const std::string elsewhere = verbs_taking(flag);
    if (!elsewhere.empty() && !n.verb) return fail(n, flag + " goes after the verb (an option of " + elsewhere + ")");
    if (n.verb && !n.verb->subs().empty() && !verbs_taking(flag, n.verb).empty())
      return fail(n, flag + " goes after the subcommand (an option of " + verbs_taking(flag, n.verb) + ")");
    if (!elsewhere.empty())
      return fail(n, flag + " does not apply (an option of " + elsewhere + "; " + help + ": its options)");
    std::vector<std::string> known = {"--help"};
    if (n.verb)
      for (const OptionDecl* d : n.verb->accepted()) known.push_back(d->flag);
    else
      for (auto* list : {&global_options(), &filter_options()})
        for (auto& d : *list) known.push_back(d.flag);
    known.push_back("--version");
    return fail(n, "unknown option '" + flag + "'" + did_you_mean(flag, known) + " (" + help + ": its options)");
  }

  CommandLine unknown_verb(const Node& n, const std::string& word) {
    std::vector<std::string> names;
    std::string list;
    if (n.verb)
      for (auto& s : n.verb->subs()) names.push_back(s->name());
    else
      for (const Verb* v : all_verbs()) names.push_back(v->name());
    for (std::size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    if (n.verb) return fail(n, "unknown subcommand '" + word + "'" + did_you_mean(word, names) + " (" + list + ")");
    return fail(n, "unknown verb '" + word + "'" + did_you_mean(word, names) + " (cuconform --help lists the verbs)");
  }

  std::string count_text(const Verb& v) const {
    const int lo = v.min_args(), hi = v.max_args();
    if (lo == hi) return std::to_string(lo);
    if (hi < 0) return "at least " + std::to_string(lo);
    return std::to_string(lo) + " to " + std::to_string(hi);
  }

  CommandLine collect() {
    const std::vector<Node> c = chain();
    // Tokens no app took: before the verb (the root's), or a verb's that is missing its subcommand.
    for (std::size_t i = 0; i + 1 < c.size() || (i == 0 && c.size() == 1); ++i) {
      const std::vector<std::string> left = c[i].app->remaining();
      if (left.empty()) continue;
      if (is_option(left.front())) return unknown_option(c[i], left.front());
      if (i == 0 && c.size() > 1)
        return fail(c[0], "unexpected argument '" + left.front() + "' before the verb '" + c[1].verb->name() + "'");
      return unknown_verb(c[i], left.front());
    }
    if (c.size() == 1) {  // options and no verb
      err_ << root_help();
      CommandLine r;
      r.exit = kExitBadInput;
      return r;
    }
    const Node& last = c.back();
    const Verb& verb = *last.verb;
    if (!verb.subs().empty()) {
      const std::vector<std::string> left = last.app->remaining();
      if (!left.empty() && !is_option(left.front())) return unknown_verb(last, left.front());
      if (left.empty()) {
        std::string names;
        for (std::size_t i = 0; i < verb.subs().size(); ++i)
          names += (i == 0 ? "" : i + 1 == verb.subs().size() ? " or " : ", ") + verb.subs()[i]->name();
        return fail(last, "name a subcommand: " + names + " (cuconform " + verb.path() + " --help)");
      }
    }
    CommandLine r;
    Options& o = r.options;
    for (const std::string& token : last.app->remaining()) {
      if (is_option(token)) return unknown_option(last, token);
      o.positional.push_back(token);
    }
    const int n = static_cast<int>(o.positional.size());
    if (n > 0 && verb.max_args() == 0)
      return fail(last, "unexpected argument '" + o.positional.front() + "' ('" + verb.path() + "' takes none)");
    if (n < verb.min_args() || (verb.max_args() >= 0 && n > verb.max_args()))
      return fail(last, "'" + verb.path() + "' takes " + count_text(verb) + " " + verb.args_noun() + " argument(s) (" +
                            verb.args_meta() + "), got " + std::to_string(n));
    for (const Node& node : c) {
      for (auto& [decl, opt] : node.options) {
        if (opt->count() == 0) continue;
        const std::string& flag = decl->flag;
        if (!decl->takes_value()) {
          o.switches.insert(flag);
          continue;
        }
        for (const std::string& value : opt->results())
          if (value.rfind("--", 0) == 0) return fail(last, flag + " needs a value (got the option '" + value + "')");
        if (!verb.takes_filters() && !node.verb && flag != "--specs") return unknown_option(last, flag);
        const std::string& value = opt->results().back();
        if (flag == "--specs") o.specs = value;
        else if (flag == "--area") o.sel.areas.insert(o.sel.areas.end(), opt->results().begin(), opt->results().end());
        else if (flag == "--rule") o.sel.rules.insert(o.sel.rules.end(), opt->results().begin(), opt->results().end());
        else if (flag == "--tag") o.sel.tags.insert(o.sel.tags.end(), opt->results().begin(), opt->results().end());
        else if (flag == "--kind") o.sel.kinds.insert(o.sel.kinds.end(), opt->results().begin(), opt->results().end());
        else if (flag == "--tier") o.sel.tiers.insert(o.sel.tiers.end(), opt->results().begin(), opt->results().end());
        else if (flag == "--profile") o.sel.profile = value;
        else o.values[flag] = value;
      }
    }
    o.verb = c[1].verb->name();
    if (c.size() > 2) o.sub = last.verb->name();
    if (std::string clash = output_path_clash(o, verb); !clash.empty()) return fail(last, clash);
    r.verb = &verb;
    return r;
  }

  std::ostream &out_, &err_;
  CLI::App root_{"", "cuconform"};
  std::vector<Node> nodes_;
};

}  // namespace

CommandLine parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  Parser p(out, err);
  return p.parse(argc, argv);
}

}  // namespace cuconform
