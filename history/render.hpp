#pragma once
// The history queries as text (a terminal), Markdown (a CI job page) and JSON (a program),
// as `--format text|md|json` picks, like `cuconform coverage`.
#include <string>
#include <vector>

#include "history/query.hpp"

namespace cuconform {

enum class HistoryFormat { text, md, json };
bool parse_history_format(const std::string& s, HistoryFormat* out);

std::string render_runs(const HistoryIndex& idx, const QueryOptions& o, HistoryFormat f);
std::string render_changes(const HistoryIndex& idx, const std::vector<SeriesChanges>& changes, const QueryOptions& o, HistoryFormat f);
std::string render_flaky(const HistoryIndex& idx, const std::vector<ConfigFlaky>& flaky, const QueryOptions& o, HistoryFormat f);
// `points`: every value of each trend (one case and measurement); else one line per trend.
// `scanned`: how many series were judged (for the "N flagged of M" line).
std::string render_trends(const HistoryIndex& idx, const std::vector<Trend>& trends, std::size_t scanned, bool points,
                          const QueryOptions& o, HistoryFormat f);

}  // namespace cuconform
