#pragma once
// Shared by the tests of the report pages (test_reporters_html_page.cpp, the sizes and the
// structure; test_reporters_html_render.cpp, the pages in headless Chromium): the committed
// results of a whole H100 run, and a node made of it (one run per GPU, as `run --devices` writes
// them: docs of issue 32), rendered by the built `cuconform report`.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "reporters/results_file.hpp"
#include "suites/host/test_reporters_support.hpp"

namespace cuconform::testing {

// The whole-run baseline, as committed (.json or, compressed, .json.gz); empty when absent.
inline std::string whole_run_baseline() {
  for (const char* ext : {".json", ".json.gz"}) {
    auto p = source_root() / (std::string("ci/baselines/NVIDIA-H100-80GB-HBM3_driver-580.159.04") + ext);
    if (std::filesystem::exists(p)) return p.string();
  }
  return "";
}

// The baseline's text, decompressed where it is .json.gz.
inline std::string baseline_text(const std::string& path) {
  if (path.size() < 3 || path.compare(path.size() - 3, 3, ".gz") != 0) return read_text(path);
  std::string out = temp_dir("baseline") + "/baseline.json";
  REQUIRE(std::system(("gzip -dc '" + path + "' >'" + out + "'").c_str()) == 0);
  std::string text = read_text(out);
  std::filesystem::remove_all(std::filesystem::path(out).parent_path());
  return text;
}

// A node file of `gpus` runs of the baseline in `dir`/node<gpus>.json: each GPU its ordinal, uuid
// and label ("NVIDIA H100 80GB HBM3 #1 5f0c3baf @ node7"), its latencies a little apart (GPU 3's
// L2 ones 30% slower), and on GPU 2 the first pass of `ldgsts.l1.` failing. Returns the file.
inline std::string make_node(const std::string& baseline, int gpus, const std::string& dir) {
  const nlohmann::json base = nlohmann::json::parse(baseline_text(baseline));
  std::string files;
  for (int k = 0; k < gpus; ++k) {
    nlohmann::json run = base;
    char uuid[64];
    std::snprintf(uuid, sizeof uuid, "GPU-%08x-1111-2222-3333-444444444444", 0x5f0c2a9eu + 0x1111u * static_cast<unsigned>(k));
    run["device"]["ordinal"] = k;
    run["device"]["uuid"] = uuid;
    run["device"]["node"] = "node7";
    run["run"]["host"] = "node7";
    run["label"] = "NVIDIA H100 80GB HBM3 #" + std::to_string(k) + " " + std::string(uuid).substr(4, 8) + " @ node7";
    int i = 0;
    bool flipped = false;
    for (auto& c : run["cases"]) {
      for (auto it = c["measurements"].begin(); it != c["measurements"].end(); ++it)
        if (it.value().is_number() && it.key().find("cycles") != std::string::npos)
          it.value() = it.value().get<double>() * (1 + 0.004 * ((k * 7 + i++) % 5) + (k == 3 && it.key().find("l2") != std::string::npos ? 0.3 : 0));
      if (k == 2 && !flipped && c["verdict"] == "pass" && c["name"].get<std::string>().rfind("ldgsts.l1.", 0) == 0) {
        c["verdict"] = "fail";
        c["reason"] = "observed differs from expected";
        flipped = true;
      }
    }
    std::string file = dir + "/gpu" + std::to_string(k) + ".json";
    write_text(file, run.dump());
    files += " '" + file + "'";
  }
  std::string node = dir + "/node" + std::to_string(gpus) + ".json";
  Exe m = cuconform_cli("merge" + files + " -o '" + node + "'");
  INFO(m.out);
  REQUIRE(m.rc == 0);
  for (int k = 0; k < gpus; ++k) std::filesystem::remove(dir + "/gpu" + std::to_string(k) + ".json");
  return node;
}

// `cuconform report FILE --html OUT --known <the project's known list>`; returns OUT's text.
inline std::string report_page(const std::string& file, const std::string& out) {
  Exe e = cuconform_cli("report '" + file + "' --html '" + out + "' --known '" + CUCONFORM_KNOWN_FILE + "'");
  INFO(e.out);
  REQUIRE(e.rc == 0);
  return read_text(out);
}

// The text between `<section id="ID"` and its end (sections do not nest).
inline std::string section_of(const std::string& html, const std::string& id) {
  auto at = html.find("<section id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</section>", at) - at);
}

}  // namespace cuconform::testing
