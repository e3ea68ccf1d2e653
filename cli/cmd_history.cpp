// cuconform history: every run in a database (SQLite by default, PostgreSQL for a shared one),
// and what the nights in between say (history/, reporters/README.md "The history database"):
//   history add RESULTS.json...             0 stored (or already there), 2 a file not stored (named; the others are)
//   history runs | changes | flaky | trend [CASE [MEASUREMENT]]   [--format text|md|json]
//   history candidates [--nights N] [--configs M]   rules in shadow ready for promotion (docs/contract.md)
//   history report --html FILE              timeline grid, trend plots, changes, flaky cases
//   history prune --keep-days N [--keep-runs K]   older runs keep their verdict changes and measurement summaries
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>

#include "cli/verbs.hpp"
#include "harness/spec/catalog.hpp"
#include "history/candidates.hpp"
#include "history/html.hpp"
#include "history/prune.hpp"
#include "history/render.hpp"
#include "history/schema.hpp"
#include "history/store.hpp"
#include "reporters/results_json.hpp"  // write_file_atomically

namespace cuconform {

bool history_query_options(const Options& o, QueryOptions* q, std::string* error) {
  q->config_glob = o.get("--config");
  auto number = [&](const char* flag, int lo, int* out) {
    if (!o.has(flag)) return true;
    long v = 0;
    if (whole_number(o.get(flag), lo, std::numeric_limits<int>::max(), &v)) {
      *out = static_cast<int>(v);
      return true;
    }
    *error = std::string(flag) + " '" + o.get(flag) + "' must be a whole number of at least " + std::to_string(lo);
    return false;
  };
  return number("--last", 1, &q->last) && number("--window", 2, &q->window) && number("--min-flips", 1, &q->min_flips);
}

namespace {

// --db, else $CUCONFORM_HISTORY_DB, else results/history.sqlite.
std::string history_db_url(const Options& o) {
  if (o.has("--db")) return o.get("--db");
  const char* env = std::getenv("CUCONFORM_HISTORY_DB");
  return env && *env ? env : "results/history.sqlite";
}

// Bytes as "12.3 MB".
std::string megabytes(std::int64_t b) {
  char t[32];
  std::snprintf(t, sizeof t, "%.1f MB", static_cast<double>(b) / 1e6);
  return t;
}

int prune(const Options& o, const std::string& url) {
  PruneOptions p;
  if (!o.has("--keep-days")) {
    std::cerr << "cuconform history prune: --keep-days N is required (the days before the newest run that are kept whole)\n";
    return kExitBadInput;
  }
  for (auto [flag, out] : {std::pair<const char*, int*>{"--keep-days", &p.keep_days}, {"--keep-runs", &p.keep_runs}}) {
    long v = 0;
    if (!o.has(flag)) continue;
    if (!whole_number(o.get(flag), 0, 100000, &v)) {
      std::cerr << "cuconform history prune: " << flag << " '" << o.get(flag) << "' must be a whole number from 0 to 100000\n";
      return kExitBadInput;
    }
    *out = static_cast<int>(v);
  }
  auto db = open_history(url, DbMode::write);
  PruneSummary s = history_prune(*db, p);
  std::cout << "history " << db->name() << ": ";
  if (s.newest.empty()) {
    std::cout << "no runs stored, nothing to prune\n";
    return kExitOk;
  }
  std::cout << s.runs << " run(s) pruned: started before " << s.cutoff << " (" << p.keep_days << " days before the newest run, "
            << s.newest << ") and not among the newest " << p.keep_runs << " of their configuration\n"
            << "  results: " << s.results_dropped << " of " << s.results_before
            << " dropped (repeats of the verdict before them; every verdict change and each case's latest result kept)\n"
            << "  measurements: " << s.measurements_dropped << " dropped, summarized in " << s.summaries
            << " (configuration, case, measurement) row(s) of measure_summary\n"
            << "  texts: " << s.texts_dropped << " message(s) no kept result names dropped\n"
            << "  size: " << megabytes(s.bytes_before) << " -> " << megabytes(s.bytes_after) << "\n";
  return kExitOk;
}

int history(const Options& o) {
  const std::string& sub = o.sub;
  const std::vector<std::string>& args = o.positional;
  const std::string url = history_db_url(o);

  if (sub == "add") {
    if (args.empty()) {
      std::cerr << "cuconform history add: name one or more results files\n";
      return kExitBadInput;
    }
    auto db = open_history(url, DbMode::create);
    AddSummary s = history_add(*db, args);  // committed: every line it returns is true
    for (auto& line : s.lines) std::cout << line << "\n";
    for (auto& why : s.unreadable) std::cerr << "cuconform history add: not stored: " << why << "\n";
    std::cout << "history " << db->name() << ": " << s.added << " run(s) added, " << s.already << " already stored, " << s.skipped << " skipped";
    if (!s.unreadable.empty()) std::cout << ", " << s.unreadable.size() << " file(s) not stored (named above)";
    std::cout << "\n";
    return s.unreadable.empty() ? kExitOk : kExitBadInput;
  }

  if (sub == "prune") return prune(o, url);

  QueryOptions q;
  std::string error;
  if (!history_query_options(o, &q, &error)) {
    std::cerr << "cuconform history " << sub << ": " << error << "\n";
    return kExitBadInput;
  }
  HistoryFormat format = HistoryFormat::text;
  if (!parse_history_format(o.get("--format", "text"), &format)) {
    std::cerr << "cuconform history " << sub << ": --format '" << o.get("--format") << "' must be text, md or json\n";
    return kExitBadInput;
  }
  if (sub == "report" && !o.has("--html")) {
    std::cerr << "cuconform history report: --html FILE is required\n";
    return kExitBadInput;
  }
  auto db = open_history(url, DbMode::read);  // queries write nothing: a read-only database answers
  if (sub == "report") {
    write_file_atomically(o.get("--html"), history_html_page(*db, q));
    std::cout << "html: " << o.get("--html") << "\n";
    return kExitOk;
  }
  DbTransaction tx(*db, false);  // one snapshot, whatever other runners add meanwhile
  HistoryIndex idx = load_index(*db);
  if (sub == "runs") {
    if (!o.has("--last")) q.last = 0;
    std::cout << render_runs(idx, q, format);
  } else if (sub == "changes") {
    std::cout << render_changes(idx, query_changes(*db, idx, q), q, format);
  } else if (sub == "flaky") {
    std::cout << render_flaky(idx, query_flaky(*db, idx, q), q, format);
  } else if (sub == "candidates") {  // the rules in shadow are the specs' (docs/contract.md)
    Catalog cat;
    if (!load_or_report(o, &cat)) return kExitBadInput;
    std::vector<ShadowRule> shadow;
    for (auto& r : cat.rules)
      if (r->shadow) shadow.push_back({r->id, to_string(r->tier)});
    long nights = 7, configs = 2;
    if ((o.has("--nights") && !whole_number(o.get("--nights"), 1, 10000, &nights)) ||
        (o.has("--configs") && !whole_number(o.get("--configs"), 1, 10000, &configs))) {
      std::cerr << "cuconform history candidates: --nights and --configs take a whole number of at least 1\n";
      return kExitBadInput;
    }
    std::cout << render_candidates(query_candidates(*db, idx, q, shadow, static_cast<int>(nights), static_cast<int>(configs)),
                                   static_cast<int>(nights), static_cast<int>(configs));
  } else {
    // No case: every series, the flagged ones listed; a case: its measurements; both: every value.
    std::string case_glob = args.size() > 0 ? args[0] : "", measurement = args.size() > 1 ? args[1] : "";
    std::vector<Trend> all = query_trends(*db, idx, q, case_glob, measurement, false), shown;
    for (auto& t : all)
      if (!case_glob.empty() || t.flagged()) shown.push_back(t);
    if (!case_glob.empty() && all.empty()) {
      std::cerr << "cuconform history trend: no measurement of '" << case_glob << "'" << (measurement.empty() ? "" : " named '" + measurement + "'")
                << " in " << db->name() << "\n";
      return kExitBadInput;
    }
    std::cout << render_trends(idx, shown, all.size(), !measurement.empty(), q, format);
  }
  tx.commit();
  return kExitOk;
}

int cmd_history(const Options& o) {
  try {
    return history(o);
  } catch (const std::exception& e) {
    std::cerr << "cuconform history " << o.sub << ": " << e.what() << (o.sub == "add" ? " (nothing was stored)" : "") << "\n";
    return kExitBadInput;
  }
}

}  // namespace

const VerbRegistration kHistoryVerb("history", "every run in one database, and what the nights in between say", cmd_history, [](Verb& v) {
  v.about("SQLite by default, PostgreSQL for a shared one (reporters/README.md, \"The history database\").")
      .value("--db", "PATH|URL",
             "the database: a SQLite file or postgresql://... (default: $CUCONFORM_HISTORY_DB, else results/history.sqlite)",
             ValueHint::file);
  auto format = [](Verb& s) -> Verb& { return s.choice("--format", {"text", "md", "json"}, "the output's format (default text)"); };
  auto config = [](Verb& s) -> Verb& {
    return s.value("--config", "GLOB", "only the configurations (GPU, driver, code path) whose label matches");
  };
  const char* last = "the last N runs of each configuration";
  const char* window = "runs before and after a change that must agree (at least 2)";
  const char* min_flips = "verdict flips that make a case flaky (at least 1)";
  v.sub("add", "store runs (results files); the same run twice is stored once").args(0, -1, "RESULTS.json...");
  config(format(v.sub("runs", "the stored runs per configuration (GPU, driver, code path)"))).value("--last", "N", last);
  config(format(v.sub("changes",
                      "each verdict or recorded-outcome change: the first run with it, the last run before it, and what "
                      "differed (driver, toolkit, commit, host)")))
      .value("--window", "N", window)
      .value("--min-flips", "K", min_flips);
  config(format(v.sub("flaky", "cases whose verdict flips within the last runs")))
      .value("--last", "N", last)
      .value("--min-flips", "K", min_flips);
  config(v.sub("candidates", "rules in shadow that passed N runs in a row on M configurations: ready for promotion"))
      .value("--nights", "N", "passing runs in a row a configuration needs (default 7)")
      .value("--configs", "M", "configurations that need them (default 2)");
  config(format(v.sub("trend", "measurements over runs; drift flagged (Mann-Kendall, Theil-Sen)")))
      .args(0, 2, "[CASE [MEASUREMENT]]", "case/measurement")
      .value("--last", "N", last);
  v.sub("prune", "retention: older runs keep every verdict change and their measurements' summaries, the rest is dropped")
      .about("A run that started more than --keep-days days before the newest stored run, and is not among the newest "
             "--keep-runs of its configuration, keeps: its run row (history runs lists it as before), every result a "
             "verdict change names (the first run with the change and the last run before it: history changes and "
             "compare --history answer as before), each case's latest result, and per configuration, case and "
             "measurement the count, mean, variance, min and max of the values of the runs where the case passed "
             "(table measure_summary). Dropped: its other results (they repeat the verdict before them), its "
             "measurements, and the messages nothing kept names. One transaction, then the space is given back "
             "(SQLite: VACUUM; PostgreSQL: VACUUM FULL of those tables; other runners wait meanwhile). docs/fleet.md, \"History growth\".")
      .value("--keep-days", "N", "runs that started N days before the newest stored run, or later, are kept whole (required)")
      .value("--keep-runs", "K", "so are the newest K runs of each configuration, what trend, report and compare --history read (default 30)");
  config(v.sub("report", "the history as one HTML page: timeline grid, trend plots, changes, flaky cases")
             .value("--html", "FILE", "the page to write (required)", ValueHint::file))
      .value("--last", "N", last)
      .value("--window", "N", window)
      .value("--min-flips", "K", min_flips);
});

}  // namespace cuconform
