#include "history/schema.hpp"

#include <functional>
#include <vector>

#include "history/store.hpp"
#include "reporters/results_file.hpp"  // run_info_from_json
#include "reporters/run_report.hpp"    // utc_now_iso8601

namespace cuconform {

namespace {

const char* const kVerdictNames[] = {"pass", "fail", "not-supported", "timeout", "crash", "planned", "flake", "recorded"};

struct Migration {
  int version;
  const char* what;
  std::vector<std::string> sql;         // {id} and {without_rowid} become the backend's words
  std::function<void(Db&)> backfill;    // after the statements, in the same transaction
};

// Version 3: series keyed by GPU UUID and selection too. SQLite cannot drop a UNIQUE constraint,
// so its series table is rebuilt (foreign keys are off during migrations, as SQLite's documented
// procedure asks); PostgreSQL alters it. Then every stored run is filed again by run_identity()
// of its stored objects, and the change points are recomputed per new series.
void series_per_gpu_and_selection(Db& db) {
  if (std::string(db.backend()) == "sqlite") {
    db.exec("CREATE TABLE series_v3 (id INTEGER PRIMARY KEY, gpu TEXT NOT NULL, gpu_uuid TEXT NOT NULL, code_path TEXT NOT NULL, "
            "selection TEXT NOT NULL, UNIQUE (gpu, gpu_uuid, code_path, selection))");
    db.exec("INSERT INTO series_v3 (id, gpu, gpu_uuid, code_path, selection) SELECT id, gpu, '', code_path, '' FROM series");
    db.exec("DROP TABLE series");
    db.exec("ALTER TABLE series_v3 RENAME TO series");
  } else {
    db.exec("ALTER TABLE series ADD COLUMN gpu_uuid TEXT NOT NULL DEFAULT ''");
    db.exec("ALTER TABLE series ADD COLUMN selection TEXT NOT NULL DEFAULT ''");
    db.exec("ALTER TABLE series DROP CONSTRAINT series_gpu_code_path_key");
    db.exec("ALTER TABLE series ADD CONSTRAINT series_key UNIQUE (gpu, gpu_uuid, code_path, selection)");
  }
  db.exec("DELETE FROM transitions");
  db.exec("DELETE FROM case_state");
  struct Stored {
    std::int64_t run;
    RunIdentity id;
  };
  std::vector<Stored> runs;
  db_each(db,
          "SELECT r.id, r.source, r.suite_json, r.run_json, r.device_json, s.gpu, c.driver, s.code_path FROM runs r "
          "JOIN configs c ON r.config_id = c.id JOIN series s ON c.series_id = s.id ORDER BY r.id",
          {}, [&](const DbQuery& q) {
            RunIdentity id = run_identity(run_info_from_json(q.text(1), q.text(2), q.text(3), q.text(4)));
            // What the run was filed under stays; only the GPU and the selection are new.
            id.gpu = q.text(5), id.driver = q.text(6), id.code_path = q.text(7);
            runs.push_back({q.i64(0), id});
          });
  auto move = db.prepare("UPDATE runs SET config_id = $1 WHERE id = $2");
  for (auto& r : runs) {
    move->bind(1, config_of(db, r.id));
    move->bind(2, r.run);
    move->next();
    move->reset();
  }
  db.exec("DELETE FROM configs WHERE id NOT IN (SELECT config_id FROM runs)");
  db.exec("DELETE FROM series WHERE id NOT IN (SELECT series_id FROM configs)");
  std::vector<std::int64_t> all;
  db_each(db, "SELECT id FROM series ORDER BY id", {}, [&](const DbQuery& q) { all.push_back(q.i64(0)); });
  for (auto s : all) rebuild_change_points(db, s);
}

// Append only: a released version never changes; a change is a new version.
const std::vector<Migration>& migrations() {
  static const std::vector<Migration> m = {
      {1,
       "runs, cases, verdicts, outcomes and measurements",
       {
           "CREATE TABLE verdicts (code SMALLINT PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
           "INSERT INTO verdicts (code, name) VALUES (0, 'pass'), (1, 'fail'), (2, 'not-supported'), (3, 'timeout'), "
           "(4, 'crash'), (5, 'planned'), (6, 'flake'), (7, 'recorded')",
           // A series is a GPU model on one code path; a configuration is a series on one driver.
           "CREATE TABLE series (id {id}, gpu TEXT NOT NULL, code_path TEXT NOT NULL, UNIQUE (gpu, code_path))",
           "CREATE TABLE configs (id {id}, series_id BIGINT NOT NULL REFERENCES series (id), driver TEXT NOT NULL, "
           "UNIQUE (series_id, driver))",
           "CREATE TABLE runs (id {id}, run_key TEXT NOT NULL UNIQUE, config_id BIGINT NOT NULL REFERENCES configs (id), "
           "seq INTEGER NOT NULL, started TEXT NOT NULL, finished TEXT NOT NULL, host TEXT NOT NULL, gpu_uuid TEXT NOT NULL, "
           "cc TEXT NOT NULL, suite_version TEXT NOT NULL, suite_commit TEXT NOT NULL, toolkit TEXT NOT NULL, "
           "compiler TEXT NOT NULL, wall_s DOUBLE PRECISION, cut_off TEXT NOT NULL, n_cases INTEGER NOT NULL, "
           "n_pass INTEGER NOT NULL, n_fail INTEGER NOT NULL, n_not_supported INTEGER NOT NULL, n_timeout INTEGER NOT NULL, "
           "n_crash INTEGER NOT NULL, n_planned INTEGER NOT NULL, n_flake INTEGER NOT NULL, n_recorded INTEGER NOT NULL, "
           "source TEXT NOT NULL, added TEXT NOT NULL, suite_json TEXT NOT NULL, run_json TEXT NOT NULL, device_json TEXT NOT NULL)",
           "CREATE INDEX runs_by_config ON runs (config_id, seq)",
           "CREATE TABLE cases (id {id}, name TEXT NOT NULL UNIQUE, rule TEXT NOT NULL, area TEXT NOT NULL, kind TEXT NOT NULL)",
           "CREATE TABLE texts (id {id}, body TEXT NOT NULL UNIQUE)",
           "CREATE TABLE results (run_id BIGINT NOT NULL REFERENCES runs (id), case_id BIGINT NOT NULL REFERENCES cases (id), "
           "verdict SMALLINT NOT NULL REFERENCES verdicts (code), outcome_id BIGINT REFERENCES texts (id), "
           "reason_id BIGINT REFERENCES texts (id), PRIMARY KEY (run_id, case_id)) {without_rowid}",
           "CREATE TABLE measure_names (id {id}, name TEXT NOT NULL UNIQUE)",
           "CREATE TABLE measurements (run_id BIGINT NOT NULL REFERENCES runs (id), case_id BIGINT NOT NULL REFERENCES cases (id), "
           "name_id BIGINT NOT NULL REFERENCES measure_names (id), value DOUBLE PRECISION, "
           "PRIMARY KEY (run_id, case_id, name_id)) {without_rowid}",
       },
       nullptr},
      {2,
       "change points kept at add time (transitions, case_state), so `history changes` reads only them",
       {
           "CREATE TABLE transitions (series_id BIGINT NOT NULL REFERENCES series (id), case_id BIGINT NOT NULL REFERENCES cases (id), "
           "run_id BIGINT NOT NULL REFERENCES runs (id), prev_run_id BIGINT NOT NULL REFERENCES runs (id), "
           "from_verdict SMALLINT NOT NULL, from_outcome BIGINT, to_verdict SMALLINT NOT NULL, to_outcome BIGINT, "
           "PRIMARY KEY (series_id, case_id, run_id)) {without_rowid}",
           "CREATE INDEX transitions_by_run ON transitions (run_id)",
           "CREATE TABLE case_state (series_id BIGINT NOT NULL REFERENCES series (id), case_id BIGINT NOT NULL REFERENCES cases (id), "
           "run_id BIGINT NOT NULL REFERENCES runs (id), verdict SMALLINT NOT NULL, outcome_id BIGINT, "
           "PRIMARY KEY (series_id, case_id)) {without_rowid}",
       },
       [](Db& db) {
         std::vector<std::int64_t> all;
         db_each(db, "SELECT id FROM series ORDER BY id", {}, [&](const DbQuery& q) { all.push_back(q.i64(0)); });
         for (auto s : all) rebuild_change_points(db, s);
       }},
      {3,
       "a series per GPU (device.uuid) and per selection of cases (run.selection: --profile, --area, ...), runs filed again",
       {},
       series_per_gpu_and_selection},
      {4,
       "measure_summary: the measurements of pruned runs, per configuration, case and measurement (history prune)",
       {
           // Count, mean, sum of squared deviations from the mean, min and max of the values of the
           // pruned runs where the case passed: two of them merge into one (history/prune.cpp).
           "CREATE TABLE measure_summary (config_id BIGINT NOT NULL REFERENCES configs (id), "
           "case_id BIGINT NOT NULL REFERENCES cases (id), name_id BIGINT NOT NULL REFERENCES measure_names (id), "
           "n BIGINT NOT NULL, mean DOUBLE PRECISION, m2 DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, "
           "PRIMARY KEY (config_id, case_id, name_id)) {without_rowid}",
       },
       nullptr},
  };
  return m;
}

// The version recorded in meta; 0 where the table or the row is missing.
int read_version(Db& db, std::string* schema) {
  try {
    *schema = db_text(db, "SELECT value FROM meta WHERE key = 'schema'", {}, "");
    return static_cast<int>(std::stol(db_text(db, "SELECT value FROM meta WHERE key = 'schema_version'", {}, "0")));
  } catch (const DbError&) {
    return 0;
  } catch (const std::exception&) {
    throw DbError(db.name() + ": meta.schema_version is not a number");
  }
}

// Tables a database holds besides meta: a database that has some but no cuconform meta is not ours.
int foreign_tables(Db& db) {
  if (std::string(db.backend()) == "sqlite")
    return static_cast<int>(db_i64(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name <> 'meta'", {}, 0));
  return static_cast<int>(db_i64(db, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() "
                                     "AND table_name <> 'meta'", {}, 0));
}

void check_schema(Db& db, const std::string& schema, int version) {
  if (!schema.empty() && schema != kHistorySchemaName)
    throw DbError(db.name() + ": not a cuconform history database (meta.schema is '" + schema + "')");
  if (version > kHistorySchemaVersion)
    throw DbError(db.name() + ": the database has schema version " + std::to_string(version) + ", newer than this cuconform knows (" +
                  std::to_string(kHistorySchemaVersion) + "): use the cuconform that wrote it, or a newer one");
}

}  // namespace

int history_schema_version(Db& db) {
  std::string schema;
  return read_version(db, &schema);
}

namespace {

// Brings `db` from `version` to `upto`, in one write transaction.
void migrate(Db& db, int upto) {
  // Another process may be creating or migrating it right now: decide under the write lock.
  db.foreign_keys(false);
  DbTransaction tx(db, true);
  db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  std::string schema;
  int version = read_version(db, &schema);
  check_schema(db, schema, version);
  if (version == 0 && foreign_tables(db) > 0)
    throw DbError(db.name() + ": this database has tables but no cuconform history schema: name another one with --db");
  if (version == 0) {
    db.exec("INSERT INTO meta (key, value) VALUES ('schema', '" + std::string(kHistorySchemaName) + "'), ('schema_version', '0'), "
            "('created', '" + utc_now_iso8601() + "')");
  }
  for (auto& m : migrations()) {
    if (m.version <= version || m.version > upto) continue;
    for (auto& s : m.sql) db.exec(db.dialect(s));
    if (m.backfill) m.backfill(db);
    db_each(db, "UPDATE meta SET value = $1 WHERE key = 'schema_version'", {std::to_string(m.version)}, [](const DbQuery&) {});
    db_each(db, "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            {"migrated_to_" + std::to_string(m.version), utc_now_iso8601() + ": " + m.what}, [](const DbQuery&) {});
  }
  // With the keys off nothing checked them: a migration that broke one is a bug, never committed.
  if (std::string(db.backend()) == "sqlite" && db_i64(db, "SELECT COUNT(*) FROM pragma_foreign_key_check", {}, 0) > 0)
    throw DbError(db.name() + ": the migration left rows that point nowhere; nothing was changed");
  tx.commit();
  db.foreign_keys(true);
}

}  // namespace

std::unique_ptr<Db> open_history(const std::string& url, DbMode mode, int upto) {
  std::unique_ptr<Db> db = open_db(url, mode);
  std::string schema;
  int version = read_version(*db, &schema);  // outside a transaction: a missing table is no error
  check_schema(*db, schema, version);
  if (version >= upto) return db;
  if (mode != DbMode::read) {
    migrate(*db, upto);
    return db;
  }
  // A query writes nothing, except once: a database of an older schema is migrated where it can be.
  const std::string name = db->name();
  try {
    db = open_db(url, DbMode::write);
    migrate(*db, upto);
  } catch (const DbError& e) {
    if (version == 0) throw DbError(name + ": no cuconform history in it, and it cannot be made one here (" + e.what() + ")");
    throw DbError(name + ": it has schema version " + std::to_string(version) + " and this cuconform reads version " +
                  std::to_string(upto) + ", which it could not migrate it to here (" + e.what() +
                  "): migrate it where it is writable (any history command there does), or query it with the cuconform that wrote it");
  }
  db = open_db(url, DbMode::read);
  return db;
}

int verdict_code(Verdict v) {
  std::string n = to_string(v);
  for (int i = 0; i < 8; ++i)
    if (n == kVerdictNames[i]) return i;
  return 1;
}

Verdict verdict_from_code(int code) {
  Verdict v = Verdict::fail;
  if (code >= 0 && code < 8) parse_verdict(kVerdictNames[code], &v);
  return v;
}

}  // namespace cuconform
