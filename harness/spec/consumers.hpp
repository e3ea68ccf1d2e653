#pragma once
// The relied-upon index (consumers/*.yaml, beside specs/ and statements/): per consumer (CUTLASS,
// CCCL, ...) the behaviours its code or tests depend on, each with where (path:line at the commit
// read, or an issue), the document passage or `silent`, and whether it is tested here. Rules of
// basis relied-upon name the behaviours they prove (`relies:`); format in specs/README.md.
#include <map>
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

struct Behaviour {
  std::string id, consumer, text, documents;  // documents: the passage, or "silent"
  std::vector<std::string> where;             // "path:line" at the file's commit, or "issue N" / "PR N"
  bool testable = true;                       // status: tested | not-testable
  std::string reason;                         // why not testable here
  SourceLoc loc;
};

struct Consumer {
  std::string id, title, repository, commit, file;
  std::vector<std::size_t> behaviours;  // positions in ConsumerIndex::behaviours
};

struct ConsumerIndex {
  std::string dir;
  bool available = false;  // false when the folder does not exist
  std::vector<Consumer> consumers;     // file order
  std::vector<Behaviour> behaviours;   // file order
  std::map<std::string, std::size_t> by_id;
  std::vector<SpecError> errors;
  const Behaviour* find(const std::string& id) const;
};

// "cutlass" of "cutlass.mbarrier.fresh_parity1_complete"; the distinct consumers of a `relies:`
// list, in order ("cutlass, cub").
std::string consumer_of(const std::string& behaviour_id);
std::string consumers_of(const std::vector<std::string>& relies);

// The consumers folder for a specs folder: its sibling `consumers`.
std::string consumers_dir_for(const std::string& specs_dir);
// Loads every <consumer>.yaml of `dir` strictly (errors as file:line:col).
ConsumerIndex load_consumers(const std::string& dir);
// Lint: a `relies:` entry naming no behaviour of the index; a behaviour of status `tested` that no
// active rule names (it would claim a proof that does not exist).
std::vector<SpecError> consumer_ref_errors(const Catalog& cat, const ConsumerIndex& index);

}  // namespace cuconform
