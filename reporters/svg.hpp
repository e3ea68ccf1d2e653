#pragma once
// Inline SVG charts for the HTML report: no scripts, no fonts, no network; each chart is one
// <figure> (an HTML caption, which wraps, and one <svg> with <title> tooltips), so the page
// stays a single self-contained file.
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cuconform {

// A group of bars sharing one label: one bar per series (a case's cycles: reload, L1, L2),
// NaN where a series has no value.
struct BarGroup {
  std::string label, tooltip;
  std::vector<double> values;
  std::string color;  // used when there is one series only; empty: the series colour
};

struct ChartSpec {
  std::string title, unit;
  std::vector<std::string> series;  // legend; one entry for a plain bar chart
  double reference = std::numeric_limits<double>::quiet_NaN();  // a dashed line (1.0 for ratios)
  int width = 520;
};

std::string svg_bar_chart(const ChartSpec& spec, const std::vector<BarGroup>& groups);
// One 100%-wide bar split by (label, count, colour), with a legend below unless `legend` is false
// (each part still has its tooltip).
std::string svg_stacked(const std::vector<std::tuple<std::string, int, std::string>>& parts, int width, bool legend = true);
const char* verdict_color(const std::string& verdict);
std::string short_number(double v);  // 3 significant digits, k/M suffixes

}  // namespace cuconform
