#include "harness/spec/consumers.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "harness/spec/yaml_source.hpp"

namespace fs = std::filesystem;

namespace cuconform {
namespace {

const std::set<std::string> kFileKeys = {"consumer", "title", "repository", "commit", "behaviours"};
const std::set<std::string> kBehaviourKeys = {"id", "behaviour", "where", "documents", "status", "reason"};

class ConsumerLoader {
 public:
  ConsumerLoader(const std::string& file, ConsumerIndex& idx) : file_(file), idx_(idx) {}

  void load() {
    YAML::Node root;
    try {
      root = YAML::LoadFile(file_);
    } catch (const YAML::ParserException& e) {
      return error(e.mark, "YAML syntax error: " + e.msg);
    } catch (const YAML::Exception& e) {
      return error(YAML::Mark::null_mark(), std::string("cannot read: ") + e.what());
    }
    if (!root.IsMap()) return error(root.Mark(), "a consumer file is a mapping with 'consumer:', 'commit:' and 'behaviours:'");
    check_keys(root, kFileKeys, "consumer file");
    Consumer c;
    c.file = file_;
    c.id = str(root, "consumer");
    c.title = str(root, "title");
    c.repository = str(root, "repository");
    c.commit = str(root, "commit");
    static const std::regex consumer_re("^[a-z][a-z0-9-]*$"), commit_re("^[0-9a-f]{40}$"), repo_re("^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$");
    if (!c.id.empty() && !std::regex_match(c.id, consumer_re))
      error(root["consumer"].Mark(), "consumer '" + c.id + "' must match [a-z][a-z0-9-]*");
    if (!c.id.empty() && fs::path(file_).stem() != c.id)
      error(root["consumer"].Mark(), "consumer '" + c.id + "' must live in " + c.id + ".yaml (one file per consumer)");
    if (!c.commit.empty() && !std::regex_match(c.commit, commit_re))
      error(root["commit"].Mark(), "commit '" + c.commit + "' must be the 40 hex digits of the commit read (every 'where' is at it)");
    if (!c.repository.empty() && !std::regex_match(c.repository, repo_re))
      error(root["repository"].Mark(), "repository '" + c.repository + "' must be owner/name");
    for (auto& other : idx_.consumers)
      if (!c.id.empty() && other.id == c.id) error(root["consumer"].Mark(), "consumer '" + c.id + "' is defined twice");
    YAML::Node list = root["behaviours"];
    if (!list || !list.IsSequence()) {
      error(root.Mark(), "'behaviours' must be a list");
    } else {
      for (const YAML::Node& n : list) behaviour(n, c);
    }
    idx_.consumers.push_back(std::move(c));
  }

