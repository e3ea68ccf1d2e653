#include "reporters/odd_one_out.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "harness/util/number_text.hpp"
#include "harness/util/robust_stats.hpp"
#include "reporters/compare.hpp"  // outcome_category
#include "reporters/fleet_digest.hpp"
#include "reporters/report_common.hpp"

namespace cuconform {

namespace {

std::string percent_text(double rel) { return number_text(std::round(rel * 1000) / 10) + "%"; }

std::string group_key(const RunInfo& r) {
  return r.dev("name") + "\n" + r.dev("driver_version") + "\n" + r.toolchain_line() + " " + r.dev("code_path") + "\n" +
         r.get(r.run, "selection");
}

OddGpu& odd_for(std::map<std::size_t, OddGpu>& odd, std::size_t run, std::size_t group) {
  OddGpu& g = odd[run];
  g.run = run;
  g.group = group;
  return g;
}

// Every case: the peers' categories, a strict majority names the others.
void compare_verdicts(const FleetDigest& f, const PeerGroup& g, std::size_t gi, const OddPolicy& p, std::map<std::size_t, OddGpu>& odd,
                      std::vector<Split>& splits) {
  std::vector<std::pair<std::size_t, const std::string*>> have;
  std::map<const std::string*, int> count;
  for (std::size_t c = 0; c < f.cases.size(); ++c) {
    have.clear();
    count.clear();
    for (std::size_t r : g.runs)
      if (const std::string* cat = f.category(r, c)) {
        have.emplace_back(r, cat);
        ++count[cat];
      }
    if (count.size() < 2) continue;  // all agree (or one run has it)
    const int n = static_cast<int>(have.size());
    const std::string* majority = nullptr;
    int most = 0;
    for (auto& [cat, k] : count)
      if (k > most || (k == most && majority && *cat < *majority)) most = k, majority = cat;
    if (n < p.min_peers || 2 * most <= n) {
      Split s{gi, f.cases[c], "", {}};
      for (auto& [r, cat] : have) s.values.emplace_back(r, *cat);
      splits.push_back(std::move(s));
      continue;
    }
    const bool majority_fails = is_failure_name(majority->substr(0, majority->find(':')));
    for (auto& [r, cat] : have)
      if (cat != majority) {
        const bool fails = is_failure_name(cat->substr(0, cat->find(':')));
        odd_for(odd, r, gi).verdicts.push_back({f.cases[c], *cat, *majority, most, n, fails && !majority_fails});
      }
  }
}

// Each measure in turn over the group's runs, whose values are sorted by measure: one cursor a run,
// so only one measure's values are held at a time.
void compare_measurements(const FleetDigest& f, const PeerGroup& g, std::size_t gi, const OddPolicy& p, std::map<std::size_t, OddGpu>& odd,
                          std::vector<Split>& splits) {
  std::vector<std::size_t> cursor(g.runs.size(), 0);
  std::vector<std::pair<std::size_t, double>> list;
  std::vector<double> xs;
  for (std::uint32_t m = 0; m < f.measures.size(); ++m) {
    list.clear();
    for (std::size_t k = 0; k < g.runs.size(); ++k) {
      const auto& vals = f.values[g.runs[k]];
      std::size_t& at = cursor[k];
      while (at < vals.measure.size() && vals.measure[at] < m) ++at;
      if (at < vals.measure.size() && vals.measure[at] == m) list.emplace_back(g.runs[k], vals.value[at]);
    }
    if (list.size() < 2) continue;
    const std::string& case_name = f.cases[f.measures[m].first];
    const std::string& name = f.measures[m].second;
    xs.clear();
    for (auto& [r, v] : list) xs.push_back(v);
    const double med = median_of(xs), mad = mad_of(xs);
    const double floor = p.min_rel * std::fabs(med);
    if (static_cast<int>(list.size()) < p.min_peers) {  // two GPUs: which one is off is unknowable
      bool apart = false;
      for (double x : xs) apart = apart || std::fabs(x - med) > floor;
      if (apart) {
        Split s{gi, case_name, name, {}};
        for (auto& [r, v] : list) s.values.emplace_back(r, number_text(v));
        splits.push_back(std::move(s));
      }
      continue;
    }
    for (auto& [r, v] : list) {
      const double dev = std::fabs(v - med);
      if (dev <= floor) continue;
      const double z = mad > 0 ? 0.6745 * dev / mad : std::numeric_limits<double>::infinity();
      if (z <= p.z) continue;
      odd_for(odd, r, gi).measurements.push_back({case_name, name, v, med, mad, z, static_cast<int>(list.size())});
    }
  }
}

std::string z_text(double z) { return std::isinf(z) ? "inf (peers agree exactly)" : number_text(std::round(z * 10) / 10); }

std::string rel_text(double v, double med) { return med == 0 ? "" : " (" + percent_text((v - med) / std::fabs(med)) + ")"; }

std::string split_text(const std::vector<RunInfo>& runs, const Split& s) {
  std::string t;
  for (auto& [r, v] : s.values) t += (t.empty() ? "" : ", ") + runs[r].label + ": " + v;
  return t;
}

}  // namespace

std::string OddPolicy::rule() const {
  return "verdicts: a GPU is named where its verdict (for recorded cases, its outcome category) differs from a strict majority of at "
         "least " + std::to_string(min_peers) + " peers; measurements (latency, ratio, throughput): modified z-score 0.6745 |x - median| / "
         "MAD of the peers above " + number_text(z) + " and off the median by more than " + percent_text(min_rel) +
         " of it (peers that agree exactly, MAD 0: the second test alone); with fewer than " + std::to_string(min_peers) +
         " peers no majority exists: differences are listed as splits and no GPU is named";
}

std::string PeerGroup::label() const {
  std::string s = model + " · driver " + (driver.empty() ? "?" : driver) + " · " + code_path;
  return selection.empty() ? s : s + " · " + selection;
}

bool OddGpu::failing() const {
  for (auto& v : verdicts)
    if (v.failing) return true;
  return false;
}

const OddGpu* OddResult::find(std::size_t run) const {
  for (auto& o : odd)
    if (o.run == run) return &o;
  return nullptr;
}

std::string verdict_category(const Outcome& o) {
  std::string v = to_string(o.verdict);
  return o.verdict == Verdict::recorded ? v + ": " + outcome_category(o.fact("outcome")) : v;
}

OddResult find_odd_ones(const Fleet& f, const OddPolicy& p) { return find_odd_ones(digest_of(f), p); }

OddResult find_odd_ones(const FleetDigest& f, const OddPolicy& p) {
  OddResult out;
  out.policy = p;
  std::map<std::string, std::size_t> by_key;
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    const RunInfo& r = f.runs[i];
    if (!r.available()) {
      out.without_gpu.push_back(i);
      continue;
    }
    auto [it, fresh] = by_key.emplace(group_key(r), out.groups.size());
    if (fresh)
      out.groups.push_back({r.dev("name"), r.dev("driver_version"), r.toolchain_line() + " " + r.dev("code_path"), r.get(r.run, "selection"), {}});
    out.groups[it->second].runs.push_back(i);
  }
  std::map<std::size_t, OddGpu> odd;
  for (std::size_t gi = 0; gi < out.groups.size(); ++gi) {
    const PeerGroup& g = out.groups[gi];
    if (g.runs.size() < 2) continue;
    compare_verdicts(f, g, gi, p, odd, out.splits);
    compare_measurements(f, g, gi, p, odd, out.splits);
  }
  for (auto& [run, o] : odd) out.odd.push_back(std::move(o));
  return out;
}

