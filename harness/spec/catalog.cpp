#include "harness/spec/catalog.hpp"

#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "harness/fixture/fixture.hpp"
#include "harness/fixture/param_decl.hpp"
#include "harness/spec/constraint.hpp"
#include "harness/spec/expand.hpp"
#include "harness/spec/machine_paths.hpp"
#include "harness/spec/param_range.hpp"
#include "harness/spec/yaml_files.hpp"
#include "harness/spec/rule_definition.hpp"
#include "harness/spec/yaml_source.hpp"
#include "harness/util/yaml_bounded.hpp"

namespace fs = std::filesystem;

namespace cuconform {
namespace {

const std::set<std::string> kTopKeys = {"area", "title", "description", "rules"};
const std::set<std::string> kRuleKeys = {"id",      "rule",    "source",    "min_cc", "arch",
                                         "kind",    "fixture", "params",    "exclude", "where",
                                         "expect",  "violation", "status",  "reason", "timeout_s",
                                         "requires", "tags",   "notes", "errata", "statements", "basis",
                                         "tier", "shadow", "relies"};
const std::set<std::string> kErratumKeys = {"says", "wrong", "fix", "evidence"};

class FileLoader {
 public:
  FileLoader(const std::string& file, Catalog& cat, SpecRead read) : file_(file), cat_(cat), read_(read) {}

  void load(std::set<std::string>& ids, std::set<std::string>& areas) {
    YAML::Node root;
    try {
      root = read_ == SpecRead::bounded ? load_yaml_file(file_) : load_yaml_file_checked_before(file_);
    } catch (const YAML::ParserException& e) {
      error(e.mark, "YAML syntax error: " + e.msg);
      return;
    } catch (const YAML::Exception& e) {
      error(YAML::Mark::null_mark(), std::string("cannot read: ") + e.what());
      return;
    }
    if (!root.IsMap()) {
      error(root.Mark(), "a spec file is a mapping with 'area:' and 'rules:'");
      return;
    }
    check_keys(root, kTopKeys, "spec file");
    refuse_absolute_paths(root);
    Area area;
    area.file = file_;
    area.id = scalar(root, "area", true);
    area.title = scalar(root, "title", false);
    static const std::regex area_re("^[a-z][a-z0-9_]*$");
    if (!area.id.empty()) {
      if (!std::regex_match(area.id, area_re))
        error(root["area"].Mark(), "area '" + area.id + "' must match [a-z][a-z0-9_]*");
      if (fs::path(file_).stem() != area.id)
        error(root["area"].Mark(), "area '" + area.id + "' must live in " + area.id + ".yaml (one file per area)");
      if (!areas.insert(area.id).second) error(root["area"].Mark(), "area '" + area.id + "' is defined twice");
    }
    cat_.areas.push_back(area);
    YAML::Node rules = root["rules"];
    if (!rules) return;  // reported by scalar()? no: rules is not scalar; report here
    if (!rules.IsSequence()) {
      error(rules.Mark(), "'rules' must be a list");
      return;
    }
    for (const YAML::Node& n : rules) load_rule(n, area.id, ids);
  }

 private:
  // Every value of the file: a source cites documents by a path relative to the project.
  void refuse_absolute_paths(const YAML::Node& n) {
    if (n.IsScalar()) {
      if (std::string p = find_absolute_path(n.Scalar()); !p.empty())
        error(n.Mark(), "absolute path '" + p + "' (a folder of the machine that wrote it): cite by a path relative to the project, ../shared/...");
    } else if (n.IsSequence()) {
      for (const YAML::Node& x : n) refuse_absolute_paths(x);
    } else if (n.IsMap()) {
      for (auto it = n.begin(); it != n.end(); ++it) refuse_absolute_paths(it->second);
    }
  }

  void error(const YAML::Mark& m, const std::string& msg) {
    cat_.errors.push_back({yaml_source_loc(file_, m), msg});
  }

  void check_keys(const YAML::Node& map, const std::set<std::string>& allowed, const std::string& what) {
    check_map_keys(map, allowed, what, [this](const YAML::Mark& m, const std::string& msg) { error(m, msg); });
  }

