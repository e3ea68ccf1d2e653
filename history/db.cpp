#include "history/db.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace cuconform {

std::unique_ptr<Db> open_sqlite(const std::string& path, DbMode mode);
std::unique_ptr<Db> open_postgresql(const std::string& url);

std::string statement_words(const std::string& sql) {
  std::istringstream in(sql);
  std::vector<std::string> w;
  for (std::string t; w.size() < 64 && in >> t;) {
    std::string u;
    for (char c : t) u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    w.push_back(u);
  }
  auto name_after = [&](const std::string& word) -> std::string {
    for (std::size_t i = 0; i + 1 < w.size(); ++i)
      if (w[i] == word) {
        std::string t = w[i + 1];
        if (t == "IF") t = i + 4 < w.size() ? w[i + 4] : "";  // IF NOT EXISTS t
        std::string out;
        for (char c : t)
          if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          else break;
        return out;
      }
    return "";
  };
  const std::string first = w.empty() ? "" : w[0];
  if (first == "SELECT" || first == "WITH") {
    std::string t = name_after("FROM");
    if (t == "sqlite_master" || t == "information_schema") return "reading the list of tables";
    return t.empty() ? "reading" : "reading " + t;
  }
  if (first == "INSERT") return "adding to " + name_after("INTO");
  if (first == "COPY") return "adding to " + name_after("COPY");
  if (first == "UPDATE") return "updating " + name_after("UPDATE");
  if (first == "DELETE") return "deleting from " + name_after("FROM");
  if (first == "CREATE" || first == "ALTER" || first == "DROP") {
    std::string t = name_after(first == "CREATE" && w.size() > 1 && w[1] != "TABLE" ? "ON" : "TABLE");
    return "changing the schema" + (t.empty() ? std::string() : " (" + t + ")");
  }
  if (first.rfind("BEGIN", 0) == 0) return "starting a transaction";
  if (first.rfind("COMMIT", 0) == 0) return "committing";
  if (first.rfind("ROLLBACK", 0) == 0) return "rolling back";
  if (first == "PRAGMA" || first == "SET") return "setting up the connection";
  return "a statement";
}

DbError statement_error(const std::string& dbname, const std::string& sql, const std::string& why) {
  std::string m = dbname + ": " + statement_words(sql) + " failed: " + why;
  const char* debug = std::getenv("CUCONFORM_DEBUG_SQL");
  if (debug && *debug && std::string(debug) != "0") m += " [SQL: " + sql + "]";
  return DbError(m);
}

bool is_postgresql_url(const std::string& url) {
  return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

std::string redact_url(const std::string& url) {
  if (!is_postgresql_url(url)) return url;
  auto scheme = url.find("://") + 3;
  auto at = url.find('@', scheme), colon = url.find(':', scheme);
  std::string s = url;
  if (at != std::string::npos && colon != std::string::npos && colon < at) s.replace(colon + 1, at - colon - 1, "***");
  auto pw = s.find("password=");
  if (pw != std::string::npos) s.replace(pw + 9, s.find('&', pw) == std::string::npos ? std::string::npos : s.find('&', pw) - pw - 9, "***");
  return s;
}

std::unique_ptr<Db> open_db(const std::string& url, DbMode mode) {
  if (url.empty()) throw DbError("no history database named");
  if (is_postgresql_url(url)) return open_postgresql(url);  // read: its transactions are READ ONLY
  return open_sqlite(url.rfind("sqlite:", 0) == 0 ? url.substr(7) : url, mode);
}

std::string Db::dialect(const std::string& sql) const {
  std::string s = sql;
  for (auto [from, to] : {std::pair<std::string, std::string>{"{id}", id_column()}, {"{without_rowid}", without_rowid()}})
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from)) s.replace(at, from.size(), to);
  return s;
}

void db_each(Db& db, const std::string& sql, const std::vector<DbValue>& params, const std::function<void(const DbQuery&)>& row) {
  auto q = db.prepare(sql);
  for (std::size_t i = 0; i < params.size(); ++i) q->bind(static_cast<int>(i + 1), params[i]);
  while (q->next()) row(*q);
}

std::int64_t db_i64(Db& db, const std::string& sql, const std::vector<DbValue>& params, std::int64_t fallback) {
  bool first = true;
  db_each(db, sql, params, [&](const DbQuery& q) {
    if (first && !q.null(0)) fallback = q.i64(0);
    first = false;
  });
  return fallback;
}

std::string db_text(Db& db, const std::string& sql, const std::vector<DbValue>& params, const std::string& fallback) {
  std::string v = fallback;
  bool first = true;
  db_each(db, sql, params, [&](const DbQuery& q) {
    if (first && !q.null(0)) v = q.text(0);
    first = false;
  });
  return v;
}

std::string exact_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace cuconform
