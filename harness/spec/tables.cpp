#include "harness/spec/tables.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "harness/spec/selection.hpp"
#include "harness/spec/yaml_files.hpp"
#include "harness/spec/yaml_source.hpp"
#include "harness/util/yaml_bounded.hpp"

namespace fs = std::filesystem;

namespace cuconform {

const char* to_string(RowDisposition d) {
  switch (d) {
    case RowDisposition::run: return "run";
    case RowDisposition::assembled: return "assembled";
    case RowDisposition::rejected: return "rejected";
    case RowDisposition::not_testable: return "not-testable";
    case RowDisposition::planned: return "planned";
    case RowDisposition::gap: return "gap";
  }
  return "?";
}

const std::array<RowDisposition, kRowDispositions>& all_row_dispositions() {
  static const std::array<RowDisposition, kRowDispositions> all = {
      RowDisposition::run,          RowDisposition::assembled, RowDisposition::rejected,
      RowDisposition::not_testable, RowDisposition::planned,   RowDisposition::gap};
  return all;
}

int RowCounts::total() const {
  int t = 0;
  for (int v : n) t += v;
  return t;
}

namespace {

bool host_tool_case(const Case& c) {
  return !c.rule->needs_gpu() && !c.rule->planned && c.rule->kind != Kind::undefined;
}
bool case_rejects(const Case& c) { return c.expect.str("accepted", "true") == "false" || (c.is_violation && c.rule->kind == Kind::negative); }

// Does case `c` give disposition `d` to a row?
bool gives(const Case& c, RowDisposition d) {
  switch (d) {
    case RowDisposition::run: return c.rule->needs_gpu() && !c.rule->planned;
    case RowDisposition::assembled: return host_tool_case(c) && !case_rejects(c);
    case RowDisposition::rejected: return host_tool_case(c) && case_rejects(c);
    default: return false;
  }
}

const char* gives_what(RowDisposition d) {
  switch (d) {
    case RowDisposition::run: return "a case that runs on the GPU";
    case RowDisposition::assembled: return "a host-tool case (ptx.assemble, nvcc.compile, ...) that expects the form accepted";
    case RowDisposition::rejected: return "a host-tool case that expects the assembler to reject the form";
    default: return "";
  }
}

class TableLoader {
 public:
  TableLoader(const std::string& file, const Catalog& cat, TableAudit& audit, std::set<std::string>& ids)
      : file_(file), cat_(cat), audit_(audit), ids_(ids) {}

  void load() {
    YAML::Node root;
    try {
      root = load_yaml_file(file_);
    } catch (const YAML::ParserException& e) {
      return error(e.mark, "YAML syntax error: " + e.msg);
    } catch (const YAML::Exception& e) {
      return error(YAML::Mark::null_mark(), std::string("cannot read: ") + e.what());
    }
    if (!root.IsMap() || !root["tables"] || !root["tables"].IsSequence())
      return error(root.Mark(), "a tables file is a mapping with a 'tables:' list");
    for (auto it = root.begin(); it != root.end(); ++it)
      if (it->first.as<std::string>("") != "tables")
        error(it->first.Mark(), "unknown key '" + it->first.as<std::string>("") + "' (allowed: tables)");
    for (const YAML::Node& t : root["tables"]) load_table(t);
  }

 private:
  void load_table(const YAML::Node& n) {
    if (!n.IsMap()) return error(n.Mark(), "each table is a mapping {id, title, source, rows}");
    static const std::set<std::string> keys = {"id", "title", "source", "rows", "note"};
    check_keys(n, keys, "table", "id, title, source, rows, note");
    Table t;
    t.loc = loc(n.Mark());
    t.id = str(n, "id");
    t.title = str(n, "title");
    t.source = str(n, "source");
    if (!t.id.empty() && !ids_.insert(t.id).second) error(n["id"].Mark(), "duplicate table id '" + t.id + "'");
    YAML::Node rows = n["rows"];
    if (!rows || !rows.IsSequence() || rows.size() == 0) {
      error(rows ? rows.Mark() : n.Mark(), "table '" + t.id + "' needs a non-empty 'rows:' list");
    } else {
      std::set<std::string> members;
      for (const YAML::Node& r : rows) {
        TableRow row;
        bool ok = load_row(r, &row);
        if (!row.member.empty() && !members.insert(row.member).second)
          error(r["member"].Mark(), "duplicate row '" + row.member + "' in table '" + t.id + "'");
        if (!ok) continue;
        t.counts[row.disposition]++;
        audit_.total[row.disposition]++;
        if (!row.needs.empty()) audit_.run_above_cc90++;
        t.rows.push_back(std::move(row));
      }
    }
    audit_.tables.push_back(std::move(t));
  }

