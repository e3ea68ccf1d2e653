#include "reporters/consumer_report.hpp"

#include <iomanip>
#include <sstream>

#include "harness/util/json_write.hpp"

namespace cuconform {
namespace {

// What stands behind a behaviour's status: the rules, or the reason it is not testable here.
std::string backing(const BehaviourCoverage& b) {
  std::string s;
  for (const Rule* r : b.rules) s += (s.empty() ? "" : ", ") + r->id;
  if (b.status == ConsumerStatus::not_testable)
    return b.behaviour->reason + (s.empty() ? "" : " (gated rule: " + s + ")");
  return s.empty() ? "-" : s;
}

std::string where(const Behaviour& b) {
  std::string s;
  for (auto& w : b.where) s += (s.empty() ? "" : ", ") + w;
  return s;
}

std::string cell(std::string s) {
  for (auto& ch : s)
    if (ch == '\n' || ch == '|') ch = ' ';
  return s;
}

}  // namespace

std::string consumers_text(const std::vector<ConsumerCoverage>& c, bool list) {
  std::ostringstream o;
  o << std::left << std::setw(24) << "consumer" << std::right << std::setw(8) << "total";
  for (ConsumerStatus s : all_consumer_statuses()) o << std::setw(14) << to_string(s);
  o << "\n";
  for (auto& x : c) {
    o << std::left << std::setw(24) << x.consumer->id << std::right << std::setw(8) << x.total();
    for (ConsumerStatus s : all_consumer_statuses()) o << std::setw(14) << x.count(s);
    o << "\n";
  }
  o << "\n" << consumer_summary(c) << "\n";
  if (!list) return o.str();
  for (auto& x : c) {
    o << "\n" << x.consumer->id << ": " << x.consumer->title << " (" << x.consumer->repository << " at " << x.consumer->commit << ")\n";
    for (auto& b : x.behaviours)
      o << "  " << std::left << std::setw(13) << to_string(b.status) << b.behaviour->id << "  " << backing(b) << "\n";
  }
  return o.str();
}

std::string consumers_markdown(const std::vector<ConsumerCoverage>& c, bool list) {
  std::ostringstream o;
  o << "## What the consumers rely on (consumers/)\n\n| consumer | behaviours |";
  for (ConsumerStatus s : all_consumer_statuses()) o << " " << to_string(s) << " |";
  o << "\n|---|---:|";
  for (std::size_t i = 0; i < kConsumerStatuses; ++i) o << "---:|";
  o << "\n";
  for (auto& x : c) {
    o << "| `" << x.consumer->id << "` | " << x.total() << " |";
    for (ConsumerStatus s : all_consumer_statuses()) o << " " << x.count(s) << " |";
    o << "\n";
  }
  o << "\n" << consumer_summary(c) << "\n";
  if (!list) return o.str();
  for (auto& x : c) {
    o << "\n### `" << x.consumer->id << "`: " << cell(x.consumer->title) << " (" << x.consumer->repository << " at `"
      << x.consumer->commit.substr(0, 12) << "`)\n\n| behaviour | status | rules / reason | where | documents |\n|---|---|---|---|---|\n";
    for (auto& b : x.behaviours)
      o << "| `" << b.behaviour->id << "` " << cell(b.behaviour->text) << " | " << to_string(b.status) << " | " << cell(backing(b))
        << " | " << cell(where(*b.behaviour)) << " | " << cell(b.behaviour->documents) << " |\n";
  }
  return o.str();
}

std::string consumers_json(const std::vector<ConsumerCoverage>& c) {
  Json j = {{"consumers", Json::array()}};
  for (auto& x : c) {
    Json cj = {{"consumer", x.consumer->id}, {"title", x.consumer->title}, {"repository", x.consumer->repository},
               {"commit", x.consumer->commit}, {"behaviours", x.total()}};
    for (ConsumerStatus s : all_consumer_statuses()) cj[to_string(s)] = x.count(s);
    Json& list = cj["behaviour_list"] = Json::array();
    for (auto& b : x.behaviours) {
      Json bj = {{"id", b.behaviour->id}, {"status", to_string(b.status)}, {"where", b.behaviour->where},
                 {"documents", b.behaviour->documents}};
      Json& rules = bj["rules"] = Json::array();
      for (const Rule* r : b.rules) rules.push_back(r->id);
      if (!b.behaviour->reason.empty()) bj["reason"] = b.behaviour->reason;
      list.push_back(bj);
    }
    j["consumers"].push_back(cj);
  }
  return json_text(j, true);
}

}  // namespace cuconform
