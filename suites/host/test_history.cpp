// `cuconform history` and `compare --history` on synthetic nightly runs made from a committed
// baseline by ci/synth-nightly.cpp: 30 nights, one measurement drifting 3% a night, one case
// flipping at random, one case failing from night 17 on together with a driver change.
//
// [history-db] tests run on SQLite here, and again on a throwaway PostgreSQL through
// ci/history-pg-test.sh, which sets CUCONFORM_HISTORY_TEST_DB (a libpq URI with {db} where the
// database name goes). [.history-render] (ci/history-screenshot-test.sh) renders the report in
// headless Chromium.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "history/db.hpp"
#include "history/schema.hpp"
#include "history/stats.hpp"
#include "harness/util/input_file.hpp"
#include "suites/host/test_history_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;
using nlohmann::json;

// The first 8 hex digits of a committed baseline's GPU UUID: a history series is named by its GPU,
// and the baselines come from whichever machine ran them.
static std::string gpu_of(const std::string& baseline) {
  const json j = json::parse(read_input_file(std::string(CUCONFORM_BASELINES_DIR) + "/" + baseline));
  return j["device"]["uuid"].get<std::string>().substr(4, 8);
}
static const std::string kH200 = "NVIDIA-H200_driver-580.159.04.json.gz";

TEST_CASE("history statistics: median, MAD, Mann-Kendall, Theil-Sen", "[host][history]") {
  CHECK(median_of({5, 1, 3}) == 3);
  CHECK(median_of({4, 1, 3, 2}) == 2.5);
  CHECK(mad_of({1, 2, 3, 4, 100}) == 1);  // one wild value does not move it
  MannKendall up = mann_kendall({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  CHECK(up.s == 45);
  CHECK(up.z == Approx(44 / std::sqrt(125.0)));
  CHECK(up.p == Approx(8.32e-5).epsilon(0.01));
  CHECK(mann_kendall({3, 3, 3, 3, 3}).p == 1);  // ties only: no trend
  CHECK(theil_sen_slope({1, 3, 5, 7, 100, 11}) == Approx(2));

  DriftPolicy p;
  std::vector<double> steady = {100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1};
  CHECK_FALSE(judge_value(steady, 100.9, p).off);
  CHECK(judge_value(steady, 150, p).off);
  CHECK(judge_value(steady, 104, p).tolerance_rel == Approx(0.05));  // the 5% floor: a small spread never gates a small move
  std::vector<double> drifting;
  for (int i = 0; i < 14; ++i) drifting.push_back(100 * std::pow(1.03, i));
  ValueJudgement d = judge_value(drifting, 100 * std::pow(1.03, 14), p);
  CHECK(d.judged);
  CHECK_FALSE(d.off);  // within the spread: the drift is what gives it away
  CHECK(d.drift);
  CHECK_FALSE(judge_value({1, 2, 3}, 4, p).judged);  // too little history: the fixed tolerance applies
}

TEST_CASE("history changes: night 17 and the driver change, and nothing else", "[host][history][history-db]") {
  const Nights& n = nights();
  json j = cli_json("history changes --format json --db " + quote(loaded_db()));
  REQUIRE(j["series"].size() == 1);
  auto& s = j["series"][0];
  CHECK(s["series"] == "NVIDIA H200 " + gpu_of(kH200) + " @ gpu-node-1 · sass");
  CHECK(s["runs"] == 30);
  REQUIRE(s["changes"].size() == 1);
  auto& c = s["changes"][0];
  CHECK(c["run"]["seq"] == 17);
  CHECK(c["run"]["started"] == "2026-12-17T02:00:00Z");
  CHECK(fs::path(c["run"]["source"].get<std::string>()).filename() == "night-17.json");
  CHECK(c["previous"]["seq"] == 16);
  CHECK(c["differs"] == json({{"driver", {"580.159.04", "590.44.01"}}}));
  REQUIRE(c["cases"].size() == 1);
  CHECK(c["cases"][0]["name"] == n.manifest["changed"]);
  CHECK(c["cases"][0]["from"] == "pass");
  CHECK(c["cases"][0]["to"] == "fail");
  // The flipping case is left out as flapping, and said so.
  CHECK(s["flapping"]["cases"] == n.manifest["flaky"]);

  Exe text = cuconform_cli("history changes --db " + quote(loaded_db()));
  INFO(text.out);
  CHECK(text.out.find("run #17 (2026-12-17T02:00:00Z, night-17.json), driver 590.44.01: the first run with the change") != std::string::npos);
  CHECK(text.out.find("last run before it: #16 (2026-12-16T02:00:00Z, night-16.json), driver 580.159.04") != std::string::npos);
  CHECK(text.out.find("what differed: driver 580.159.04 -> 590.44.01\n") != std::string::npos);
  Exe md = cuconform_cli("history changes --format md --db " + quote(loaded_db()));
  CHECK(md.rc == 0);
  CHECK(md.out.find("| #17 2026-12-17T02:00:00Z `night-17.json` | #16 2026-12-16T02:00:00Z | driver 580.159.04 -> 590.44.01 | `" +
                    n.manifest["changed"].get<std::string>() + "` | pass -> fail |") != std::string::npos);
}

TEST_CASE("history flaky: the flipping case and nothing else", "[host][history][history-db]") {
  json j = cli_json("history flaky --format json --db " + quote(loaded_db()));
  std::set<std::string> names;
  REQUIRE(j["configurations"].size() == 2);  // before and after the driver change
  for (auto& c : j["configurations"])
    for (auto& k : c["cases"]) {
      names.insert(k["name"]);
      CHECK(k["returns"].get<int>() >= 2);
      CHECK(k["timeline"].size() == c["window"].size());
    }
  CHECK(names == std::set<std::string>{nights().manifest["flaky"][0]});
  // --last narrows the window: 14 runs of the new driver.
  json last = cli_json("history flaky --format json --last 5 --config '*590*' --db " + quote(loaded_db()));
  REQUIRE(last["configurations"].size() == 1);
  CHECK(last["configurations"][0]["window"].size() == 5);
}

TEST_CASE("compare --history flags the drift that a fixed 25% tolerance misses", "[host][history][history-db]") {
  const Nights& n = nights();
  std::string drift_case = n.manifest["drift"]["case"], measure = n.manifest["drift"]["measurement"];
  Exe fixed = cuconform_cli("compare " + quote(n.file(29)) + " " + quote(n.file(30)));
  INFO(fixed.out);
  CHECK(fixed.rc == 0);
  CHECK(fixed.out.find("measurement moved:") == std::string::npos);
  CHECK(fixed.out.find("measurement tolerances: fixed: 25%") != std::string::npos);

  Exe hist = cuconform_cli("compare " + quote(n.file(29)) + " " + quote(n.file(30)) + " --history " + quote(loaded_db()));
  INFO(hist.out);
  CHECK(hist.rc == 1);
  CHECK(hist.out.find("measurement tolerances: from history") != std::string::npos);
  CHECK(hist.out.find("the last 13 run(s) of NVIDIA H200 " + gpu_of(kH200) + " @ gpu-node-1 · driver 590.44.01 · sass") != std::string::npos);  // NEW itself left out
  std::istringstream lines(hist.out);
  std::string line;
  std::vector<std::string> moved;
  while (std::getline(lines, line))
    if (line.rfind("  measurement moved: ", 0) == 0) moved.push_back(line);
  REQUIRE(moved.size() == 1);
  CHECK(moved[0].find(drift_case + "  " + measure + " ") != std::string::npos);
  CHECK(hist.out.find("judged by history: DRIFT") != std::string::npos);
  CHECK(hist.out.find("Mann-Kendall p=") != std::string::npos);

  // Too little history (the first nights): the fixed tolerance, and it says so.
  std::string early = fresh_db("early");
  REQUIRE(cuconform_cli("history add --db " + quote(early) + " " + quote(n.file(1)) + " " + quote(n.file(2))).rc == 0);
  Exe short_history = cuconform_cli("compare " + quote(n.file(2)) + " " + quote(n.file(3)) + " --history " + quote(early));
  INFO(short_history.out);
  CHECK(short_history.rc == 0);
  CHECK(short_history.out.find("0 measurement(s) judged so") != std::string::npos);
  CHECK(short_history.out.find("with the fixed tolerance (fewer than 5 passing runs of history)") != std::string::npos);
}

TEST_CASE("history trend: the drifting measurement, and only it", "[host][history][history-db]") {
  const Nights& n = nights();
  std::string drift_case = n.manifest["drift"]["case"], measure = n.manifest["drift"]["measurement"];
  json j = cli_json("history trend --format json --db " + quote(loaded_db()));
  CHECK(j["judged"].get<int>() > 10000);
  REQUIRE(j["trends"].size() == 2);  // one per driver
  for (auto& t : j["trends"]) {
    CHECK(t["case"] == drift_case);
    CHECK(t["measurement"] == measure);
    CHECK(t["drift"] == true);
    CHECK(t["slope_rel_per_run"].get<double>() == Approx(0.03).margin(0.004));
  }
  json one = cli_json("history trend " + quote(drift_case) + " " + quote(measure) + " --format json --config '*580*' --db " + quote(loaded_db()));
  REQUIRE(one["trends"].size() == 1);
  CHECK(one["trends"][0]["points"].size() == 16);
  Exe none = cuconform_cli("history trend no.such.case --db " + quote(loaded_db()));
  CHECK(none.rc == 2);
}

TEST_CASE("history add stores the same run once", "[host][history][history-db]") {
  const Nights& n = small_nights();
  std::string db = fresh_db("twice");
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + quote(n.file(1)) + " " + quote(n.file(2))).rc == 0);
  Exe again = cuconform_cli("history add --db " + quote(db) + " " + quote(n.file(2)) + " " + quote(n.file(1)) + " " + quote(n.file(3)));
  INFO(again.out);
  CHECK(again.rc == 0);
  CHECK(again.out.find("1 run(s) added, 2 already stored") != std::string::npos);
  CHECK(again.out.find("already stored as run #2: " + n.file(2)) != std::string::npos);
  CHECK(stored_runs(db) == 3);
}

