// The PostgreSQL backend, through libpq opened at run time (dlopen "libpq.so.5", or the file
// $CUCONFORM_LIBPQ names): without libpq, SQLite still works and --db postgresql://... says why
// it cannot. Writers serialise on a transaction-level advisory lock. Connecting gives up after
// 10 s unless the URI (?connect_timeout=N) or $PGCONNECT_TIMEOUT says otherwise, within 2 to 300 s
// (history/pg_connect_timeout.hpp).
#include <dlfcn.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "history/db.hpp"
#include "history/pg_connect_timeout.hpp"

namespace cuconform {

std::unique_ptr<Db> open_postgresql(const std::string& url);

namespace {

// The libpq entry points the backend uses.
#define CUCONFORM_PQ_FUNCTIONS(X)                                                                               \
  X(PQconnectdbParams) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQsetNoticeProcessor) X(PQexec) X(PQexecParams) \
  X(PQresultStatus) X(PQresultErrorField) X(PQclear) X(PQntuples) X(PQgetvalue) X(PQgetisnull) X(PQputCopyData) \
  X(PQputCopyEnd) X(PQgetResult) X(PQconninfoParse) X(PQconninfoFree) X(PQfreemem)

struct LibPq {
  std::string error;  // why it could not be loaded; empty when it was
#define CUCONFORM_PQ_MEMBER(name) decltype(&::name) name = nullptr;
  CUCONFORM_PQ_FUNCTIONS(CUCONFORM_PQ_MEMBER)
#undef CUCONFORM_PQ_MEMBER
};

const LibPq& libpq() {
  static LibPq pq;
  static std::once_flag once;
  std::call_once(once, [] {
    const char* env = std::getenv("CUCONFORM_LIBPQ");
    std::string file = env && *env ? env : "libpq.so.5";
    void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      pq.error = "PostgreSQL needs libpq (" + file + ") and it could not be loaded: " + (e ? e : "?") +
                 " (apt-get install libpq5, or set CUCONFORM_LIBPQ to the library)";
      return;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
      if (!fn && pq.error.empty()) pq.error = file + " has no " + name;
    };
#define CUCONFORM_PQ_LOAD(name) sym(pq.name, #name);
    CUCONFORM_PQ_FUNCTIONS(CUCONFORM_PQ_LOAD)
#undef CUCONFORM_PQ_LOAD
  });
  return pq;
}

// The one advisory lock every writer takes ("cuconform" in ASCII).
constexpr long long kWriteLock = 0x6375636f6e666f72LL;

// libpq waits for an unreachable server as long as TCP does (minutes, or for ever behind a
// firewall that drops packets): a nightly job must fail instead. The URI's connect_timeout, as
// libpq reads it ("" when it has none, or does not parse: connecting then says why).
std::string uri_connect_timeout(const LibPq& pq, const std::string& url) {
  char* err = nullptr;
  PQconninfoOption* opts = pq.PQconninfoParse(url.c_str(), &err);
  if (err) pq.PQfreemem(err);
  std::string value;
  for (PQconninfoOption* o = opts; o && o->keyword; ++o)
    if (std::string(o->keyword) == "connect_timeout" && o->val) value = o->val;
  if (opts) pq.PQconninfoFree(opts);
  return value;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

class PgResult {
 public:
  explicit PgResult(PGresult* r = nullptr) : r_(r) {}
  ~PgResult() {
    if (r_) libpq().PQclear(r_);
  }
  PgResult(const PgResult&) = delete;
  PgResult& operator=(PgResult&& o) noexcept {
    std::swap(r_, o.r_);
    return *this;
  }
  PGresult* get() const { return r_; }

 private:
  PGresult* r_;
};

// The server's message alone: the full one quotes the statement ("LINE 1: SELECT ...").
std::string server_error(const PGresult* r) {
  const char* m = libpq().PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
  return m && *m ? m : "unknown error";
}

// Throws unless `r` is a success; `sql` is the statement (said in words).
void check(PGconn* c, const PgResult& r, const std::string& dbname, const std::string& sql) {
  const LibPq& pq = libpq();
  if (!r.get()) throw statement_error(dbname, sql, trimmed(pq.PQerrorMessage(c)));
  ExecStatusType s = pq.PQresultStatus(r.get());
  if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_COPY_IN) return;
  throw statement_error(dbname, sql, server_error(r.get()));
}

