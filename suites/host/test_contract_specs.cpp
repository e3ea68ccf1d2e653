// The contract's spec keys (docs/contract.md): tiers (default from kind and basis, `tier:` to
// override), `shadow:`, the rule's definition hash (editorial keys leave it alone, defining keys
// change it), `run --tier`, and the release manifest kept current.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/spec/catalog.hpp"
#include "harness/spec/selection.hpp"
#include "reporters/manifest.hpp"
#include "suites/host/test_temp_dir.hpp"

using namespace cuconform;

namespace {

const char* kRule = R"(area: contract_a
rules:
  - id: contract_a.one
    rule: A rule the contract tests load.
    source: test
    min_cc: "8.0"
    kind: KIND
    basis: BASIS
    fixture: selftest.echo
    params:
      value: [1, 2]
EXTRA)";

// One spec file from kRule with the given kind, basis and extra lines; its catalog.
Catalog load_one(const std::string& kind, const std::string& basis, const std::string& extra) {
  std::string text = kRule;
  text.replace(text.find("KIND"), 4, kind);
  text.replace(text.find("BASIS"), 5, basis);
  text.replace(text.find("EXTRA"), 5, extra);
  const std::string dir = testing::temp_dir("contract-spec");
  const std::string file = dir + "/contract_a.yaml";
  std::ofstream(file) << text;
  return load_spec_files({file}, dir);
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("a rule's tier comes from its kind and basis unless `tier:` says otherwise", "[host][contract]") {
  CHECK(default_tier(Kind::positive, Basis::documented) == Tier::core);
  CHECK(default_tier(Kind::negative, Basis::documented) == Tier::core);
  CHECK(default_tier(Kind::codegen, Basis::documented) == Tier::core);
  CHECK(default_tier(Kind::performance, Basis::documented) == Tier::extended);
  CHECK(default_tier(Kind::positive, Basis::self_check) == Tier::extended);
  CHECK(default_tier(Kind::positive, Basis::ambiguous) == Tier::extended);  // one reading judged, neither promised
  CHECK(default_tier(Kind::negative, Basis::ambiguous) == Tier::extended);
  CHECK(default_tier(Kind::codegen, Basis::toolchain) == Tier::informational);
  CHECK(default_tier(Kind::undefined, Basis::undefined) == Tier::informational);

  Catalog plain = load_one("positive", "documented", "");
  REQUIRE(plain.ok());
  CHECK(plain.rules[0]->tier == Tier::core);
  CHECK_FALSE(plain.rules[0]->shadow);
  // The tier and shadow are tags of every case: `run --tag shadow`, the CTest names' filters.
  CHECK(std::find(plain.cases[0].tags.begin(), plain.cases[0].tags.end(), "core") != plain.cases[0].tags.end());

  Catalog over = load_one("positive", "documented", "    tier: extended\n    shadow: true\n");
  REQUIRE(over.ok());
  CHECK(over.rules[0]->tier == Tier::extended);
  CHECK(over.rules[0]->shadow);
  CHECK(std::find(over.cases[0].tags.begin(), over.cases[0].tags.end(), "shadow") != over.cases[0].tags.end());

  Catalog bad = load_one("positive", "documented", "    tier: gate\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.errors[0].str().find(":12:") != std::string::npos);
  CHECK(bad.errors[0].message.find("tier 'gate' must be core, extended or informational") != std::string::npos);
  Catalog bad_shadow = load_one("positive", "documented", "    shadow: yes please\n");
  REQUIRE_FALSE(bad_shadow.ok());
  CHECK(bad_shadow.errors[0].message.find("shadow must be true or false") != std::string::npos);
}

TEST_CASE("the definition hash changes with what a rule checks, not with its citations or tier", "[host][contract]") {
  const std::string base = load_one("positive", "documented", "").rules[0]->definition;
  REQUIRE(base.size() == 16);
  // Editorial: notes, tags, tier, shadow (and source, statements, errata).
  CHECK(load_one("positive", "documented", "    notes: a note\n    tags: [extra]\n    tier: extended\n    shadow: true\n").rules[0]->definition ==
        base);
  // Defining: the kind, the basis, an expectation, the parameters.
  CHECK(load_one("performance", "documented", "").rules[0]->definition != base);
  CHECK(load_one("positive", "self-check", "").rules[0]->definition != base);
  CHECK(load_one("positive", "documented", "    timeout_s: 20\n").rules[0]->definition != base);
}

TEST_CASE("run --tier selects the cases of a tier", "[host][contract]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  std::size_t total = 0;
  for (const char* t : {"core", "extended", "informational"}) {
    Selection sel;
    sel.tiers = {t};
    std::vector<const Case*> picked;
    std::string error;
    REQUIRE(select_cases(cat, sel, &picked, &error));
    for (const Case* c : picked) CHECK(to_string(c->rule->tier) == std::string(t));
    total += picked.size();
    CHECK(sel.describe() == std::vector<std::string>{std::string("--tier ") + t});
  }
  CHECK(total == cat.cases.size());
  Selection bad;
  bad.tiers = {"gate"};
  std::vector<const Case*> none;
  std::string error;
  CHECK_FALSE(select_cases(cat, bad, &none, &error));
  CHECK(error == "unknown tier 'gate' (core, extended, informational)");
}

TEST_CASE("the release's manifest is current: what the specs give is what is committed", "[host][contract]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  const std::string path = releases_dir_beside(CUCONFORM_SOURCE_SPECS_DIR) + "/" + CUCONFORM_VERSION + "/manifest.json";
  INFO("regenerate: ./build/cuconform manifest -o releases/" CUCONFORM_VERSION "/manifest.json (and say in the commit which cases changed)");
  REQUIRE(std::filesystem::exists(path));
  CHECK(read(path) == manifest_json(cat, CUCONFORM_VERSION, ""));
  Manifest m = load_manifest(path);
  CHECK(m.version == CUCONFORM_VERSION);
  CHECK(m.commit.empty());  // a release names no commit: its version is its name
  CHECK(m.cases.size() == cat.cases.size());
}

TEST_CASE("a rule new or redefined since the last release must be in shadow (lint's warning)", "[host][contract]") {
  const Manifest release = parse_manifest(manifest_json(load_one("positive", "documented", ""), "1.0.0", ""), "release");
  CHECK(unshadowed_changes(load_one("positive", "documented", "    notes: reworded\n"), release).empty());
  CHECK(unshadowed_changes(load_one("positive", "documented", "    timeout_s: 20\n"), release) ==
        std::vector<std::string>{"contract_a.one (redefined since 1.0.0)"});
  CHECK(unshadowed_changes(load_one("positive", "documented", "    timeout_s: 20\n    shadow: true\n"), release).empty());
  const Manifest empty = parse_manifest(R"({"schema": "cuconform-manifest/1", "suite": {"version": "0.9.0"}, "cases": []})", "empty");
  CHECK(unshadowed_changes(load_one("positive", "documented", ""), empty) == std::vector<std::string>{"contract_a.one (new since 0.9.0)"});
}