TEST_CASE("history add refuses a truncated or malformed file with FILE:LINE and stores nothing", "[host][history][history-db]") {
  const Nights& n = small_nights();
  std::string dir = test_dir("history-bad"), db = fresh_db("bad");
  std::string good = read_text(n.file(2));
  write_text(dir + "/truncated.json", good.substr(0, good.size() / 2));
  write_text(dir + "/verdict.json", replace_all(good, "\"verdict\": \"pass\"", "\"verdict\": 7"));
  write_text(dir + "/schema.json", replace_all(good, "cuconform-results/1", "cuconform-results/2"));
  write_text(dir + "/notjson.json", "not json at all\n");
  struct Bad {
    std::string file, message;
  };
  std::vector<Bad> bad = {
      {"truncated.json", dir + "/truncated.json:" + std::to_string(std::count(good.begin(), good.begin() + good.size() / 2, '\n') + 1) + ":"},
      {"verdict.json", dir + "/verdict.json:"},
      {"schema.json", "unknown schema 'cuconform-results/2'"},
      {"notjson.json", dir + "/notjson.json:1:"},
  };
  int k = 0;
  for (auto& b : bad) {
    // A good file before and after the bad one: both stored, the bad one named and not stored
    // (a night with one truncated file keeps the rest), exit 2.
    std::string one = fresh_db("bad" + std::to_string(++k));
    Exe e = cuconform_cli("history add --db " + quote(one) + " " + quote(n.file(1)) + " " + quote(dir + "/" + b.file) + " " + quote(n.file(2)));
    INFO(b.file << ": " << e.out);
    CHECK(e.rc == 2);
    CHECK(e.out.find("not stored: ") != std::string::npos);
    CHECK(e.out.find(b.message) != std::string::npos);
    CHECK(e.out.find("1 file(s) not stored") != std::string::npos);
    CHECK(stored_runs(one) == 2);
  }
  CHECK(cuconform_cli("history add --db " + quote(db) + " " + quote(n.file(1))).rc == 0);
  CHECK(stored_runs(db) == 1);
}

