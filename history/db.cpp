#include "history/db.hpp"

#include <charconv>
#include <cmath>

namespace cuconform {

std::unique_ptr<Db> open_sqlite(const std::string& path, bool create);
std::unique_ptr<Db> open_postgresql(const std::string& url);

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

std::unique_ptr<Db> open_db(const std::string& url, bool create) {
  if (url.empty()) throw DbError("no history database named");
  if (is_postgresql_url(url)) return open_postgresql(url);
  return open_sqlite(url.rfind("sqlite:", 0) == 0 ? url.substr(7) : url, create);
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
