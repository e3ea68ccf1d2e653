#include <cstdio>
#include <sstream>

#include "harness/runner/plan.hpp"
#include "harness/util/number_text.hpp"

namespace cuconform {

const char* to_string(Phase p) {
  switch (p) {
    case Phase::host: return "host";
    case Phase::parallel: return "parallel";
    case Phase::alone: return "alone";
    case Phase::isolated: return "isolated";
    case Phase::pairs_shared: return "pairs-shared";
    case Phase::pairs: return "pairs";
    case Phase::rerun: return "rerun";
  }
  return "?";
}

std::string plan_text(const Plan& p, bool list_cases) {
  std::ostringstream os;
  os << "plan: " << p.gpus << " GPU(s), " << p.steps.size() << " steps, at least " << p.processes()
     << " worker processes\n";
  os << "options:\n";
  for (auto& [k, v] : p.options) os << "  " << k << ": " << v << "\n";
  os << "steps (host runs beside every phase; a node's GPUs run each phase at once, then wait for each other):\n";
  os << "  #  phase         gpu   peer  worker   lock       cases  workers lanes prestart   cost  why\n";
  int i = 0;
  for (const PlanStep& s : p.steps) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-2d %-13s %-5s %-5s %-8s %-10s %6zu %7zu %5d %8d %6s  ", ++i, to_string(s.phase),
                  s.gpu < 0 ? "-" : ("gpu" + std::to_string(s.gpu)).c_str(), s.peer < 0 ? "-" : ("gpu" + std::to_string(s.peer)).c_str(),
                  to_string(s.worker), s.lock, s.cases.size(), s.workers.size(), s.lanes, s.prestart,
                  number_text(s.cost).c_str());
    os << line << s.why << "\n";
    if (!s.lanes_why.empty() && s.lanes > 1) os << "       lanes: " << s.lanes_why << "\n";
    if (!s.env.empty()) {
      os << "       env:";
      for (auto& e : s.env) os << " " << e;
      os << "\n";
    }
    if (list_cases)
      for (std::size_t w = 0; w < s.workers.size(); ++w) {
        os << "       worker " << w + 1 << ":";
        for (const Case* c : s.workers[w]) os << " " << c->name;
        os << "\n";
      }
  }
  return os.str();
}

Json plan_json(const Plan& p) {
  Json j;
  j["gpus"] = p.gpus;
  j["processes"] = p.processes();
  Json opts = Json::object();
  for (auto& [k, v] : p.options) opts[k] = v;
  j["options"] = opts;
  Json steps = Json::array();
  for (const PlanStep& s : p.steps) {
    Json x;
    x["phase"] = to_string(s.phase);
    x["gpu"] = s.gpu;
    x["peer"] = s.peer;
    if (s.phase == Phase::pairs) x["round"] = s.round;
    x["worker"] = to_string(s.worker);
    x["lock"] = s.lock;
    x["lanes"] = s.lanes;
    if (s.lanes_late > 0) x["lanes_late"] = s.lanes_late;
    if (!s.lanes_why.empty()) x["lanes_why"] = s.lanes_why;
    x["prestart"] = s.prestart;
    x["cost"] = json_number(s.cost);
    x["env"] = s.env;
    x["why"] = s.why;
    Json workers = Json::array();
    for (auto& w : s.workers) {
      Json names = Json::array();
      for (const Case* c : w) names.push_back(c->name);
      workers.push_back(names);
    }
    x["workers"] = workers;
    steps.push_back(x);
  }
  j["steps"] = steps;
  return j;
}

}  // namespace cuconform