TEST_CASE("history: runners adding at the same time lose nothing, and the order of adds does not matter", "[host][history][history-db]") {
  const Nights& n = small_nights();
  std::string serial = fresh_db("serial"), racing = fresh_db("racing"), reverse = fresh_db("reverse");
  std::string all;
  for (int i = 1; i <= 30; ++i) all += quote(n.file(i)) + " ";
  REQUIRE(cuconform_cli("history add --db " + quote(serial) + " " + all).rc == 0);

  // Four runners at once, each with every fourth night, two of them with night 9 as well.
  std::string dir = test_dir("history-racing"), cmd = "cd " + quote(dir) + " && (";
  for (int k = 0; k < 4; ++k) {
    std::string files = k < 2 ? quote(n.file(9)) + " " : "";
    for (int i = 1 + k; i <= 30; i += 4) files += quote(n.file(i)) + " ";
    cmd += "( " + quote(CUCONFORM_EXE) + " history add --db " + quote(racing) + " " + files + " >out" + std::to_string(k) + " 2>&1; echo $? >rc" +
           std::to_string(k) + " ) & ";
  }
  cmd += "wait)";
  REQUIRE(std::system(cmd.c_str()) == 0);
  for (int k = 0; k < 4; ++k) {
    INFO("runner " << k << ": " << read_text(dir + "/out" + std::to_string(k)));
    CHECK(read_text(dir + "/rc" + std::to_string(k)) == "0\n");
  }
  CHECK(stored_runs(racing) == 30);

  // Newest first: every add is older than what is stored, so the series is re-ordered each time.
  std::string backwards;
  for (int i = 30; i >= 1; --i) backwards += quote(n.file(i)) + " ";
  REQUIRE(cuconform_cli("history add --db " + quote(reverse) + " " + backwards).rc == 0);

  std::string expected = changes_fingerprint(serial);
  INFO(expected);
  CHECK(expected.find("2026-12-17T02:00:00Z after 2026-12-16T02:00:00Z") != std::string::npos);
  CHECK(changes_fingerprint(racing) == expected);
  CHECK(changes_fingerprint(reverse) == expected);
}

