#include "reporters/fleet_digest.hpp"

#include <algorithm>
#include <cmath>

#include "reporters/odd_one_out.hpp"  // verdict_category
#include "reporters/report_common.hpp"

namespace cuconform {

bool compared_measure(const std::string& name) {
  MeasureKind k = measure_kind(name);
  return k == MeasureKind::cycles || k == MeasureKind::ratio || k == MeasureKind::throughput;
}

void FleetDigest::add(const Fleet& f, const KnownList* known) {
  std::vector<std::uint32_t> local(f.cases.size());  // f's case -> ours
  for (std::size_t i = 0; i < f.cases.size(); ++i) {
    auto [it, fresh] = case_ix_.emplace(f.cases[i].name, static_cast<std::uint32_t>(cases.size()));
    if (fresh) cases.push_back(f.cases[i].name);
    local[i] = it->second;
  }
  for (std::size_t r = 0; r < f.runs.size(); ++r) {
    std::vector<std::uint16_t> row(cases.size(), 0);
    std::vector<std::pair<std::uint32_t, double>> vals;
    for (std::size_t i = 0; i < f.cases.size(); ++i) {
      const auto& o = f.cases[i].by_run[r];
      if (!o) continue;
      auto [cit, fresh] = category_ix_.emplace(verdict_category(*o), static_cast<std::uint32_t>(categories.size()));
      if (fresh) categories.push_back(cit->first);
      row[local[i]] = static_cast<std::uint16_t>(cit->second + 1);
      for (auto& [name, v] : o->measurements) {
        if (!std::isfinite(v)) continue;
        // measure_kind is three regex searches: once a name (a few hundred names, 5,000 cases a file).
        auto [kit, kfresh] = compared_.try_emplace(name, false);
        if (kfresh) kit->second = compared_measure(name);
        if (!kit->second) continue;
        auto [mit, mfresh] = measure_ix_.emplace(f.cases[i].name + "\t" + name, static_cast<std::uint32_t>(measures.size()));
        if (mfresh) measures.emplace_back(local[i], name);
        vals.emplace_back(mit->second, v);
      }
    }
    // A name twice in one case: the last value, as a JSON object reads.
    std::stable_sort(vals.begin(), vals.end(), [](auto& a, auto& b) { return a.first < b.first; });
    Values uniq;
    for (auto& [m, v] : vals) {
      if (!uniq.measure.empty() && uniq.measure.back() == m) uniq.value.back() = v;
      else uniq.measure.push_back(m), uniq.value.push_back(v);
    }
    uniq.measure.shrink_to_fit(), uniq.value.shrink_to_fit();
    runs.push_back(f.runs[r]);
    verdicts.push_back(std::move(row));
    values.push_back(std::move(uniq));
    facts.push_back({action_facts(f, r, known), f.counts(r), throughput_rows(f, r)});
  }
}

void FleetDigest::number_labels() {
  std::unordered_map<std::string, int> n, k;
  for (auto& r : runs) ++n[r.label];
  for (auto& r : runs)
    if (n[r.label] > 1) r.label += " (" + std::to_string(++k[r.label]) + ")";
}

const std::string* FleetDigest::category(std::size_t run, std::size_t c) const {
  const auto& row = verdicts[run];
  if (c >= row.size() || row[c] == 0) return nullptr;
  return &categories[row[c] - 1];
}

FleetDigest digest_of(const Fleet& f, const KnownList* known) {
  FleetDigest d;
  d.add(f, known);
  return d;
}

}  // namespace cuconform