  std::string scalar(const YAML::Node& map, const std::string& key, bool required) {
    YAML::Node v = map[key];
    if (!v) {
      if (required) error(map.Mark(), "missing required key '" + key + "'");
      return "";
    }
    if (!v.IsScalar()) {
      error(v.Mark(), "'" + key + "' must be a single value");
      return "";
    }
    std::string s = v.Scalar();
    if (required && s.empty()) error(v.Mark(), "'" + key + "' must not be empty");
    return s;
  }

  std::vector<std::string> scalar_list(const YAML::Node& v, const std::string& key) {
    std::vector<std::string> out;
    if (v.IsScalar()) {
      out.push_back(v.Scalar());
    } else if (v.IsSequence()) {
      for (const YAML::Node& x : v) {
        if (!x.IsScalar()) {
          error(x.Mark(), "'" + key + "' entries must be single values");
          continue;
        }
        out.push_back(x.Scalar());
      }
    } else {
      error(v.Mark(), "'" + key + "' must be a value or a list of values");
    }
    return out;
  }

  // Each value of a declared parameter inside its declaration, reported at the value's own line.
  void check_declared(const ParamDecl& d, const FixtureInfo& fx, const YAML::Node& v, const std::vector<std::string>& values) {
    const bool listed = v.IsSequence() && v.size() == values.size();
    for (std::size_t i = 0; i < values.size(); ++i)
      if (std::string why = d.refuse(values[i]); !why.empty())
        error(listed ? v[i].Mark() : v.Mark(), "fixture " + fx.name + ", param '" + d.name + "': " + why +
                                                    (d.meaning.empty() ? "" : " (" + d.meaning + ")"));
  }

  // params values: a list, or a range written "0..16".
  std::vector<std::string> param_values(const YAML::Node& v, const std::string& name) {
    if (v.IsScalar() && looks_like_range(v.Scalar())) {
      std::vector<std::string> out;
      std::string why;
      if (!range_values(v.Scalar(), &out, &why)) error(v.Mark(), "param '" + name + "': " + why);
      return out;
    }
    if (!v.IsSequence()) {
      error(v.Mark(), "param '" + name + "' must be a list of values or a range 'A..B'");
      return {};
    }
    return scalar_list(v, "params." + name);
  }

  Expectations expectations(const YAML::Node& v, const std::string& key, const FixtureInfo* fx) {
    Expectations e;
    if (!v) return e;
    if (!v.IsMap()) {
      error(v.Mark(), "'" + key + "' must be a mapping");
      return e;
    }
    check_dupes(v, key);
    for (auto it = v.begin(); it != v.end(); ++it) {
      std::string k = it->first.as<std::string>("");
      if (fx && !fx->expect_keys.count(k) && !kGenericExpectKeys.count(k)) {
        std::string list;
        for (auto& a : fx->expect_keys) list += (list.empty() ? "" : ", ") + a;
        for (auto& a : kGenericExpectKeys) list += (list.empty() ? "" : ", ") + a;
        error(it->first.Mark(), "fixture " + fx->name + " does not know expectation '" + k + "' (known: " + list + ")");
      }
      e.values[k] = scalar_list(it->second, key + "." + k);
    }
    return e;
  }

  void check_dupes(const YAML::Node& map, const std::string& what) {
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it)
      if (!seen.insert(it->first.as<std::string>("")).second)
        error(it->first.Mark(), "duplicate key '" + it->first.as<std::string>("") + "' in " + what);
  }

  // errata: a list of {says, wrong, fix, evidence}, every key required and non-empty.
  void load_errata(const YAML::Node& list, Rule& r) {
    if (!list.IsSequence()) {
      error(list.Mark(), "'errata' must be a list of {says, wrong, fix, evidence} mappings");
      return;
    }
    for (const YAML::Node& e : list) {
      if (!e.IsMap()) {
        error(e.Mark(), "each erratum is a mapping with says, wrong, fix and evidence");
        continue;
      }
      check_keys(e, kErratumKeys, "erratum");
      Erratum x;
      x.loc = {file_, e.Mark().line + 1, e.Mark().column + 1};
      x.says = scalar(e, "says", true);
      x.wrong = scalar(e, "wrong", true);
      x.fix = scalar(e, "fix", true);
      x.evidence = scalar(e, "evidence", true);
      r.errata.push_back(std::move(x));
    }
  }