class PgQuery : public DbQuery {
 public:
  PgQuery(PGconn* c, const std::string& sql, const std::string& dbname) : c_(c), sql_(sql), dbname_(dbname) {
    int n = 0;
    for (std::size_t i = 0; i + 1 < sql.size(); ++i)
      if (sql[i] == '$' && std::isdigit(static_cast<unsigned char>(sql[i + 1]))) n = std::max(n, std::atoi(sql.c_str() + i + 1));
    params_.assign(n, std::nullopt);
  }
  void bind(int index, const DbValue& v) override {
    if (index < 1 || index > static_cast<int>(params_.size()))
      throw statement_error(dbname_, sql_, "no parameter $" + std::to_string(index));
    if (executed_) reset();
    params_[index - 1] = std::visit(
        [](auto&& x) -> std::optional<std::string> {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::monostate>) return std::nullopt;
          else if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(x);
          else if constexpr (std::is_same_v<T, double>) return std::isfinite(x) ? std::optional(exact_number(x)) : std::nullopt;
          else return x;
        },
        v);
  }
  bool next() override {
    const LibPq& pq = libpq();
    if (!executed_) {
      std::vector<const char*> values;
      for (auto& p : params_) values.push_back(p ? p->c_str() : nullptr);
      res_ = PgResult(pq.PQexecParams(c_, sql_.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
      check(c_, res_, dbname_, sql_);
      executed_ = true;
      row_ = -1;
      rows_ = pq.PQresultStatus(res_.get()) == PGRES_TUPLES_OK ? pq.PQntuples(res_.get()) : 0;
    }
    return ++row_ < rows_;
  }
  void reset() override {
    executed_ = false;
    res_ = PgResult();
  }
  bool null(int c) const override { return libpq().PQgetisnull(res_.get(), row_, c); }
  std::int64_t i64(int c) const override { return null(c) ? 0 : std::strtoll(libpq().PQgetvalue(res_.get(), row_, c), nullptr, 10); }
  double f64(int c) const override { return null(c) ? std::nan("") : std::strtod(libpq().PQgetvalue(res_.get(), row_, c), nullptr); }
  std::string text(int c) const override { return null(c) ? "" : libpq().PQgetvalue(res_.get(), row_, c); }

 private:
  PGconn* c_;
  std::string sql_, dbname_;
  std::vector<std::optional<std::string>> params_;
  PgResult res_;
  bool executed_ = false;
  int row_ = -1, rows_ = 0;
};

// COPY's text format: tab between columns, \N for NULL, backslash escapes.
void copy_field(std::string& line, const DbValue& v) {
  if (std::holds_alternative<std::monostate>(v)) {
    line += "\\N";
  } else if (auto* i = std::get_if<std::int64_t>(&v)) {
    line += std::to_string(*i);
  } else if (auto* d = std::get_if<double>(&v)) {
    line += std::isfinite(*d) ? exact_number(*d) : "\\N";
  } else {
    for (char ch : std::get<std::string>(v)) {
      switch (ch) {
        case '\\': line += "\\\\"; break;
        case '\t': line += "\\t"; break;
        case '\n': line += "\\n"; break;
        case '\r': line += "\\r"; break;
        default: line += ch;
      }
    }
  }
}

class PgDb : public Db {
 public:
  explicit PgDb(const std::string& url) {
    name_ = redact_url(url);
    const LibPq& pq = libpq();
    if (!pq.error.empty()) throw DbError(name_ + ": " + pq.error);
    // The timeout after the URI, so that the clamped value replaces the URI's own.
    const char* env_timeout = std::getenv("PGCONNECT_TIMEOUT");
    std::string why;
    const int timeout_s = pg_connect_timeout_s(uri_connect_timeout(pq, url), env_timeout ? env_timeout : "", &why);
    if (timeout_s < 0) throw DbError(name_ + ": " + why);
    const std::string timeout = std::to_string(timeout_s);
    std::vector<const char*> keys, values;
    keys.push_back("dbname"), values.push_back(url.c_str());
    keys.push_back("connect_timeout"), values.push_back(timeout.c_str());
    keys.push_back(nullptr), values.push_back(nullptr);
    c_ = pq.PQconnectdbParams(keys.data(), values.data(), 1);
    if (!c_ || pq.PQstatus(c_) != CONNECTION_OK) {
      std::string e = c_ ? trimmed(pq.PQerrorMessage(c_)) : "out of memory";
      if (c_) pq.PQfinish(c_);
      if (e.find("timeout expired") != std::string::npos)
        e += " (cuconform gives up after " + timeout + " s unless ?connect_timeout=N in the URI or $PGCONNECT_TIMEOUT says otherwise)";
      throw DbError(name_ + ": cannot connect: " + e);
    }
    pq.PQsetNoticeProcessor(c_, [](void*, const char*) {}, nullptr);  // "relation exists, skipping"
    exec("SET client_min_messages = warning");
  }
  ~PgDb() override { libpq().PQfinish(c_); }
  const char* backend() const override { return "postgresql"; }

  std::unique_ptr<DbQuery> prepare(const std::string& sql) override { return std::make_unique<PgQuery>(c_, sql, name_); }
  void exec(const std::string& sql) override { check(c_, PgResult(libpq().PQexec(c_, sql.c_str())), name_, sql); }
  void begin_write() override { exec("BEGIN; SELECT pg_advisory_xact_lock(" + std::to_string(kWriteLock) + ")"); }
  void begin_read() override { exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); }
  void commit() override { exec("COMMIT"); }
  void rollback() override { PgResult(libpq().PQexec(c_, "ROLLBACK")); }

  void insert_rows(const std::string& table, const std::vector<std::string>& columns,
                   const std::vector<std::vector<DbValue>>& rows) override {
    if (rows.empty()) return;
    const LibPq& pq = libpq();
    std::string sql = "COPY " + table + " (";
    for (std::size_t i = 0; i < columns.size(); ++i) sql += (i ? ", " : "") + columns[i];
    sql += ") FROM STDIN";
    check(c_, PgResult(pq.PQexec(c_, sql.c_str())), name_, sql);
    std::string buf;
    auto flush = [&] {
      if (!buf.empty() && pq.PQputCopyData(c_, buf.data(), static_cast<int>(buf.size())) != 1)
        throw statement_error(name_, sql, trimmed(pq.PQerrorMessage(c_)));
      buf.clear();
    };
    for (auto& row : rows) {
      for (std::size_t i = 0; i < row.size(); ++i) {
        if (i) buf += '\t';
        copy_field(buf, row[i]);
      }
      buf += '\n';
      if (buf.size() > (1 << 20)) flush();
    }
    flush();
    if (pq.PQputCopyEnd(c_, nullptr) != 1) throw statement_error(name_, sql, trimmed(pq.PQerrorMessage(c_)));
    std::string error;
    while (PGresult* r = pq.PQgetResult(c_)) {
      PgResult owned(r);
      if (error.empty() && pq.PQresultStatus(r) != PGRES_COMMAND_OK) error = server_error(r);
    }
    if (!error.empty()) throw statement_error(name_, sql, error);
  }

  const char* id_column() const override { return "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"; }
  const char* without_rowid() const override { return ""; }

 private:
  PGconn* c_ = nullptr;
};

}  // namespace

std::unique_ptr<Db> open_postgresql(const std::string& url) { return std::make_unique<PgDb>(url); }

}  // namespace cuconform
