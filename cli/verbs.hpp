#pragma once
// What the verbs share. Each verb registers itself and its options in its own file
// (cli/verb_table.hpp, cli/README.md).
#include <iosfwd>
#include <optional>
#include <string>

#include "cli/options.hpp"
#include "cli/verb_table.hpp"
#include "reporters/known_list.hpp"

namespace cuconform {

// Exit codes of every verb.
constexpr int kExitOk = 0, kExitFailed = 1, kExitBadInput = 2, kExitNoGpu = 3;
// A GPU became unhealthy during the run (a critical Xid, a lost GPU, a failed or pending row
// remap, new uncorrected ECC errors): its remaining cases are not-run; drain and check the node.
constexpr int kExitUnhealthy = 4;

// cuconform history (cmd_history.cpp); compare and report take --history DB too.
struct QueryOptions;
bool history_query_options(const Options& o, QueryOptions* q, std::string* error);  // --config --last --window --min-flips

// Loads the catalog of o.specs (or the default) and the statement index beside it (when there
// is one: rules' `statements:` must name its ids) and prints their errors; false on errors.
struct Catalog;
struct StatementIndex;
struct ConsumerIndex;
// Also loads the relied-upon index (consumers/ beside specs/) and refuses a `relies:` id that is
// not in it; `consumers` receives the index when given.
bool load_or_report(const Options& o, Catalog* cat, StatementIndex* index = nullptr, ConsumerIndex* consumers = nullptr);

// o.specs, else the specs the executable was built with.
std::string specs_dir_of(const Options& o);

// The known list (ci/baselines/known.yaml's format) run, compare and report read: --known FILE,
// else $CUCONFORM_KNOWN, else ci/baselines/known.yaml beside the specs; none when --known or
// $CUCONFORM_KNOWN is given empty, or when there is none beside the specs. `from` says which.
std::string known_list_path(const Options& o, const std::string& specs_dir, std::string* from = nullptr);
// That list loaded (nullopt: none); `say`, when given, gets one line naming the file and why it
// is the one ("known list: FILE (beside the specs)"). Throws ResultsError ("FILE:LINE: ...").
std::optional<KnownList> load_known_list(const Options& o, const std::string& specs_dir, std::ostream* say);

}  // namespace cuconform
