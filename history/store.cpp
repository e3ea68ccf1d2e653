#include "history/store.hpp"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <deque>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "history/schema.hpp"
#include "reporters/run_report.hpp"  // utc_now_iso8601

namespace cuconform {

namespace {

// Texts are kept whole up to this many bytes (cut at a character boundary).
constexpr std::size_t kMaxText = 2000;

std::string cut_utf8(const std::string& s) {
  if (s.size() <= kMaxText) return s;
  std::size_t n = kMaxText;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n) + "…";
}

// name -> id of a dictionary table, loaded once per add; new names are inserted.
class Dict {
 public:
  Dict(Db& db, std::string table, std::string column) : db_(db), table_(std::move(table)), column_(std::move(column)) {
    db_each(db_, "SELECT id, " + column_ + " FROM " + table_, {}, [&](const DbQuery& q) { ids_[q.text(1)] = q.i64(0); });
  }
  // `extra`: further NOT NULL columns of a new row (a case's rule, area, kind).
  std::int64_t id(const std::string& key, const std::vector<std::pair<std::string, std::string>>& extra = {}) {
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    std::string cols = column_, vals = "$1";
    std::vector<DbValue> params = {key};
    for (auto& [c, v] : extra) {
      cols += ", " + c;
      params.push_back(v);
      vals += ", $" + std::to_string(params.size());
    }
    std::int64_t id = db_i64(db_, "INSERT INTO " + table_ + " (" + cols + ") VALUES (" + vals + ") RETURNING id", params, 0);
    return ids_[key] = id;
  }

 private:
  Db& db_;
  std::string table_, column_;
  std::unordered_map<std::string, std::int64_t> ids_;
};

// One case's result as the change points see it: the verdict, and the outcome where recorded.
struct ResultRow {
  std::int64_t case_id = 0;
  int verdict = 0;
  std::int64_t outcome = 0;  // texts.id; 0: none
};

struct State {
  std::int64_t run_id;
  int verdict;
  std::int64_t outcome;
};

struct Transition {
  std::int64_t case_id, run_id, prev_run_id;
  State from, to;
};

DbValue id_or_null(std::int64_t id) { return id ? DbValue(id) : DbValue(); }

// Moves `states` over one run: a case whose verdict or outcome differs from its last state is a
// transition; a case seen for the first time is not.
void advance(std::unordered_map<std::int64_t, State>& states, std::int64_t run_id, const std::vector<ResultRow>& rows,
             std::vector<Transition>* out, std::vector<std::int64_t>* changed, std::vector<std::int64_t>* fresh) {
  for (auto& r : rows) {
    State now{run_id, r.verdict, r.outcome};
    auto it = states.find(r.case_id);
    if (it == states.end()) {
      states.emplace(r.case_id, now);
      if (fresh) fresh->push_back(r.case_id);
      continue;
    }
    State& was = it->second;
    if (was.verdict != now.verdict || was.outcome != now.outcome) {
      out->push_back({r.case_id, run_id, was.run_id, was, now});
      if (changed) changed->push_back(r.case_id);
      was.verdict = now.verdict;
      was.outcome = now.outcome;
    }
    was.run_id = run_id;
  }
}

void insert_transitions(Db& db, std::int64_t series, const std::vector<Transition>& ts) {
  std::vector<std::vector<DbValue>> rows;
  for (auto& t : ts)
    rows.push_back({series, t.case_id, t.run_id, t.prev_run_id, std::int64_t{t.from.verdict}, id_or_null(t.from.outcome),
                    std::int64_t{t.to.verdict}, id_or_null(t.to.outcome)});
  db.insert_rows("transitions",
                 {"series_id", "case_id", "run_id", "prev_run_id", "from_verdict", "from_outcome", "to_verdict", "to_outcome"}, rows);
}

std::vector<ResultRow> stored_results(Db& db, std::int64_t run_id) {
  std::vector<ResultRow> rows;
  db_each(db, "SELECT case_id, verdict, outcome_id FROM results WHERE run_id = $1 ORDER BY case_id", {run_id},
          [&](const DbQuery& q) { rows.push_back({q.i64(0), static_cast<int>(q.i64(1)), q.i64(2)}); });
  return rows;
}

// The change points of a run that is the newest of its series: from the series' case states.
void append_change_points(Db& db, std::int64_t series, std::int64_t run_id, const std::vector<ResultRow>& rows) {
  std::unordered_map<std::int64_t, State> states;
  db_each(db, "SELECT case_id, run_id, verdict, outcome_id FROM case_state WHERE series_id = $1", {series},
          [&](const DbQuery& q) { states[q.i64(0)] = {q.i64(1), static_cast<int>(q.i64(2)), q.i64(3)}; });
  std::vector<Transition> ts;
  std::vector<std::int64_t> changed, fresh;
  advance(states, run_id, rows, &ts, &changed, &fresh);
  insert_transitions(db, series, ts);
  std::vector<std::vector<DbValue>> add;
  for (auto c : fresh) add.push_back({series, c, run_id, std::int64_t{states[c].verdict}, id_or_null(states[c].outcome)});
  db.insert_rows("case_state", {"series_id", "case_id", "run_id", "verdict", "outcome_id"}, add);
  auto upd = db.prepare("UPDATE case_state SET verdict = $1, outcome_id = $2 WHERE series_id = $3 AND case_id = $4");
  for (auto c : changed) {
    upd->bind(1, std::int64_t{states[c].verdict});
    upd->bind(2, id_or_null(states[c].outcome));
    upd->bind(3, series);
    upd->bind(4, c);
    upd->next();
    upd->reset();
  }
  // Every case of this run was last seen here: one statement, not one per case.
  db_each(db, "UPDATE case_state SET run_id = $1 WHERE series_id = $2 AND case_id IN (SELECT case_id FROM results WHERE run_id = $1)",
          {run_id, series}, [](const DbQuery&) {});
}

std::string field(const RunInfo& r, const std::vector<std::pair<std::string, std::string>>& kv, const std::string& k) { return r.get(kv, k); }

// A test hook: CUCONFORM_HISTORY_TEST_KILL_AFTER=N kills the process (SIGKILL, no clean-up)
// after N runs are inserted and before the transaction commits.
void maybe_die(int inserted) {
  static const char* env = std::getenv("CUCONFORM_HISTORY_TEST_KILL_AFTER");
  if (env && *env && inserted >= std::atoi(env)) std::raise(SIGKILL);
}

}  // namespace

