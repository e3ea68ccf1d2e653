#include "harness/spec/citations.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace cuconform {

namespace fs = std::filesystem;

ReferenceIndex load_reference_index(const std::string& shared_dir) {
  ReferenceIndex idx;
  idx.dir = shared_dir;
  std::error_code ec;
  const fs::path ptx = fs::path(shared_dir) / "reference" / "ptx-isa", seeds = fs::path(shared_dir) / "seeds";
  if (!fs::is_directory(ptx, ec) || !fs::is_directory(seeds, ec)) return idx;
  static const std::regex heading(R"(^#+\s+([0-9]+(?:\.[0-9]+)+)\.?\s)");
  for (const auto& e : fs::directory_iterator(ptx, ec)) {
    if (e.path().extension() != ".md") continue;
    std::ifstream in(e.path());
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_search(line, m, heading)) idx.ptx_sections.insert(m[1]);
  }
  for (const auto& e : fs::directory_iterator(seeds, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 4 || name[3] != '_' || e.path().extension() != ".txt") continue;
    const int n = std::atoi(name.substr(0, 3).c_str());
    if (n < 0 || n > 999) continue;
    if (static_cast<int>(idx.seeds.size()) <= n) idx.seeds.resize(static_cast<std::size_t>(n) + 1);
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    idx.seeds[static_cast<std::size_t>(n)] = ss.str();
  }
  idx.available = !idx.ptx_sections.empty();
  return idx;
}

std::vector<std::string> missing_citations(const std::string& source, const ReferenceIndex& idx) {
  std::vector<std::string> out;
  if (!idx.available) return out;
  // Segments between ';': a PTX segment is one that says "PTX" or starts with a section number
  // (the "PTX ISA a.b.c x; d.e.f y" continuation).
  std::stringstream ss(source);
  std::string seg;
  static const std::regex number(R"((^|[^\w.§])([0-9]+\.[0-9]+\.[0-9]+(?:\.[0-9]+)*)(?![\w.]|\.[0-9]))");
  static const std::regex starts_with_number(R"(^\s*[0-9]+\.[0-9]+)");
  static const std::regex seed_cite(R"(seed ([0-9]{3}) §\s*([^;(),]+))");
  while (std::getline(ss, seg, ';')) {
    const bool ptx = seg.find("PTX") != std::string::npos || std::regex_search(seg, starts_with_number);
    if (ptx)
      for (std::sregex_iterator it(seg.begin(), seg.end(), number), end; it != end; ++it) {
        const std::string n = (*it)[2];
        if (!idx.ptx_sections.count(n)) out.push_back("PTX ISA section " + n);
      }
    for (std::sregex_iterator it(seg.begin(), seg.end(), seed_cite), end; it != end; ++it) {
      const int s = std::stoi((*it)[1]);
      std::string sec = (*it)[2];
      while (!sec.empty() && sec.back() == ' ') sec.pop_back();
      const std::string text = s < static_cast<int>(idx.seeds.size()) ? idx.seeds[static_cast<std::size_t>(s)] : "";
      if (text.empty()) {
        out.push_back("seed " + (*it)[1].str() + " (no such seed)");
        continue;
      }
      // A numbered section by its number, a named one by its first word.
      static const std::regex num(R"(^([0-9]+(?:\.[0-9]+)*))");
      std::smatch m;
      std::string key = std::regex_search(sec, m, num) ? m[1].str() : sec.substr(0, sec.find(' '));
      while (!key.empty() && (key.back() == ':' || key.back() == '.')) key.pop_back();  // "Advanced:" -> "Advanced"
      if (!key.empty() && text.find(key) == std::string::npos) out.push_back("seed " + (*it)[1].str() + " §" + key);
    }
  }
  return out;
}

std::vector<SpecError> check_citations(const Catalog& cat, const ReferenceIndex& idx) {
  std::vector<SpecError> out;
  for (const auto& r : cat.rules)
    for (const std::string& miss : missing_citations(r->source, idx))
      out.push_back({r->loc, "rule " + r->id + " cites " + miss + ", which " + idx.dir +
                                 " does not hold (reference/ptx-isa headings, seeds/)"});
  return out;
}

}  // namespace cuconform