  void load_rule(const YAML::Node& n, const std::string& area, std::set<std::string>& ids) {
    if (!n.IsMap()) {
      error(n.Mark(), "each rule is a mapping");
      return;
    }
    std::size_t errors_before = cat_.errors.size();
    auto r = std::make_unique<Rule>();
    r->area = area;
    r->loc = {file_, n.Mark().line + 1, n.Mark().column + 1};
    check_keys(n, kRuleKeys, "rule");
    r->id = scalar(n, "id", true);
    static const std::regex id_re("^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+$");
    if (!r->id.empty()) {
      if (!std::regex_match(r->id, id_re))
        error(n["id"].Mark(), "rule id '" + r->id + "' must be dotted lower-case words (area.topic.rule)");
      else if (!area.empty() && r->id.rfind(area + ".", 0) != 0)
        error(n["id"].Mark(), "rule id '" + r->id + "' must start with its area '" + area + ".'");
      if (!ids.insert(r->id).second) error(n["id"].Mark(), "duplicate rule id '" + r->id + "'");
    }
    r->text = scalar(n, "rule", true);
    r->source = scalar(n, "source", true);
    std::string cc = scalar(n, "min_cc", true);
    if (!cc.empty() && !ComputeCapability::parse(cc, &r->min_cc))
      error(n["min_cc"].Mark(), "min_cc '" + cc + "' is not a compute capability like \"8.0\"");
    r->arch = scalar(n, "arch", false);
    if (!r->arch.empty() && !valid_arch_gate(r->arch))
      error(n["arch"].Mark(), "arch '" + r->arch + "' is not an arch gate like sm_90a");
    if (!r->arch.empty() && r->arch.size() > 3) {
      ComputeCapability gate_cc;
      std::string d = r->arch.substr(3);
      if (d.back() == 'a' || d.back() == 'f') d.pop_back();
      if (ComputeCapability::parse(d.substr(0, d.size() - 1) + "." + d.back(), &gate_cc) && !(r->min_cc <= gate_cc))
        error(n["arch"].Mark(), "arch " + r->arch + " is below min_cc " + r->min_cc.str());
    }
    std::string kind = scalar(n, "kind", true);
    if (!kind.empty() && !parse_kind(kind, &r->kind))
      error(n["kind"].Mark(), "kind '" + kind + "' must be positive, negative, performance, codegen or undefined");
    std::string status = scalar(n, "status", false);
    if (status == "planned") r->planned = true;
    else if (!status.empty() && status != "active")
      error(n["status"].Mark(), "status '" + status + "' must be active or planned");
    Kind parsed_kind;
    load_basis(n, *r, !kind.empty() && parse_kind(kind, &parsed_kind));
    load_contract(n, *r);
    r->planned_reason = scalar(n, "reason", false);
    if (r->planned && r->planned_reason.empty())
      error(n.Mark(), "a planned rule needs 'reason:' (why it cannot be tested yet)");
    if (!r->planned && !r->planned_reason.empty() && n["reason"])
      error(n["reason"].Mark(), "'reason' belongs to planned rules only");
    r->notes = scalar(n, "notes", false);
    if (YAML::Node e = n["errata"]) load_errata(e, *r);

    r->fixture = scalar(n, "fixture", !r->planned);
    const FixtureInfo* fx = nullptr;
    if (!r->fixture.empty()) {
      fx = find_fixture(r->fixture);
      if (!fx) error(n["fixture"].Mark(), "unknown fixture '" + r->fixture + "' (see `cuconform fixtures`)");
    }

    if (YAML::Node p = n["params"]) {
      if (!p.IsMap()) {
        error(p.Mark(), "'params' must be a mapping of name: [values]");
      } else {
        check_dupes(p, "params");
        for (auto it = p.begin(); it != p.end(); ++it) {
          ParamAxis ax{it->first.as<std::string>(""), param_values(it->second, it->first.as<std::string>(""))};
          static const std::regex name_re("^[a-z][a-z0-9_]*$");
          if (!std::regex_match(ax.name, name_re))
            error(it->first.Mark(), "param name '" + ax.name + "' must match [a-z][a-z0-9_]*");
          std::set<std::string> uniq(ax.values.begin(), ax.values.end());
          if (ax.values.empty()) error(it->second.Mark(), "param '" + ax.name + "' has no values");
          if (uniq.size() != ax.values.size()) error(it->second.Mark(), "param '" + ax.name + "' repeats a value");
          if (fx && ax.name != "variant" && !fx->params.count(ax.name) && !fx->optional_params.count(ax.name))
            error(it->first.Mark(), "fixture " + fx->name + " takes no parameter '" + ax.name + "'");
          if (const ParamDecl* d = fx ? declared_param(fx->name, ax.name) : nullptr) check_declared(*d, *fx, it->second, ax.values);
          r->params.push_back(std::move(ax));
        }
      }
    }
    if (fx && !r->planned) {
      for (auto& need : fx->params) {
        bool given = std::any_of(r->params.begin(), r->params.end(), [&](auto& a) { return a.name == need; });
        if (!given) error(n.Mark(), "rule " + r->id + ": fixture " + fx->name + " needs parameter '" + need + "'");
      }
    }
    auto has_param = [&](const std::string& k) {
      return std::any_of(r->params.begin(), r->params.end(), [&](auto& a) { return a.name == k; });
    };
    if (YAML::Node ex = n["exclude"]) {
      if (!ex.IsSequence()) error(ex.Mark(), "'exclude' must be a list of {param: value} mappings");
      else
        for (const YAML::Node& e : ex) {
          if (!e.IsMap()) {
            error(e.Mark(), "each exclude entry is a {param: value} mapping");
            continue;
          }
          std::map<std::string, std::string> m;
          for (auto it = e.begin(); it != e.end(); ++it) {
            std::string k = it->first.as<std::string>("");
            if (!has_param(k)) error(it->first.Mark(), "exclude names unknown param '" + k + "'");
            m[k] = it->second.as<std::string>("");
          }
          r->exclude.push_back(m);
        }
    }
    if (YAML::Node w = n["where"]) {
      r->where = scalar_list(w, "where");
      std::map<std::string, std::string> probe;
      for (auto& a : r->params) probe[a.name] = a.values.empty() ? "" : a.values.front();
      for (auto& expr : r->where) {
        try {
          eval_constraint(expr, probe);
        } catch (const std::invalid_argument& e) {
          error(w.Mark(), e.what());
        }
      }
    }
    r->expect = expectations(n["expect"], "expect", fx);
    r->violation = expectations(n["violation"], "violation", fx);
    if (r->kind == Kind::negative && !r->planned) {
      auto it = std::find_if(r->params.begin(), r->params.end(), [](auto& a) { return a.name == "variant"; });
      std::set<std::string> v;
      if (it != r->params.end()) v.insert(it->values.begin(), it->values.end());
      if (v != std::set<std::string>{"control", "violation"})
        error(n.Mark(), "negative rule " + r->id + " needs param 'variant: [control, violation]' (the control is the valid neighbour that must pass)");
      if (r->violation.values.empty())
        error(n.Mark(), "negative rule " + r->id + " needs 'violation:' (what the violating case must produce)");
    } else if (n["violation"] && r->kind == Kind::undefined) {
      // What the undefined case does is recorded, never expected: only fixture keys override.
      if (r->violation.has("fault"))
        error(n["violation"]["fault"].Mark(), "an undefined-behaviour rule records a fault, it cannot expect one");
    } else if (n["violation"] && r->kind != Kind::negative) {  // a planned negative rule may keep its matrix
      error(n["violation"].Mark(), "'violation' belongs to negative and undefined rules only");
    }
    if (YAML::Node t = n["timeout_s"]) {
      try {
        r->timeout_s = t.as<double>();
        if (r->timeout_s <= 0 || r->timeout_s > 600) error(t.Mark(), "timeout_s must be in (0, 600]");
      } catch (const YAML::Exception&) {
        error(t.Mark(), "timeout_s must be a number of seconds");
      }
    }
    if (YAML::Node q = n["requires"]) {
      for (auto& s : scalar_list(q, "requires")) {
        Requirement req;
        if (parse_requirement(s, &req)) r->requires_.push_back(req);
        else error(q.Mark(), "requires '" + s + "' must be gpu, ptxas, cuobjdump, nvcc or peer");
      }
      if (r->needs(Requirement::peer) && !r->needs(Requirement::gpu))
        error(q.Mark(), "requires 'peer' (a second GPU) needs 'gpu' too");
    } else {
      r->requires_.push_back(Requirement::gpu);
    }
    if (YAML::Node t = n["tags"]) {
      static const std::regex tag_re("^[a-z0-9][a-z0-9_.-]*$");
      for (auto& s : scalar_list(t, "tags")) {
        // Tags the harness sets itself: a rule must not claim them (a spec case tagged
        // `host` would be taken for a host test and could not report a skip to CTest).
        static const std::set<std::string> reserved = {"host", "gpu", "host-tool", "planned", "isolated", "gpu-alone",
                                                       "positive", "negative", "performance", "codegen", "undefined",
                                                       "core", "extended", "informational", "shadow"};
        if (!std::regex_match(s, tag_re)) error(t.Mark(), "tag '" + s + "' must match [a-z0-9][a-z0-9_.-]*");
        else if (reserved.count(s) || s.rfind("cc", 0) == 0 || s.rfind("sm_", 0) == 0)
          error(t.Mark(), "tag '" + s + "' is reserved for the harness (host, gpu, host-tool, planned, isolated, the kinds, the tiers, shadow, ccX.Y, sm_*)");
        r->tags.push_back(s);
      }
    }
    if (YAML::Node st = n["statements"]) load_statement_refs(st, *r);
    if (YAML::Node rl = n["relies"]) load_relies(rl, *r);
    if (r->basis == Basis::relied_upon && r->relies.empty() && n["basis"])
      error(n["basis"].Mark(), "rule " + r->id + " of basis relied-upon needs 'relies:' (the ids of consumers/*.yaml it proves)");
    if (cat_.errors.size() == errors_before) cat_.rules.push_back(std::move(r));
  }

