// The history's series (issues 32, 35) and its bad inputs (issue 34), on results files made from
// a synthetic night of the committed H200 baseline by changing device.uuid, run.host and
// run.selection:
//   - a series per GPU (UUID): a GPU that fails every night is that GPU's steady failure, not a
//     flaky case of the model; `history runs` names each GPU (model, short UUID, node);
//   - a series per selection: a smoke run never turns a case "fixed" in the whole runs' series;
//   - a version-2 database (series per model) is migrated to version 3;
//   - queries on a read-only database; a run without a device section refused; "added run #N"
//     only for what was committed; messages without SQL; a PostgreSQL connect timeout.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "history/schema.hpp"
#include "history/store.hpp"
#include "suites/host/test_silent_server.hpp"
#include "suites/host/test_history_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

const char* kGpuA = "GPU-aaaaaaaa-1111-2222-3333-444444444444";
const char* kGpuB = "GPU-bbbbbbbb-1111-2222-3333-444444444444";

// Night 1 of the small nights as JSON, for editing.
json night_one() { return json::parse(read_text(small_nights().file(1))); }

// The first case that passes: the one the tests make fail.
std::string first_passing(const json& run) {
  for (auto& c : run["cases"])
    if (c["verdict"] == "pass") return c["name"];
  return "";
}

// A run of `base` on GPU `uuid` at `node`, started on day `day`; `fail`: a case that fails there.
json variant(json run, const std::string& uuid, const std::string& node, int day, const std::string& fail = "") {
  run["device"]["uuid"] = uuid;
  run["device"]["node"] = node;
  run["run"]["host"] = node;
  char started[32];
  std::snprintf(started, sizeof started, "2027-01-%02dT02:00:00Z", day);
  run["run"]["started"] = started;
  for (auto& c : run["cases"])
    if (c["name"] == fail) c["verdict"] = "fail", c["reason"] = "observed differs from expected";
  return run;
}

std::string write_run(const std::string& dir, const std::string& name, const json& run) {
  std::string path = dir + "/" + name;
  write_text(path, run.dump(1));
  return quote(path);
}

std::set<std::string> labels_of(const json& runs) {
  std::set<std::string> s;
  for (auto& c : runs["configurations"]) s.insert(c["label"].get<std::string>());
  return s;
}

}  // namespace

TEST_CASE("history series: one per GPU UUID, a GPU that fails every night is named, not a flaky case", "[host][history][history-db]") {
  std::string dir = test_dir("gpus-files"), db = fresh_db("gpus"), files;
  json base = night_one();
  const std::string broken = first_passing(base);
  // Night after night GPU A then GPU B, of one model, driver and code path; the case fails on B only.
  for (int night = 1; night <= 6; ++night) {
    files += write_run(dir, "a-" + std::to_string(night) + ".json", variant(base, kGpuA, "node-a", 2 * night - 1)) + " ";
    files += write_run(dir, "b-" + std::to_string(night) + ".json", variant(base, kGpuB, "node-b", 2 * night, broken)) + " ";
  }
  Exe add = cuconform_cli("history add --db " + quote(db) + " " + files);
  INFO(add.out);
  REQUIRE(add.rc == 0);
  CHECK(has(add.out, "(NVIDIA H200 bbbbbbbb @ node-b · driver 580.159.04 · sass, 2027-01-02T02:00:00Z)"));

  json runs = cli_json("history runs --format json --db " + quote(db));
  CHECK(labels_of(runs) == std::set<std::string>{"NVIDIA H200 aaaaaaaa @ node-a · driver 580.159.04 · sass",
                                                 "NVIDIA H200 bbbbbbbb @ node-b · driver 580.159.04 · sass"});
  for (auto& c : runs["configurations"]) {
    CHECK(c["runs"].size() == 6);
    CHECK((c["gpu_uuid"] == kGpuA || c["gpu_uuid"] == kGpuB));
    CHECK(c["node"] == (c["gpu_uuid"] == kGpuA ? "node-a" : "node-b"));
    CHECK(c["selection"] == "");
  }
  Exe text = cuconform_cli("history runs --db " + quote(db));
  CHECK(has(text.out, "\nNVIDIA H200 bbbbbbbb @ node-b · driver 580.159.04 · sass: 6 run(s)\n"));

  // Nothing flips within a GPU's own series: no flaky case, no change; B's failure is B's state.
  json flaky = cli_json("history flaky --format json --db " + quote(db));
  for (auto& c : flaky["configurations"]) CHECK(c["cases"].empty());
  json changes = cli_json("history changes --format json --db " + quote(db));
  REQUIRE(changes["series"].size() == 2);
  for (auto& s : changes["series"]) {
    CHECK(s["changes"].empty());
    CHECK(s["flapping"]["cases"].empty());
  }
  Exe report = cuconform_cli("history report --db " + quote(db) + " --html " + quote(dir + "/h.html"));
  REQUIRE(report.rc == 0);
  std::string html = read_text(dir + "/h.html");
  CHECK(has(html, "<h3>NVIDIA H200 bbbbbbbb @ node-b · sass: the last 6 of 6 run(s)</h3>"));
  CHECK(has(html, "Each series is one GPU (its model and UUID) on one code path and one selection of cases"));

  // compare --history judges against the same GPU's runs.
  Exe cmp = cuconform_cli("compare " + quote(dir + "/b-5.json") + " " + quote(dir + "/b-6.json") + " --history " + quote(db));
  INFO(cmp.out);
  CHECK(cmp.rc == 0);
  CHECK(has(cmp.out, "the last 5 run(s) of NVIDIA H200 bbbbbbbb @ node-b · driver 580.159.04 · sass"));
}

