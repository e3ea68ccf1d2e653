// The report pages in headless Chromium ([.report-render]: run by CTest as host:report-render
// through suites/host/report-render-test.sh, SKIPPED without chromium). The pages of a whole H100
// run and of nodes of 2 and 8 GPUs made of it, at windows 1400 and 900 px wide: a screenshot of
// each (build/report-screenshots/*.png, with the pages, for a person to look at), the page's
// scroll width equal to its window's, and a link from the matrix landing on that area's failures
// (the list is there, scrolled to, and shows exactly them). What the page computes is read back
// by a script added to a copy of it (--dump-dom prints the document after its scripts ran).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "suites/host/test_report_pages.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

namespace {

constexpr unsigned kHeight = 1200;

// Added to a copy of the page: errors of the page's script are caught from the start; after the
// load, `actions` (JavaScript: what a person would do) run, and what the page shows is written
// into <pre id="probe"> as JSON.
std::string with_probe(const std::string& page, const std::string& actions) {
  const std::string catcher = "<script>window.probeErrors = []; addEventListener('error', function (e) { probeErrors.push(e.message); });</script>";
  std::string copy = page;
  auto head = copy.find("<head>");
  REQUIRE(head != std::string::npos);
  copy.insert(head + 6, catcher);
  return copy + R"(<script>addEventListener('load', function () {
  )" + actions + R"(
  var d = document.documentElement, out = {scroll_width: d.scrollWidth, client_width: d.clientWidth, errors: probeErrors};
  var t = document.getElementById('cases');
  out.cases = !!t;
  out.cases_top = t ? Math.round(t.getBoundingClientRect().top) : null;
  out.rows = [].map.call(document.querySelectorAll('#ct tbody tr[data-name]'), function (r) { return r.getAttribute('data-name'); });
  out.count = (document.getElementById('cn') || {}).textContent || '';
  out.area = (document.getElementById('ca') || {}).value || '';
  out.verdicts = [].filter.call(document.querySelectorAll('#cv input'), function (c) { return c.checked; }).map(function (c) { return c.value; });
  out.hash = location.hash;
  out.wide = [];
  [].forEach.call(document.querySelectorAll('body *'), function (e) {
    if (out.wide.length >= 8 || (e.parentElement && e.parentElement.closest('.tw'))) return;
    var r = e.getBoundingClientRect();
    if (r.right > d.clientWidth + 1) out.wide.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + (e.getAttribute('class') || '') + ' right ' + Math.round(r.right));
  });
  var p = document.createElement('pre');
  p.id = 'probe';
  p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
});</script>)";
}

std::string chromium(const std::string& browser, const std::string& args, const std::string& url, const std::string& out) {
  std::string cmd = "p=$(mktemp -d); timeout 120 " + chromium_command(browser, args, url) + " >'" + out + "' 2>'" + out +
                    ".log'; rc=$?; rm -rf \"$p\"; exit $rc";
  int status = std::system(cmd.c_str());
  INFO("chromium exit status " << status << ": " << cmd << "\n" << read_text(out + ".log"));
  REQUIRE(status == 0);
  fs::remove(out + ".log");
  return read_text(out);
}