  // `basis:` says what the expectation rests on (spec.hpp); an active rule must declare it, and it
  // must fit the kind. A planned rule may leave it out until it is written.
  void load_basis(const YAML::Node& n, Rule& r, bool kind_ok) {
    std::string b = scalar(n, "basis", false);
    std::string names;
    for (Basis x : all_bases()) names += (names.empty() ? "" : ", ") + std::string(to_string(x));
    if (!n["basis"]) {
      if (!r.planned)
        error(n.Mark(), "rule " + r.id + " needs 'basis:' (" + names +
                            "): what its expectation rests on: the documents promise it, leave it undefined, a compiler "
                            "emits it today, it checks the suite's own kernels, a named consumer's code depends on it, or the "
                            "documents read two ways and it tests one reading");
      else r.basis = r.kind == Kind::undefined ? Basis::undefined : r.kind == Kind::codegen ? Basis::toolchain : Basis::documented;
      return;
    }
    if (b.empty()) return;  // not a single value: reported by scalar()
    if (!parse_basis(b, &r.basis)) return error(n["basis"].Mark(), "basis '" + b + "' must be one of " + names);
    if (!kind_ok) return;
    if (std::string why = basis_conflict(r.basis, r.kind); !why.empty()) error(n["basis"].Mark(), "rule " + r.id + ": " + why);
  }