std::string odd_text(const std::vector<RunInfo>& runs, const OddResult& r) {
  std::ostringstream o;
  o << "odd one out (" << r.policy.rule() << ")\n";
  for (std::size_t gi = 0; gi < r.groups.size(); ++gi) {
    const PeerGroup& g = r.groups[gi];
    int n = 0;
    for (auto& x : r.odd) n += x.group == gi;
    o << "  " << g.label() << ": " << g.runs.size() << " GPU(s), " << n << " odd\n";
  }
  for (auto& x : r.odd) {
    o << "  ODD " << runs[x.run].label << (x.failing() ? " (fails where its peers pass)" : "") << "\n";
    for (auto& v : x.verdicts)
      o << "    " << v.case_name << ": " << v.category << ", " << v.majority_count << " of " << v.peers << " peers: " << v.majority << "\n";
    for (auto& m : x.measurements)
      o << "    " << m.case_name << " " << m.measurement << " = " << number_text(m.value) << ", peers' median " << number_text(m.median)
        << rel_text(m.value, m.median) << ", MAD " << number_text(m.mad) << ", modified z " << z_text(m.z) << "\n";
  }
  for (auto& s : r.splits)
    o << "  split, no majority: " << s.case_name << (s.measurement.empty() ? "" : " " + s.measurement) << ": " << split_text(runs, s) << "\n";
  if (r.odd.empty() && r.splits.empty()) o << "  no GPU differs from its peers\n";
  if (!r.without_gpu.empty()) o << "  " << r.without_gpu.size() << " run(s) saw no GPU: not compared\n";
  return o.str();
}

