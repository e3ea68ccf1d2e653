// cuconform completion bash: the bash completion script, made from the verb table (the same
// declarations the parser and --help use, so it lists exactly what the parser takes). The build
// writes it to build/completions/cuconform and installs it beside the executable's share/.
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/verbs.hpp"
#include "harness/spec/catalog.hpp"

namespace cuconform {

namespace {

// Words for a bash array or `compgen -W`: these names never hold quotes, spaces or '$'.
std::string words(const std::vector<std::string>& w) {
  std::string s;
  for (auto& x : w) s += (s.empty() ? "" : " ") + x;
  return s;
}

// What completion offers for an option's value: "file", "dir", "text" or "words:a b c".
std::string value_kind(const OptionDecl& d, const std::vector<std::string>& areas) {
  switch (d.hint) {
    case ValueHint::file: return "file";
    case ValueHint::dir: return "dir";
    case ValueHint::choices: return "words:" + words(d.choices);
    case ValueHint::area: return "words:" + words(areas);
    case ValueHint::kind: {
      std::vector<std::string> kinds;
      for (Kind k : {Kind::positive, Kind::negative, Kind::performance, Kind::codegen, Kind::undefined}) kinds.push_back(to_string(k));
      return "words:" + words(kinds);
    }
    case ValueHint::text: break;
  }
  return "text";
}

std::string bash_completion() {
  std::vector<std::string> areas;
  const Catalog cat = load_catalog(default_specs_dir());
  for (auto& a : cat.areas) areas.push_back(a.id);

  // Per verb path ("cuconform" before the verb, "cuconform history runs"): its subcommands, its
  // options, and for each option that takes a value what to offer for it ("PATH|--flag").
  std::map<std::string, std::string> subs, opts, values;
  std::vector<std::string> top;
  for (const Verb* v : all_verbs()) top.push_back(v->name());
  subs["cuconform"] = words(top);
  std::vector<std::string> root_opts = {"--help", "-h", "--version"};
  for (auto* list : {&global_options(), &filter_options()})
    for (auto& d : *list) {
      root_opts.push_back(d.flag);
      values["cuconform|" + d.flag] = value_kind(d, areas);
    }
  opts["cuconform"] = words(root_opts);
  std::function<void(const Verb&)> visit = [&](const Verb& v) {
    const std::string path = "cuconform " + v.path();
    std::vector<std::string> names = {"--help", "-h", "--version"}, sub_names;
    for (const OptionDecl* d : v.accepted()) {
      names.push_back(d->flag);
      if (d->takes_value()) values[path + "|" + d->flag] = value_kind(*d, areas);
    }
    for (auto& s : v.subs()) sub_names.push_back(s->name());
    opts[path] = words(names);
    if (!sub_names.empty()) subs[path] = words(sub_names);
    for (auto& s : v.subs()) visit(*s);
  };
  for (const Verb* v : all_verbs()) visit(*v);

  std::ostringstream o;
  o << "# bash completion for cuconform, made by `cuconform completion bash` from the verbs' own\n"
       "# declarations (cli/verb_table.hpp): source it, or install it as\n"
       "# /usr/share/bash-completion/completions/cuconform (cmake --install does).\n";
  auto table = [&](const char* name, const std::map<std::string, std::string>& m) {
    o << "declare -gA " << name << "=(\n";
    for (auto& [k, v] : m) o << "  [\"" << k << "\"]=\"" << v << "\"\n";
    o << ")\n";
  };
  table("_cuconform_subs", subs);
  table("_cuconform_opts", opts);
  table("_cuconform_values", values);
  o << R"BASH(
_cuconform() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local path=cuconform i w opt="" kind
  # The verb path so far: the words that name a verb or its subcommand, past options and values.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if [[ $w == -* ]]; then
      if [[ ${COMP_WORDS[i+1]} == "=" ]]; then
        ((i += 2))
      elif [[ $w != *=* && -n ${_cuconform_values["$path|$w"]+x} ]]; then
        ((i++))
      fi
    elif [[ " ${_cuconform_subs[$path]} " == *" $w "* ]]; then
      path="$path $w"
    fi
  done
  # The value of an option: --opt VALUE, or --opt=VALUE (bash splits that at the '=').
  if [[ $cur == "=" && $prev == -* ]]; then
    opt=$prev cur=""
  elif [[ $prev == "=" && ${COMP_WORDS[COMP_CWORD-2]} == -* ]]; then
    opt=${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $prev == -* && -n ${_cuconform_values["$path|$prev"]+x} ]]; then
    opt=$prev
  fi
  if [[ -n $opt ]]; then
    kind=${_cuconform_values["$path|$opt"]}
    case $kind in
      file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
      dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
      words:*) COMPREPLY=($(compgen -W "${kind#words:}" -- "$cur")) ;;
      *) COMPREPLY=() ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "${_cuconform_opts[$path]}" -- "$cur"))
  elif [[ -n ${_cuconform_subs[$path]+x} ]]; then
    COMPREPLY=($(compgen -W "${_cuconform_subs[$path]}" -- "$cur"))
  else
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}
complete -F _cuconform cuconform ./build/cuconform build/cuconform
)BASH";
  return o.str();
}

int cmd_completion(const Options& o) {
  if (o.positional[0] != "bash") {
    std::cerr << "cuconform completion: only bash is supported, not '" << o.positional[0] << "'\n";
    return kExitBadInput;
  }
  std::cout << bash_completion();
  return kExitOk;
}

}  // namespace

const VerbRegistration kCompletionVerb("completion",
                                       "the bash completion script (the build writes it to build/completions/cuconform: "
                                       "source it)",
                                       cmd_completion, [](Verb& v) { v.args(1, 1, "bash", "shell"); });

}  // namespace cuconform
