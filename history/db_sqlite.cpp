// The SQLite backend: one file, WAL journal (readers do not wait for a writer), writers take
// turns through BEGIN IMMEDIATE and a long busy timeout.
#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "history/db.hpp"

namespace cuconform {

std::unique_ptr<Db> open_sqlite(const std::string& path, bool create);

namespace {

class SqliteQuery : public DbQuery {
 public:
  SqliteQuery(sqlite3* db, const std::string& sql, const std::string& dbname) : db_(db), sql_(sql), dbname_(dbname) {
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &st_, nullptr) != SQLITE_OK)
      throw DbError(dbname + ": " + sqlite3_errmsg(db) + " in: " + sql.substr(0, 200));
  }
  ~SqliteQuery() override { sqlite3_finalize(st_); }

  void bind(int index, const DbValue& v) override {
    char name[16];
    std::snprintf(name, sizeof name, "$%d", index);
    int i = sqlite3_bind_parameter_index(st_, name);
    if (i == 0) throw DbError("no parameter $" + std::to_string(index) + " in: " + sql_.substr(0, 200));
    if (stepped_) reset();
    int rc = std::visit(
        [&](auto&& x) -> int {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::monostate>) return sqlite3_bind_null(st_, i);
          else if constexpr (std::is_same_v<T, std::int64_t>) return sqlite3_bind_int64(st_, i, x);
          else if constexpr (std::is_same_v<T, double>) return std::isfinite(x) ? sqlite3_bind_double(st_, i, x) : sqlite3_bind_null(st_, i);
          else return sqlite3_bind_text(st_, i, x.data(), static_cast<int>(x.size()), SQLITE_TRANSIENT);
        },
        v);
    if (rc != SQLITE_OK) throw DbError(dbname_ + ": " + sqlite3_errmsg(db_));
  }

  bool next() override {
    stepped_ = true;
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw DbError(dbname_ + ": " + sqlite3_errmsg(db_) + " in: " + sql_.substr(0, 200));
  }
  void reset() override {
    sqlite3_reset(st_);
    stepped_ = false;
  }
  bool null(int c) const override { return sqlite3_column_type(st_, c) == SQLITE_NULL; }
  std::int64_t i64(int c) const override { return sqlite3_column_int64(st_, c); }
  double f64(int c) const override { return null(c) ? std::nan("") : sqlite3_column_double(st_, c); }
  std::string text(int c) const override {
    const unsigned char* t = sqlite3_column_text(st_, c);
    return t ? std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(st_, c)) : std::string();
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
  std::string sql_, dbname_;
  bool stepped_ = false;
};

class SqliteDb : public Db {
 public:
  SqliteDb(const std::string& path, bool create) {
    name_ = path;
    if (!create && !std::filesystem::exists(path))
      throw DbError("no history database at " + path + " (`cuconform history add RESULTS.json` makes one; --db or CUCONFORM_HISTORY_DB names another)");
    if (create && std::filesystem::path(path).has_parent_path())
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      std::string e = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw DbError(path + ": cannot open as an SQLite database: " + e);
    }
    sqlite3_busy_timeout(db_, 10 * 60 * 1000);  // another runner's add: wait for it
    try {
      // A file that is not a database fails here ("file is not a database").
      // Switching to WAL takes the file for itself and does not wait on the busy handler: a runner
      // opening a new database while another one does waits here instead.
      for (int waited_ms = 0; db_text(*this, "PRAGMA journal_mode", {}, "") != "wal"; waited_ms += 20) {
        if (sqlite3_exec(db_, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr) == SQLITE_OK) continue;
        if (sqlite3_errcode(db_) != SQLITE_BUSY || waited_ms > 10 * 60 * 1000) throw DbError(path + ": " + sqlite3_errmsg(db_));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      exec("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536");
    } catch (...) {
      sqlite3_close_v2(db_);
      throw;
    }
  }
  ~SqliteDb() override { sqlite3_close_v2(db_); }
  const char* backend() const override { return "sqlite"; }

  std::unique_ptr<DbQuery> prepare(const std::string& sql) override { return std::make_unique<SqliteQuery>(db_, sql, name_); }
  void exec(const std::string& sql) override {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string e = err ? err : sqlite3_errmsg(db_);
      sqlite3_free(err);
      throw DbError(name_ + ": " + e + " in: " + sql.substr(0, 200));
    }
  }
  void begin_write() override { exec("BEGIN IMMEDIATE"); }
  void begin_read() override { exec("BEGIN"); }
  void commit() override { exec("COMMIT"); }
  void rollback() override { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

  void insert_rows(const std::string& table, const std::vector<std::string>& columns,
                   const std::vector<std::vector<DbValue>>& rows) override {
    if (rows.empty()) return;
    std::string sql = "INSERT INTO " + table + " (", vals;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      sql += (i ? ", " : "") + columns[i];
      vals += (i ? ", $" : "$") + std::to_string(i + 1);
    }
    auto q = prepare(sql + ") VALUES (" + vals + ")");
    for (auto& row : rows) {
      for (std::size_t i = 0; i < row.size(); ++i) q->bind(static_cast<int>(i + 1), row[i]);
      q->next();
      q->reset();
    }
  }

  const char* id_column() const override { return "INTEGER PRIMARY KEY"; }
  const char* without_rowid() const override { return "WITHOUT ROWID"; }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Db> open_sqlite(const std::string& path, bool create) { return std::make_unique<SqliteDb>(path, create); }

}  // namespace cuconform
