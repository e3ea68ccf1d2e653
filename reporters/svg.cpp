#include "reporters/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "reporters/junit_xml.hpp"  // xml_escape

namespace cuconform {

namespace {

// Series colours: distinguishable, and none of them the verdict red/green.
const char* kPalette[] = {"#4e79a7", "#f28e2b", "#76b7b2", "#b07aa1", "#edc948", "#9c755f", "#bab0ac", "#59a14f"};

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

// Long case names keep their tail: the parameters that tell the bars apart.
std::string clip(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : "…" + s.substr(s.size() - (n - 1));
}

}  // namespace

const char* verdict_color(const std::string& v) {
  if (v == "pass") return "#2e7d32";
  if (v == "fail") return "#c62828";
  if (v == "timeout") return "#ef6c00";
  if (v == "crash") return "#6a1b9a";
  if (v == "not-supported") return "#9e9e9e";
  if (v == "planned") return "#90caf9";
  if (v == "recorded") return "#80cbc4";
  if (v == "flake") return "#c0a000";
  if (v == "not-run") return "#455a64";
  if (v == "inconclusive") return "#d4a373";
  return "#607d8b";
}

std::string short_number(double v) {
  if (std::isnan(v)) return "n/a";
  char b[32];
  double a = std::fabs(v);
  if (a >= 1e6) std::snprintf(b, sizeof b, "%.3gM", v / 1e6);
  else if (a >= 1e4) std::snprintf(b, sizeof b, "%.3gk", v / 1e3);
  else std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string svg_bar_chart(const ChartSpec& spec, const std::vector<BarGroup>& groups) {
  const std::size_t nser = std::max<std::size_t>(1, spec.series.size());
  const double bar_h = nser == 1 ? 16 : 11, gap = nser == 1 ? 4 : 8;
  std::size_t longest = 0;
  for (auto& g : groups) longest = std::max(longest, std::min<std::size_t>(g.label.size(), 44));
  const double label_w = std::clamp(6.3 * static_cast<double>(longest) + 10, 60.0, 290.0);
  const double value_w = 64, plot_x = label_w, plot_w = std::max(80.0, spec.width - label_w - value_w);
  // The legend wraps onto further lines when the series' names do not fit the width.
  std::ostringstream legend;
  double lx = plot_x, ly = 2;
  if (nser > 1)
    for (std::size_t i = 0; i < nser; ++i) {
      double item = 24 + 6.3 * static_cast<double>(spec.series[i].size());
      if (lx > plot_x && lx + item > spec.width) lx = plot_x, ly += 16;
      legend << "<rect x=\"" << fmt(lx) << "\" y=\"" << fmt(ly) << "\" width=\"10\" height=\"10\" fill=\"" << kPalette[i % 8] << "\"/>";
      legend << "<text x=\"" << fmt(lx + 14) << "\" y=\"" << fmt(ly + 9) << "\" class=\"cl\">" << xml_escape(spec.series[i]) << "</text>";
      lx += item;
    }
  const double legend_h = nser > 1 ? ly + 16 : 0, top = 4 + legend_h;
  const double group_h = bar_h * static_cast<double>(nser) + gap;
  const double height = top + group_h * static_cast<double>(groups.size()) + 18;

  double hi = 0, lo = 0;
  for (auto& g : groups)
    for (double v : g.values)
      if (std::isfinite(v)) hi = std::max(hi, v), lo = std::min(lo, v);
  if (std::isfinite(spec.reference)) hi = std::max(hi, spec.reference);
  if (hi - lo <= 0) hi = lo + 1;
  auto x_of = [&](double v) { return plot_x + (v - lo) / (hi - lo) * plot_w; };

  // The title is HTML above the picture, so a long one wraps instead of being cut; the picture
  // scales down with the page (the CSS gives it max-width: 100%).
  std::ostringstream s;
  s << "<figure class=\"chart\" style=\"width:" << spec.width << "px\"><figcaption>" << xml_escape(spec.title)
    << (spec.unit.empty() ? "" : " (" + xml_escape(spec.unit) + ")") << "</figcaption>";
  s << "<svg width=\"" << spec.width << "\" height=\"" << fmt(height) << "\" viewBox=\"0 0 " << spec.width << " " << fmt(height)
    << "\" role=\"img\" aria-label=\"" << xml_escape(spec.title) << "\">" << legend.str();
  s << "<line x1=\"" << fmt(x_of(0)) << "\" y1=\"" << fmt(top - 2) << "\" x2=\"" << fmt(x_of(0)) << "\" y2=\""
    << fmt(height - 16) << "\" stroke=\"#888\" stroke-width=\"1\"/>";
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const BarGroup& g = groups[gi];
    double y0 = top + group_h * static_cast<double>(gi);
    s << "<text x=\"" << fmt(label_w - 6) << "\" y=\"" << fmt(y0 + (group_h - gap) / 2 + 4) << "\" class=\"cl\" text-anchor=\"end\"><title>"
      << xml_escape(g.tooltip.empty() ? g.label : g.tooltip) << "</title>" << xml_escape(clip(g.label, 44)) << "</text>";
    for (std::size_t i = 0; i < g.values.size() && i < nser; ++i) {
      double v = g.values[i], y = y0 + bar_h * static_cast<double>(i);
      if (!std::isfinite(v)) continue;
      double x1 = x_of(std::min(0.0, v)), x2 = x_of(std::max(0.0, v));
      std::string color = nser == 1 && !g.color.empty() ? g.color : kPalette[i % 8];
      s << "<rect x=\"" << fmt(x1) << "\" y=\"" << fmt(y) << "\" width=\"" << fmt(std::max(1.0, x2 - x1)) << "\" height=\""
        << fmt(bar_h - 2) << "\" fill=\"" << color << "\">";
      // The value is written beside the bar; a tooltip names the series where there are several.
      if (nser > 1) s << "<title>" << xml_escape(spec.series[i]) << ": " << short_number(v) << "</title>";
      s << "</rect><text x=\"" << fmt(x2 + 4) << "\" y=\"" << fmt(y + bar_h - 4) << "\" class=\"cv\">" << short_number(v) << "</text>";
    }
  }
  if (std::isfinite(spec.reference)) {
    double x = x_of(spec.reference);
    s << "<line x1=\"" << fmt(x) << "\" y1=\"" << fmt(top - 2) << "\" x2=\"" << fmt(x) << "\" y2=\"" << fmt(height - 16)
      << "\" stroke=\"#333\" stroke-dasharray=\"4 3\"/><text x=\"" << fmt(x) << "\" y=\"" << fmt(height - 4)
      << "\" class=\"cv\" text-anchor=\"middle\">" << short_number(spec.reference) << "</text>";
  }
  s << "<text x=\"" << fmt(x_of(0)) << "\" y=\"" << fmt(height - 4) << "\" class=\"cv\" text-anchor=\"middle\">"
    << short_number(lo) << "</text>";
  s << "</svg></figure>";
  return s.str();
}

std::string svg_stacked(const std::vector<std::tuple<std::string, int, std::string>>& parts, int width, bool with_legend) {
  int total = 0;
  for (auto& p : parts) total += std::get<1>(p);
  // The legend wraps to further lines when it does not fit the width.
  std::ostringstream bars, legend;
  double x = 0;
  for (auto& [label, n, color] : parts) {
    if (n == 0 || total == 0) continue;
    double w = static_cast<double>(n) / total * width;
    bars << "<rect x=\"" << fmt(x) << "\" y=\"0\" width=\"" << fmt(w) << "\" height=\"18\" fill=\"" << color << "\"><title>"
         << xml_escape(label) << ": " << n << "</title></rect>";
    x += w;
  }
  double lx = 0, ly = 28;
  for (auto& [label, n, color] : parts) {
    if (n == 0 || !with_legend) continue;
    std::string t = label + " " + std::to_string(n);
    double item = 26 + 6.5 * static_cast<double>(t.size());
    if (lx > 0 && lx + item > width) lx = 0, ly += 15;
    legend << "<rect x=\"" << fmt(lx) << "\" y=\"" << fmt(ly) << "\" width=\"10\" height=\"10\" fill=\"" << color << "\"/><text x=\""
           << fmt(lx + 14) << "\" y=\"" << fmt(ly + 9) << "\" class=\"cl\">" << xml_escape(t) << "</text>";
    lx += item;
  }
  double height = with_legend ? ly + 16 : 18;
  std::ostringstream s;
  s << "<svg class=\"stack\" width=\"" << width << "\" height=\"" << fmt(height) << "\" viewBox=\"0 0 " << width << " "
    << fmt(height) << "\" role=\"img\" aria-label=\"verdicts\">" << bars.str() << legend.str() << "</svg>";
  return s.str();
}

}  // namespace cuconform
