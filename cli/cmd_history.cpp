// cuconform history: every run in a database (SQLite by default, PostgreSQL for a shared one),
// and what the nights in between say (history/, reporters/README.md "The history database"):
//   history add RESULTS.json...             0 stored (or already there), 2 bad input: nothing stored
//   history runs | changes | flaky | trend [CASE [MEASUREMENT]]   [--format text|md|json]
//   history report --html FILE              timeline grid, trend plots, changes, flaky cases
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <set>

#include "cli/verbs.hpp"
#include "history/html.hpp"
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

const char* kSubcommands = "add, runs, changes, flaky, trend or report";

// The flags each subcommand takes (--db: all of them).
const std::map<std::string, std::set<std::string>>& subcommand_flags() {
  static const std::map<std::string, std::set<std::string>> m = {
      {"add", {}},
      {"runs", {"--format", "--config", "--last"}},
      {"changes", {"--format", "--config", "--window", "--min-flips"}},
      {"flaky", {"--format", "--config", "--last", "--min-flips"}},
      {"trend", {"--format", "--config", "--last"}},
      {"report", {"--html", "--config", "--last", "--window", "--min-flips"}},
  };
  return m;
}

int history(const Options& o) {
  if (o.positional.empty()) {
    std::cerr << "cuconform history: name a subcommand: " << kSubcommands << " (see cuconform help)\n";
    return kExitBadInput;
  }
  const std::string sub = o.positional[0];
  auto flags = subcommand_flags().find(sub);
  if (flags == subcommand_flags().end()) {
    std::cerr << "cuconform history: unknown subcommand '" << sub << "' (" << kSubcommands << ")\n";
    return kExitBadInput;
  }
  for (auto& [k, v] : o.values)
    if (k != "--db" && !flags->second.count(k)) {
      std::cerr << "cuconform history " << sub << ": " << k << " does not apply (it takes --db";
      for (auto& f : flags->second) std::cerr << ", " << f;
      std::cerr << ")\n";
      return kExitBadInput;
    }
  std::vector<std::string> args(o.positional.begin() + 1, o.positional.end());
  const std::string url = history_db_url(o);

  if (sub == "add") {
    if (args.empty()) {
      std::cerr << "cuconform history add: name one or more results files\n";
      return kExitBadInput;
    }
    auto db = open_history(url, DbMode::create);
    AddSummary s = history_add(*db, args);  // committed: every line it returns is true
    for (auto& line : s.lines) std::cout << line << "\n";
    std::cout << "history " << db->name() << ": " << s.added << " run(s) added, " << s.already << " already stored, " << s.skipped << " skipped\n";
    return kExitOk;
  }

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
  if ((sub == "trend" && args.size() > 2) || (sub != "trend" && !args.empty())) {
    std::cerr << "cuconform history " << sub << ": unexpected argument '" << args.back() << "'\n";
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

}  // namespace

int cmd_history(const Options& o) {
  try {
    return history(o);
  } catch (const std::exception& e) {
    const std::string sub = o.positional.empty() ? "" : o.positional[0];
    std::cerr << "cuconform history " << sub << ": " << e.what() << (sub == "add" ? " (nothing was stored)" : "") << "\n";
    return kExitBadInput;
  }
}

}  // namespace cuconform