TEST_CASE("history series: a smoke or filtered run is a series of its own, nothing turns fixed", "[host][history][history-db]") {
  std::string dir = test_dir("smoke-files"), db = fresh_db("smoke"), files;
  json base = night_one();
  const std::string broken = first_passing(base);
  // Whole runs where the case fails; smoke runs between them that did not select it.
  json smoke = base;
  smoke["run"]["selection"] = {"--profile smoke", "--codegen sass"};
  json kept = json::array();
  for (auto& c : smoke["cases"])
    if (c["name"] != broken) kept.push_back(c);
  smoke["cases"] = kept;
  json area = base;
  area["run"]["selection"] = {"--area " + base["cases"][0]["area"].get<std::string>()};
  for (int night = 1; night <= 4; ++night) {
    files += write_run(dir, "whole-" + std::to_string(night) + ".json", variant(base, kGpuA, "node-a", 3 * night - 2, broken)) + " ";
    files += write_run(dir, "smoke-" + std::to_string(night) + ".json", variant(smoke, kGpuA, "node-a", 3 * night - 1)) + " ";
    files += write_run(dir, "area-" + std::to_string(night) + ".json", variant(area, kGpuA, "node-a", 3 * night)) + " ";
  }
  Exe add = cuconform_cli("history add --db " + quote(db) + " " + files);
  INFO(add.out);
  REQUIRE(add.rc == 0);
  const std::string area_sel = "--area " + base["cases"][0]["area"].get<std::string>();
  json runs = cli_json("history runs --format json --db " + quote(db));
  CHECK(labels_of(runs) == std::set<std::string>{"NVIDIA H200 aaaaaaaa @ node-a · driver 580.159.04 · sass",
                                                 "NVIDIA H200 aaaaaaaa @ node-a · driver 580.159.04 · sass · --profile smoke",
                                                 "NVIDIA H200 aaaaaaaa @ node-a · driver 580.159.04 · sass · " + area_sel});
  for (auto& c : runs["configurations"]) CHECK(c["runs"].size() == 4);
  json changes = cli_json("history changes --format json --db " + quote(db));
  CHECK(changes["series"].size() == 3);
  for (auto& s : changes["series"]) CHECK(s["changes"].empty());
  // The whole runs' timeline has only whole runs: the failing rule is red in each of them.
  Exe report = cuconform_cli("history report --db " + quote(db) + " --html " + quote(dir + "/h.html"));
  REQUIRE(report.rc == 0);
  CHECK(has(read_text(dir + "/h.html"), "<h3>NVIDIA H200 aaaaaaaa @ node-a · sass: the last 4 of 4 run(s)</h3>"));
}

