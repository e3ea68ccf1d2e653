#include "reporters/throughput_table.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "reporters/html_page.hpp"

namespace cuconform {

namespace {

std::optional<double> measured(const Outcome& o, const std::string& key) {
  for (const auto& [k, v] : o.measurements)
    if (k == key && !std::isnan(v)) return v;
  return std::nullopt;
}

std::string num(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

struct Cells {
  std::string rate, d2d, datasheet, clocks;
};

Cells cells(const ThroughputRow& r) {
  Cells c;
  c.rate = num(r.rate_gbps, "%.1f") + " GB/s";
  c.d2d = num(r.frac_d2d, "%.3f");
  c.datasheet = r.frac_datasheet ? num(*r.frac_datasheet, "%.3f") : "no figure";
  c.clocks = (r.sm_mhz ? num(*r.sm_mhz, "%.0f") : "?") + " / " + (r.mem_mhz ? num(*r.mem_mhz, "%.0f") : "?");
  return c;
}

constexpr const char* kNote =
    "Rates stated against a device-to-device copy measured in the same worker process (bytes read plus written) and the "
    "datasheet HBM figure of the model; clocks read (NVML) after the measurement.";

}  // namespace

std::vector<ThroughputRow> throughput_rows(const Fleet& f, std::size_t run) {
  std::vector<ThroughputRow> rows;
  for (const CaseRow& c : f.cases) {
    if (run >= c.by_run.size() || !c.by_run[run]) continue;
    const Outcome& o = *c.by_run[run];
    const auto frac = measured(o, "frac_d2d");
    const auto rate = measured(o, "rate_gbps");
    if (!frac || !rate) continue;
    ThroughputRow r;
    r.case_name = c.name;
    r.verdict = to_string(o.verdict);
    r.rate_gbps = *rate;
    r.frac_d2d = *frac;
    r.frac_datasheet = measured(o, "frac_datasheet");
    r.sm_mhz = measured(o, "sm_mhz_after");
    r.mem_mhz = measured(o, "mem_mhz_after");
    rows.push_back(r);
  }
  return rows;
}

std::string throughput_markdown(const std::vector<ThroughputRow>& rows) {
  if (rows.empty()) return "";
  std::ostringstream o;
  o << "\n### Throughput against the physical limit (" << rows.size() << ")\n\n" << kNote << "\n\n"
    << "| case | verdict | bytes/s | of d2d | of datasheet | SM / mem MHz |\n|---|---|---:|---:|---:|---:|\n";
  for (const auto& r : rows) {
    const Cells c = cells(r);
    o << "| `" << r.case_name << "` | " << r.verdict << " | " << c.rate << " | " << c.d2d << " | " << c.datasheet << " | " << c.clocks
      << " |\n";
  }
  return o.str();
}

std::string throughput_html(const std::vector<ThroughputRow>& rows) {
  if (rows.empty()) return "";
  std::ostringstream o;
  o << "<section id=\"throughput\"><h2>Throughput against the physical limit (" << rows.size() << ")</h2><p class=\"note\">"
    << html::esc(kNote) << "</p><div class=\"tw\"><table><tr><th>case</th><th>verdict</th><th>bytes/s</th><th>of d2d</th>"
    << "<th>of datasheet</th><th>SM / mem MHz</th></tr>";
  for (const auto& r : rows) {
    const Cells c = cells(r);
    o << "<tr><td><code>" << html::name_html(r.case_name) << "</code></td><td>" << html::badge(r.verdict) << "</td><td class=\"n\">"
      << html::esc(c.rate) << "</td><td class=\"n\">" << c.d2d << "</td><td class=\"n\">" << html::esc(c.datasheet)
      << "</td><td class=\"n\">" << html::esc(c.clocks) << "</td></tr>";
  }
  o << "</table></div></section>";
  return o.str();
}

}  // namespace cuconform