  // The contract's keys (docs/contract.md): `tier:` overrides the tier kind and basis give;
  // `shadow: true` keeps a new or redefined rule report-only until it is promoted (the line deleted).
  void load_contract(const YAML::Node& n, Rule& r) {
    r.tier = default_tier(r.kind, r.basis);
    if (n["tier"]) {
      std::string t = scalar(n, "tier", true);
      if (!t.empty() && !parse_tier(t, &r.tier)) error(n["tier"].Mark(), "tier '" + t + "' must be core, extended or informational");
    }
    if (YAML::Node s = n["shadow"]) {
      if (!s.IsScalar() || (s.Scalar() != "true" && s.Scalar() != "false"))
        error(s.Mark(), "shadow must be true or false (true: report-only until promoted, by deleting the line)");
      r.shadow = s.IsScalar() && s.Scalar() == "true";
    }
    r.definition = rule_definition_hash(n);
  }

  // `statements: [id, ...]`: whether each id exists is checked against the index (statements.hpp).
  void load_statement_refs(const YAML::Node& st, Rule& r) {
    static const std::regex sid_re("^[a-z][a-z0-9_]*(\\.[A-Za-z0-9_-]+)+$");
    if (!st.IsSequence()) return error(st.Mark(), "'statements' must be a list of statement ids");
    std::set<std::string> seen;
    for (const YAML::Node& x : st) {
      if (!x.IsScalar() || !std::regex_match(x.Scalar(), sid_re)) {
        error(x.Mark(), "'statements' entries are statement ids like ptx.08-async-copy-intro-non-bulk.cp-async.3f2a1c");
        continue;
      }
      if (!seen.insert(x.Scalar()).second) error(x.Mark(), "rule " + r.id + " names statement '" + x.Scalar() + "' twice");
      r.statements.push_back(x.Scalar());
      r.statement_locs.push_back({file_, x.Mark().line + 1, x.Mark().column + 1});
    }
  }