std::string history_label(const std::string& gpu, const std::string& uuid, const std::string& node, const std::string& driver,
                          const std::string& code_path, const std::string& selection) {
  std::string s = gpu;
  if (!uuid.empty()) {
    // "GPU-5f0c2a9e-...": the first 8 hex digits, as the results files' run labels show them.
    std::string hex;
    for (std::size_t i = uuid.rfind("GPU-", 0) == 0 || uuid.rfind("MIG-", 0) == 0 ? 4 : 0; i < uuid.size() && hex.size() < 8; ++i)
      if (std::isxdigit(static_cast<unsigned char>(uuid[i]))) hex += uuid[i];
    s += " " + hex + (node.empty() ? "" : " @ " + node);
  }
  if (!driver.empty()) s += " · driver " + driver;
  s += " · " + code_path;
  return selection.empty() ? s : s + " · " + selection;
}

std::string series_selection(const RunInfo& r) {
  // A GPU of a node run (run --devices) shares the node with its peers' runs, unlike a lone run
  // of the same GPU: a series of its own, so the two never read as changes of each other.
  const std::string devices = run_devices(r);
  const std::string cases = case_selection(r);
  return devices.empty() ? cases : cases + (cases.empty() ? "" : " ") + "--devices " + devices;
}

RunIdentity run_identity(const RunInfo& r) {
  RunIdentity id;
  id.gpu = r.available() ? r.dev("name") : "no GPU";
  id.uuid = r.available() ? r.dev("uuid") : "";
  id.node = r.get(r.run, "host").empty() ? r.dev("node") : r.get(r.run, "host");
  id.driver = r.dev("driver_version");
  if (id.driver.empty()) id.driver = r.dev("driver_cuda_version").empty() ? "none" : "CUDA " + r.dev("driver_cuda_version");
  std::string codegen = r.get(r.run, "toolchain.codegen");
  if (codegen.empty()) codegen = "sass";
  id.code_path = codegen;
  if (codegen == "ptxas") {  // "ptxas 12.8.93": the assembler's version is part of the code path
    std::string compiler = r.get(r.run, "toolchain.compiler");
    id.code_path = compiler.rfind("ptxas", 0) == 0 ? compiler : "ptxas " + compiler;
  }
  id.selection = series_selection(r);
  id.key = r.get(r.run, "started") + "|" + r.get(r.run, "host") + "|" + r.dev("uuid") + "|" + r.dev("ordinal") + "|" + id.code_path;
  if (r.get(r.run, "started").empty()) id.key += "|" + r.suite_json + r.run_json + r.device_json;
  return id;
}

