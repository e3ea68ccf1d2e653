#pragma once
#include "harness/cli/options.hpp"

namespace cuconform {

// Exit codes of every verb.
constexpr int kExitOk = 0, kExitFailed = 1, kExitBadInput = 2, kExitNoGpu = 3;

int cmd_list(const Options& o);
int cmd_run(const Options& o);
int cmd_lint(const Options& o);
int cmd_device(const Options& o);
int cmd_fixtures(const Options& o);
int cmd_errata(const Options& o);

// Loads the catalog of o.specs (or the default) and prints its errors; null on errors.
struct Catalog;
bool load_or_report(const Options& o, Catalog* cat);

}  // namespace cuconform