TEST_CASE("history: a kill in the middle of an add keeps the files committed before it and nothing of the file in progress", "[host][history][history-db]") {
  const Nights& n = small_nights();
  std::string db = fresh_db("killed");
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + quote(n.file(1)) + " " + quote(n.file(2))).rc == 0);
  std::string before = changes_fingerprint(db);
  std::string more;
  for (int i = 3; i <= 20; ++i) more += quote(n.file(i)) + " ";
  Exe killed = cuconform_cli("history add --db " + quote(db) + " " + more, "CUCONFORM_HISTORY_TEST_KILL_AFTER=5");
  INFO(killed.out);
  CHECK(killed.rc != 0);
  CHECK(killed.rc != 2);
  CHECK(killed.out.find("added run") == std::string::npos);  // killed before the summary: nothing said
  // Each file is a transaction: files 3-6 were committed, the fifth (file 7) was in progress.
  CHECK(stored_runs(db) == 6);
  CHECK(changes_fingerprint(db) != before);
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + more).rc == 0);
  CHECK(stored_runs(db) == 20);
  // The same history as one uninterrupted add of every file: nothing of the killed file was kept.
  std::string straight = fresh_db("killedstraight");
  REQUIRE(cuconform_cli("history add --db " + quote(straight) + " " + quote(n.file(1)) + " " + quote(n.file(2)) + " " + more).rc == 0);
  CHECK(changes_fingerprint(db) == changes_fingerprint(straight));
  if (!on_postgresql()) {
    auto raw = open_db(db, DbMode::write);
    CHECK(db_text(*raw, "PRAGMA integrity_check", {}, "") == "ok");
  }
}

