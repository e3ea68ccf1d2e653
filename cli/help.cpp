#include "cli/help.hpp"

#include <sstream>

namespace cuconform {

namespace {

constexpr std::size_t kWidth = 100;

// `text` in lines of at most kWidth columns, each after `indent` spaces (the first after `first`
// characters already on the line).
std::string wrap(const std::string& text, std::size_t indent, std::size_t first) {
  std::istringstream words(text);
  std::string word, out;
  std::size_t col = first;
  bool line_start = true;
  while (words >> word) {
    if (!line_start && col + 1 + word.size() > kWidth) {
      out += "\n" + std::string(indent, ' ');
      col = indent;
      line_start = true;
    }
    if (!line_start) {
      out += " ";
      ++col;
    }
    out += word;
    col += word.size();
    line_start = false;
  }
  return out;
}

// "  --json FILE        what it is", the help wrapped under itself.
void option_line(std::ostream& o, const OptionDecl& d) {
  std::string left = "  " + d.flag + (d.meta.empty() ? "" : " " + d.meta);
  const std::size_t col = 26;
  if (left.size() + 2 > col) left += "\n" + std::string(col, ' ');
  else left += std::string(col - left.size(), ' ');
  o << left << wrap(d.help, col, col) << "\n";
}

const char* kExitCodes =
    "exit codes: 0 ok, 1 something failed, 2 bad input (the message names what), 3 no case could run on a GPU, 4 a GPU became "
    "unhealthy during the run, 128+N stopped by signal N (the finished cases' results are written, marked cut off)";

}  // namespace

std::string verb_usage(const Verb& v) {
  std::string s = "usage: cuconform " + v.path();
  if (!v.subs().empty()) s += " SUBCOMMAND";
  if (!v.args_meta().empty()) s += " " + v.args_meta();
  if (!v.accepted().empty()) s += " [options]";
  return s;
}

std::string verb_help(const Verb& v) {
  std::ostringstream o;
  o << verb_usage(v) << "\n\n" << wrap(v.summary(), 0, 0) << "\n";
  if (!v.about_text().empty()) o << "\n" << wrap(v.about_text(), 0, 0) << "\n";
  if (!v.subs().empty()) {
    o << "\nsubcommands (cuconform " << v.path() << " SUBCOMMAND --help: its options):\n";
    for (auto& s : v.subs()) {
      std::string left = "  " + s->name() + (s->args_meta().empty() ? "" : " " + s->args_meta());
      left += std::string(left.size() + 2 > 26 ? 2 : 26 - left.size(), ' ');
      o << left << wrap(s->summary(), 26, left.size()) << "\n";
    }
  }
  std::vector<const OptionDecl*> own = v.options();
  if (!own.empty()) {
    o << "\noptions:\n";
    for (const OptionDecl* d : own) option_line(o, *d);
  }
  if (v.takes_filters()) {
    o << "\nfilters (before or after the verb; a filter given twice takes either value):\n";
    for (auto& d : filter_options()) option_line(o, d);
  }
  o << "\nevery verb:\n";
  for (auto& d : global_options()) option_line(o, d);
  option_line(o, {"-h, --help", "", "this help"});
  option_line(o, {"--version", "", "the version and the commit it was built from"});
  o << "\n--opt=value works as --opt value.\n" << kExitCodes << "\n";
  return o.str();
}

std::string root_help() {
  std::ostringstream o;
  o << "usage: cuconform [--specs DIR] [filters] VERB [options]\n\n"
    << "A hardware-in-the-loop conformance suite for NVIDIA GPUs (README.md). `cuconform VERB --help`:\n"
    << "a verb's options and arguments.\n\nverbs:\n";
  for (const Verb* v : all_verbs()) {
    std::string left = "  " + v->name();
    left += std::string(left.size() + 2 > 14 ? 2 : 14 - left.size(), ' ');
    o << left << wrap(v->summary(), 14, left.size()) << "\n";
  }
  o << "\nevery verb, before or after it:\n";
  for (auto& d : global_options()) option_line(o, d);
  option_line(o, {"-h, --help", "", "this help, or a verb's (cuconform VERB --help)"});
  option_line(o, {"--version", "", "the version and the commit it was built from"});
  o << "\nfilters (the verbs that list or run cases), before or after the verb:\n";
  for (auto& d : filter_options()) option_line(o, d);
  o << "\n--opt=value works as --opt value. Bash completion: source build/completions/cuconform.\n" << kExitCodes << "\n";
  return o.str();
}

}  // namespace cuconform
