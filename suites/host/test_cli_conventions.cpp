// The command line's conventions (cli/verb_table.hpp, cli/command_line.cpp): every verb answers
// --help, --version names the commit, --opt=value, options before the verb, "did you mean" for a
// typo, and the bash completion the build writes lists every verb and option the parser takes.
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "harness/util/tools.hpp"
#include "suites/host/test_cli_run.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

// The verbs and subcommands of the issue that asked for these conventions: present whatever is added.
const std::vector<std::string> kVerbs = {"list", "run", "lint", "device", "fixtures", "errata", "coverage",
                                         "report", "compare", "merge", "history"};
const std::vector<std::string> kHistorySubs = {"add", "runs", "changes", "flaky", "trend", "report"};

// A bash associative array of the completion script: `declare -gA NAME=( ["KEY"]="WORDS" ... )`.
std::map<std::string, std::set<std::string>> completion_table(const std::string& script, const std::string& name) {
  std::map<std::string, std::set<std::string>> t;
  const auto start = script.find("declare -gA " + name + "=(");
  REQUIRE(start != std::string::npos);
  std::istringstream in(script.substr(start, script.find("\n)\n", start) - start));
  std::string line;
  std::getline(in, line);
  const std::regex entry(R"re(^  \["([^"]*)"\]="([^"]*)"$)re");
  while (std::getline(in, line)) {
    std::smatch m;
    REQUIRE(std::regex_match(line, m, entry));
    std::istringstream words(m[2].str());
    std::string w;
    while (words >> w) t[m[1].str()].insert(w);
  }
  return t;
}

// The options a --help text lists: the first word of each "  -x" / "  --flag" line.
std::set<std::string> options_in_help(const std::string& help) {
  std::set<std::string> out;
  std::istringstream in(help);
  std::string line;
  const std::regex opt(R"(^  (-[-a-z]+)(,| |$).*)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, opt)) out.insert(m[1].str());
  }
  out.insert("--help");  // listed as "-h, --help"
  return out;
}

// What bash offers after WORDS (the last one is the word being completed), with the script sourced.
std::string complete(const std::string& script_file, const std::string& words) {
  const std::string body = "source \"$1\"; COMP_WORDS=(" + words +
                           "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _cuconform; echo \"${COMPREPLY[*]}\"";
  return run_tool({"/bin/bash", "-c", body, "bash", script_file}, 60).output;
}

}  // namespace

TEST_CASE("every verb and subcommand answers --help and -h with exit 0; --version names the commit", "[host][cli]") {
  const ToolRun root = cli({"--help"});
  CHECK(root.exit_code == 0);
  CHECK(has(root.output, "usage: cuconform"));
  for (const std::string& v : kVerbs) {
    INFO(v);
    CHECK(has(root.output, "\n  " + v + " "));
    for (const char* flag : {"--help", "-h"}) {
      const ToolRun h = cli({v, flag});
      INFO(h.output);
      CHECK(h.exit_code == 0);
      CHECK(h.output.rfind("usage: cuconform " + v, 0) == 0);
    }
    CHECK(cli({"help", v}).output == cli({v, "--help"}).output);
  }
  for (const std::string& s : kHistorySubs) {
    const ToolRun h = cli({"history", s, "--help"});
    INFO(h.output);
    CHECK(h.exit_code == 0);
    CHECK(h.output.rfind("usage: cuconform history " + s, 0) == 0);
  }
  // A verb's help names its own options and the filters where it takes them, and no one else's.
  const std::string list = cli({"list", "-h"}).output;
  CHECK(has(list, "  --cc X.Y"));
  CHECK(has(list, "  --area AREA"));
  CHECK_FALSE(has(list, "--rerun"));
  CHECK_FALSE(has(cli({"lint", "-h"}).output, "--area"));

  const ToolRun version = cli({"--version"});
  INFO(version.output);
  CHECK(version.exit_code == 0);
  CHECK(std::regex_match(version.output, std::regex("cuconform [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit ([0-9a-f]{7,}|unknown)\\)\n")));
  CHECK(has(version.output, std::string("(commit ") + CUCONFORM_COMMIT + ")"));
  // The help says every verb takes it: each verb and subcommand answers it the same, exit 0 (it
  // exited 2, "unknown option", before 2026-11-28).
  auto same_version = [&](const std::vector<std::string>& args) {
    const ToolRun v = cli(args);
    INFO(args.front() << (args.size() > 2 ? " " + args[1] : std::string()) << ": " << v.output);
    CHECK(v.exit_code == 0);
    CHECK(v.output == version.output);
  };
  for (const std::string& v : kVerbs) same_version({v, "--version"});
  for (const std::string& s : kHistorySubs) same_version({"history", s, "--version"});
}