// The page at `width` (and address fragment `hash`), as its probe saw it.
nlohmann::json probe(const std::string& browser, const std::string& html, unsigned width, const std::string& hash = "",
                     const std::string& actions = "") {
  std::string copy = html + ".probe.html";
  write_text(copy, with_probe(read_text(html), actions));
  std::string dom = chromium(browser, "--dump-dom --window-size=" + std::to_string(width) + "," + std::to_string(kHeight),
                             "file://" + copy + hash, copy + ".dom");
  fs::remove(copy);
  fs::remove(copy + ".dom");
  auto at = dom.find("<pre id=\"probe\">");
  INFO(dom.substr(0, 400));
  REQUIRE(at != std::string::npos);
  at += 16;
  std::string text = dom.substr(at, dom.find("</pre>", at) - at);
  for (auto [from, to] : {std::pair<const char*, const char*>{"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
    for (auto p = text.find(from); p != std::string::npos; p = text.find(from, p + 1)) text.replace(p, std::strlen(from), to);
  return nlohmann::json::parse(text);
}

void check_fits(const std::string& browser, const std::string& html, const std::string& name, unsigned width, const fs::path& shots) {
  INFO(name << " at " << width << " px");
  check_screenshot(browser, html, (shots / (name + "-" + std::to_string(width) + ".png")).string(), width, kHeight);
  nlohmann::json p = probe(browser, html, width);
  INFO("sticking out: " << p["wide"].dump());
  CHECK(p["scroll_width"].get<int>() == p["client_width"].get<int>());
  CHECK(p["wide"].empty());
  CHECK(p["errors"].empty());
}

// The page opened at a matrix link: the case list is there and in view, its filters show the
// link's, and its rows are exactly `expected`.
void check_landing(const std::string& browser, const std::string& html, const std::string& href, const std::set<std::string>& expected) {
  INFO(html << href);
  nlohmann::json p = probe(browser, html, 900, href);
  REQUIRE(p["cases"].get<bool>());
  CHECK(p["cases_top"].get<int>() >= 0);
  CHECK(p["cases_top"].get<int>() <= 150);  // just under the contents bar
  std::set<std::string> rows;
  for (auto& r : p["rows"]) rows.insert(r.get<std::string>());
  CHECK(rows == expected);
  CHECK(p["count"].get<std::string>().rfind(std::to_string(expected.size()) + " of ", 0) == 0);
  CHECK(p["errors"].empty());
  std::smatch m;
  REQUIRE(std::regex_search(href, m, std::regex("area=([^&]+)")));
  CHECK(p["area"] == m[1].str());
}

}  // namespace

TEST_CASE("report pages in headless Chromium: no wider than the window at 1400 and 900 px; the matrix lands on an area's failures",
          "[.report-render]") {
  std::string browser = chromium_browser();
  if (browser.empty()) {
    WARN("chromium is not installed: the report pages were not rendered (apt-get install chromium)");
    return;
  }
  std::string baseline = whole_run_baseline();
  REQUIRE_FALSE(baseline.empty());
  fs::path shots = fs::path(CUCONFORM_EXE).parent_path() / "report-screenshots";
  fs::create_directories(shots);
  std::string dir = temp_dir("report-render");
  std::string run = (shots / "run.html").string();
  std::string page = report_page(baseline, run);
  std::string node2 = (shots / "node2.html").string(), node8 = (shots / "node8.html").string();
  report_page(make_node(baseline, 2, dir), node2);
  std::string node8_file = make_node(baseline, 8, dir);
  std::string node8_page = report_page(node8_file, node8);

  for (unsigned width : {1400u, 900u}) {
    check_fits(browser, run, "run", width, shots);
    check_fits(browser, node2, "node2", width, shots);
    check_fits(browser, node8, "node8", width, shots);
  }

  // The matrix's link to the first area with failures lands on that area's failing cases.
  Fleet f = load_results(baseline);
  std::smatch m;
  const std::string matrix = section_of(page, "matrix");
  REQUIRE(std::regex_search(matrix, m, std::regex("<a href=\"(#cases\\?area=([a-z_0-9]+)&verdict=fail)\">(\\d+)</a>")));
  std::set<std::string> failing;
  for (auto& c : f.cases)
    if (c.area == m[2].str() && c.by_run[0] && c.by_run[0]->verdict == Verdict::fail) failing.insert(c.name);
  REQUIRE(failing.size() == std::stoul(m[3].str()));
  check_landing(browser, run, m[1].str(), failing);

  // A person's filters: "failures", then two words in the search box; the address keeps them.
  nlohmann::json typed = probe(browser, run, 900, "",
                               "document.querySelector('#cv button[data-set=\"fail,timeout,crash\"]').click();"
                               "var q = document.getElementById('cq'); q.value = 'cache_policy evict_last';"
                               "q.dispatchEvent(new Event('input'));");
  std::set<std::string> found, rows;
  for (auto& c : f.cases)
    if (c.by_run[0] && is_failure(c.by_run[0]->verdict) && c.name.find("cache_policy") != std::string::npos &&
        c.name.find("evict_last") != std::string::npos)
      found.insert(c.name);
  for (auto& r : typed["rows"]) rows.insert(r.get<std::string>());
  REQUIRE_FALSE(found.empty());
  CHECK(rows == found);
  CHECK(typed["hash"] == "#cases?verdict=fail,timeout,crash&q=cache_policy%20evict_last");
  CHECK(typed["errors"].empty());

  // A node's: that area's failures on the GPU that fails one case more (D3).
  Fleet n = load_results(node8_file);
  std::string href = "#cases?area=ldgsts&device=3&verdict=fail,timeout,crash";
  REQUIRE(node8_page.find("href=\"" + href + "\"") != std::string::npos);
  std::set<std::string> on_d3;
  for (auto& c : n.cases)
    if (c.area == "ldgsts" && c.by_run[2] && is_failure(c.by_run[2]->verdict)) on_d3.insert(c.name);
  REQUIRE_FALSE(on_d3.empty());
  check_landing(browser, node8, href, on_d3);
  fs::remove_all(dir);
  WARN("screenshots and pages: " << shots.string());
}