void rebuild_change_points(Db& db, std::int64_t series) {
  std::vector<std::int64_t> order;
  db_each(db, "SELECT r.id FROM runs r JOIN configs c ON r.config_id = c.id WHERE c.series_id = $1 ORDER BY r.started, r.id", {series},
          [&](const DbQuery& q) { order.push_back(q.i64(0)); });
  auto renumber = db.prepare("UPDATE runs SET seq = $1 WHERE id = $2");
  for (std::size_t i = 0; i < order.size(); ++i) {
    renumber->bind(1, static_cast<std::int64_t>(i + 1));
    renumber->bind(2, order[i]);
    renumber->next();
    renumber->reset();
  }
  db_each(db, "DELETE FROM transitions WHERE series_id = $1", {series}, [](const DbQuery&) {});
  db_each(db, "DELETE FROM case_state WHERE series_id = $1", {series}, [](const DbQuery&) {});
  std::unordered_map<std::int64_t, State> states;
  std::vector<Transition> ts;
  for (auto run : order) advance(states, run, stored_results(db, run), &ts, nullptr, nullptr);
  insert_transitions(db, series, ts);
  std::vector<std::vector<DbValue>> rows;
  for (auto& [c, s] : states) rows.push_back({series, c, s.run_id, std::int64_t{s.verdict}, id_or_null(s.outcome)});
  db.insert_rows("case_state", {"series_id", "case_id", "run_id", "verdict", "outcome_id"}, rows);
}

namespace {

// The runs of one file, in one transaction of their own: a file that does not read stores
// nothing, and the files before and after it are stored all the same.
struct Dicts {
  explicit Dicts(Db& db) : cases(db, "cases", "name"), texts(db, "texts", "body"), names(db, "measure_names", "name") {}
  Dict cases, texts, names;
};

void add_file(Db& db, const std::string& file, std::future<Fleet>& read, AddSummary& sum) {
  auto note = [&](const std::string& line) { sum.lines.push_back(line); };
  std::set<std::int64_t> rebuild;
  DbTransaction tx(db, true);
  // Read inside the write transaction: another runner may have added names since the last file.
  Dicts d(db);
  Dict &cases = d.cases, &texts = d.texts, &names = d.names;
  AddSummary file_sum;  // counted into sum only once the file is committed
  std::vector<std::string> file_lines;
  {
    Fleet f = read.get();  // throws ResultsError: this file's transaction rolls back
    for (std::size_t i = 0; i < f.runs.size(); ++i) {
      const RunInfo& r = f.runs[i];
      RunIdentity id = run_identity(r);
      std::string what = file + (f.runs.size() > 1 ? " [" + r.label + "]" : "");
      // A run of no known device would join a "no GPU" series without a word: refused, so a
      // broken writer is seen the night it breaks.
      if (!r.has_device)
        throw ResultsError(what + ": no device section: which GPU ran it, or whether one did, is not recorded (cuconform run always writes one)");
      if (r.get(r.run, "cut_off.by") == "running") {
        ++file_sum.skipped;
        file_lines.push_back("skipped " + what + ": a snapshot of a run still going (add the finished results file)");
        continue;
      }
      std::int64_t existing = db_i64(db, "SELECT id FROM runs WHERE run_key = $1", {id.key}, 0);
      if (existing) {
        ++file_sum.already;
        file_lines.push_back("already stored as run #" + std::to_string(existing) + ": " + what);
        continue;
      }
      std::int64_t config = config_of(db, id);
      std::int64_t series = db_i64(db, "SELECT series_id FROM configs WHERE id = $1", {config}, 0);

      // The newest run of its series extends the change points; an older one reorders the series.
      std::string started = r.get(r.run, "started");
      std::int64_t last_seq = 0;
      std::string last_started;
      db_each(db, "SELECT r.seq, r.started FROM runs r JOIN configs c ON r.config_id = c.id WHERE c.series_id = $1 ORDER BY r.seq DESC LIMIT 1",
              {series}, [&](const DbQuery& q) { last_seq = q.i64(0), last_started = q.text(1); });
      bool append = !rebuild.count(series) && started >= last_started;

      auto counts = f.counts(i);
      int total = 0;
      for (auto& [v, n] : counts) total += n;
      std::string wall = r.get(r.run, "wall_s");
      std::vector<DbValue> run_row = {
          id.key, config, last_seq + 1, started, field(r, r.run, "finished"), field(r, r.run, "host"), r.dev("uuid"), r.dev("cc"),
          field(r, r.suite, "version"), field(r, r.suite, "commit"), field(r, r.suite, "built_with_cuda"), field(r, r.run, "toolchain.compiler"),
          wall.empty() ? DbValue() : DbValue(std::atof(wall.c_str())), field(r, r.run, "cut_off.by"), std::int64_t{total}};
      for (const char* v : {"pass", "fail", "not-supported", "timeout", "crash", "planned", "flake", "recorded"})
        run_row.push_back(std::int64_t{counts[v]});
      for (auto& v : {r.file, utc_now_iso8601(), r.suite_json, r.run_json, r.device_json}) run_row.push_back(v);
      std::string cols = "run_key, config_id, seq, started, finished, host, gpu_uuid, cc, suite_version, suite_commit, toolkit, compiler, "
                         "wall_s, cut_off, n_cases, n_pass, n_fail, n_not_supported, n_timeout, n_crash, n_planned, n_flake, n_recorded, "
                         "source, added, suite_json, run_json, device_json",
                  vals;
      for (std::size_t k = 1; k <= run_row.size(); ++k) vals += (k > 1 ? ", $" : "$") + std::to_string(k);
      std::int64_t run_id = db_i64(db, "INSERT INTO runs (" + cols + ") VALUES (" + vals + ") RETURNING id", run_row, 0);

      std::vector<ResultRow> rows;
      std::vector<std::vector<DbValue>> result_rows, measure_rows;
      std::vector<std::pair<std::int64_t, const CaseRow*>> present;
      for (auto& c : f.cases)
        if (c.by_run[i]) present.emplace_back(cases.id(c.name, {{"rule", c.rule}, {"area", c.area}, {"kind", c.kind}}), &c);
      std::sort(present.begin(), present.end(), [](auto& a, auto& b) { return a.first < b.first; });
      for (auto& [case_id, c] : present) {
        const Outcome& o = *c->by_run[i];
        ResultRow row{case_id, verdict_code(o.verdict), 0};
        if (o.verdict == Verdict::recorded) row.outcome = texts.id(cut_utf8(o.fact("outcome").empty() ? o.observed : o.fact("outcome")));
        std::int64_t reason = o.verdict != Verdict::pass && !o.reason.empty() ? texts.id(cut_utf8(o.reason)) : 0;
        rows.push_back(row);
        result_rows.push_back({run_id, case_id, std::int64_t{row.verdict}, id_or_null(row.outcome), id_or_null(reason)});
        std::map<std::int64_t, double> ms;  // a name twice: the last value, as a JSON object reads
        for (auto& [m, v] : o.measurements) ms[names.id(m)] = v;
        for (auto& [m, v] : ms) measure_rows.push_back({run_id, case_id, m, v});
      }
      db.insert_rows("results", {"run_id", "case_id", "verdict", "outcome_id", "reason_id"}, result_rows);
      db.insert_rows("measurements", {"run_id", "case_id", "name_id", "value"}, measure_rows);
      if (append) append_change_points(db, series, run_id, rows);
      else rebuild.insert(series);
      ++file_sum.added;
      file_lines.push_back("added run #" + std::to_string(run_id) + " (" + id.config_label() + ", " + started + "): " + what);
      maybe_die(sum.added + file_sum.added);
    }
  }
  for (auto s : rebuild) rebuild_change_points(db, s);
  tx.commit();
  sum.added += file_sum.added, sum.already += file_sum.already, sum.skipped += file_sum.skipped;
  for (auto& l : file_lines) note(l);
}

}  // namespace

