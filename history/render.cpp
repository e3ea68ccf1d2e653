#include "history/render.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "harness/util/json_write.hpp"
#include "harness/util/number_text.hpp"
#include "reporters/report_common.hpp"  // verdict_abbrev

namespace cuconform {

bool parse_history_format(const std::string& s, HistoryFormat* out) {
  if (s == "text") *out = HistoryFormat::text;
  else if (s == "md") *out = HistoryFormat::md;
  else if (s == "json") *out = HistoryFormat::json;
  else return false;
  return true;
}

namespace {

std::string cell(std::string s) {
  for (auto& c : s)
    if (c == '\n' || c == '|') c = ' ';
  return s.size() > 200 ? s.substr(0, 200) + "..." : s;
}

std::string header(const HistoryIndex& idx) {
  std::size_t configs = idx.by_config.size(), series = idx.by_series.size();
  return "history " + idx.db_name + " (" + idx.backend + ", schema " + std::to_string(idx.schema_version) + "): " +
         std::to_string(idx.runs.size()) + " run(s), " + std::to_string(configs) + " configuration(s), " + std::to_string(series) + " series";
}

Json run_json(const StoredRun& r) {
  Json j = {{"id", r.id}, {"seq", r.seq}, {"started", r.started}, {"finished", r.finished}, {"gpu", r.gpu}, {"driver", r.driver},
            {"code_path", r.code_path}, {"host", r.host}, {"gpu_uuid", r.uuid}, {"cc", r.cc}, {"commit", r.commit},
            {"toolkit", r.toolkit}, {"compiler", r.compiler}, {"suite_version", r.suite_version}, {"wall_s", json_number(r.wall_s)},
            {"source", r.source}, {"cases", r.n_cases}};
  if (!r.cut_off.empty()) j["cut_off"] = r.cut_off;
  Json& v = j["verdicts"] = Json::object();
  for (auto& [k, n] : r.counts) v[k] = n;
  return j;
}

// "#17 (2026-12-17T02:00:00Z, night-17.json)"
std::string run_ref(const StoredRun& r) { return r.tag() + " (" + r.started + ", " + r.file_name() + ")"; }

std::string differs_text(const ChangeEvent& e) {
  if (e.differs.empty()) return "nothing recorded (same driver, toolkit, commit and host)";
  std::string s;
  for (auto& [k, v] : e.differs) s += (s.empty() ? "" : "; ") + k + " " + v.first + " -> " + v.second;
  return s;
}

std::string state_text(const std::string& verdict, const std::string& outcome) {
  return outcome.empty() ? verdict : verdict + " (" + outcome + ")";
}

// A section's title, and for Markdown the header of its table when it has rows.
void section(std::ostringstream& s, HistoryFormat f, const std::string& title, const std::string& md_table, bool rows) {
  if (f == HistoryFormat::text) s << "\n" << title << "\n";
  if (f == HistoryFormat::md) s << "\n### " << cell(title) << "\n\n" << (rows ? md_table : "");
}

int failed(const StoredRun& r) { return r.counts.at("fail") + r.counts.at("timeout") + r.counts.at("crash"); }

}  // namespace

std::string render_runs(const HistoryIndex& idx, const QueryOptions& o, HistoryFormat f) {
  std::ostringstream s;
  Json j = {{"database", idx.db_name}, {"backend", idx.backend}, {"schema_version", idx.schema_version}};
  Json& cj = j["configurations"] = Json::array();
  if (f == HistoryFormat::text) s << header(idx) << "\n";
  if (f == HistoryFormat::md) s << "## cuconform history: runs\n\n" << header(idx) << "\n";
  for (auto config : idx.configs_in_order()) {
    const auto& all = idx.by_config.at(config);
    const StoredRun& first = *all.front();
    if (!glob_match(o.config_glob, first.config_label())) continue;
    std::vector<const StoredRun*> runs = last_runs(all, o.last);
    Json c = {{"label", first.config_label()}, {"series", first.series_label()}, {"gpu", first.gpu}, {"gpu_uuid", first.series_uuid},
              {"node", all.back()->host}, {"driver", first.driver}, {"code_path", first.code_path}, {"selection", first.selection},
              {"runs_stored", all.size()}};
    Json& rj = c["runs"] = Json::array();
    std::string title = first.config_label() + ": " + std::to_string(all.size()) + " run(s)" +
                        (runs.size() < all.size() ? ", the last " + std::to_string(runs.size()) + " shown" : "");
    if (f == HistoryFormat::text) {
      s << "\n" << title << "\n";
      char line[400];
      std::snprintf(line, sizeof line, "  %-6s %-4s %-21s %-14s %-9s %-7s %6s %6s %5s %5s %6s %5s  %s\n", "run", "seq", "started", "host", "commit",
                    "toolkit", "cases", "pass", "fail", "flake", "notrun", "rec", "file");
      s << line;
      for (auto* r : runs) {
        std::snprintf(line, sizeof line, "  %-6s %-4lld %-21s %-14s %-9s %-7s %6d %6d %5d %5d %6d %5d  %s\n", r->tag().c_str(),
                      static_cast<long long>(r->seq), r->started.c_str(), r->host.c_str(), r->commit.c_str(), r->toolkit.c_str(), r->n_cases,
                      r->counts.at("pass"), failed(*r), r->counts.at("flake"), r->counts.at("not-supported") + r->counts.at("planned"),
                      r->counts.at("recorded"), r->file_name().c_str());
        s << line;
      }
    } else if (f == HistoryFormat::md) {
      s << "\n### " << cell(title) << "\n\n| run | seq | started | host | commit | toolkit | cases | pass | fail | flake | not run | recorded | file |\n"
        << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
      for (auto* r : runs)
        s << "| #" << r->id << " | " << r->seq << " | " << r->started << " | " << cell(r->host) << " | " << r->commit << " | " << r->toolkit
          << " | " << r->n_cases << " | " << r->counts.at("pass") << " | " << failed(*r) << " | " << r->counts.at("flake") << " | "
          << r->counts.at("not-supported") + r->counts.at("planned") << " | " << r->counts.at("recorded") << " | `" << cell(r->file_name()) << "` |\n";
    }
    for (auto* r : runs) rj.push_back(run_json(*r));
    cj.push_back(std::move(c));
  }
  if (f == HistoryFormat::json) return json_text(j, true);
  return s.str();
}

std::string render_changes(const HistoryIndex& idx, const std::vector<SeriesChanges>& changes, const QueryOptions& o, HistoryFormat f) {
  std::ostringstream s;
  Json j = {{"database", idx.db_name}, {"backend", idx.backend}, {"schema_version", idx.schema_version},
            {"flapping", {{"window", o.window}, {"min_returns", o.min_flips}}}};
  Json& sj = j["series"] = Json::array();
  const std::string flap_rule = std::to_string(o.min_flips) + "+ returns to an earlier state within " + std::to_string(o.window) + " runs";
  if (f == HistoryFormat::text) s << header(idx) << "\n";
  if (f == HistoryFormat::md)
    s << "## cuconform history: changes\n\n" << header(idx) << ". A change is a case's verdict (or recorded outcome) differing from "
      << "the last run of its series (GPU model and code path) that had the case.\n";
  for (auto& sc : changes) {
    std::size_t ncases = 0;
    for (auto& e : sc.events) ncases += e.cases.size();
    std::string title = sc.label + ": " + std::to_string(ncases) + " change(s) in " + std::to_string(sc.events.size()) + " run(s) of " +
                        std::to_string(sc.runs);
    Json js = {{"series", sc.label}, {"runs", sc.runs}};
    Json& ej = js["changes"] = Json::array();
    section(s, f, title, "| first run with it | last run before it | what differed | case | change | reason |\n|---|---|---|---|---|---|\n",
            !sc.events.empty());
    for (auto& e : sc.events) {
      Json ev = {{"run", run_json(*e.run)}, {"previous", run_json(*e.prev)}};
      Json& d = ev["differs"] = Json::object();
      for (auto& [k, v] : e.differs) d[k] = {v.first, v.second};
      Json& cs = ev["cases"] = Json::array();
      if (f == HistoryFormat::text) {
        s << "  run " << run_ref(*e.run) << ", driver " << e.run->driver << ": the first run with the change\n";
        s << "    last run before it: " << run_ref(*e.prev) << ", driver " << e.prev->driver << "\n";
        s << "    what differed: " << differs_text(e) << "\n";
      }
      for (auto& c : e.cases) {
        cs.push_back({{"name", c.name}, {"from", c.from}, {"to", c.to}, {"from_outcome", c.from_outcome}, {"to_outcome", c.to_outcome},
                      {"reason", c.reason}});
        std::string change = state_text(c.from, c.from_outcome) + " -> " + state_text(c.to, c.to_outcome);
        if (f == HistoryFormat::text) s << "    " << c.name << ": " << change << (c.reason.empty() ? "" : "  -- " + c.reason) << "\n";
        if (f == HistoryFormat::md)
          s << "| #" << e.run->id << " " << e.run->started << " `" << cell(e.run->file_name()) << "` | #" << e.prev->id << " " << e.prev->started
            << " | " << cell(differs_text(e)) << " | `" << c.name << "` | " << cell(change) << " | " << cell(c.reason) << " |\n";
      }
      ej.push_back(std::move(ev));
    }
    if (sc.flapping_transitions) {
      std::string left = std::to_string(sc.flapping_transitions) + " transition(s) of " + std::to_string(sc.flapping_cases.size()) +
                         " case(s) that flip back and forth (" + flap_rule + "): see `cuconform history flaky`";
      if (f == HistoryFormat::text) s << "  left out: " << left << "\n";
      if (f == HistoryFormat::md) s << "\nLeft out: " << cell(left) << "\n";
    }
    if (sc.events.empty() && f != HistoryFormat::json) s << (f == HistoryFormat::md ? "No change.\n" : "  no change\n");
    js["flapping"] = {{"transitions", sc.flapping_transitions}, {"cases", sc.flapping_cases}};
    sj.push_back(std::move(js));
  }
  if (f == HistoryFormat::json) return json_text(j, true);
  return s.str();
}

std::string render_flaky(const HistoryIndex& idx, const std::vector<ConfigFlaky>& flaky, const QueryOptions& o, HistoryFormat f) {
  std::ostringstream s;
  Json j = {{"database", idx.db_name}, {"backend", idx.backend}, {"last", o.last}, {"min_returns", o.min_flips}};
  Json& cj = j["configurations"] = Json::array();
  const std::string rule = "a verdict that returns to an earlier one " + std::to_string(o.min_flips) +
                           "+ times, or `flake` (passed only on a re-run), within the last " + std::to_string(o.last) + " runs";
  if (f == HistoryFormat::text) s << header(idx) << "\nflaky: " << rule << "\n";
  if (f == HistoryFormat::md) s << "## cuconform history: flaky cases\n\n" << header(idx) << ". Flaky: " << rule << ".\n";
  for (auto& c : flaky) {
    std::string title = c.label + ": " + std::to_string(c.cases.size()) + " flaky case(s) in the last " + std::to_string(c.window.size()) +
                        " run(s) (#" + std::to_string(c.window.front()->id) + " .. #" + std::to_string(c.window.back()->id) + ")";
    Json jc = {{"label", c.label}, {"window", Json::array()}};
    for (auto* r : c.window) jc["window"].push_back(r->id);
    Json& cases = jc["cases"] = Json::array();
    section(s, f, title, "| case | flips | returns | verdicts | oldest → newest |\n|---|---|---|---|---|\n", !c.cases.empty());
    for (auto& fc : c.cases) {
      std::string states, line;
      for (auto& [k, n] : fc.states) states += (states.empty() ? "" : ", ") + k + " " + std::to_string(n);
      for (auto& [run, v] : fc.timeline) {
        if (!line.empty()) line += ' ';
        line += v.empty() ? std::string("·") : verdict_abbrev(v);
      }
      Json jt = Json::array();
      for (auto& [run, v] : fc.timeline) jt.push_back({{"run", run}, {"verdict", v.empty() ? Json(nullptr) : Json(v)}});
      cases.push_back({{"name", fc.name}, {"transitions", fc.transitions}, {"returns", fc.returns}, {"flake_verdict", fc.flake_verdict},
                       {"states", fc.states}, {"timeline", jt}});
      if (f == HistoryFormat::text)
        s << "  " << fc.name << ": " << fc.transitions << " flip(s), " << fc.returns << " return(s)" << (fc.flake_verdict ? ", flake verdicts" : "")
          << "; " << states << "\n      " << line << "  (oldest first)\n";
      if (f == HistoryFormat::md)
        s << "| `" << fc.name << "` | " << fc.transitions << " | " << fc.returns << " | " << cell(states) << " | " << line << " |\n";
    }
    if (c.cases.empty() && f != HistoryFormat::json) s << (f == HistoryFormat::md ? "No flaky case.\n" : "  no flaky case\n");
    cj.push_back(std::move(jc));
  }
  if (f == HistoryFormat::json) return json_text(j, true);
  return s.str();
}

std::string render_trends(const HistoryIndex& idx, const std::vector<Trend>& trends, std::size_t scanned, bool points,
                          const QueryOptions& o, HistoryFormat f) {
  std::ostringstream s;
  const DriftPolicy& p = o.drift;
  const std::string rule = "drift: " + p.drift_rule() + "; off: the newest value beyond " + p.tolerance_rule() +
                           " of the ones before it; " + std::to_string(p.min_runs) + "+ passing runs needed";
  Json j = {{"database", idx.db_name}, {"backend", idx.backend}, {"last", o.last}, {"rule", rule}, {"judged", scanned}};
  Json& tj = j["trends"] = Json::array();
  std::size_t flagged = 0;
  for (auto& t : trends) flagged += t.flagged();
  if (f == HistoryFormat::text) s << header(idx) << "\n" << rule << "\n" << flagged << " flagged of " << scanned << " measurement series\n";
  if (f == HistoryFormat::md)
    s << "## cuconform history: trends\n\n" << header(idx) << ".\n\n" << rule << ".\n\n" << flagged << " flagged of " << scanned << " measurement series.\n";
  std::string last_config;
  if (!points && f == HistoryFormat::md && !trends.empty())
    s << "\n| configuration | case | measurement | first → last | median (MAD) | trend | flag |\n|---|---|---|---|---|---|---|\n";
  for (auto& t : trends) {
    std::string flag = t.stats.drift ? "DRIFT " + percent(t.stats.drift_rel) : "";
    if (t.last_off) flag += (flag.empty() ? "" : "; ") + std::string("newest off (z=") + sig(t.last_z, 2) + ")";
    Json jp = Json::array();
    for (auto& pt : t.points)
      jp.push_back({{"run", pt.run->id}, {"seq", pt.run->seq}, {"started", pt.run->started}, {"driver", pt.run->driver}, {"value", json_number(pt.value)},
                    {"verdict", pt.verdict}});
    tj.push_back({{"configuration", t.config}, {"case", t.case_name}, {"measurement", t.measurement}, {"n", t.stats.n},
                  {"median", json_number(t.stats.median)}, {"mad", json_number(t.stats.mad)}, {"slope_per_run", json_number(t.stats.slope)},
                  {"slope_rel_per_run", json_number(t.stats.slope_rel)}, {"drift_rel", json_number(t.stats.drift_rel)},
                  {"mann_kendall", {{"s", t.stats.mk.s}, {"z", json_number(t.stats.mk.z)}, {"p", json_number(t.stats.mk.p)}}},
                  {"drift", t.stats.drift}, {"newest_off", t.last_off}, {"points", jp}});
    if (f == HistoryFormat::json) continue;
    std::string first = t.points.empty() ? "" : number_text(t.points.front().value), last = t.points.empty() ? "" : number_text(t.points.back().value);
    if (!points) {
      if (f == HistoryFormat::text) {
        if (t.config != last_config) s << "\n" << t.config << "\n";
        s << "  " << t.case_name << "  " << t.measurement << "  " << first << " -> " << last << "  " << t.stats.describe()
          << (t.last_off ? "; newest off (z=" + sig(t.last_z, 2) + ")" : "") << "\n";
      } else {
        s << "| " << cell(t.config) << " | `" << t.case_name << "` | `" << t.measurement << "` | " << first << " → " << last << " | "
          << sig(t.stats.median, 6) << " (" << sig(t.stats.mad, 3) << ") | " << percent(t.stats.slope_rel) << "/run, p=" << sig(t.stats.mk.p, 2)
          << " | " << flag << " |\n";
      }
      last_config = t.config;
      continue;
    }
    if (f == HistoryFormat::text) {
      s << "\n" << t.config << "\n  " << t.case_name << "  " << t.measurement << ": " << t.stats.describe()
        << (t.last_off ? "; newest off (z=" + sig(t.last_z, 2) + ")" : "") << "\n";
      char line[300];
      std::snprintf(line, sizeof line, "  %-6s %-4s %-21s %-12s %-10s %14s\n", "run", "seq", "started", "driver", "verdict", "value");
      s << line;
      for (auto& pt : t.points) {
        std::snprintf(line, sizeof line, "  %-6s %-4lld %-21s %-12s %-10s %14s\n", pt.run->tag().c_str(),
                      static_cast<long long>(pt.run->seq), pt.run->started.c_str(), pt.run->driver.c_str(), pt.verdict.c_str(), number_text(pt.value).c_str());
        s << line;
      }
    } else {
      s << "\n### " << cell(t.config) << ": `" << t.case_name << "` `" << t.measurement << "`\n\n" << cell(t.stats.describe()) << "\n\n"
        << "| run | seq | started | driver | verdict | value |\n|---|---|---|---|---|---|\n";
      for (auto& pt : t.points)
        s << "| #" << pt.run->id << " | " << pt.run->seq << " | " << pt.run->started << " | " << pt.run->driver << " | " << pt.verdict << " | "
          << number_text(pt.value) << " |\n";
    }
  }
  if (f == HistoryFormat::json) return json_text(j, true);
  return s.str();
}

}  // namespace cuconform