 private:
  void behaviour(const YAML::Node& n, Consumer& c) {
    if (!n.IsMap()) return error(n.Mark(), "each behaviour is a mapping {id, behaviour, where, documents, status}");
    check_keys(n, kBehaviourKeys, "behaviour");
    Behaviour b;
    b.loc = yaml_source_loc(file_, n.Mark());
    b.consumer = c.id;
    b.id = str(n, "id");
    b.text = str(n, "behaviour");
    b.documents = str(n, "documents");
    static const std::regex id_re("^[a-z][a-z0-9-]*(\\.[a-z0-9_]+){2,}$");
    if (!b.id.empty()) {
      if (!std::regex_match(b.id, id_re))
        error(n["id"].Mark(), "behaviour id '" + b.id + "' must be <consumer>.<topic>.<name> in lower case");
      else if (!c.id.empty() && b.id.rfind(c.id + ".", 0) != 0)
        error(n["id"].Mark(), "behaviour id '" + b.id + "' must start with its consumer '" + c.id + ".'");
    }
    static const std::regex where_re("^([^\\s:]+:[1-9][0-9]*|(issue|PR|discussion) [1-9][0-9]*)$");
    YAML::Node w = n["where"];
    if (!w || !w.IsSequence() || w.size() == 0) {
      error(w ? w.Mark() : n.Mark(), "'where' must be a non-empty list of path:line (at the file's commit) or 'issue N' / 'PR N'");
    } else {
      for (const YAML::Node& x : w) {
        if (!x.IsScalar() || !std::regex_match(x.Scalar(), where_re))
          error(x.Mark(), "'where' entries are path:line (at the file's commit) or 'issue N' / 'PR N', not '" +
                              (x.IsScalar() ? x.Scalar() : std::string("a non-scalar")) + "'");
        else
          b.where.push_back(x.Scalar());
      }
    }
    const std::string status = str(n, "status");
    b.reason = n["reason"] && n["reason"].IsScalar() ? n["reason"].Scalar() : "";
    if (status == "not-testable") {
      b.testable = false;
      if (b.reason.empty()) error(n.Mark(), "behaviour " + b.id + " is not-testable: say why in 'reason:' (e.g. needs an sm_100 GPU)");
    } else if (status == "tested") {
      if (n["reason"]) error(n["reason"].Mark(), "'reason' belongs to not-testable behaviours only");
    } else if (!status.empty()) {
      error(n["status"].Mark(), "status '" + status + "' must be tested or not-testable");
    }
    if (b.id.empty()) return;
    if (!idx_.by_id.emplace(b.id, idx_.behaviours.size()).second) return error(n["id"].Mark(), "duplicate behaviour id '" + b.id + "'");
    c.behaviours.push_back(idx_.behaviours.size());
    idx_.behaviours.push_back(std::move(b));
  }

  void check_keys(const YAML::Node& map, const std::set<std::string>& allowed, const std::string& what) {
    check_map_keys(map, allowed, what, [this](const YAML::Mark& m, const std::string& msg) { error(m, msg); });
  }

  std::string str(const YAML::Node& map, const char* key) {
    return required_scalar(map, key, [this](const YAML::Mark& m, const std::string& msg) { error(m, msg); });
  }

  void error(const YAML::Mark& m, const std::string& msg) { idx_.errors.push_back({yaml_source_loc(file_, m), msg}); }

  std::string file_;
  ConsumerIndex& idx_;
};

}  // namespace

const Behaviour* ConsumerIndex::find(const std::string& id) const {
  auto it = by_id.find(id);
  return it == by_id.end() ? nullptr : &behaviours[it->second];
}

std::string consumer_of(const std::string& behaviour_id) { return behaviour_id.substr(0, behaviour_id.find('.')); }

std::string consumers_of(const std::vector<std::string>& relies) {
  std::vector<std::string> seen;
  std::string s;
  for (auto& id : relies) {
    std::string c = consumer_of(id);
    if (std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
    seen.push_back(c);
    s += (s.empty() ? "" : ", ") + c;
  }
  return s;
}

std::string consumers_dir_for(const std::string& specs_dir) {
  fs::path p = fs::path(specs_dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "specs/" -> "specs"
  return (p.parent_path() / "consumers").string();
}

ConsumerIndex load_consumers(const std::string& dir) {
  ConsumerIndex idx;
  idx.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return idx;
  idx.available = true;
  std::vector<std::string> files;
  for (auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (auto& f : files) ConsumerLoader(f, idx).load();
  return idx;
}

std::vector<SpecError> consumer_ref_errors(const Catalog& cat, const ConsumerIndex& index) {
  std::vector<SpecError> out;
  if (!index.available) return out;
  std::set<std::string> named_by_active;
  for (auto& r : cat.rules)
    for (std::size_t i = 0; i < r->relies.size(); ++i) {
      if (!index.find(r->relies[i]))
        out.push_back({r->relies_locs[i], "rule " + r->id + " relies on unknown behaviour '" + r->relies[i] + "' (not in " +
                                              index.dir + ")"});
      else if (!r->planned)
        named_by_active.insert(r->relies[i]);
    }
  for (auto& b : index.behaviours)
    if (b.testable && !named_by_active.count(b.id))
      out.push_back({b.loc, "behaviour " + b.id + " has status tested but no active rule names it in 'relies:' (write the rule, "
                                                   "or mark it not-testable with the reason)"});
  return out;
}

}  // namespace cuconform
