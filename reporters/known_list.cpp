#include "reporters/known_list.hpp"

#include "reporters/waivers.hpp"

#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "harness/util/yaml_bounded.hpp"

namespace cuconform {

namespace {

std::string at(const std::string& file, const YAML::Node& n) {
  return n.Mark().line >= 0 ? file + ":" + std::to_string(n.Mark().line + 1) : file;
}

[[noreturn]] void bad(const std::string& file, const YAML::Node& n, const std::string& what) {
  throw ResultsError(at(file, n) + ": " + what);
}

SafeRegex compile(const std::string& file, const YAML::Node& n, const std::string& text) {
  std::string error;
  SafeRegex re = SafeRegex::compile(text, &error);
  if (!re) bad(file, n, "bad regex '" + text + "': " + error);
  return re;
}

std::string class_names() {
  std::string s;
  for (FindingClass c : finding_classes()) s += (s.empty() ? "" : ", ") + std::string(to_string(c));
  return s;
}

// passages: [{section: "9.7.9.x ... (Syntax)", quote: "..."}, ...]
std::vector<Passage> read_passages(const std::string& file, const YAML::Node& list) {
  if (!list.IsSequence()) bad(file, list, "'passages' must be a list of {section, quote}");
  std::vector<Passage> out;
  for (const YAML::Node& p : list) {
    if (!p.IsMap()) bad(file, p, "each passage is a mapping {section, quote}");
    for (auto it = p.begin(); it != p.end(); ++it) {
      const std::string k = it->first.Scalar();
      if (k != "section" && k != "quote") bad(file, it->first, "unknown key '" + k + "' in a passage (section, quote)");
      if (!it->second.IsScalar() || it->second.Scalar().empty()) bad(file, it->second, "'" + k + "' of a passage must be a non-empty string");
    }
    if (!p["section"] || !p["quote"]) bad(file, p, "a passage needs both 'section' and 'quote'");
    out.push_back({p["section"].Scalar(), p["quote"].Scalar()});
  }
  return out;
}

std::vector<KnownEntry> read_entries(const std::string& file, const YAML::Node& list, const char* section,
                                     bool class_required) {
  std::vector<KnownEntry> out;
  if (!list.IsDefined() || list.IsNull()) return out;
  if (!list.IsSequence()) bad(file, list, std::string(section) + " must be a list of {id|regex, reason}");
  static const std::set<std::string> keys = {"id",     "regex",  "reason", "class",     "issue",  "device", "driver",
                                             "tool",   "toolchain", "passages", "owner", "expires", "link"};
  for (auto item : list) {
    if (!item.IsMap()) bad(file, item, std::string(section) + ": each entry is a mapping with id or regex, and reason");
    KnownEntry e;
    e.where = at(file, item);
    for (auto it = item.begin(); it != item.end(); ++it) {
      std::string k = it->first.Scalar();
      if (!keys.count(k))
        bad(file, it->first, "unknown key '" + k + "' (id, regex, reason, class, issue, device, driver, tool, toolchain, passages, owner, expires, link)");
      if (k == "passages") e.passages = read_passages(file, it->second);
      else if (!it->second.IsScalar()) bad(file, it->second, "'" + k + "' must be a string");
    }
    e.id = item["id"].as<std::string>("");
    e.pattern = item["regex"].as<std::string>("");
    e.reason = item["reason"].as<std::string>("");
    e.issue = item["issue"].as<std::string>("");
    e.device = item["device"].as<std::string>("");
    e.driver = item["driver"].as<std::string>("");
    e.tool = item["tool"].as<std::string>("");
    e.toolchain = item["toolchain"].as<std::string>("");
    e.owner = item["owner"].as<std::string>("");
    e.expires = item["expires"].as<std::string>("");
    e.link = item["link"].as<std::string>("");
    if (!e.expires.empty() && !is_iso_date(e.expires))
      bad(file, item["expires"], "'" + e.what() + "': expires '" + e.expires + "' is not a date YYYY-MM-DD");
    if (e.id.empty() == e.pattern.empty()) bad(file, item, "give exactly one of 'id' and 'regex'");
    if (e.reason.empty()) bad(file, item, "'" + e.what() + "' needs a 'reason'");
    if (item["class"].IsDefined()) {
      if (!parse_finding_class(item["class"].as<std::string>(""), &e.cls))
        bad(file, item["class"], "unknown class '" + item["class"].as<std::string>("") + "' (" + class_names() + ")");
    } else if (class_required) {
      bad(file, item, "'" + e.what() + "' needs a 'class' (" + class_names() + ")");
    }
    if (e.cls == FindingClass::documents && e.passages.size() < 2)
      bad(file, item, "'" + e.what() + "' is of class documents-ambiguous: quote the passages that disagree or leave the point open, "
                      "each with its section ('passages:' with at least two {section, quote})");
    const bool tools_finding = e.cls == FindingClass::tool_accepts_forbidden || e.cls == FindingClass::tool_rejects_allowed;
    if (tools_finding && !e.toolchain.empty())
      bad(file, item["toolchain"], "'" + e.what() + "' is a finding of a tool: scope it by the tool's version ('tool:' on \"ptxas 13.0.88\" "
                                   "or \"driver JIT 580.159.04\", 'driver:' for the driver API), not by the code path ('toolchain:')");
    if (!e.pattern.empty()) e.re = compile(file, item["regex"], e.pattern);
    if (!e.device.empty()) e.device_re = compile(file, item["device"], e.device);
    if (!e.driver.empty()) e.driver_re = compile(file, item["driver"], e.driver);
    if (!e.tool.empty()) e.tool_re = compile(file, item["tool"], e.tool);
    if (!e.toolchain.empty()) e.toolchain_re = compile(file, item["toolchain"], e.toolchain);
    out.push_back(std::move(e));
  }
  return out;
}

double parse_tolerance(const std::string& v, bool* ok) {
  *ok = true;
  if (v == "off" || v == "ignore") return -1;
  try {
    std::size_t used = 0;
    double d = std::stod(v, &used);
    if (used == v.size() && d >= 0) return d;
  } catch (...) {
  }
  *ok = false;
  return 0;
}

}  // namespace

const char* to_string(FindingClass c) {
  switch (c) {
    case FindingClass::runtime: return "runtime";
    case FindingClass::consumer_break: return "consumer-break";
    case FindingClass::tool_accepts_forbidden: return "tool-accepts-forbidden";
    case FindingClass::tool_rejects_allowed: return "tool-rejects-allowed";
    case FindingClass::performance: return "performance";
    case FindingClass::documents: return "documents-ambiguous";
    case FindingClass::none: return "unclassified";
  }
  return "?";
}

const char* finding_class_title(FindingClass c) {
  switch (c) {
    case FindingClass::runtime: return "wrong data or a fault at run time";
    case FindingClass::consumer_break: return "a behaviour a named consumer's code relies on does not hold (a compatibility break)";
    case FindingClass::tool_accepts_forbidden: return "the tool accepts what the documents forbid";
    case FindingClass::tool_rejects_allowed: return "the tool rejects what the documents allow";
    case FindingClass::performance: return "a documented performance property does not hold";
    case FindingClass::documents: return "the documents contradict themselves or leave the point open (not a failure of a tool or GPU)";
    case FindingClass::none: return "unclassified";
  }
  return "?";
}

const std::vector<FindingClass>& finding_classes() {
  static const std::vector<FindingClass> all = {FindingClass::runtime, FindingClass::consumer_break, FindingClass::tool_accepts_forbidden,
                                                FindingClass::tool_rejects_allowed, FindingClass::performance,
                                                FindingClass::documents};
  return all;
}

bool parse_finding_class(const std::string& s, FindingClass* out) {
  for (FindingClass c : finding_classes())
    if (s == to_string(c)) {
      *out = c;
      return true;
    }
  return false;
}

bool KnownEntry::matches(const CaseRow& c, const RunInfo* run) const {
  if (!id.empty()) {
    bool hit = c.name == id || c.rule == id || c.name.rfind(id + ".", 0) == 0;
    if (!hit) return false;
  } else if (!re.search(c.name)) {
    return false;
  }
  return applies_to(run);
}

bool KnownEntry::applies_to(const RunInfo* run) const {
  if (!run) return true;
  // A run that says nothing of its device (a CTest case without a GPU) is not judged by the device
  // scopes; every run has a code path.
  const bool device_known = !run->device.empty();
  if (device_known && !device.empty() && !device_re.search(run->dev("name"))) return false;
  if (device_known && !driver.empty() && !driver_re.search(run->dev("driver_version"))) return false;
  if (!tool.empty() && !tool_re.search(run->tool_line())) return false;
  if (!toolchain.empty() && !toolchain_re.search(run->toolchain_line())) return false;
  return true;
}

const KnownEntry* KnownList::failure(const CaseRow& c, const RunInfo* run) const {
  for (auto& e : failures)
    if (!e.expired && e.matches(c, run)) return &e;
  return nullptr;
}

const KnownEntry* KnownList::flake(const CaseRow& c, const RunInfo* run) const {
  for (auto& e : flakes)
    if (!e.expired && e.matches(c, run)) return &e;
  return nullptr;
}

const KnownEntry* KnownList::expired(const CaseRow& c, const RunInfo* run) const {
  for (auto* list : {&failures, &flakes})
    for (auto& e : *list)
      if (e.expired && e.matches(c, run)) return &e;
  return nullptr;
}

const ToleranceRule* Tolerances::rule_for(const std::string& case_name, const std::string& measurement) const {
  std::string both = case_name + ":" + measurement;
  for (auto& r : overrides) {
    const std::string& subject = r.glob.find(':') == std::string::npos ? measurement : both;
    if (fnmatch(r.glob.c_str(), subject.c_str(), 0) == 0) return &r;
  }
  return nullptr;
}

double Tolerances::of(const std::string& case_name, const std::string& measurement) const {
  const ToleranceRule* r = rule_for(case_name, measurement);
  return r ? r->tolerance : fallback;
}

bool Tolerances::parse(const std::string& text, std::string* error) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (part.empty()) continue;
    std::size_t eq = part.rfind('=');
    bool ok = false;
    if (eq == std::string::npos) {
      fallback = parse_tolerance(part, &ok);
      if (fallback < 0) ok = false;
    } else {
      overrides.push_back({part.substr(0, eq), parse_tolerance(part.substr(eq + 1), &ok), "", ""});
    }
    if (!ok) {
      *error = "bad tolerance '" + part + "' (a relative change such as 0.25, or GLOB=0.5, or GLOB=off)";
      return false;
    }
  }
  return true;
}

