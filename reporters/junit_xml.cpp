#include "reporters/junit_xml.hpp"

#include <map>
#include <sstream>

#include "harness/util/number_text.hpp"

namespace cuconform {

std::string xml_escape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t') o += ' ';
        else o += static_cast<char>(c);
    }
  }
  return o;
}

std::string junit_xml(const RunReport& run) {
  std::map<std::string, std::vector<const RunReport::Entry*>> by_area;
  for (auto& e : run.entries) by_area[e.c->rule->area].push_back(&e);
  std::ostringstream x;
  auto counts = run.counts();
  int skipped = counts["not-supported"] + counts["planned"] + counts["flake"] + counts["recorded"];
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"cuconform\" tests=\"" << run.entries.size() << "\" failures=\"" << counts["fail"]
    << "\" errors=\"" << counts["timeout"] + counts["crash"] << "\" skipped=\"" << skipped << "\" time=\""
    << number_text(run.wall_s) << "\">\n";
  for (auto& [area, entries] : by_area) {
    int f = 0, e = 0, s = 0;
    double t = 0;
    for (auto* en : entries) {
      Verdict v = en->r.obs.verdict;
      f += v == Verdict::fail;
      e += v == Verdict::timeout || v == Verdict::crash;
      s += v == Verdict::not_supported || v == Verdict::planned || v == Verdict::flake || v == Verdict::recorded;
      t += en->r.duration_s;
    }
    x << "  <testsuite name=\"" << xml_escape(area) << "\" tests=\"" << entries.size() << "\" failures=\"" << f
      << "\" errors=\"" << e << "\" skipped=\"" << s << "\" time=\"" << number_text(t) << "\" timestamp=\""
      << run.started_utc << "\" hostname=\"" << xml_escape(run.host) << "\">\n";
    x << "    <properties>\n";
    x << "      <property name=\"device\" value=\"" << xml_escape(run.device.available ? run.device.name + " cc " + run.device.cc : "none: " + run.device.error) << "\"/>\n";
    x << "      <property name=\"driver\" value=\"" << xml_escape(run.device.driver) << "\"/>\n";
    x << "      <property name=\"toolkit\" value=\"" << xml_escape(run.toolkit) << "\"/>\n";
    x << "    </properties>\n";
    for (auto* en : entries) {
      const Observation& o = en->r.obs;
      x << "    <testcase classname=\"" << xml_escape(area + "." + en->c->rule->id) << "\" name=\""
        << xml_escape(en->c->name) << "\" time=\"" << number_text(en->r.duration_s) << "\">\n";
      std::string detail = "expected: " + o.expected + "\nobserved: " + o.observed;
      switch (o.verdict) {
        case Verdict::pass: break;
        case Verdict::fail:
          x << "      <failure message=\"" << xml_escape(o.reason) << "\">" << xml_escape(detail) << "</failure>\n";
          break;
        case Verdict::timeout:
        case Verdict::crash:
        case Verdict::not_run:  // the GPU was stopped as unhealthy: an error of the node, not a pass
          x << "      <error type=\"" << to_string(o.verdict) << "\" message=\"" << xml_escape(o.reason) << "\">"
            << xml_escape(detail) << "</error>\n";
          break;
        case Verdict::not_supported:
        case Verdict::planned:
        case Verdict::flake:
        case Verdict::inconclusive:
        case Verdict::recorded:  // ran, but undefined behaviour is never a pass
          x << "      <skipped message=\"" << xml_escape(std::string(to_string(o.verdict)) + ": " + o.reason) << "\"/>\n";
          break;
      }
      if (!o.measurements.empty() || !o.facts.empty()) {
        x << "      <system-out>";
        for (auto& [k, v] : o.measurements) x << xml_escape(k) << "=" << number_text(v) << "\n";
        for (auto& [k, v] : o.facts) x << xml_escape(k) << "=" << xml_escape(v) << "\n";
        x << "</system-out>\n";
      }
      x << "    </testcase>\n";
    }
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace cuconform
