#include "cli/output_paths.hpp"

#include <filesystem>
#include <set>
#include <vector>

#include "harness/util/output_file.hpp"

namespace fs = std::filesystem;

namespace cuconform {
namespace {

struct Named {
  std::string what;  // "--html out.html", "the argument a.json"
  std::string path;
  bool output;
};

// The file `path` reaches: its folder resolved, then each symbolic link followed (a link to a
// file not there yet included, as output_file.cpp writes through it).
fs::path reached(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  for (int hops = 0; hops < 40; ++hops) {
    fs::path dir = fs::weakly_canonical(p.parent_path(), ec);
    if (!ec) p = dir / p.filename();
    if (!fs::is_symlink(fs::symlink_status(p, ec))) break;
    fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p.lexically_normal();
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec)) return true;  // hard links too
  return reached(a) == reached(b);
}

}  // namespace

bool is_output_option(const std::string& flag) {
  static const std::set<std::string> outputs = {"--html", "--md", "--json", "--junit", "-o"};
  return outputs.count(flag) > 0;
}

std::string output_path_clash(const Options& o, const Verb& verb) {
  std::vector<Named> named;
  for (const OptionDecl* d : verb.accepted()) {
    auto v = o.values.find(d->flag);
    if (v == o.values.end()) continue;
    if (is_output_option(d->flag)) {
      if (v->second.empty()) return d->flag + ": an empty path (name a file, or - for stdout)";
      if (output_replaces_file(v->second)) named.push_back({d->flag + " " + v->second, v->second, true});
    } else if (d->hint == ValueHint::file && !v->second.empty()) {
      named.push_back({d->flag + " " + v->second, v->second, false});
    }
  }
  if (verb.args_noun() == "file")
    for (const std::string& a : o.positional)
      if (!a.empty() && a != "-") named.push_back({"the argument " + a, a, false});
  for (std::size_t i = 0; i < named.size(); ++i)
    for (std::size_t j = 0; j < named.size(); ++j) {
      if (i == j || !named[i].output || (named[j].output && j < i)) continue;
      if (!same_file(named[i].path, named[j].path)) continue;
      return named[i].what + " and " + named[j].what + " name the same file (" + reached(named[i].path).string() + "): " +
             (named[j].output ? "one output would overwrite the other" : "the output would overwrite what the command reads");
    }
  return "";
}

}  // namespace cuconform
