#pragma once
// Cited sections that exist (issue 45): a rule's `source:` that names a PTX ISA section number
// (three parts or more: 9.7.13.5) or a seed section (seed 003 §4.2, seed 000 §LDGSTS 基本概念)
// must name one the reference files hold (../shared/reference/ptx-isa/*.md headings, the seed
// texts). Two-part numbers after "PTX ISA" are ISA versions (PTX ISA 8.0), not checked.
#include <set>
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

struct ReferenceIndex {
  bool available = false;
  std::string dir;                   // the shared folder read
  std::set<std::string> ptx_sections;  // "9.7.13.5"
  std::vector<std::string> seeds;    // the seed texts, by number: seeds[1] is seed 001 ("" if absent)
};

// Reads `shared_dir` (reference/ptx-isa/*.md, seeds/NNN_*.txt); available false when absent.
ReferenceIndex load_reference_index(const std::string& shared_dir);

// What `source` cites that the index lacks, in words ("PTX ISA section 9.7.12.5"), empty when
// every citation exists (or the index is unavailable).
std::vector<std::string> missing_citations(const std::string& source, const ReferenceIndex& idx);

// Each rule whose source cites a missing section, at the rule's file:line.
std::vector<SpecError> check_citations(const Catalog& cat, const ReferenceIndex& idx);

}  // namespace cuconform
