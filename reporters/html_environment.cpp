#include "reporters/html_environment.hpp"

#include <iterator>
#include <set>
#include <sstream>

#include "reporters/html_page.hpp"
#include "reporters/report_common.hpp"
#include "reporters/svg.hpp"  // short_number, svg_stacked, verdict_color

namespace cuconform::html {

namespace {

std::string mhz(const std::string& khz) {
  try {
    return short_number(std::stod(khz) / 1000) + " MHz";
  } catch (...) {
    return khz;
  }
}

std::string bytes(const std::string& b, double unit, const char* name) {
  try {
    return short_number(std::stod(b) / unit) + " " + name;
  } catch (...) {
    return b;
  }
}

struct Key {
  const char* key;
  const char* title;
  std::string (*fmt)(const std::string&);
};

std::string bits(const std::string& v) { return v + " bits"; }
std::string mib(const std::string& v) { return bytes(v, 1 << 20, "MiB"); }
std::string kib(const std::string& v) { return bytes(v, 1024, "KiB"); }
std::string gib(const std::string& v) { return bytes(v, 1 << 30, "GiB"); }

const Key kDevice[] = {
    {"name", "GPU", nullptr},
    {"uuid", "UUID", nullptr},
    {"cc", "compute capability", nullptr},
    {"sm_count", "SMs", nullptr},
    {"clock_khz", "SM clock", mhz},
    {"mem_clock_khz", "memory clock", mhz},
    {"mem_bus_bits", "memory bus", bits},
    {"l2_bytes", "L2 cache", mib},
    {"smem_per_block_optin", "smem per block (opt-in)", kib},
    {"total_mem_bytes", "device memory", gib},
    {"driver_version", "driver", nullptr},
    {"driver_cuda_version", "driver CUDA version", nullptr},
    {"code_path", "code path", nullptr},
    {"ordinal", "device ordinal", nullptr},
    {"error", "no GPU because", nullptr},
};

const Key kSuite[] = {
    {"version", "version", nullptr},
    {"commit", "commit", nullptr},
    {"built_with_cuda", "built with CUDA", nullptr},
    {"archs", "SASS archs", nullptr},
    {"specs_dir", "specs", nullptr},
};

const Key kRun[] = {
    {"host", "host", nullptr},
    {"started", "started", nullptr},
    {"finished", "finished", nullptr},
    {"wall_s", "wall time", [](const std::string& v) { return short_number(std::atof(v.c_str())) + " s"; }},
    {"workers_started", "worker processes", nullptr},
    {"selection", "selection", nullptr},
    {"toolchain.ptxas", "ptxas", nullptr},
    {"toolchain.max_ptx", "newest PTX it accepts", nullptr},
    {"toolchain.disassembler", "disassembler", nullptr},
};

// One table: the known keys in their order, then any other key as is, except those `skip`
// starts with (the run's timing: the results file has it).
void kv_table(std::ostringstream& o, const char* title, const std::vector<std::pair<std::string, std::string>>& kv,
              const Key* keys, std::size_t nkeys, const std::vector<std::string>& skip, const std::vector<std::pair<std::string, std::string>>& extra) {
  auto get = [&](const std::string& k) {
    for (auto& [key, v] : kv)
      if (key == k) return v;
    return std::string();
  };
  auto row = [&](const std::string& k, const std::string& v) {
    // Any absolute path (a tool, a folder) by its last component.
    if (!v.empty()) o << "<tr><th>" << esc(k) << "</th><td>" << esc(display_path(v)) << "</td></tr>";
  };
  o << "<div class=\"tw\"><table class=\"kv\"><tr><th colspan=\"2\">" << title << "</th></tr>";
  std::set<std::string> shown = {"available"};
  for (std::size_t i = 0; i < nkeys; ++i) {
    std::string v = get(keys[i].key);
    shown.insert(keys[i].key);
    if (!v.empty()) row(keys[i].title, keys[i].fmt ? keys[i].fmt(v) : v);
  }
  for (auto& [k, v] : extra) row(k, v);
  for (auto& [k, v] : kv) {
    bool skipped = shown.count(k) > 0;
    for (auto& s : skip) skipped = skipped || k.rfind(s, 0) == 0;
    if (!skipped) row(k, v);
  }
  o << "</table></div>";
}

}  // namespace

std::string environment_tables(const RunInfo& r) {
  std::ostringstream o;
  o << "<div class=\"env\">";
  kv_table(o, "device", r.device, kDevice, std::size(kDevice), {}, {});
  kv_table(o, "suite", r.suite, kSuite, std::size(kSuite), {}, {});
  kv_table(o, "run", r.run, kRun, std::size(kRun), {"timing.", "toolchain.codegen", "toolchain.compiler"},
           {{"code path", r.toolchain_line()}, {"results file", r.file}});
  o << "</div>";
  return o.str();
}

std::string devices_table(const Fleet& f) {
  // What the runs tell about their device and run, as columns; a column whose value every run
  // shares is said once above the table (a node's eight GPUs share their model, host and suite).
  struct Column {
    std::string title;
    std::vector<std::string> values;
  };
  std::vector<Column> columns;
  auto add = [&](const std::string& title, auto value) {
    Column c{title, {}};
    bool any = false;
    for (auto& r : f.runs) {
      c.values.push_back(display_path(value(r)));
      any = any || !c.values.back().empty();
    }
    if (any) columns.push_back(std::move(c));
  };
  add("device", [](const RunInfo& r) { return r.device_line(); });
  add("UUID", [](const RunInfo& r) { return r.dev("uuid"); });
  for (const char* k : {"pci_bus_id", "serial", "vbios", "ecc_mode", "mig_mode", "persistence_mode", "node"})
    add(k, [k](const RunInfo& r) { return r.dev(k); });
  add("host", [](const RunInfo& r) { return r.get(r.run, "host"); });
  add("started", [](const RunInfo& r) { return r.get(r.run, "started"); });
  add("code path", [](const RunInfo& r) { return r.toolchain_line(); });
  add("suite", [](const RunInfo& r) {
    return r.get(r.suite, "version") + " " + r.get(r.suite, "commit") + " · CUDA " + r.get(r.suite, "built_with_cuda");
  });
  std::ostringstream o, shared;
  std::vector<const Column*> differ;
  for (auto& c : columns) {
    bool same = f.runs.size() > 1;
    for (auto& v : c.values) same = same && v == c.values[0];
    if (same)
      shared << (shared.tellp() > 0 ? " · " : "") << "<b>" << esc(c.title) << "</b> " << esc(c.values[0]);
    else
      differ.push_back(&c);
  }
  if (shared.tellp() > 0) o << "<p>All " << f.runs.size() << " runs: " << shared.str() << "</p>";
  o << "<div class=\"tw\"><table><tr><th>#</th><th>run</th>";
  for (auto* c : differ) o << "<th>" << esc(c->title) << "</th>";
  o << "<th>verdicts</th></tr>";
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    const RunInfo& r = f.runs[i];
    auto counts = f.counts(i);
    o << "<tr><th>D" << i + 1 << "</th><td>" << esc(r.label) << "<div class=\"note\">" << esc(display_path(r.file)) << "</div></td>";
    for (auto* c : differ) o << "<td>" << esc(c->values[i]) << "</td>";
    o << "<td>" << svg_stacked(verdict_parts(counts), 160, false) << "<div class=\"note\">" << counts["pass"] << " pass · "
      << failures_in(f, i) << " fail · " << counts["not-supported"] + counts["planned"] << " not run</div></td></tr>";
  }
  o << "</table></div>";
  return o.str();
}

}  // namespace cuconform::html
