#pragma once
// The history database's schema (reporters/README.md, "The history database"): one schema for
// SQLite and PostgreSQL, numbered; opening a database applies the migrations it lacks, in one
// transaction, and refuses one newer than this build knows.
#include <memory>
#include <string>

#include "harness/fixture/observation.hpp"
#include "history/db.hpp"

namespace cuconform {

constexpr int kHistorySchemaVersion = 4;
constexpr const char* kHistorySchemaName = "cuconform-history";

// Opens the database at `url` and brings its schema to `upto` (tests stop at an older
// version). DbMode::read writes nothing, except that a database of an older schema is migrated
// once where it is writable (else: refused, saying so). Throws DbError.
std::unique_ptr<Db> open_history(const std::string& url, DbMode mode, int upto = kHistorySchemaVersion);
int history_schema_version(Db& db);  // 0 for a database with no schema yet

// results.verdict holds these codes (the table `verdicts` names them): stable, unlike the enum.
int verdict_code(Verdict v);
Verdict verdict_from_code(int code);

}  // namespace cuconform