TEST_CASE("an option as --opt=value, and the filters and --specs before the verb, mean what they mean after it", "[host][cli]") {
  const ToolRun spaced = cli({"list", "--area", "ldgsts", "--kind", "positive"});
  REQUIRE(spaced.exit_code == 0);
  CHECK(has(spaced.output, "ldgsts."));
  for (std::vector<std::string> args : {std::vector<std::string>{"list", "--area=ldgsts", "--kind=positive"},
                                        std::vector<std::string>{"--area", "ldgsts", "list", "--kind", "positive"},
                                        std::vector<std::string>{"--area=ldgsts", "--kind=positive", "list"},
                                        std::vector<std::string>{"--specs", CUCONFORM_SOURCE_SPECS_DIR, "list", "--area=ldgsts",
                                                                 "--kind", "positive"}}) {
    const ToolRun r = cli(args);
    INFO(args.front() << " " << args.at(1) << ": " << r.output);
    CHECK(r.exit_code == 0);
    CHECK(r.output == spaced.output);
  }
  // A filter given before and after adds up, as twice after it does.
  CHECK(cli({"--area", "ldgsts", "list", "--area", "mbarrier"}).output == cli({"list", "--area", "ldgsts", "--area", "mbarrier"}).output);
  // Before the verb, a filter still needs a verb that takes filters.
  const ToolRun lint = cli({"--area", "ldgsts", "lint"});
  CHECK(lint.exit_code == 2);
  CHECK(has(lint.output, "cuconform lint: --area does not apply (an option of errata, list, run"));
  // A verb's own option belongs after it.
  const ToolRun before = cli({"--timing", "run"});
  CHECK(before.exit_code == 2);
  CHECK(has(before.output, "--timing goes after the verb (an option of run)"));
  const ToolRun sub = cli({"history", "--format", "md", "runs"});
  CHECK(sub.exit_code == 2);
  CHECK(has(sub.output, "cuconform history: --format goes after the subcommand (an option of history runs, history changes"));
}

TEST_CASE("a mistyped verb, subcommand or option exits 2 with the nearest names", "[host][cli]") {
  struct Typo {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Typo> typos = {
      {{"lsit"}, "cuconform: unknown verb 'lsit'; did you mean 'list'?"},
      {{"comapre", "a.json", "b.json"}, "unknown verb 'comapre'; did you mean 'compare'?"},
      {{"list", "--aera", "ldgsts"}, "cuconform list: unknown option '--aera'; did you mean '--area'?"},
      {{"list", "--aera=ldgsts"}, "cuconform list: unknown option '--aera'; did you mean '--area'?"},
      {{"--aera", "ldgsts", "list"}, "cuconform: unknown option '--aera'; did you mean '--area'?"},
      {{"run", "--verbos"}, "unknown option '--verbos'; did you mean '--verbose'?"},
      {{"run", "--timimg"}, "unknown option '--timimg'; did you mean '--timing'?"},
      {{"history", "chnages"}, "cuconform history: unknown subcommand 'chnages'; did you mean 'changes'?"},
      {{"help", "lsit"}, "cuconform help: unknown verb 'lsit'; did you mean 'list'?"},
      {{"run", "--frobnicate"}, "cuconform run: unknown option '--frobnicate' (cuconform run --help: its options)"},
      {{"run", "--cc", "8.0"}, "cuconform run: --cc does not apply (an option of list;"},
  };
  for (const Typo& t : typos) {
    const ToolRun r = cli(t.args);
    INFO(t.args.front() << " " << (t.args.size() > 1 ? t.args[1] : "") << ": " << r.output);
    CHECK(r.exit_code == 2);
    CHECK(has(r.output, t.message));
  }
  // Nothing near: no guess.
  CHECK_FALSE(has(cli({"zzzzzz"}).output, "did you mean"));
}

TEST_CASE("the bash completion the build writes lists every verb, subcommand and option the parser takes", "[host][cli]") {
  const std::string file = CUCONFORM_COMPLETION_FILE;
  const std::string script = read_text(file);
  REQUIRE_FALSE(script.empty());
  const ToolRun made = cli({"completion", "bash"});
  REQUIRE(made.exit_code == 0);
  CHECK(made.output == script);  // the build's copy is the current table's

  const auto subs = completion_table(script, "_cuconform_subs");
  const auto opts = completion_table(script, "_cuconform_opts");
  for (const std::string& v : kVerbs) CHECK(subs.at("cuconform").count(v));
  for (const std::string& s : kHistorySubs) CHECK(subs.at("cuconform history").count(s));
  // Every verb the help lists, and every option each verb's help lists, is offered; nothing else.
  const std::string root = cli({"--help"}).output;
  std::set<std::string> helped_verbs;
  const std::regex verb_line(R"(^  ([a-z]+) +.*)");
  std::istringstream in(root.substr(root.find("verbs:"), root.find("\nevery verb") - root.find("verbs:")));
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, verb_line)) helped_verbs.insert(m[1].str());
  }
  CHECK(helped_verbs == subs.at("cuconform"));
  std::set<std::string> root_options = options_in_help(root);
  CHECK(root_options == opts.at("cuconform"));
  std::size_t checked = 0;
  for (auto& [path, offered] : opts) {
    if (path == "cuconform") continue;
    std::vector<std::string> args;
    std::istringstream words(path.substr(10));
    for (std::string w; words >> w;) args.push_back(w);
    args.push_back("--help");
    const ToolRun h = cli(args);
    INFO(path << ": " << h.output);
    REQUIRE(h.exit_code == 0);
    CHECK(options_in_help(h.output) == offered);
    ++checked;
  }
  CHECK(checked == subs.at("cuconform").size() + subs.at("cuconform history").size());

  // And bash offers them.
  CHECK(complete(file, "cuconform l") == "lint list\n");
  CHECK(complete(file, "cuconform history r") == "runs report\n");
  CHECK(complete(file, "cuconform list --ar") == "--area\n");
  CHECK(complete(file, "cuconform --area ldgsts list --k") == "--kind\n");
  CHECK(complete(file, "cuconform list --area ldg") == "ldgsts\n");
  CHECK(complete(file, "cuconform list --area = ldg") == "ldgsts\n");  // --area=ldg, split at '=' by bash
  CHECK(complete(file, "cuconform coverage --format ''") == "text md json\n");
  CHECK(complete(file, "cuconform run --codegen j") == "jit\n");
}