std::string odd_markdown(const std::vector<RunInfo>& runs, const OddResult& r) {
  std::ostringstream o;
  o << "### The odd one out\n\n_" << r.policy.rule() << "_\n\n";
  if (r.odd.empty() && r.splits.empty()) o << "No GPU differs from its peers.\n\n";
  if (!r.odd.empty()) {
    o << "| GPU | peers | case | this GPU | peers |\n| --- | --- | --- | --- | --- |\n";
    for (auto& x : r.odd) {
      const std::string who = runs[x.run].label, grp = r.groups[x.group].label();
      for (auto& v : x.verdicts)
        o << "| " << who << " | " << grp << " | `" << v.case_name << "` | " << v.category << " | " << v.majority_count << " of "
          << v.peers << ": " << v.majority << " |\n";
      for (auto& m : x.measurements)
        o << "| " << who << " | " << grp << " | `" << m.case_name << "` " << m.measurement << " | " << number_text(m.value)
          << rel_text(m.value, m.median) << " | median " << number_text(m.median) << ", MAD " << number_text(m.mad) << ", z "
          << z_text(m.z) << " |\n";
    }
    o << "\n";
  }
  if (!r.splits.empty()) {
    o << "Splits without a majority (nobody named):\n\n";
    for (auto& s : r.splits)
      o << "- `" << s.case_name << "`" << (s.measurement.empty() ? "" : " " + s.measurement) << ": " << split_text(runs, s) << "\n";
    o << "\n";
  }
  return o.str();
}

Json odd_json(const std::vector<RunInfo>& runs, const OddResult& r) {
  Json j = {{"rule", r.policy.rule()}, {"z", r.policy.z}, {"min_rel", r.policy.min_rel}, {"min_peers", r.policy.min_peers}};
  Json& groups = j["groups"] = Json::array();
  for (auto& g : r.groups) {
    groups.push_back({{"label", g.label()}, {"model", g.model}, {"driver", g.driver}, {"code_path", g.code_path}, {"selection", g.selection},
                      {"gpus", g.runs.size()}});
  }
  Json& odd = j["odd"] = Json::array();
  for (auto& x : r.odd) {
    const RunInfo& run = runs[x.run];
    Json e = {{"gpu", run.label}, {"uuid", run.dev("uuid")}, {"file", run.file}, {"group", r.groups[x.group].label()}, {"failing", x.failing()}};
    Json& v = e["verdicts"] = Json::array();
    for (auto& d : x.verdicts)
      v.push_back({{"case", d.case_name}, {"category", d.category}, {"majority", d.majority}, {"majority_count", d.majority_count}, {"peers", d.peers}});
    Json& m = e["measurements"] = Json::array();
    for (auto& d : x.measurements)
      m.push_back({{"case", d.case_name}, {"measurement", d.measurement}, {"value", json_number(d.value)}, {"median", json_number(d.median)},
                   {"mad", json_number(d.mad)}, {"z", json_number(d.z)}, {"peers", d.peers}});
    odd.push_back(std::move(e));
  }
  Json& splits = j["splits"] = Json::array();
  for (auto& s : r.splits) {
    Json vals = Json::object();
    for (auto& [run, v] : s.values) vals[runs[run].label] = v;
    splits.push_back({{"group", r.groups[s.group].label()}, {"case", s.case_name}, {"measurement", s.measurement}, {"values", vals}});
  }
  return j;
}

}  // namespace cuconform