AddSummary history_add(Db& db, const std::vector<std::string>& files) {
  AddSummary sum;
  // The files are read side by side ahead of the one being stored, as many as the machine has
  // cores (at most 16, so at most that many whole files in memory), and stored one at a time in
  // their order: reading is most of a file's time, and a night of thousands is one command.
  const std::size_t ahead = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  std::deque<std::future<Fleet>> reading;
  std::size_t next = 0;
  for (const std::string& file : files) {
    for (; next < files.size() && reading.size() < ahead; ++next)
      reading.push_back(std::async(std::launch::async, [f = files[next]] { return load_results(f); }));
    std::future<Fleet> read = std::move(reading.front());
    reading.pop_front();
    try {
      add_file(db, file, read, sum);
    } catch (const ResultsError& e) {
      // Named, and the night goes on: one truncated file (a full disk, an NFS hiccup) never
      // blanks the others.
      sum.unreadable.push_back(e.what());
    }
  }
  return sum;
}

std::int64_t config_of(Db& db, const RunIdentity& id) {
  const std::vector<DbValue> key = {id.gpu, id.uuid, id.code_path, id.selection};
  db_each(db, "INSERT INTO series (gpu, gpu_uuid, code_path, selection) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", key,
          [](const DbQuery&) {});
  std::int64_t series =
      db_i64(db, "SELECT id FROM series WHERE gpu = $1 AND gpu_uuid = $2 AND code_path = $3 AND selection = $4", key, 0);
  db_each(db, "INSERT INTO configs (series_id, driver) VALUES ($1, $2) ON CONFLICT DO NOTHING", {series, id.driver}, [](const DbQuery&) {});
  return db_i64(db, "SELECT id FROM configs WHERE series_id = $1 AND driver = $2", {series, id.driver}, 0);
}

}  // namespace cuconform
