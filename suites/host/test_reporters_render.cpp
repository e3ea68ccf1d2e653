// Checks that need tools from outside the project: the HTML report renders in headless
// Chromium, and the CI workflows and manifests pass yamllint. When a tool is absent the test
// says so (WARN) and passes: ci/setup.sh installs both where apt-get can.
#include <catch2/catch.hpp>

#include "reporters/known_list.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

TEST_CASE("the HTML reports render in headless Chromium", "[host][reporters]") {
  std::string browser = chromium_browser();
  if (browser.empty()) {
    WARN("chromium is not installed: the HTML report was not rendered (apt-get install chromium)");
    return;
  }
  std::string dir = temp_dir("render");
  write_text(dir + "/a.json", results_json(synthetic_run("NVIDIA H200")->run));
  write_text(dir + "/b.json", with_verdict(results_json(synthetic_run("NVIDIA H100 80GB HBM3")->run),
                                           "ldgsts.l1.access_for_4_and_8.ptx_ca.size4", "pass", "fail"));
  REQUIRE(cuconform_cli("report '" + dir + "/a.json' --html '" + dir + "/report.html'").rc == 0);
  REQUIRE(cuconform_cli("merge '" + dir + "/a.json' '" + dir + "/b.json' -o '" + dir + "/fleet.json'").rc == 0);
  REQUIRE(cuconform_cli("report '" + dir + "/fleet.json' --html '" + dir + "/fleet.html'").rc == 0);
  check_screenshot(browser, dir + "/report.html", dir + "/report.png", 1200, 900);
  check_screenshot(browser, dir + "/fleet.html", dir + "/fleet.png", 1200, 900);
  // Kept for a person to look at when CUCONFORM_KEEP_SCREENSHOTS is set.
  if (std::getenv("CUCONFORM_KEEP_SCREENSHOTS")) {
    WARN("screenshots: " << dir << "/report.png, " << dir << "/fleet.png");
    return;
  }
  fs::remove_all(dir);
}

TEST_CASE("CI workflows and manifests pass yamllint -- the shipped known list loads", "[host][reporters]") {
  fs::path root = source_root();
  std::vector<fs::path> files;
  auto add_dir = [&](const fs::path& d) {
    if (!fs::is_directory(d)) return;
    for (auto& e : fs::directory_iterator(d))
      if (e.path().extension() == ".yml" || e.path().extension() == ".yaml") files.push_back(e.path());
  };
  add_dir(root / ".github/workflows");
  add_dir(root / "ci/k8s");
  add_dir(root / "ci/baselines");
  if (fs::exists(root / "ci/gitlab-ci.yml")) files.push_back(root / "ci/gitlab-ci.yml");
  REQUIRE(files.size() >= 4);  // two workflows, the GitLab pipeline, the Kubernetes job
  if (fs::exists(root / "ci/baselines/known.yaml")) CHECK_NOTHROW(load_known((root / "ci/baselines/known.yaml").string()));
  if (!have_tool("yamllint")) {
    WARN("yamllint is not installed: " << files.size() << " CI YAML file(s) not linted (apt-get install yamllint)");
    return;
  }
  for (auto& f : files) {
    std::string log = temp_dir("yamllint") + "/yamllint.log";
    int status = std::system(("yamllint -d relaxed -f parsable '" + f.string() + "' >'" + log + "' 2>&1").c_str());
    INFO(f.string() << ":\n" << read_text(log));
    CHECK(status == 0);
  }
}