  bool load_row(const YAML::Node& n, TableRow* row) {
    if (!n.IsMap()) {
      error(n.Mark(), "each row is a mapping {member, and one of run, assembled, rejected, not-testable, planned, gap}");
      return false;
    }
    static const std::set<std::string> keys = {"member", "run", "assembled", "rejected", "not-testable", "planned", "gap", "note"};
    check_keys(n, keys, "row", "member, run, assembled, rejected, not-testable, planned, gap, note");
    row->loc = loc(n.Mark());
    row->member = str(n, "member");
    if (n["note"]) row->note = n["note"].as<std::string>("");
    std::vector<std::pair<RowDisposition, YAML::Node>> found;
    for (RowDisposition d : all_row_dispositions())
      if (YAML::Node v = n[to_string(d)]) found.push_back({d, v});
    if (found.size() != 1) {
      std::string which;
      for (auto& [d, _] : found) which += std::string(which.empty() ? "" : ", ") + to_string(d);
      error(n.Mark(), "row '" + row->member + "' needs exactly one disposition of run, assembled, rejected, not-testable, planned, gap" +
                          (found.empty() ? std::string(" (it has none)") : " (it has " + which + ")"));
      return false;
    }
    auto [d, v] = found.front();
    row->disposition = d;
    if (d == RowDisposition::not_testable || d == RowDisposition::planned || d == RowDisposition::gap) {
      if (!v.IsScalar() || v.Scalar().empty()) {
        error(v.Mark(), std::string("'") + to_string(d) + "' takes a reason (a non-empty string)");
        return false;
      }
      row->reason = v.Scalar();
      return true;
    }
    std::vector<YAML::Node> items;
    if (v.IsScalar() && !v.Scalar().empty()) items.push_back(v);
    else if (v.IsSequence()) for (const YAML::Node& i : v) items.push_back(i);
    if (items.empty()) {
      error(v.Mark(), std::string("'") + to_string(d) + "' takes a list of rule ids or case globs");
      return false;
    }
    bool ok = true;
    bool any_below = false, any_gpu = false;
    ComputeCapability lowest{99, 9};
    for (const YAML::Node& i : items) {
      std::string ref = i.as<std::string>("");
      row->refs.push_back(ref);
      std::vector<const Case*> selected;
      const Rule* exact = nullptr;
      for (auto& r : cat_.rules)
        if (r->id == ref) exact = r.get();
      if (exact && exact->planned) {
        error(i.Mark(), "rule '" + ref + "' is planned: use 'planned: reason' for this row");
        ok = false;
        continue;
      }
      for (const Case& c : cat_.cases)
        if (exact ? c.rule == exact
                  : case_matches_glob(c, ref))
          selected.push_back(&c);
      if (selected.empty()) {
        error(i.Mark(), "'" + ref + "' is no rule id and selects no case of " + (cat_.dir.empty() ? "the specs" : cat_.dir));
        ok = false;
        continue;
      }
      int giving = 0;
      for (const Case* c : selected)
        if (gives(*c, d)) {
          ++giving;
          if (d == RowDisposition::run) {
            any_gpu = true;
            if (c->rule->min_cc.value() <= 90) any_below = true;
            else if (c->rule->min_cc.value() < lowest.value()) lowest = c->rule->min_cc;
          }
        }
      if (giving == 0) {
        error(i.Mark(), "'" + ref + "' selects " + std::to_string(selected.size()) + " case(s) but none is " + gives_what(d));
        ok = false;
      }
      row->cases += giving;
    }
    if (any_gpu && !any_below) row->needs = "CC " + lowest.str();
    return ok;
  }

  void check_keys(const YAML::Node& n, const std::set<std::string>& keys, const char* what, const char* allowed) {
    for (auto it = n.begin(); it != n.end(); ++it)
      if (!keys.count(it->first.as<std::string>("")))
        error(it->first.Mark(), "unknown key '" + it->first.as<std::string>("") + "' in " + what + " (allowed: " + allowed + ")");
  }

  std::string str(const YAML::Node& map, const char* key) {
    return required_scalar(map, key, [this](const YAML::Mark& m, const std::string& msg) { error(m, msg); });
  }

  SourceLoc loc(const YAML::Mark& m) const { return yaml_source_loc(file_, m); }
  void error(const YAML::Mark& m, const std::string& msg) { audit_.errors.push_back({loc(m), msg}); }

  std::string file_;
  const Catalog& cat_;
  TableAudit& audit_;
  std::set<std::string>& ids_;
};

}  // namespace

std::string tables_dir_for(const std::string& specs_dir) {
  fs::path p = fs::path(specs_dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  return (p.parent_path() / "tables").string();
}

TableAudit load_table_files(const std::vector<std::string>& files, const Catalog& cat) {
  TableAudit audit;
  audit.available = true;
  std::set<std::string> ids;
  for (auto& f : files) TableLoader(f, cat, audit, ids).load();
  return audit;
}

TableAudit load_tables(const std::string& dir, const Catalog& cat) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    TableAudit none;
    none.dir = dir;
    return none;
  }
  std::vector<SpecError> unreadable;
  std::vector<std::string> files = yaml_files_in(dir, &unreadable);
  TableAudit audit = load_table_files(files, cat);
  audit.errors.insert(audit.errors.begin(), unreadable.begin(), unreadable.end());
  audit.dir = dir;
  return audit;
}

}  // namespace cuconform