  // `relies: [id, ...]`: the behaviours of the relied-upon index (consumers/) the rule proves;
  // whether each id exists is checked against the index (consumers.hpp).
  void load_relies(const YAML::Node& rl, Rule& r) {
    static const std::regex bid_re("^[a-z][a-z0-9_-]*(\\.[a-z0-9_]+)+$");
    if (!rl.IsSequence()) return error(rl.Mark(), "'relies' must be a list of behaviour ids (consumers/*.yaml)");
    std::set<std::string> seen;
    for (const YAML::Node& x : rl) {
      if (!x.IsScalar() || !std::regex_match(x.Scalar(), bid_re)) {
        error(x.Mark(), "'relies' entries are behaviour ids like cutlass.mbarrier.fresh_parity1_complete");
        continue;
      }
      if (!seen.insert(x.Scalar()).second) error(x.Mark(), "rule " + r.id + " names behaviour '" + x.Scalar() + "' twice");
      r.relies.push_back(x.Scalar());
      r.relies_locs.push_back({file_, x.Mark().line + 1, x.Mark().column + 1});
    }
  }

  std::string file_;
  Catalog& cat_;
  SpecRead read_;
};

}  // namespace

const Case* Catalog::find_case(const std::string& name) const {
  for (const Case& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

Catalog load_spec_files(const std::vector<std::string>& files, const std::string& dir, SpecRead read) {
  Catalog cat;
  cat.dir = dir;
  std::set<std::string> ids, areas;
  for (auto& f : files) FileLoader(f, cat, read).load(ids, areas);
  std::set<std::string> names;
  const bool jit = codegen_env_is_jit();
  for (auto& r : cat.rules) {
    std::size_t before = cat.cases.size();
    expand_rule(*r, cat.cases, cat.errors);
    if (cat.cases.size() == before && !r->planned)
      cat.errors.push_back({r->loc, "rule " + r->id + " expands to no case (exclude/where remove every combination)"});
    for (std::size_t i = before; i < cat.cases.size(); ++i) cat.cases[i].placement = place_case(cat.cases[i], jit);
    for (std::size_t i = before; i < cat.cases.size(); ++i)
      if (!names.insert(cat.cases[i].name).second)
        cat.errors.push_back({r->loc, "case name '" + cat.cases[i].name + "' is not unique"});
  }
  return cat;
}

Catalog load_catalog(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    Catalog cat;
    cat.dir = dir;
    cat.errors.push_back({SourceLoc{dir, 0, 0}, "specs folder not found"});
    return cat;
  }
  std::vector<SpecError> unreadable;
  files = yaml_files_in(dir, &unreadable);
  Catalog cat = load_spec_files(files, dir);
  cat.errors.insert(cat.errors.begin(), unreadable.begin(), unreadable.end());
  if (files.empty() && unreadable.empty()) cat.errors.push_back({SourceLoc{dir, 0, 0}, "no *.yaml spec files in this folder"});
  return cat;
}

std::string default_specs_dir() {
  if (const char* env = std::getenv("CUCONFORM_SPECS")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path cand : {exe.parent_path() / "specs", exe.parent_path() / ".." / "share" / "cuconform" / "specs"})
      if (fs::is_directory(cand, ec)) return fs::weakly_canonical(cand).string();
  }
  return CUCONFORM_SOURCE_SPECS_DIR;
}

}  // namespace cuconform
