// cuconform-synth-nightly: synthetic nightly runs made from a real results file (a baseline),
// for the history tests and benchmark (ci/bench-history.sh). Night i of N:
//   - started 2026-12-01T02:00:00Z plus i-1 days; the commit changes every 5 nights;
//   - the driver is 580.159.04 before --change-run (default 17) and 590.44.01 from it on;
//   - one measurement (the first passing case's first *cycles* value of at least 100) drifts
//     3% a night;
//   - --flaky K cases (default 1) flip between pass and fail at random (seeded);
//   - one case passes before --change-run and fails from it on, with the driver change;
//   - every other latency, throughput and ratio measurement gets noise of at most ±1%.
// --manifest FILE says which cases and measurement were picked (JSON), for the tests.
//
// usage: cuconform-synth-nightly --baseline FILE[.gz] --out DIR [--runs N] [--from I] [--to J]
//        [--cases N] [--pad N] [--flaky K] [--change-run R] [--seed S] [--compact] [--manifest FILE]
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/util/input_file.hpp"

using Json = nlohmann::ordered_json;

namespace {

const char* kDriverBefore = "580.159.04";
const char* kDriverAfter = "590.44.01";

// The civil date `days` after 1970-01-01 (H. Hinnant's algorithm), as YYYY-MM-DD.
std::string date_of(long days) {
  days += 719468;
  long era = (days >= 0 ? days : days - 146096) / 146097;
  long doe = days - era * 146097;
  long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
  char b[32];
  std::snprintf(b, sizeof b, "%04ld-%02ld-%02ld", y + (m <= 2), m, d);
  return b;
}

bool noisy(const std::string& m) {
  for (const char* k : {"cycles", "latency", "gbps", "bandwidth", "ratio", "_over_", "speedup", "_ns", "_us"})
    if (m.find(k) != std::string::npos) return true;
  return false;
}

int usage(const std::string& why) {
  std::cerr << "cuconform-synth-nightly: " << why
            << "\nusage: cuconform-synth-nightly --baseline FILE --out DIR [--runs N] [--from I] [--to J] [--cases N] [--pad N]"
               " [--flaky K] [--change-run R] [--seed S] [--compact] [--manifest FILE]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> opt = {{"--runs", "30"}, {"--from", "1"}, {"--to", "0"}, {"--cases", "0"}, {"--pad", "0"},
                                            {"--flaky", "1"}, {"--change-run", "17"}, {"--seed", "25"}};
  bool compact = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--compact") compact = true;
    else if (i + 1 < argc && a.rfind("--", 0) == 0) opt[a] = argv[++i];
    else return usage("bad argument '" + a + "'");
  }
  if (!opt.count("--baseline") || !opt.count("--out")) return usage("--baseline and --out are required");
  const int runs = std::stoi(opt["--runs"]), from = std::stoi(opt["--from"]), change_run = std::stoi(opt["--change-run"]);
  const int to = std::stoi(opt["--to"]) > 0 ? std::stoi(opt["--to"]) : runs, flaky_n = std::stoi(opt["--flaky"]);
  const std::size_t keep = std::stoul(opt["--cases"]), pad = std::stoul(opt["--pad"]);

  Json base;
  try {
    base = Json::parse(cuconform::read_input_file(opt["--baseline"]));  // .json or .json.gz
  } catch (const std::exception& e) {
    return usage(opt["--baseline"] + ": " + e.what());
  }
  Json& cases = base["cases"];

  // The picks: each from a rule of its own, all passing in the baseline.
  std::set<std::string> used_rules;
  std::string drift_case, drift_measure, changed_case;
  std::vector<std::string> flaky;
  double drift_base = 0;
  for (auto& c : cases) {
    if (c["verdict"] != "pass" || used_rules.count(c["rule"])) continue;
    std::string name = c["name"], rule = c["rule"];
    if (drift_case.empty()) {
      for (auto& [m, v] : c["measurements"].items())
        if (m.find("cycles") != std::string::npos && v.is_number() && v.get<double>() >= 100) {
          drift_case = name, drift_measure = m, drift_base = v.get<double>();
          break;
        }
      if (!drift_case.empty()) {
        used_rules.insert(rule);
        continue;
      }
    }
    if (static_cast<int>(flaky.size()) < flaky_n && c["area"] != "mbarrier") {
      flaky.push_back(name);
      used_rules.insert(rule);
    } else if (changed_case.empty() && c["area"] == "mbarrier") {
      changed_case = name;
      used_rules.insert(rule);
    }
  }
  if (drift_case.empty() || changed_case.empty() || static_cast<int>(flaky.size()) < flaky_n)
    return usage("the baseline lacks the passing cases the scenario needs");
  std::set<std::string> special(flaky.begin(), flaky.end());
  special.insert(drift_case);
  special.insert(changed_case);

  // --cases N keeps the picks and the first others; --pad N adds copies up to N cases.
  if (keep > 0 && keep < cases.size()) {
    Json kept = Json::array();
    for (auto& c : cases)
      if (special.count(c["name"])) kept.push_back(c);
    for (auto& c : cases)
      if (kept.size() < keep && !special.count(c["name"])) kept.push_back(c);
    cases = kept;
  }
  for (std::size_t k = 0, n = cases.size(); cases.size() < pad; ++k) {
    Json copy = cases[k % n];
    copy["name"] = copy["name"].get<std::string>() + ".copy" + std::to_string(k / n + 1);
    cases.push_back(copy);
  }

  std::filesystem::create_directories(opt["--out"]);
  const int width = std::max<int>(2, static_cast<int>(std::to_string(runs).size()));
  std::uniform_real_distribution<double> noise(-0.01, 0.01);
  std::bernoulli_distribution coin(0.5);
  for (int night = from; night <= to; ++night) {
    // Each night has random numbers of its own: a range (--from, --to) reproduces that slice.
    std::mt19937_64 rng(std::stoull(opt["--seed"]) * 1000003 + static_cast<unsigned>(night));
    Json run = base;
    std::string day = date_of(20788 + night - 1);  // 2026-12-01 is day 20788 of 1970-01-01
    run["run"]["host"] = "gpu-node-1";
    run["run"]["started"] = day + "T02:00:00Z";
    run["run"]["finished"] = day + "T02:02:18Z";
    char commit[16];
    std::snprintf(commit, sizeof commit, "%07x", 0x5e3a231 + 7919 * ((night - 1) / 5));
    run["suite"]["commit"] = commit;
    run["device"]["driver_version"] = night < change_run ? kDriverBefore : kDriverAfter;
    std::map<std::string, int> counts;
    for (auto& c : run["cases"]) {
      std::string name = c["name"];
      for (auto& [m, v] : c["measurements"].items()) {
        if (!v.is_number()) continue;
        double x = v.get<double>(), e = noise(rng);
        if (name == drift_case && m == drift_measure) v = drift_base * std::pow(1.03, night - 1) * (1 + e / 4);
        else if (noisy(m) && x != 0) v = x * (1 + e);
      }
      bool flip = special.count(name) && name != drift_case && name != changed_case ? coin(rng) : false;
      if ((flip) || (name == changed_case && night >= change_run)) {
        c["verdict"] = "fail";
        c["reason"] = name == changed_case ? std::string("synthetic: fails from driver ") + kDriverAfter + " on"
                                           : std::string("synthetic flake: observed differs from expected");
      }
      ++counts[c["verdict"].get<std::string>()];
    }
    Json& summary = run["summary"];
    summary["total"] = run["cases"].size();
    for (auto& [k, v] : summary.items())
      if (k != "total") v = counts[k];
    char file[64];
    std::snprintf(file, sizeof file, "night-%0*d.json", width, night);
    std::ofstream out(std::filesystem::path{opt["--out"]} / file);
    out << (compact ? run.dump() : run.dump(2)) << "\n";
    if (!out) return usage(std::string("cannot write ") + file);
  }
  if (opt.count("--manifest")) {
    Json m = {{"runs", runs},
              {"change_run", change_run},
              {"driver_before", kDriverBefore},
              {"driver_after", kDriverAfter},
              {"drift", {{"case", drift_case}, {"measurement", drift_measure}, {"base_value", drift_base}, {"per_night", 0.03}}},
              {"flaky", flaky},
              {"changed", changed_case},
              {"cases", cases.size()}};
    std::ofstream(opt["--manifest"]) << m.dump(2) << "\n";
  }
  return 0;
}
