#pragma once
// The rule-table audit (issue 24): tables/*.yaml lists, for every table and enumeration the
// documents give (operations x types x state spaces x directions x qualifiers x completion
// mechanisms), each row and exactly one disposition: `run` (GPU rules or case globs execute it),
// `assembled` (ptx.assemble / nvcc.compile cases accept it), `rejected` (a case checks the
// assembler rejects it), `not-testable: reason`, `planned: reason`, or `gap: reason` (no rule
// yet). The loader checks every rule id and glob against the catalog, so no row claims coverage
// that no case gives. `cuconform coverage --tables` prints it.
#include <array>
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

enum class RowDisposition { run, assembled, rejected, not_testable, planned, gap };
constexpr std::size_t kRowDispositions = 6;
const char* to_string(RowDisposition d);
const std::array<RowDisposition, kRowDispositions>& all_row_dispositions();

struct RowCounts {
  std::array<int, kRowDispositions> n{};
  int& operator[](RowDisposition d) { return n[static_cast<std::size_t>(d)]; }
  int operator[](RowDisposition d) const { return n[static_cast<std::size_t>(d)]; }
  int total() const;
};

struct TableRow {
  std::string member;             // the row: ".shared::cluster.global", "add.u32", ".5d"
  RowDisposition disposition = RowDisposition::gap;
  std::vector<std::string> refs;  // run / assembled / rejected: rule ids or case globs
  std::string reason;             // not-testable / planned / gap
  std::string note;               // optional
  int cases = 0;                  // cases the refs select that give the disposition
  std::string needs;              // run rows whose every GPU case is gated above CC 9.0: "CC 10.0"
  SourceLoc loc;
};

struct Table {
  std::string id, title, source;
  std::vector<TableRow> rows;
  RowCounts counts;
  SourceLoc loc;
};

struct TableAudit {
  std::string dir;
  bool available = false;  // false when the folder does not exist
  std::vector<Table> tables;
  RowCounts total;
  int run_above_cc90 = 0;  // run rows only GPUs above CC 9.0 (sm_100+) execute
  std::vector<SpecError> errors;
};

// The tables folder for a specs folder: its sibling `tables`.
std::string tables_dir_for(const std::string& specs_dir);
// Loads every *.yaml of `dir` strictly against `cat` (errors as file:line:col).
TableAudit load_tables(const std::string& dir, const Catalog& cat);
// The given files (tests).
TableAudit load_table_files(const std::vector<std::string>& files, const Catalog& cat);

}  // namespace cuconform
