// cuconform manifest: the release's case list (docs/contract.md), written from the specs.
//   manifest [-o FILE]                  the manifest of this suite version (stdout, or FILE)
//   manifest --check FILE               exit 1 when FILE is not what the specs give (what differs, by case)
//   manifest --suite-version V --commit C -o FILE   for a baseline of before 1.0.0: its commit's specs
#include <iostream>
#include <map>
#include <set>

#include "cli/verbs.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/util/input_file.hpp"
#include "harness/util/output_file.hpp"
#include "reporters/manifest.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {
namespace {

// What differs between a committed manifest and the specs, case by case.
int check(const Manifest& committed, const Manifest& now) {
  std::vector<std::string> lines;
  for (const ManifestCase& c : now.cases) {
    const ManifestCase* b = committed.find(c.name);
    if (!b) lines.push_back("added: " + c.name);
    else if (b->definition != c.definition) lines.push_back("redefined: " + c.name + " (" + b->definition + " -> " + c.definition + ")");
    else if (b->tier != c.tier || b->basis != c.basis || b->shadow != c.shadow)
      lines.push_back("changed: " + c.name + " (tier " + b->tier + " -> " + c.tier + ", basis " + b->basis + " -> " + c.basis +
                      ", shadow " + (b->shadow ? "true" : "false") + " -> " + (c.shadow ? "true" : "false") + ")");
  }
  for (const ManifestCase& c : committed.cases)
    if (!now.find(c.name)) lines.push_back("removed: " + c.name);
  if (committed.version != now.version) lines.push_back("suite version: " + committed.version + " -> " + now.version);
  return lines.empty() ? 0 : (std::cout << committed.file << " is not current:\n", [&] {
    std::size_t shown = 0;
    for (auto& l : lines)
      if (shown++ < 40) std::cout << "  " << l << "\n";
    if (lines.size() > 40) std::cout << "  ... and " << lines.size() - 40 << " more\n";
    return static_cast<int>(lines.size());
  }());
}

int cmd_manifest(const Options& o) {
  Catalog cat;
  if (!load_or_report(o, &cat)) return kExitBadInput;
  const std::string version = o.get("--suite-version", CUCONFORM_VERSION);
  const std::string text = manifest_json(cat, version, o.get("--commit"));
  try {
    if (o.has("--check")) {
      const std::string file = o.get("--check");
      Manifest committed = load_manifest(file);
      if (read_input_file(file) == text) {
        std::cout << file << ": current (" << cat.cases.size() << " cases, suite " << version << ")\n";
        return kExitOk;
      }
      const Manifest now = parse_manifest(text, "the manifest of the specs in " + cat.dir);
      if (check(committed, now) == 0) std::cout << file << " differs in layout only: regenerate it\n";
      std::cout << "regenerate: cuconform manifest -o " << file << "\n";
      return kExitFailed;
    }
    write_file_atomically(o.get("-o", "-"), text);
  } catch (const std::exception& e) {
    std::cerr << "cuconform manifest: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (o.has("-o") && !writes_to_stdout(o.get("-o")))
    std::cout << "manifest: " << o.get("-o") << " (" << cat.cases.size() << " cases, " << cat.rules.size() << " rules, suite " << version << ")\n";
  return kExitOk;
}

}  // namespace

const VerbRegistration kManifestVerb("manifest", "the release's case list: case, rule, definition hash, tier, basis", cmd_manifest, [](Verb& v) {
  v.about("Writes the manifest of the suite's cases (docs/contract.md): each case with its rule, the hash of the rule's "
          "definition, its tier and basis, one case a line. releases/VERSION/manifest.json is this output for the release; "
          "a host test checks it is current. Exit 0 written (or current), 1 --check found differences, 2 bad input.")
      .value("-o", "FILE", "where to write it (default: stdout)", ValueHint::file)
      .value("--check", "FILE", "compare FILE with what the specs give; exit 1 and list the cases that differ", ValueHint::file)
      .value("--suite-version", "V", "the suite version to name (default: this build's)")
      .value("--commit", "C", "the commit the specs are from: a manifest for a baseline made before manifests existed");
});

}  // namespace cuconform
