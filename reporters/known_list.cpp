#include "reporters/known_list.hpp"

#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include <set>

namespace cuconform {

namespace {

std::string at(const std::string& file, const YAML::Node& n) {
  return n.Mark().line >= 0 ? file + ":" + std::to_string(n.Mark().line + 1) : file;
}

[[noreturn]] void bad(const std::string& file, const YAML::Node& n, const std::string& what) {
  throw ResultsError(at(file, n) + ": " + what);
}

std::regex compile(const std::string& file, const YAML::Node& n, const std::string& text) {
  try {
    return std::regex(text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    bad(file, n, "bad regex '" + text + "': " + e.what());
  }
}

std::vector<KnownEntry> read_entries(const std::string& file, const YAML::Node& list, const char* section) {
  std::vector<KnownEntry> out;
  if (!list.IsDefined() || list.IsNull()) return out;
  if (!list.IsSequence()) bad(file, list, std::string(section) + " must be a list of {id|regex, reason}");
  static const std::set<std::string> keys = {"id", "regex", "reason", "issue", "device", "driver"};
  for (auto item : list) {
    if (!item.IsMap()) bad(file, item, std::string(section) + ": each entry is a mapping with id or regex, and reason");
    KnownEntry e;
    e.where = at(file, item);
    for (auto it = item.begin(); it != item.end(); ++it) {
      std::string k = it->first.Scalar();
      if (!keys.count(k)) bad(file, it->first, "unknown key '" + k + "' (id, regex, reason, issue, device, driver)");
      if (!it->second.IsScalar()) bad(file, it->second, "'" + k + "' must be a string");
    }
    e.id = item["id"].as<std::string>("");
    e.pattern = item["regex"].as<std::string>("");
    e.reason = item["reason"].as<std::string>("");
    e.issue = item["issue"].as<std::string>("");
    e.device = item["device"].as<std::string>("");
    e.driver = item["driver"].as<std::string>("");
    if (e.id.empty() == e.pattern.empty()) bad(file, item, "give exactly one of 'id' and 'regex'");
    if (e.reason.empty()) bad(file, item, "'" + e.what() + "' needs a 'reason'");
    if (!e.pattern.empty()) e.re = compile(file, item["regex"], e.pattern);
    if (!e.device.empty()) e.device_re = compile(file, item["device"], e.device);
    if (!e.driver.empty()) e.driver_re = compile(file, item["driver"], e.driver);
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

bool KnownEntry::matches(const CaseRow& c, const RunInfo* run) const {
  if (!id.empty()) {
    bool hit = c.name == id || c.rule == id || c.name.rfind(id + ".", 0) == 0;
    if (!hit) return false;
  } else if (!std::regex_search(c.name, re)) {
    return false;
  }
  if (run && !device.empty() && !std::regex_search(run->dev("name"), device_re)) return false;
  if (run && !driver.empty() && !std::regex_search(run->dev("driver_version"), driver_re)) return false;
  return true;
}

const KnownEntry* KnownList::failure(const CaseRow& c, const RunInfo* run) const {
  for (auto& e : failures)
    if (e.matches(c, run)) return &e;
  return nullptr;
}

const KnownEntry* KnownList::flake(const CaseRow& c, const RunInfo* run) const {
  for (auto& e : flakes)
    if (e.matches(c, run)) return &e;
  return nullptr;
}

double Tolerances::of(const std::string& case_name, const std::string& measurement) const {
  std::string both = case_name + ":" + measurement;
  for (auto& [glob, tol] : overrides) {
    const std::string& subject = glob.find(':') == std::string::npos ? measurement : both;
    if (fnmatch(glob.c_str(), subject.c_str(), 0) == 0) return tol;
  }
  return fallback;
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
      overrides.emplace_back(part.substr(0, eq), parse_tolerance(part.substr(eq + 1), &ok));
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
    root = YAML::LoadFile(path);
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
  k.failures = read_entries(path, root["known_failures"], "known_failures");
  k.flakes = read_entries(path, root["known_flakes"], "known_flakes");
  YAML::Node tol = root["tolerances"];
  if (tol.IsDefined() && !tol.IsNull()) {
    if (!tol.IsMap()) bad(path, tol, "tolerances must map a measurement glob to a number or off");
    for (auto it = tol.begin(); it != tol.end(); ++it) {
      bool ok = false;
      double v = it->second.IsScalar() ? parse_tolerance(it->second.Scalar(), &ok) : 0;
      if (!ok) bad(path, it->second, "tolerance for '" + it->first.Scalar() + "' must be a number >= 0 or off");
      k.tolerances.emplace_back(it->first.Scalar(), v);
    }
  }
  return k;
}

}  // namespace cuconform
