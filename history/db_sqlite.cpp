// The SQLite backend: one file, WAL journal (readers do not wait for a writer), writers take
// turns through BEGIN IMMEDIATE and a long busy timeout. Opened for reading it writes nothing:
// not the journal mode, and where the folder cannot hold WAL's shared-memory file (a read-only
// mount) it reads the file as immutable.
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include "history/db.hpp"

namespace cuconform {

std::unique_ptr<Db> open_sqlite(const std::string& path, DbMode mode);

namespace {

class SqliteQuery : public DbQuery {
 public:
  SqliteQuery(sqlite3* db, const std::string& sql, const std::string& dbname) : db_(db), sql_(sql), dbname_(dbname) {
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &st_, nullptr) != SQLITE_OK)
      throw statement_error(dbname, sql, sqlite3_errmsg(db));
  }
  ~SqliteQuery() override { sqlite3_finalize(st_); }

  void bind(int index, const DbValue& v) override {
    char name[16];
    std::snprintf(name, sizeof name, "$%d", index);
    int i = sqlite3_bind_parameter_index(st_, name);
    if (i == 0) throw statement_error(dbname_, sql_, "no parameter $" + std::to_string(index));
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
    if (rc != SQLITE_OK) throw statement_error(dbname_, sql_, sqlite3_errmsg(db_));
  }

  bool next() override {
    stepped_ = true;
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw statement_error(dbname_, sql_, sqlite3_errmsg(db_));
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
  SqliteDb(const std::string& path, DbMode mode) : read_only_(mode == DbMode::read) {
    name_ = path;
    const bool create = mode == DbMode::create;
    if (!create && !std::filesystem::exists(path))
      throw DbError("no history database at " + path + " (`cuconform history add RESULTS.json` makes one; --db or CUCONFORM_HISTORY_DB names another)");
    if (create && std::filesystem::path(path).has_parent_path())
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    if (!read_only_ && std::filesystem::exists(path) && ::access(path.c_str(), W_OK) != 0)
      throw DbError(path + ": cannot write it (" + std::strerror(errno) + "): adding runs needs a writable database; queries read it as it is");
    try {
      if (read_only_) {
        open_for_reading(path);
        return;
      }
      open(path, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
      // A file that is not a database fails here ("file is not a database").
      // Switching to WAL takes the file for itself and does not wait on the busy handler: a runner
      // opening a new database while another one does waits here instead.
      for (int waited_ms = 0; db_text(*this, "PRAGMA journal_mode", {}, "") != "wal"; waited_ms += 20) {
        if (sqlite3_exec(db_, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr) == SQLITE_OK) {
          // Granted and still not WAL (a temporary database): asking again would loop for ever.
          const std::string mode = db_text(*this, "PRAGMA journal_mode", {}, "");
          if (mode != "wal") throw DbError(path + ": SQLite keeps this database in journal mode '" + mode + "', not WAL: give a file");
          continue;
        }
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
  bool read_only() const override { return read_only_; }
  void foreign_keys(bool on) override { exec(on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF"); }

  std::unique_ptr<DbQuery> prepare(const std::string& sql) override { return std::make_unique<SqliteQuery>(db_, sql, name_); }
  void exec(const std::string& sql) override {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string e = err ? err : sqlite3_errmsg(db_);
      sqlite3_free(err);
      throw statement_error(name_, sql, e);
    }
  }
  void begin_write() override {
    if (read_only_) throw DbError(name_ + ": opened for reading only");
    exec("BEGIN IMMEDIATE");
  }
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
  void open(const std::string& file, int flags) {
    if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK)
      throw DbError(name_ + ": cannot open as an SQLite database: " + (db_ ? sqlite3_errmsg(db_) : "out of memory"));
    // ":memory:", "file:x?mode=memory" or "": a database that is gone when the command ends.
    const char* on_disk = sqlite3_db_filename(db_, "main");
    if (!on_disk || !*on_disk)
      throw DbError(name_ + ": an in-memory SQLite database (:memory:, mode=memory) would be lost when the command ends: "
                            "--db names a file (or postgresql://...)");
    sqlite3_busy_timeout(db_, 10 * 60 * 1000);  // another runner's add: wait for it
  }

  // Read-only: the first read tells whether WAL's shared memory could be had; where the folder
  // is read-only (no -shm file, none can be made) the file is read as immutable instead, which
  // needs nothing beside it.
  void open_for_reading(const std::string& path) {
    open(path, SQLITE_OPEN_READONLY);
    int rc = sqlite3_exec(db_, "SELECT COUNT(*) FROM sqlite_master", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) {
      int code = sqlite3_errcode(db_) & 0xff;
      if (code != SQLITE_READONLY && code != SQLITE_CANTOPEN) throw DbError(name_ + ": cannot read it as an SQLite database: " + sqlite3_errmsg(db_));
      sqlite3_close_v2(db_);
      db_ = nullptr;
      open(file_uri(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    }
    exec("PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536");
  }

  // "file:" URI of a path: the characters a URI gives a meaning to, escaped.
  static std::string file_uri(const std::string& path) {
    std::string uri = "file:";
    for (unsigned char c : path) {
      if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
        char b[4];
        std::snprintf(b, sizeof b, "%%%02X", c);
        uri += b;
      } else {
        uri += static_cast<char>(c);
      }
    }
    return uri;
  }

  sqlite3* db_ = nullptr;
  bool read_only_ = false;
};

}  // namespace

std::unique_ptr<Db> open_sqlite(const std::string& path, DbMode mode) { return std::make_unique<SqliteDb>(path, mode); }

}  // namespace cuconform
