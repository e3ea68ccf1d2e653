// `cuconform history prune`: runs older than the kept period keep every verdict change and their
// measurements' summaries and lose the rest; what the verbs answer does not change. On the
// synthetic nights of test_history_support.hpp (dated 2026-12-01 to 2026-12-30, one driver change
// on night 17); [history-db], so ci/history-pg-test.sh runs them on PostgreSQL too.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "history/db.hpp"
#include "history/schema.hpp"
#include "history/store.hpp"
#include "suites/host/test_history_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;
using nlohmann::json;

namespace {

std::string files(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += quote(small_nights().file(i)) + " ";
  return s;
}

std::int64_t count(const std::string& db, const std::string& sql) {
  auto h = open_history(db, DbMode::read);
  return db_i64(*h, sql, {}, -1);
}

// What the verbs say about `db`, each verb's whole output.
std::map<std::string, std::string> answers(const std::string& db) {
  const Nights& n = small_nights();
  std::map<std::string, std::string> a;
  for (const char* verb : {"history changes --format json", "history changes", "history runs --format json",
                           "history flaky --last 6 --format json", "history trend --last 6 --format json"}) {
    Exe e = cuconform_cli(std::string(verb) + " --db " + quote(db));
    INFO(verb << "\n" << e.out);
    CHECK(e.rc == 0);
    a[verb] = e.out;
  }
  Exe cmp = cuconform_cli("compare " + quote(n.file(29)) + " " + quote(n.file(30)) + " --history " + quote(db) + " --last 5");
  CHECK(cmp.rc <= 1);
  a["compare --history --last 5"] = cmp.out;
  return a;
}

}  // namespace

TEST_CASE("history prune: the verbs answer the same, verdict changes and measurement summaries kept, the database smaller",
          "[host][history][history-db][history-prune]") {
  const Nights& n = small_nights();
  std::string db = fresh_db("prune");
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + files(1, 30)).rc == 0);
  const auto before = answers(db);
  const std::int64_t results = count(db, "SELECT COUNT(*) FROM results"), measurements = count(db, "SELECT COUNT(*) FROM measurements");
  // The drifting measurement's values per run, to check its summary against.
  std::map<std::int64_t, std::pair<std::int64_t, double>> drift;  // run -> (config, value)
  {
    auto h = open_history(db, DbMode::read);
    db_each(*h,
            "SELECT m.run_id, r.config_id, m.value FROM measurements m JOIN runs r ON r.id = m.run_id JOIN cases c ON c.id = m.case_id "
            "JOIN measure_names k ON k.id = m.name_id JOIN results v ON v.run_id = m.run_id AND v.case_id = m.case_id "
            "WHERE c.name = $1 AND k.name = $2 AND v.verdict = 0",
            {n.manifest["drift"]["case"].get<std::string>(), n.manifest["drift"]["measurement"].get<std::string>()},
            [&](const DbQuery& q) { drift[q.i64(0)] = {q.i64(1), q.f64(2)}; });
  }
  REQUIRE(drift.size() == 30);
  const auto bytes_before = on_postgresql() ? 0 : std::filesystem::file_size(db);

  // 2026-12-27 on, and the newest 6 of each driver's configuration (nights 11-16 and 25-30): 10 + 8 runs pruned.
  Exe prune = cuconform_cli("history prune --keep-days 3 --keep-runs 6 --db " + quote(db));
  INFO(prune.out);
  REQUIRE(prune.rc == 0);
  CHECK(prune.out.find("18 run(s) pruned: started before 2026-12-27T02:00:00Z (3 days before the newest run, 2026-12-30T02:00:00Z)") !=
        std::string::npos);

  const auto after = answers(db);
  for (auto& [verb, out] : before) {
    INFO(verb);
    CHECK(after.at(verb) == out);
  }
  CHECK(before.at("history changes").find("run #17") != std::string::npos);  // the change is in the pruned period
  CHECK(count(db, "SELECT COUNT(*) FROM results") < results / 2);
  CHECK(count(db, "SELECT COUNT(*) FROM measurements") < measurements / 2);
  if (!on_postgresql()) CHECK(std::filesystem::file_size(db) < bytes_before * 3 / 4);

  // The pruned runs' values of the drifting measurement, per configuration, against their summary.
  std::map<std::int64_t, std::vector<double>> gone;
  {
    auto h = open_history(db, DbMode::read);
    std::set<std::int64_t> kept;
    db_each(*h, "SELECT DISTINCT run_id FROM measurements", {}, [&](const DbQuery& q) { kept.insert(q.i64(0)); });
    for (auto& [run, cv] : drift)
      if (!kept.count(run)) gone[cv.first].push_back(cv.second);
    REQUIRE(gone.size() == 2);
    for (auto& [config, values] : gone) {
      double mean = 0, lo = INFINITY, hi = -INFINITY;
      for (double v : values) mean += v / static_cast<double>(values.size()), lo = std::min(lo, v), hi = std::max(hi, v);
      double m2 = 0;
      for (double v : values) m2 += (v - mean) * (v - mean);
      int rows = 0;
      db_each(*h,
              "SELECT s.n, s.mean, s.m2, s.lo, s.hi FROM measure_summary s JOIN cases c ON c.id = s.case_id JOIN measure_names k ON k.id = s.name_id "
              "WHERE s.config_id = $1 AND c.name = $2 AND k.name = $3",
              {config, n.manifest["drift"]["case"].get<std::string>(), n.manifest["drift"]["measurement"].get<std::string>()},
              [&](const DbQuery& q) {
                ++rows;
                CHECK(q.i64(0) == static_cast<std::int64_t>(values.size()));
                CHECK(q.f64(1) == Approx(mean));
                CHECK(q.f64(2) == Approx(m2));
                CHECK(q.f64(3) == lo);
                CHECK(q.f64(4) == hi);
              });
      CHECK(rows == 1);
    }
  }

  // Again: nothing more to drop, the summaries unchanged.
  const std::int64_t summed = count(db, "SELECT SUM(n) FROM measure_summary");
  Exe again = cuconform_cli("history prune --keep-days 3 --keep-runs 6 --db " + quote(db));
  INFO(again.out);
  CHECK(again.rc == 0);
  CHECK(again.out.find("results: 0 of") != std::string::npos);
  CHECK(count(db, "SELECT SUM(n) FROM measure_summary") == summed);

  // What is left recomputes the same change points (an older run added later rebuilds them).
  {
    auto h = open_history(db, DbMode::write);
    DbTransaction tx(*h, true);
    std::vector<std::int64_t> series;
    db_each(*h, "SELECT id FROM series", {}, [&](const DbQuery& q) { series.push_back(q.i64(0)); });
    for (auto s : series) rebuild_change_points(*h, s);
    tx.commit();
  }
  CHECK(answers(db).at("history changes --format json") == before.at("history changes --format json"));
}