TEST_CASE("history schema: a version-1 database is migrated, a newer one refused", "[host][history][history-db]") {
  const Nights& n = small_nights();
  std::string direct = fresh_db("migrate_direct"), db = fresh_db("migrate");
  std::string files;
  for (int i = 1; i <= 20; ++i) files += quote(n.file(i)) + " ";
  REQUIRE(cuconform_cli("history add --db " + quote(direct) + " " + files).rc == 0);
  std::string expected = changes_fingerprint(direct);
  copy_as_version_2(direct, db);
  {
    // What version 1 was: version 2 without change points.
    auto raw = open_db(db, DbMode::write);
    CHECK(history_schema_version(*raw) == 2);
    raw->exec("DROP TABLE transitions");
    raw->exec("DROP TABLE case_state");
    raw->exec("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  }
  {
    auto migrated = open_history(db, DbMode::write);
    CHECK(history_schema_version(*migrated) == kHistorySchemaVersion);
    CHECK(db_text(*migrated, "SELECT value FROM meta WHERE key = 'migrated_to_2'", {}, "").find("change points") != std::string::npos);
  }
  CHECK(changes_fingerprint(db) == expected);
  {
    auto raw = open_db(db, DbMode::write);
    raw->exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  }
  Exe newer = cuconform_cli("history runs --db " + quote(db));
  INFO(newer.out);
  CHECK(newer.rc == 2);
  CHECK(newer.out.find("schema version 99, newer than this cuconform knows (" + std::to_string(kHistorySchemaVersion) + ")") != std::string::npos);
  Exe add = cuconform_cli("history add --db " + quote(db) + " " + quote(n.file(21)));
  CHECK(add.rc == 2);
  CHECK(add.out.find("nothing was stored") != std::string::npos);
}

TEST_CASE("history: a database that is not one is refused", "[host][history]") {
  std::string dir = test_dir("history-notdb");
  write_text(dir + "/results.json", "{\"schema\": \"cuconform-results/1\"}\n");
  Exe notdb = cuconform_cli("history runs --db " + quote(dir + "/results.json"));
  INFO(notdb.out);
  CHECK(notdb.rc == 2);
  CHECK(notdb.out.find(dir + "/results.json") != std::string::npos);
  {
    auto other = open_db(dir + "/other.sqlite", DbMode::create);
    other->exec("CREATE TABLE accounts (id INTEGER)");
  }
  Exe foreign = cuconform_cli("history add --db " + quote(dir + "/other.sqlite") + " " + quote(small_nights().file(1)));
  CHECK(foreign.rc == 2);
  CHECK(foreign.out.find("has tables but no cuconform history schema") != std::string::npos);
  Exe missing = cuconform_cli("history changes --db " + quote(dir + "/none.sqlite"));
  CHECK(missing.rc == 2);
  CHECK(missing.out.find("no history database at " + dir + "/none.sqlite") != std::string::npos);
  CHECK_FALSE(fs::exists(dir + "/none.sqlite"));
  Exe pg = cuconform_cli("history runs --db postgresql://nobody:secret@127.0.0.1:1/none", "CUCONFORM_LIBPQ=/no/such/libpq.so.5");
  CHECK(pg.rc == 2);
  CHECK(pg.out.find("could not be loaded") != std::string::npos);
  CHECK(pg.out.find("secret") == std::string::npos);  // the password is never printed
}

TEST_CASE("history: the committed baselines load, one configuration each", "[host][history][history-db]") {
  std::string db = fresh_db("baselines"), files;
  for (auto& e : fs::directory_iterator(CUCONFORM_BASELINES_DIR))
    if (e.path().extension() == ".gz") files += quote(e.path().string()) + " ";
  Exe add = cuconform_cli("history add --db " + quote(db) + " " + files);
  INFO(add.out);
  REQUIRE(add.rc == 0);
  CHECK(add.out.find("6 run(s) added") != std::string::npos);
  json j = cli_json("history runs --format json --db " + quote(db));
  std::set<std::string> labels;
  for (auto& c : j["configurations"]) {
    labels.insert(c["label"]);
    // The SASS runs ran every case of their day (3,927 or more); the jit and ptxas runs the cases of kernels built from PTX.
    if (c["code_path"] == "sass") CHECK(c["runs"][0]["cases"].get<int>() >= 3927);
    else CHECK(c["runs"][0]["cases"].get<int>() > 1000);
  }
  const std::string h100 = "NVIDIA H100 80GB HBM3 ", h200 = "NVIDIA H200 ", tail = " @ vm · driver 580.159.04 · ";
  CHECK(labels == std::set<std::string>{
                      h100 + gpu_of("NVIDIA-H100-80GB-HBM3_driver-580.159.04_jit.json.gz") + tail + "jit",
                      h100 + gpu_of("NVIDIA-H100-80GB-HBM3_driver-580.159.04_ptxas-12.8.json.gz") + tail + "ptxas 12.8.93",
                      h100 + gpu_of("NVIDIA-H100-80GB-HBM3_driver-580.159.04.json.gz") + tail + "sass",
                      h200 + gpu_of("NVIDIA-H200_driver-580.159.04_jit.json.gz") + tail + "jit",
                      h200 + gpu_of("NVIDIA-H200_driver-580.159.04_ptxas-12.8.json.gz") + tail + "ptxas 12.8.93",
                      h200 + gpu_of(kH200) + tail + "sass"});
  json changes = cli_json("history changes --format json --db " + quote(db));
  CHECK(changes["series"].size() == 6);
  for (auto& s : changes["series"]) CHECK(s["changes"].empty());
}

TEST_CASE("history report: timeline grid, trend plots, changes linked to their run", "[host][history][history-db]") {
  const Nights& n = nights();
  std::string dir = test_dir("history-report");
  Exe r = cuconform_cli("history report --db " + quote(loaded_db()) + " --html " + quote(dir + "/history.html"));
  INFO(r.out);
  REQUIRE(r.rc == 0);
  std::string html = read_text(dir + "/history.html");
  for (const char* banned : {"<script", "<link", "url(", "src=\"http", "href=\"http"}) CHECK(html.find(banned) == std::string::npos);
  CHECK(html.find("<table class=\"tl\">") != std::string::npos);  // the timeline grid
  CHECK(html.find("driver 580.159.04</th>") != std::string::npos);
  CHECK(html.find("<td class=\"g drv chg\"") != std::string::npos);  // the change, on the driver change
  CHECK(html.find("<a href=\"#chg-17\">!</a>") != std::string::npos);
  CHECK(html.find("id=\"chg-17\"><b>First changed in <a href=\"#run-17\">run #17</a>") != std::string::npos);
  CHECK(html.find("<tr id=\"run-17\">") != std::string::npos);
  CHECK(html.find("DRIFT +") != std::string::npos);  // a trend plot of the drifting measurement
  CHECK(html.find(n.manifest["flaky"][0].get<std::string>()) != std::string::npos);
  // A run's report with --history gets the sections of its configuration.
  Exe rep = cuconform_cli("report " + quote(n.file(30)) + " --history " + quote(loaded_db()) + " --html " + quote(dir + "/run.html"));
  INFO(rep.out);
  REQUIRE(rep.rc == 0);
  std::string run_html = read_text(dir + "/run.html");
  CHECK(run_html.find("<section id=\"history\">") != std::string::npos);
  CHECK(run_html.find("NVIDIA H200 " + gpu_of(kH200) + " @ gpu-node-1 · driver 590.44.01 · sass") != std::string::npos);
  CHECK(run_html.find("NVIDIA H200 " + gpu_of(kH200) + " @ gpu-node-1 · driver 580.159.04 · sass</h3><div class=\"trends\">") == std::string::npos);  // other driver's plots left out
}

TEST_CASE("history: bad options exit 2 with a message", "[host][history]") {
  std::string db = test_dir("history-options") + "/h.sqlite";
  check_refused(db, {
      {"history", "name a subcommand"},
      {"history merge", "unknown subcommand 'merge'"},
      {"history runs --window 3", "--window does not apply"},
      {"history changes --format xml", "--format 'xml' must be text, md or json"},
      {"history flaky --last 0", "--last '0' must be a whole number of at least 1"},
      {"history add", "name one or more results files"},
      {"history report", "--html FILE is required"},
      {"history runs extra", "unexpected argument 'extra'"},
  });
}

// Run by ci/history-screenshot-test.sh (which skips, exit 77, without chromium): the history
// report rendered in headless Chromium must come out as a PNG that is not blank.
// CUCONFORM_HISTORY_SCREENSHOT=FILE keeps a copy (docs/history-report.png).
TEST_CASE("history report renders in headless Chromium", "[.history-render]") {
  std::string browser;
  for (const char* c : {"chromium", "chromium-browser", "google-chrome"})
    if (browser.empty() && have_tool(c)) browser = c;
  REQUIRE_FALSE(browser.empty());
  std::string dir = test_dir("history-render");
  REQUIRE(cuconform_cli("history report --db " + quote(loaded_db()) + " --html " + quote(dir + "/history.html")).rc == 0);
  write_text(dir + "/blank.html", "<!DOCTYPE html><html><body></body></html>\n");
  auto shoot = [&](const std::string& page, const std::string& png) {
    std::string cmd = "p=$(mktemp -d); timeout 120 " + browser +
                      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
                      " --disable-component-update --disable-sync --hide-scrollbars --user-data-dir=\"$p\" --screenshot=" + quote(png) +
                      " --window-size=1200,1400 " + quote("file://" + page) + " >" + quote(png + ".log") + " 2>&1; rc=$?; rm -rf \"$p\"; exit $rc";
    int status = std::system(cmd.c_str());
    INFO("chromium exit status " << status << ", log: " << read_text(png + ".log"));
    REQUIRE(fs::exists(png));
    return read_text(png);
  };
  std::string blank = shoot(dir + "/blank.html", dir + "/blank.png"), page = shoot(dir + "/history.html", dir + "/history.png");
  CHECK(page.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  // A blank page compresses to almost nothing; the grid, the plots and the text do not.
  INFO("blank " << blank.size() << " bytes, report " << page.size() << " bytes");
  CHECK(page.size() > 20 * blank.size());
  CHECK(page.size() > 50000);
  if (const char* keep = std::getenv("CUCONFORM_HISTORY_SCREENSHOT")) fs::copy_file(dir + "/history.png", keep, fs::copy_options::overwrite_existing);
}