TEST_CASE("history schema: a version-2 database (a series per model) is migrated to a series per GPU and selection", "[host][history][history-db]") {
  std::string dir = test_dir("v2-files"), direct = fresh_db("v3direct"), old = fresh_db("v2old"), files;
  json base = night_one();
  const std::string broken = first_passing(base);
  json smoke = base;
  smoke["run"]["selection"] = {"--profile smoke"};
  for (int night = 1; night <= 4; ++night) {
    files += write_run(dir, "a-" + std::to_string(night) + ".json", variant(base, kGpuA, "node-a", 3 * night - 2)) + " ";
    files += write_run(dir, "b-" + std::to_string(night) + ".json", variant(base, kGpuB, "node-b", 3 * night - 1, broken)) + " ";
    files += write_run(dir, "s-" + std::to_string(night) + ".json", variant(smoke, kGpuA, "node-a", 3 * night)) + " ";
  }
  REQUIRE(cuconform_cli("history add --db " + quote(direct) + " " + files).rc == 0);
  copy_as_version_2(direct, old);
  {
    auto v2 = open_db(old, DbMode::write);
    CHECK(history_schema_version(*v2) == 2);
    CHECK(db_i64(*v2, "SELECT COUNT(*) FROM series", {}, 0) == 1);  // what version 2 made of three GPUs-and-selections
    CHECK(db_i64(*v2, "SELECT COUNT(*) FROM transitions", {}, 0) > 0);  // B's failure flipping with A's passes
  }
  {
    auto migrated = open_history(old, DbMode::write);
    CHECK(history_schema_version(*migrated) == kHistorySchemaVersion);  // through 3, and on
    CHECK(has(db_text(*migrated, "SELECT value FROM meta WHERE key = 'migrated_to_3'", {}, ""), "a series per GPU"));
    CHECK(db_i64(*migrated, "SELECT COUNT(*) FROM series", {}, 0) == 3);
    CHECK(db_i64(*migrated, "SELECT COUNT(*) FROM transitions", {}, 0) == 0);
  }
  json a = cli_json("history runs --format json --db " + quote(direct)), b = cli_json("history runs --format json --db " + quote(old));
  CHECK(labels_of(a) == labels_of(b));
  CHECK(labels_of(b).size() == 3);
  CHECK(changes_fingerprint(old) == changes_fingerprint(direct));
  // Adding to the migrated database files the run as a fresh one would.
  REQUIRE(cuconform_cli("history add --db " + quote(old) + " " +
                        write_run(dir, "b-5.json", variant(base, kGpuB, "node-b", 20, broken)))
              .rc == 0);
  json after = cli_json("history runs --format json --db " + quote(old));
  CHECK(labels_of(after) == labels_of(b));
}

