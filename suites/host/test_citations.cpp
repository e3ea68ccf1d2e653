// lint's citation check (harness/spec/citations.hpp): a cited PTX ISA section number or seed
// section must exist in ../shared (the reference's headings, the seed texts). The review of
// 2026-11-28 found "9.7.12.5 atom" (atom is 9.7.13.5) and "9.7.9.8 ld" (not in the reference).
#include <catch2/catch.hpp>

#include "harness/spec/catalog.hpp"
#include "harness/spec/citations.hpp"

using namespace cuconform;

namespace {
const std::string kShared = std::string(CUCONFORM_SOURCE_SPECS_DIR) + "/../../shared";
}

TEST_CASE("citations: a PTX ISA section or seed section must exist in the reference files", "[host][spec][citations]") {
  const ReferenceIndex idx = load_reference_index(kShared);
  if (!idx.available) {
    WARN("no reference files at " << kShared << ": not checked");
    return;
  }
  CHECK(missing_citations("PTX ISA 9.7.13.5 atom (.inc/.dec)", idx).empty());
  CHECK(missing_citations("PTX ISA 9.7.12.5 atom (.inc/.dec)", idx) == std::vector<std::string>{"PTX ISA section 9.7.12.5"});
  CHECK(missing_citations("PTX ISA 9.7.9.8 ld", idx) == std::vector<std::string>{"PTX ISA section 9.7.9.8"});
  // The continuation of a PTX citation after ';' is a PTX section too.
  CHECK(missing_citations("PTX ISA 9.7.13.4 fence; 9.7.12.5 atom", idx).size() == 1);
  // ISA versions (two parts) are not sections; a seed's own numbers are not PTX sections.
  CHECK(missing_citations("PTX ISA 8.0 (introduced); seed 002 §3.2.4.1.2 Performance Considerations", idx).empty());
  CHECK(missing_citations("seed 003 §Advanced: L1 Bypass (16 bytes bypass)", idx).empty());
  CHECK(missing_citations("seed 003 §4.2 (require natural alignment)", idx).empty());
  CHECK(missing_citations("seed 003 §9.9.9 (nothing)", idx) == std::vector<std::string>{"seed 003 §9.9.9"});
  CHECK(missing_citations("seed 007 §1", idx) == std::vector<std::string>{"seed 007 (no such seed)"});
}

TEST_CASE("citations: every shipped rule cites sections the reference files hold", "[host][spec][citations]") {
  const ReferenceIndex idx = load_reference_index(kShared);
  if (!idx.available) return;
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  const auto errors = check_citations(cat, idx);
  for (auto& e : errors) UNSCOPED_INFO(e.str());
  CHECK(errors.empty());
}
