#pragma once
// Retention for the history (`cuconform history prune`): the runs older than the kept period
// keep their run row (what `history runs` lists), every verdict change (both of its results: the
// last run before it and the first with it, so the change points recompute the same) and each
// case's latest result; they lose the per-case results that only repeat the verdict before them
// and their measurements, which are folded into one summary per configuration, case and
// measurement (count, mean, variance, min, max of the runs where the case passed).
#include <cstdint>
#include <string>

#include "history/db.hpp"

namespace cuconform {

struct PruneOptions {
  int keep_days = 30;  // runs that started this many days before the newest stored run, or later, are kept whole
  int keep_runs = 30;  // and the newest this many of each configuration (what trend, report and compare --history read)
};

struct PruneSummary {
  std::string newest, cutoff;  // the newest run's start; runs that started before `cutoff` are pruned
  int runs = 0;                // runs pruned this time (a run pruned before counts again: nothing left to drop)
  std::int64_t results_before = 0, results_dropped = 0, measurements_dropped = 0, summaries = 0, texts_dropped = 0;
  std::int64_t bytes_before = 0, bytes_after = 0;
};

// One write transaction; then the freed space is given back (SQLite: VACUUM; PostgreSQL: VACUUM
// FULL of the tables it pruned): both rewrite what they vacuum, and other runners wait meanwhile.
PruneSummary history_prune(Db& db, const PruneOptions& o);

// The database's size in bytes (SQLite: its pages; PostgreSQL: pg_database_size).
std::int64_t history_bytes(Db& db);

}  // namespace cuconform