TEST_CASE("history: queries answer on a read-only database and write nothing", "[host][history][history-db]") {
  std::string dir = test_dir("ro-out"), db = fresh_db("readonly");
  const Nights& n = small_nights();
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + quote(n.file(1)) + " " + quote(n.file(2)) + " " + quote(n.file(3))).rc == 0);
  std::string out = dir + "/out";
  std::filesystem::create_directories(out);
  std::filesystem::permissions(out, std::filesystem::perms::all);
  std::vector<std::string> queries = {"history runs", "history changes", "history flaky", "history trend", "history report --html " + quote(out + "/h.html"),
                                      "compare " + quote(n.file(2)) + " " + quote(n.file(3)) + " --history"};
  std::string reader_db = db;
  std::string as_reader;  // what runs a command as someone who cannot write the database
  if (on_postgresql()) {
    // A role that may only read, as a dashboard has.
    std::string role = "reader_" + std::to_string(::getpid());
    auto admin = open_db(db, DbMode::write);
    admin->exec("DROP ROLE IF EXISTS " + role);
    admin->exec("CREATE ROLE " + role + " LOGIN");
    admin->exec("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role);
    reader_db = replace_all(db, "user=cuconform", "user=" + role);
    REQUIRE(reader_db != db);
  } else {
    // SQLite: the file and its folder read-only, no -wal or -shm beside it (a mounted nightly
    // database). Root writes whatever the mode says: then the commands run as nobody.
    std::string folder = std::filesystem::path(db).parent_path().string();
    for (auto& e : std::filesystem::directory_iterator(folder)) CHECK(e.path().filename() == "history.sqlite");
    std::filesystem::permissions(db, std::filesystem::perms::owner_read | std::filesystem::perms::group_read | std::filesystem::perms::others_read);
    std::filesystem::permissions(folder, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec | std::filesystem::perms::group_read |
                                             std::filesystem::perms::group_exec | std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
    if (::geteuid() == 0) {
      if (!have_tool("runuser")) {
        WARN("running as root without runuser: the read-only database is not tried");
        return;
      }
      as_reader = "runuser -u nobody --";
    }
  }
  for (auto& query : queries) {
    std::string cmd = as_reader + (as_reader.empty() ? "" : " ") + "'" + CUCONFORM_EXE + "' " + query + " " +
                      (query.rfind("history", 0) == 0 ? "--db " : "") + quote(reader_db) + " > " + quote(out + "/log") + " 2>&1";
    int status = std::system(cmd.c_str());
    std::string log = read_text(out + "/log");
    INFO(query << ":\n" << log.substr(0, 2000));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK_FALSE(has(log, "attempt to write"));
  }
  CHECK(std::filesystem::exists(out + "/h.html"));
  if (!on_postgresql()) {
    std::string folder = std::filesystem::path(db).parent_path().string();
    for (auto& e : std::filesystem::directory_iterator(folder)) CHECK(e.path().filename() == "history.sqlite");  // nothing made beside it
    {  // adding to it says why it cannot
      std::string cmd = as_reader + (as_reader.empty() ? "" : " ") + "'" + CUCONFORM_EXE + "' history add --db " + quote(db) + " " +
                        quote(n.file(4)) + " > " + quote(out + "/log") + " 2>&1";
      int status = std::system(cmd.c_str());
      std::string log = read_text(out + "/log");
      INFO(log);
      CHECK(WEXITSTATUS(status) == 2);
      CHECK(has(log, db + ": cannot write it"));
    }
    std::filesystem::permissions(folder, std::filesystem::perms::owner_all, std::filesystem::perm_options::add);
    std::filesystem::permissions(db, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  }
}

TEST_CASE("history add: a run without a device section is refused (that file is not stored, the others are), added is said only after the commit", "[host][history][history-db]") {
  std::string dir = test_dir("nodevice-files"), db = fresh_db("nodevice");
  const Nights& n = small_nights();
  json run = json::parse(read_text(n.file(2)));
  run.erase("device");
  write_text(dir + "/nodevice.json", run.dump(1));
  Exe e = cuconform_cli("history add --db " + quote(db) + " " + quote(n.file(1)) + " " + quote(dir + "/nodevice.json"));
  INFO(e.out);
  CHECK(e.rc == 2);
  CHECK(has(e.out, dir + "/nodevice.json: no device section: which GPU ran it, or whether one did, is not recorded"));
  CHECK(has(e.out, "1 file(s) not stored"));
  CHECK(has(e.out, "added run #"));  // night 1 is stored: its file reads; only the bad file is not
  CHECK(stored_runs(db) == 1);
  // report shows it, and says so.
  Exe rep = cuconform_cli("report " + quote(dir + "/nodevice.json"));
  CHECK(rep.rc == 0);
  CHECK(has(rep.out, "no device section: the report shows it as an unknown device"));
  CHECK(has(rep.out, "## cuconform: ⚠️ unknown device: "));
  CHECK(has(rep.out, "- device: unknown device: the file has no device section"));
}

TEST_CASE("history: a failing statement is said in words, without its SQL", "[host][history][history-db]") {
  std::string db = fresh_db("nosql");
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + quote(small_nights().file(1))).rc == 0);
  {
    auto raw = open_db(db, DbMode::write);
    raw->exec("DROP TABLE measurements");
  }
  Exe e = cuconform_cli("history trend --db " + quote(db));
  INFO(e.out);
  CHECK(e.rc == 2);
  CHECK(has(e.out, "reading measurements failed: "));
  for (const char* sql : {"SELECT", "FROM ", "JOIN", " in: "}) CHECK_FALSE(has(e.out, sql));
  Exe debug = cuconform_cli("history trend --db " + quote(db), "CUCONFORM_DEBUG_SQL=1");
  CHECK(has(debug.out, "[SQL: SELECT "));
  CHECK(statement_words("INSERT INTO runs (a) VALUES ($1)") == "adding to runs");
  CHECK(statement_words("CREATE TABLE IF NOT EXISTS meta (key TEXT)") == "changing the schema (meta)");
  CHECK(statement_words("CREATE INDEX runs_by_config ON runs (config_id, seq)") == "changing the schema (runs)");
  CHECK(statement_words("UPDATE case_state SET verdict = $1") == "updating case_state");
  CHECK(statement_words("BEGIN; SELECT pg_advisory_xact_lock(1)") == "starting a transaction");
}

