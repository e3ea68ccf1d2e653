#pragma once
// Shared by the test_history*.cpp host tests: temporary databases (SQLite here, or a fresh
// PostgreSQL database where ci/history-pg-test.sh sets CUCONFORM_HISTORY_TEST_DB), the synthetic
// nights cuconform-synth-nightly makes from a committed baseline, and reading the verbs' JSON.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "history/db.hpp"
#include "history/schema.hpp"
#include "history/store.hpp"
#include "suites/host/test_reporters_support.hpp"

namespace cuconform::testing {

using nlohmann::json;

inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  q += replace_all(s, "'", "'\\''");
  return q + "'";
}

inline bool on_postgresql() {
  const char* pg = std::getenv("CUCONFORM_HISTORY_TEST_DB");
  return pg && *pg;
}

// The folders this process made, removed when it ends (CUCONFORM_KEEP_HISTORY_TESTS=1 keeps them).
inline std::string test_dir(const std::string& name) {
  static struct Dirs {
    std::vector<std::string> made;
    ~Dirs() {
      if (!std::getenv("CUCONFORM_KEEP_HISTORY_TESTS"))
        for (auto& d : made) std::filesystem::remove_all(d);
    }
  } dirs;
  dirs.made.push_back(temp_dir(name));
  return dirs.made.back();
}

// A fresh database for one test: an SQLite file in a temporary folder, or a new PostgreSQL
// database on the server CUCONFORM_HISTORY_TEST_DB names.
inline std::string fresh_db(const std::string& name) {
  if (on_postgresql()) {
    std::string tmpl = std::getenv("CUCONFORM_HISTORY_TEST_DB"), db = "t_" + name + "_" + std::to_string(::getpid());
    auto admin = open_db(replace_all(tmpl, "{db}", "postgres"), DbMode::write);
    admin->exec("DROP DATABASE IF EXISTS " + db);
    admin->exec("CREATE DATABASE " + db);
    return replace_all(tmpl, "{db}", db);
  }
  return test_dir("history-" + name) + "/history.sqlite";
}

// The synthetic nights, made once per test process.
struct Nights {
  std::string dir;
  json manifest;
  std::string file(int night) const {
    char b[32];
    std::snprintf(b, sizeof b, "/night-%02d.json", night);
    return dir + b;
  }
  std::string all() const {
    std::string s;
    for (int i = 1; i <= 30; ++i) s += quote(file(i)) + " ";
    return s;
  }
};

