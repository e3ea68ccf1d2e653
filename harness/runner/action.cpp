#include "harness/runner/action.hpp"

namespace cuconform {

const char* to_string(Action a) {
  switch (a) {
    case Action::none: return "none";
    case Action::watch: return "watch";
    case Action::rerun: return "rerun";
    case Action::drain: return "drain";
    case Action::reset: return "reset";
    case Action::replace: return "replace";
  }
  return "none";
}

bool parse_action(const std::string& s, Action* out) {
  for (Action a : {Action::none, Action::watch, Action::rerun, Action::drain, Action::reset, Action::replace})
    if (s == to_string(a)) {
      *out = a;
      return true;
    }
  return false;
}

int severity(Action a) { return static_cast<int>(a); }

Action worse(Action a, Action b) { return severity(b) > severity(a) ? b : a; }

bool takes_out_of_service(Action a) { return severity(a) >= severity(Action::drain); }

}  // namespace cuconform