TEST_CASE("history: PostgreSQL gives up connecting after 10 s by default, sooner when the URI says", "[host][history]") {
  // A server that accepts the connection and never answers: libpq alone would wait for ever.
  const SilentServer server;
  const std::string url = "postgresql://nobody:secret@" + server.host_port() + "/none?sslmode=disable";
  Exe quick = cuconform_cli("history runs --db " + quote(url + "&connect_timeout=2"), "timeout 60");
  INFO(quick.out);
  if (has(quick.out, "could not be loaded")) {
    WARN("libpq is not installed: the connect timeout is not tried");
    return;
  }
  CHECK(quick.rc == 2);
  CHECK(has(quick.out, "cannot connect: "));
  CHECK(has(quick.out, "timeout expired"));
  CHECK_FALSE(has(quick.out, "secret"));
  Exe fallback = cuconform_cli("history runs --db " + quote(url), "PGCONNECT_TIMEOUT= timeout 60");
  INFO(fallback.out);
  CHECK(fallback.rc == 2);  // 124 when it hung until `timeout` ended it
  CHECK(has(fallback.out, "timeout expired (cuconform gives up after 10 s unless ?connect_timeout=N in the URI or $PGCONNECT_TIMEOUT says otherwise)"));
}

TEST_CASE("history report: 300 series make a summary page of bounded size, any series drawn on a page of its own with --config",
          "[host][history][history-db][history-html]") {
  std::string dir = test_dir("many-series"), db = fresh_db("many_series"), files;
  json base = night_one();
  const std::string broken = first_passing(base);
  auto hex = [](int gpu) {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", 0x10000000 + gpu);
    return std::string(b);
  };
  // 300 GPUs, 8 a node, two nights; every tenth GPU fails a case on the second: 30 series that changed.
  for (int gpu = 0; gpu < 300; ++gpu)
    for (int night = 1; night <= 2; ++night)
      files += write_run(dir, hex(gpu) + "-" + std::to_string(night) + ".json",
                         variant(base, "GPU-" + hex(gpu) + "-1111-2222-3333-444444444444", "node-" + std::to_string(gpu / 8), night,
                                 night == 2 && gpu % 10 == 0 ? broken : "")) +
               " ";
  REQUIRE(cuconform_cli("history add --db " + quote(db) + " " + files).rc == 0);
  Exe all = cuconform_cli("history report --db " + quote(db) + " --html " + quote(dir + "/all.html"));
  INFO(all.out);
  REQUIRE(all.rc == 0);
  const std::string page = read_text(dir + "/all.html");
  CHECK(has(page, "300 series: the 12 with the most changes and flaky cases drawn below"));
  for (int gpu = 0; gpu < 300; ++gpu) CHECK(has(page, "NVIDIA H200 " + hex(gpu) + " @ node-" + std::to_string(gpu / 8)));  // a row each
  std::size_t drawn = 0;
  for (auto at = page.find("<a id=\"series-"); at != std::string::npos; at = page.find("<a id=\"series-", at + 1)) ++drawn;
  CHECK(drawn == 12);
  // Drawn alone (the drill-down), a changed series that did not make the 12.
  Exe one = cuconform_cli("history report --db " + quote(db) + " --config '*" + hex(290) + "*' --html " + quote(dir + "/one.html"));
  REQUIRE(one.rc == 0);
  const std::string single = read_text(dir + "/one.html");
  CHECK(has(single, "<table class=\"tl\">"));
  CHECK(has(single, "<code>" + broken + "</code>"));
  CHECK_FALSE(has(single, " series: the 12 with the most"));
  // The bound: 12 series drawn as fully as one alone, and a row of at most 400 bytes for each of the 300.
  INFO("page " << page.size() << " bytes, one series alone " << single.size());
  CHECK(page.size() < 12 * single.size() + 300 * 400);
}