TEST_CASE("history prune: nights added after a prune give the changes of a history never pruned", "[host][history][history-db][history-prune]") {
  std::string whole = fresh_db("prune_whole"), pruned = fresh_db("prune_then_add");
  REQUIRE(cuconform_cli("history add --db " + quote(whole) + " " + files(1, 30)).rc == 0);
  REQUIRE(cuconform_cli("history add --db " + quote(pruned) + " " + files(1, 20)).rc == 0);
  Exe prune = cuconform_cli("history prune --keep-days 0 --keep-runs 1 --db " + quote(pruned));
  INFO(prune.out);
  REQUIRE(prune.rc == 0);
  CHECK(prune.out.find("18 run(s) pruned") != std::string::npos);  // all but the newest of each driver
  REQUIRE(cuconform_cli("history add --db " + quote(pruned) + " " + files(21, 30)).rc == 0);
  // The same, the database's name aside.
  CHECK(replace_all(cuconform_cli("history changes --format json --db " + quote(pruned)).out, pruned, "DB") ==
        replace_all(cuconform_cli("history changes --format json --db " + quote(whole)).out, whole, "DB"));
  CHECK(stored_runs(pruned) == 30);
}

TEST_CASE("history prune: a bad --keep-days or --keep-runs exits 2 naming the flag, and changes nothing", "[host][history][history-prune]") {
  std::string db = test_dir("history-prune-options") + "/h.sqlite";
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + files(1, 3)).rc == 0);
  const std::string runs = cuconform_cli("history runs --format json --db " + quote(db)).out;
  check_refused(db, {
      {"history prune", "--keep-days N is required"},
      {"history prune --keep-days -1", "--keep-days '-1' must be a whole number from 0 to 100000"},
      {"history prune --keep-days=-1", "--keep-days '-1' must be a whole number from 0 to 100000"},
      {"history prune --keep-days abc", "--keep-days 'abc' must be a whole number from 0 to 100000"},
      {"history prune --keep-days 7 --keep-runs 2.5", "--keep-runs '2.5' must be a whole number from 0 to 100000"},
      {"history prune --keep-days 7 --last 3", "--last does not apply"},
  });
  CHECK(count(db, "SELECT COUNT(*) FROM measure_summary") == 0);
  CHECK(cuconform_cli("history runs --format json --db " + quote(db)).out == runs);
}
