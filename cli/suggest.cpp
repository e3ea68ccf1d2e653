#include "cli/suggest.hpp"

#include <algorithm>

namespace cuconform {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: Levenshtein plus adjacent transpositions.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

namespace {

std::string bare(const std::string& s) { return s.substr(std::min(s.find_first_not_of('-'), s.size())); }

}  // namespace

std::vector<std::string> nearest(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::string t = bare(typed);
  if (t.empty()) return {};
  const std::size_t limit = t.size() <= 4 ? 1 : 2;
  std::vector<std::pair<std::size_t, std::string>> hits;
  for (auto& c : candidates) {
    const std::string b = bare(c);
    std::size_t d = edit_distance(t, b);
    if (t.size() >= 3 && b.size() > t.size() && b.compare(0, t.size(), t) == 0) d = std::min<std::size_t>(d, 1);
    if (d <= limit && d > 0) hits.push_back({d, c});
  }
  std::stable_sort(hits.begin(), hits.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& [d, c] : hits)
    if (d == hits.front().first && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::vector<std::string> n = nearest(typed, candidates);
  if (n.empty()) return "";
  std::string s = "; did you mean ";
  for (std::size_t i = 0; i < n.size(); ++i) s += (i == 0 ? "" : i + 1 == n.size() ? " or " : ", ") + ("'" + n[i] + "'");
  return s + "?";
}

}  // namespace cuconform
