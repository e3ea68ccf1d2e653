#include "reporters/manifest.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "harness/util/json_read.hpp"
#include "harness/util/json_write.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

const ManifestCase* Manifest::find(const std::string& name) const {
  auto it = index.find(name);
  return it == index.end() ? nullptr : &cases[it->second];
}

static Manifest read_manifest(const JsonDoc& doc, const std::string& name);

std::string manifest_json(const Catalog& cat, const std::string& version, const std::string& commit) {
  std::map<std::string, int> counts;
  for (const Case& c : cat.cases) {
    ++counts[to_string(c.rule->tier)];
    if (c.rule->shadow) ++counts["shadow"];
  }
  Json suite = {{"version", version}};
  if (!commit.empty()) suite["commit"] = commit;
  Json summary = {{"rules", cat.rules.size()}, {"cases", cat.cases.size()}};
  for (Tier t : all_tiers()) summary[to_string(t)] = counts[to_string(t)];
  summary["shadow"] = counts["shadow"];
  std::ostringstream o;
  o << "{\n  \"schema\": " << Json(kManifestSchema).dump() << ",\n  \"suite\": " << suite.dump() << ",\n"
    << "  \"definition\": \"FNV-1a 64 of the canonical JSON of the rule's defining keys (harness/spec/rule_definition.hpp)\",\n"
    << "  \"summary\": " << summary.dump() << ",\n  \"cases\": [";
  bool first = true;
  for (const Case& c : cat.cases) {
    const Rule& r = *c.rule;
    Json j = {{"name", c.name}, {"rule", r.id}, {"definition", r.definition}, {"tier", to_string(r.tier)}, {"basis", to_string(r.basis)}};
    if (r.shadow) j["shadow"] = true;
    o << (first ? "\n    " : ",\n    ") << j.dump();
    first = false;
  }
  o << "\n  ]\n}\n";
  return o.str();
}

Manifest load_manifest(const std::string& path) {
  try {
    JsonDoc doc = JsonDoc::from_file(path);
    return read_manifest(doc, path);
  } catch (const JsonError& e) {
    throw ResultsError(e.what());
  }
}

Manifest parse_manifest(const std::string& text, const std::string& name) {
  try {
    JsonDoc doc(text, name);
    return read_manifest(doc, name);
  } catch (const JsonError& e) {
    throw ResultsError(e.what());
  }
}

Manifest read_manifest(const JsonDoc& doc, const std::string& name) {
  Manifest m;
  m.file = name;
  const JsonField root = doc.root();
  if (root["schema"].str() != kManifestSchema)
    root["schema"].fail(std::string("not a cuconform manifest (schema '") + kManifestSchema + "')");
  m.version = root["suite"]["version"].required().str();
  m.commit = root["suite"]["commit"].str();
  for (const JsonField& c : root["cases"].required().elements()) {
    ManifestCase mc{c["name"].required().str(), c["rule"].str(), c["definition"].required().str(), c["tier"].str(), c["basis"].str(),
                    c["shadow"].boolean()};
    if (!m.index.emplace(mc.name, m.cases.size()).second) c["name"].fail("case '" + mc.name + "' is listed twice");
    m.cases.push_back(std::move(mc));
  }
  return m;
}

std::string releases_dir_beside(const std::string& specs_dir) {
  return (std::filesystem::path(specs_dir).parent_path() / "releases").string();
}

std::string find_manifest(const std::string& dir, const std::string& version, const std::string& commit) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "";
  std::string release;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".json") continue;
    try {
      Manifest m = load_manifest(it->path().string());
      if (m.version != version) continue;
      if (!m.commit.empty() && m.commit == commit) return it->path().string();
      if (m.commit.empty()) release = it->path().string();
    } catch (const std::exception&) {
      // not a manifest: skipped
    }
  }
  return release;
}

namespace {

// "1.2.3" as numbers, for ordering releases; unparsable parts count as 0.
std::vector<long> version_parts(const std::string& v) {
  std::vector<long> out;
  std::size_t start = 0;
  while (start <= v.size()) {
    std::size_t dot = std::min(v.find('.', start), v.size());
    out.push_back(std::strtol(v.substr(start, dot - start).c_str(), nullptr, 10));
    start = dot + 1;
  }
  return out;
}

}  // namespace

std::string previous_release_manifest(const std::string& dir, const std::string& version) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string best;
  std::vector<long> best_v;
  const std::vector<long> current = version_parts(version);
  if (!fs::is_directory(dir, ec)) return "";
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file() || it->path().filename() != "manifest.json") continue;
    try {
      Manifest m = load_manifest(it->path().string());
      const std::vector<long> v = version_parts(m.version);
      if (!m.commit.empty() || !(v < current) || (!best.empty() && !(best_v < v))) continue;
      best = it->path().string();
      best_v = v;
    } catch (const std::exception&) {
      // not a manifest: skipped
    }
  }
  return best;
}

std::vector<std::string> unshadowed_changes(const Catalog& cat, const Manifest& previous) {
  std::map<std::string, std::string> before;  // rule -> definition
  for (const ManifestCase& c : previous.cases) before[c.rule] = c.definition;
  std::vector<std::string> out;
  for (auto& r : cat.rules) {
    if (r->shadow || r->planned) continue;
    auto it = before.find(r->id);
    if (it == before.end()) out.push_back(r->id + " (new since " + previous.version + ")");
    else if (it->second != r->definition) out.push_back(r->id + " (redefined since " + previous.version + ")");
  }
  return out;
}

}  // namespace cuconform
