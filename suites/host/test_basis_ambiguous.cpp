// Basis `ambiguous` (issue 45): a rule that tests one reading of text that reads two ways. It is
// judged (kind positive, negative or performance), says in its notes which reading and why, and
// each such rule in specs/ is written up in ci/baselines/known.yaml as class documents-ambiguous;
// each documents-ambiguous entry's rule either is of basis ambiguous or says in its notes why its
// basis stays (a rule whose other cases the documents do promise).
#include <catch2/catch.hpp>

#include "harness/spec/catalog.hpp"
#include "reporters/known_list.hpp"

using namespace cuconform;

namespace {

// The known entry names the rule: its id is the rule or one of its cases, or its regex names the
// rule's id (dots escaped) in its fixed part.
bool names_rule(const KnownEntry& e, const std::string& rule) {
  if (!e.id.empty()) return e.id == rule || e.id.rfind(rule + ".", 0) == 0;
  std::string escaped;
  for (char c : rule) escaped += c == '.' ? std::string("\\.") : std::string(1, c);
  return e.pattern.find(escaped) != std::string::npos;
}

}  // namespace

TEST_CASE("basis ambiguous: parsed, judged kinds only", "[host][spec][basis]") {
  Basis b{};
  REQUIRE(parse_basis("ambiguous", &b));
  CHECK(b == Basis::ambiguous);
  CHECK(std::string(to_string(Basis::ambiguous)) == "ambiguous");
  CHECK(basis_conflict(Basis::ambiguous, Kind::positive).empty());
  CHECK(basis_conflict(Basis::ambiguous, Kind::negative).empty());
  CHECK(basis_conflict(Basis::ambiguous, Kind::performance).empty());
  CHECK(basis_conflict(Basis::ambiguous, Kind::codegen).find("needs kind positive, negative or performance") != std::string::npos);
  CHECK(!basis_conflict(Basis::ambiguous, Kind::undefined).empty());
}

TEST_CASE("the documents-ambiguous findings and the rules of basis ambiguous answer each other", "[host][spec][basis][findings]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.errors.empty());
  const KnownList known = load_known(std::string(CUCONFORM_SOURCE_SPECS_DIR) + "/../ci/baselines/known.yaml");
  int ambiguous = 0;
  for (const auto& rp : cat.rules) {
    const Rule& r = *rp;
    if (r.planned) continue;
    bool entry = false;
    for (const auto& e : known.failures) entry = entry || (e.cls == FindingClass::documents && names_rule(e, r.id));
    INFO(r.id);
    if (r.basis == Basis::ambiguous) {
      ++ambiguous;
      CHECK(entry);  // its failing reading is written up with both passages
      CHECK(r.notes.find("BASIS ambiguous") != std::string::npos);
    } else if (entry && r.id.rfind("tma_tensor.reduce.", 0) != 0) {
      // A rule with a documents-ambiguous case keeps another basis only with the reason in its notes
      // (the reductions' edge cases are answered in tma_tensor.store.tile_clips_at_edge's).
      CHECK(r.notes.find("BASIS " + std::string(to_string(r.basis)) + ", kept") != std::string::npos);
    }
  }
  CHECK(ambiguous >= 3);
}
