#pragma once
// Loads specs/*.yaml strictly and expands every rule into cases. Bad input never throws:
// each problem becomes a SpecError "file:line:col: message" (the CLI exits 2 on any).
#include <memory>
#include <string>
#include <vector>

#include "harness/spec/spec.hpp"

namespace cuconform {

struct SpecError {
  SourceLoc loc;
  std::string message;
  std::string str() const { return loc.str() + ": " + message; }
};

struct Area {
  std::string id, title, file;
};

struct Catalog {
  std::string dir;
  std::vector<Area> areas;
  std::vector<std::unique_ptr<Rule>> rules;  // owned here; cases point into them
  std::vector<Case> cases;
  std::vector<SpecError> errors;
  bool ok() const { return errors.empty(); }
  const Case* find_case(const std::string& name) const;
};

// All *.yaml files of `dir`, sorted by name.
Catalog load_catalog(const std::string& dir);
// How a spec file's YAML is read: with the bounds of yaml_bounded.hpp, or (a worker) without them,
// because the supervisor that named the files loaded them with the bounds in this run.
enum class SpecRead { bounded, checked_before };
// The given files (tests use this for single broken specs).
Catalog load_spec_files(const std::vector<std::string>& files, const std::string& dir = "",
                        SpecRead read = SpecRead::bounded);

// Where the specs are when --specs is not given: $CUCONFORM_SPECS, then beside the
// executable (specs/, ../share/cuconform/specs), then the source tree it was built from.
std::string default_specs_dir();

}  // namespace cuconform
