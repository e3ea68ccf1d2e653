#include "harness/spec/statements.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/spec/yaml_files.hpp"
#include "harness/spec/yaml_source.hpp"
#include "harness/util/yaml_bounded.hpp"

namespace fs = std::filesystem;

namespace cuconform {
namespace {

constexpr const char* kDispositionsFile = "dispositions.yaml";

class IndexLoader {
 public:
  IndexLoader(const std::string& file, StatementIndex& idx) : file_(file), idx_(idx) {}

  void load_document() {
    YAML::Node root = read();
    if (!root) return;
    std::string doc = str(root, "document");
    YAML::Node list = root["statements"];
    if (!list || !list.IsSequence()) return error(root.Mark(), "a statement index has 'document:' and a 'statements:' list");
    for (const YAML::Node& n : list) {
      Statement s;
      s.id = str(n, "id");
      s.document = doc;
      s.file = str(n, "file");
      s.section = str(n, "section");
      s.text = str(n, "text");
      s.line = n["line"] ? n["line"].as<int>(0) : 0;
      if (s.id.empty()) continue;
      if (!idx_.by_id.emplace(s.id, idx_.statements.size()).second)
        error(n["id"].Mark(), "duplicate statement id '" + s.id + "'");
      else
        idx_.statements.push_back(std::move(s));
    }
  }

  void load_dispositions() {
    YAML::Node root = read();
    if (!root) return;
    YAML::Node list = root["dispositions"];
    if (!list || !list.IsSequence()) return error(root.Mark(), "dispositions.yaml has a 'dispositions:' list");
    static const std::set<std::string> keys = {"id", "disposition", "reason"};
    for (const YAML::Node& n : list) {
      if (!n.IsMap()) {
        error(n.Mark(), "each disposition is a mapping {id, disposition, reason}");
        continue;
      }
      for (auto it = n.begin(); it != n.end(); ++it)
        if (!keys.count(it->first.as<std::string>("")))
          error(it->first.Mark(), "unknown key '" + it->first.as<std::string>("") + "' in disposition (allowed: id, disposition, reason)");
      std::string id = str(n, "id"), disp = str(n, "disposition"), reason = str(n, "reason");
      auto it = idx_.by_id.find(id);
      if (it == idx_.by_id.end()) {
        error(n["id"] ? n["id"].Mark() : n.Mark(), "disposition for unknown statement '" + id + "'");
        continue;
      }
      if (disp != "not-testable" && disp != "non-normative")
        error(n.Mark(), "disposition '" + disp + "' must be not-testable or non-normative");
      if (reason.empty()) error(n.Mark(), "a disposition needs 'reason:'");
      Statement& s = idx_.statements[it->second];
      if (!s.disposition.empty()) error(n.Mark(), "statement '" + id + "' has two dispositions");
      s.disposition = disp;
      s.reason = reason;
    }
  }

 private:
  YAML::Node read() {
    try {
      YAML::Node root = load_yaml_file(file_);
      if (root.IsMap()) return root;
      error(root.Mark(), "a statements file is a mapping");
    } catch (const YAML::ParserException& e) {
      error(e.mark, "YAML syntax error: " + e.msg);
    } catch (const YAML::Exception& e) {
      error(YAML::Mark::null_mark(), std::string("cannot read: ") + e.what());
    }
    return YAML::Node();
  }

  std::string str(const YAML::Node& map, const char* key) {
    return required_scalar(map, key, [this](const YAML::Mark& m, const std::string& msg) { error(m, msg); });
  }

  void error(const YAML::Mark& m, const std::string& msg) {
    idx_.errors.push_back({yaml_source_loc(file_, m), msg});
  }

  std::string file_;
  StatementIndex& idx_;
};

}  // namespace

const Statement* StatementIndex::find(const std::string& id) const {
  auto it = by_id.find(id);
  return it == by_id.end() ? nullptr : &statements[it->second];
}

std::string statements_dir_for(const std::string& specs_dir) {
  fs::path p = fs::path(specs_dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "specs/" -> "specs"
  return (p.parent_path() / "statements").string();
}

StatementIndex load_statements(const std::string& dir) {
  StatementIndex idx;
  idx.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return idx;
  idx.available = true;
  std::vector<std::string> files = yaml_files_in(dir, &idx.errors, kDispositionsFile);
  for (auto& f : files) IndexLoader(f, idx).load_document();
  fs::path disp = fs::path(dir) / kDispositionsFile;
  if (fs::is_regular_file(disp, ec)) IndexLoader(disp.string(), idx).load_dispositions();
  return idx;
}

std::vector<SpecError> unknown_statement_refs(const Catalog& cat, const StatementIndex& index) {
  std::vector<SpecError> out;
  if (!index.available) return out;
  for (auto& r : cat.rules)
    for (std::size_t i = 0; i < r->statements.size(); ++i)
      if (!index.find(r->statements[i]))
        out.push_back({r->statement_locs[i], "rule " + r->id + " names unknown statement '" + r->statements[i] +
                                                 "' (not in " + index.dir + "; regenerate with ci/statements/extract.py?)"});
  return out;
}

}  // namespace cuconform
