#pragma once
#include "cli/options.hpp"

namespace cuconform {

// Exit codes of every verb.
constexpr int kExitOk = 0, kExitFailed = 1, kExitBadInput = 2, kExitNoGpu = 3;
// A GPU became unhealthy during the run (a critical Xid, a lost GPU, a failed or pending row
// remap, new uncorrected ECC errors): its remaining cases are not-run; drain and check the node.
constexpr int kExitUnhealthy = 4;

int cmd_list(const Options& o);
int cmd_run(const Options& o);
int cmd_lint(const Options& o);
int cmd_device(const Options& o);
int cmd_health(const Options& o);  // cmd_device.cpp
int cmd_bisect(const Options& o);
int cmd_fixtures(const Options& o);
int cmd_errata(const Options& o);
int cmd_coverage(const Options& o);
// The verbs that read results files back (cmd_results.cpp): report, compare, merge.
int cmd_report(const Options& o);
int cmd_compare(const Options& o);
int cmd_merge(const Options& o);
// cuconform history (cmd_history.cpp); compare and report take --history DB too.
int cmd_history(const Options& o);
struct QueryOptions;
bool history_query_options(const Options& o, QueryOptions* q, std::string* error);  // --config --last --window --min-flips

// Loads the catalog of o.specs (or the default) and the statement index beside it (when there
// is one: rules' `statements:` must name its ids) and prints their errors; false on errors.
struct Catalog;
struct StatementIndex;
bool load_or_report(const Options& o, Catalog* cat, StatementIndex* index = nullptr);

}  // namespace cuconform