KnownList load_known(const std::string& path) {
  KnownList k;
  k.file = path;
  YAML::Node root;
  try {
    root = load_yaml_file(path);
  } catch (const YAML::BadFile&) {
    throw ResultsError(path + ": cannot open");
  } catch (const YAML::Exception& e) {
    throw ResultsError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  if (root.IsNull()) return k;  // an empty file knows nothing
  if (!root.IsMap()) bad(path, root, "expected a mapping with known_failures, known_flakes, tolerances");
  for (auto it = root.begin(); it != root.end(); ++it) {
    std::string key = it->first.Scalar();
    if (key != "known_failures" && key != "known_flakes" && key != "tolerances")
      bad(path, it->first, "unknown key '" + key + "' (known_failures, known_flakes, tolerances)");
  }
  k.failures = read_entries(path, root["known_failures"], "known_failures", true);
  k.flakes = read_entries(path, root["known_flakes"], "known_flakes", false);
  k.today = waiver_today();
  for (auto* list : {&k.failures, &k.flakes})
    for (auto& e : *list) e.expired = !e.expires.empty() && e.expires < k.today;
  YAML::Node tol = root["tolerances"];
  if (tol.IsDefined() && !tol.IsNull()) {
    if (!tol.IsMap()) bad(path, tol, "tolerances must map a measurement glob to a number or off");
    // GLOB: 0.5 | off, or GLOB: {tolerance: 0.5 | off, class: NAME, evidence: TEXT}
    for (auto it = tol.begin(); it != tol.end(); ++it) {
      const std::string glob = it->first.Scalar();
      ToleranceRule r{glob, 0, "", ""};
      YAML::Node value = it->second;
      if (value.IsMap()) {
        for (auto f = value.begin(); f != value.end(); ++f) {
          const std::string key = f->first.Scalar();
          if (key != "tolerance" && key != "class" && key != "evidence")
            bad(path, f->first, "unknown key '" + key + "' in the tolerance of '" + glob + "' (tolerance, class, evidence)");
          if (!f->second.IsScalar()) bad(path, f->second, "'" + key + "' of the tolerance of '" + glob + "' must be a string or number");
        }
        r.cls = value["class"].as<std::string>("");
        r.evidence = value["evidence"].as<std::string>("");
        value = value["tolerance"];
        if (!value.IsDefined()) bad(path, it->second, "the tolerance of '" + glob + "' needs 'tolerance: NUMBER|off'");
      }
      bool ok = false;
      r.tolerance = value.IsScalar() ? parse_tolerance(value.Scalar(), &ok) : 0;
      if (!ok) bad(path, value, "tolerance for '" + glob + "' must be a number >= 0 or off");
      k.tolerances.push_back(r);
    }
  }
  return k;
}

}  // namespace cuconform
