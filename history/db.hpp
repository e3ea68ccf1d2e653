#pragma once
// The history database's connection: one interface, two backends. SQLite (a file; linked
// statically) is the default; PostgreSQL (several runners sharing one database) goes through
// libpq, opened at run time like libcuda, so the executables start where libpq is absent.
// Statements use $1, $2, ... parameters on both.
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace cuconform {

// A database that cannot be opened, a statement that fails, a schema it does not know. Messages
// say in words what failed ("reading runs", "adding to results"), never the statement itself;
// CUCONFORM_DEBUG_SQL=1 appends it, for a bug report.
struct DbError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// "DBNAME: WHAT failed: WHY": `sql` becomes its words (statement_words), plus the SQL itself
// under CUCONFORM_DEBUG_SQL=1.
DbError statement_error(const std::string& dbname, const std::string& sql, const std::string& why);
// What a statement does, in words: "reading runs", "adding to results", "changing the schema (series)".
std::string statement_words(const std::string& sql);

using DbValue = std::variant<std::monostate, std::int64_t, double, std::string>;  // monostate: NULL

// A statement with bound parameters; its rows are read one at a time.
class DbQuery {
 public:
  virtual ~DbQuery() = default;
  virtual void bind(int index, const DbValue& v) = 0;  // $index, from 1
  // Runs the statement on the first call and steps to the next row; false when no row is left.
  virtual bool next() = 0;
  virtual void reset() = 0;  // run it again (with the bindings then set)
  virtual bool null(int col) const = 0;
  virtual std::int64_t i64(int col) const = 0;  // 0 when null
  virtual double f64(int col) const = 0;        // NaN when null
  virtual std::string text(int col) const = 0;  // "" when null
};

class Db {
 public:
  virtual ~Db() = default;
  virtual const char* backend() const = 0;  // "sqlite", "postgresql"
  const std::string& name() const { return name_; }  // the path, or the URL without a password
  virtual std::unique_ptr<DbQuery> prepare(const std::string& sql) = 0;
  virtual void exec(const std::string& sql) = 0;  // statements without parameters or rows
  // A write transaction that other writers wait for (SQLite: BEGIN IMMEDIATE; PostgreSQL: an
  // advisory lock held to the end of the transaction): adds from several runners take turns.
  virtual void begin_write() = 0;
  virtual void begin_read() = 0;  // one consistent snapshot for a query
  virtual void commit() = 0;
  virtual void rollback() = 0;  // never throws
  virtual bool read_only() const { return false; }
  // Foreign keys off while a migration rebuilds a table others point to (SQLite: outside any
  // transaction; checked again before the migration commits). PostgreSQL alters in place.
  virtual void foreign_keys(bool /*on*/) {}
  // Many rows into one table (SQLite: one prepared INSERT; PostgreSQL: COPY FROM STDIN).
  virtual void insert_rows(const std::string& table, const std::vector<std::string>& columns,
                           const std::vector<std::vector<DbValue>>& rows) = 0;
  // Schema text for this backend: {id} (an integer key the database assigns) and
  // {without_rowid} (SQLite's clustered tables) are replaced.
  std::string dialect(const std::string& sql) const;

 protected:
  virtual const char* id_column() const = 0;
  virtual const char* without_rowid() const = 0;
  std::string name_;
};

// How a database is opened. `read`: queries only, nothing is written, not even on open (a
// dashboard reading a nightly database mounted read-only); `write`: an existing one; `create`:
// a missing SQLite file is made (else a missing one is an error naming the path).
enum class DbMode { read, write, create };

// "postgresql://..." or "postgres://..." (a libpq URI): PostgreSQL; "sqlite:PATH" or a path: SQLite.
std::unique_ptr<Db> open_db(const std::string& url, DbMode mode);
bool is_postgresql_url(const std::string& url);
std::string redact_url(const std::string& url);  // postgresql://user:***@host/db

// Conveniences over prepare(): each row of `sql` run with `params`; the first column of the
// first row (nullopt-like `fallback` when there is none).
void db_each(Db& db, const std::string& sql, const std::vector<DbValue>& params, const std::function<void(const DbQuery&)>& row);
std::int64_t db_i64(Db& db, const std::string& sql, const std::vector<DbValue>& params, std::int64_t fallback);
std::string db_text(Db& db, const std::string& sql, const std::vector<DbValue>& params, const std::string& fallback);

// Commits on commit(); rolls back when it goes out of scope first (an exception).
class DbTransaction {
 public:
  DbTransaction(Db& db, bool write) : db_(db) { write ? db.begin_write() : db.begin_read(); }
  ~DbTransaction() {
    if (open_) db_.rollback();
  }
  void commit() {
    db_.commit();
    open_ = false;
  }
  DbTransaction(const DbTransaction&) = delete;
  DbTransaction& operator=(const DbTransaction&) = delete;

 private:
  Db& db_;
  bool open_ = true;
};

// Numbers as text that reads back to the same double (shortest round trip).
std::string exact_number(double v);

}  // namespace cuconform