inline Nights make_nights(const std::string& name, const std::string& extra) {
  Nights n;
  n.dir = test_dir(name);
  std::string cmd = quote(CUCONFORM_SYNTH_EXE) + " --baseline " + quote(std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H200_driver-580.159.04.json.gz") +
                    " --out " + quote(n.dir) + " --manifest " + quote(n.dir + "/manifest.json") + " " + extra;
  REQUIRE(std::system(cmd.c_str()) == 0);
  n.manifest = json::parse(read_text(n.dir + "/manifest.json"));
  return n;
}

inline const Nights& nights() {
  static Nights n = make_nights("nights", "--runs 30");
  return n;
}

inline const Nights& small_nights() {  // the same story with 150 cases a night, for the tests that add many times
  static Nights n = make_nights("small-nights", "--runs 30 --cases 150");
  return n;
}

// The 30 nights, added in order: the database the query tests share.
inline const std::string& loaded_db() {
  static std::string db = [] {
    std::string url = fresh_db("nightly");
    Exe add = cuconform_cli("history add --db " + quote(url) + " " + nights().all());
    INFO(add.out);
    REQUIRE(add.rc == 0);
    REQUIRE(add.out.find("30 run(s) added, 0 already stored") != std::string::npos);
    return url;
  }();
  return db;
}

inline json cli_json(const std::string& args) {
  Exe e = cuconform_cli(args);
  INFO(args << "\n" << e.out);
  REQUIRE(e.rc == 0);
  return json::parse(e.out);
}

// The changes of a database as (series, first run's start, last run's start, differs, cases):
// what must not depend on the order runs were added in.
inline std::string changes_fingerprint(const std::string& db) {
  json j = cli_json("history changes --format json --db " + quote(db));
  std::string s;
  for (auto& series : j["series"]) {
    s += series["series"].get<std::string>() + " runs=" + std::to_string(series["runs"].get<int>()) + "\n";
    for (auto& c : series["changes"]) {
      s += "  " + c["run"]["started"].get<std::string>() + " after " + c["previous"]["started"].get<std::string>() + " " + c["differs"].dump() + "\n";
      for (auto& k : c["cases"]) s += "    " + k["name"].get<std::string>() + " " + k["from"].get<std::string>() + "->" + k["to"].get<std::string>() + "\n";
    }
    s += "  flapping " + series["flapping"].dump() + "\n";
  }
  return s;
}

inline int stored_runs(const std::string& db) {
  json j = cli_json("history runs --format json --db " + quote(db));
  int n = 0;
  for (auto& c : j["configurations"]) n += static_cast<int>(c["runs"].size());
  return n;
}

// A history command line the parser must refuse: exit 2, `message` in what it prints.
struct Refusal {
  std::string args, message;
};

// Each of `refusals` run against `db`, checked.
inline void check_refused(const std::string& db, const std::vector<Refusal>& refusals) {
  for (const Refusal& r : refusals) {
    Exe e = cuconform_cli(r.args + " --db " + quote(db));
    INFO(r.args << ": " << e.out);
    CHECK(e.rc == 2);
    CHECK(has(e.out, r.message));
  }
}

// Every run of `from` (made by this cuconform) copied into `to` laid out as schema version 2 was:
// one series per GPU model and code path, whatever the UUID and selection; the change points
// recomputed as version 2 did. Cases, texts, names and results keep their ids.
inline void copy_as_version_2(const std::string& from, const std::string& to) {
  auto src = open_history(from, DbMode::read);
  auto dst = open_history(to, DbMode::create, 2);
  DbTransaction tx(*dst, true);
  for (const char* table : {"cases (id, name, rule, area, kind)", "texts (id, body)", "measure_names (id, name)"}) {
    std::string t = table, name = t.substr(0, t.find(' ')), cols = t.substr(t.find('(') + 1, t.find(')') - t.find('(') - 1);
    std::vector<std::vector<DbValue>> rows;
    int n = 1 + static_cast<int>(std::count(cols.begin(), cols.end(), ','));
    db_each(*src, "SELECT " + cols + " FROM " + name, {}, [&](const DbQuery& q) {
      std::vector<DbValue> row = {q.i64(0)};
      for (int i = 1; i < n; ++i) row.push_back(q.text(i));
      rows.push_back(row);
    });
    std::vector<std::string> columns;
    std::istringstream in(cols);
    for (std::string c; std::getline(in, c, ',');) columns.push_back(c.substr(c.find_first_not_of(' ')));
    dst->insert_rows(name, columns, rows);
  }
  const std::string run_cols = "run_key, seq, started, finished, host, gpu_uuid, cc, suite_version, suite_commit, toolkit, compiler, wall_s, "
                               "cut_off, n_cases, n_pass, n_fail, n_not_supported, n_timeout, n_crash, n_planned, n_flake, n_recorded, source, "
                               "added, suite_json, run_json, device_json";
  std::vector<std::int64_t> series_ids;
  db_each(*src,
          "SELECT r.id, s.gpu, s.code_path, c.driver, r." + replace_all(run_cols, ", ", ", r.") + " FROM runs r JOIN configs c ON r.config_id = c.id "
          "JOIN series s ON c.series_id = s.id ORDER BY r.id",
          {}, [&](const DbQuery& q) {
            db_each(*dst, "INSERT INTO series (gpu, code_path) VALUES ($1, $2) ON CONFLICT DO NOTHING", {q.text(1), q.text(2)}, [](auto&) {});
            std::int64_t s = db_i64(*dst, "SELECT id FROM series WHERE gpu = $1 AND code_path = $2", {q.text(1), q.text(2)}, 0);
            db_each(*dst, "INSERT INTO configs (series_id, driver) VALUES ($1, $2) ON CONFLICT DO NOTHING", {s, q.text(3)}, [](auto&) {});
            std::int64_t c = db_i64(*dst, "SELECT id FROM configs WHERE series_id = $1 AND driver = $2", {s, q.text(3)}, 0);
            std::vector<DbValue> row = {q.i64(0), c};
            for (int i = 4; i < 31; ++i) {
              if (i == 5 || (i >= 17 && i <= 25)) row.push_back(q.i64(i));
              else if (i == 15) row.push_back(q.null(i) ? DbValue() : DbValue(q.f64(i)));
              else row.push_back(q.text(i));
            }
            std::string vals;
            for (std::size_t k = 1; k <= row.size(); ++k) vals += (k > 1 ? ", $" : "$") + std::to_string(k);
            db_each(*dst, "INSERT INTO runs (id, config_id, " + run_cols + ") VALUES (" + vals + ")", row, [](auto&) {});
            series_ids.push_back(s);
          });
  for (const char* table : {"results (run_id, case_id, verdict, outcome_id, reason_id)", "measurements (run_id, case_id, name_id, value)"}) {
    std::string t = table, name = t.substr(0, t.find(' ')), cols = t.substr(t.find('(') + 1, t.find(')') - t.find('(') - 1);
    std::vector<std::string> columns;
    std::istringstream in(cols);
    for (std::string c; std::getline(in, c, ',');) columns.push_back(c.substr(c.find_first_not_of(' ')));
    std::vector<std::vector<DbValue>> rows;
    db_each(*src, "SELECT " + cols + " FROM " + name, {}, [&](const DbQuery& q) {
      std::vector<DbValue> row;
      for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == "value") row.push_back(q.null(i) ? DbValue() : DbValue(q.f64(i)));
        else row.push_back(q.null(i) ? DbValue() : DbValue(q.i64(i)));
      }
      rows.push_back(row);
    });
    dst->insert_rows(name, columns, rows);
  }
  std::sort(series_ids.begin(), series_ids.end());
  series_ids.erase(std::unique(series_ids.begin(), series_ids.end()), series_ids.end());
  for (auto s : series_ids) rebuild_change_points(*dst, s);
  if (on_postgresql())  // ids given explicitly: the next ones the database picks must follow them
    for (const char* t : {"runs", "cases", "texts", "measure_names"})
      db_i64(*dst, std::string("SELECT setval(pg_get_serial_sequence('") + t + "', 'id'), (SELECT MAX(id) FROM " + t + "))", {}, 0);
  tx.commit();
}

}  // namespace cuconform::testing
