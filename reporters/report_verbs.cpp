#include "reporters/report_verbs.hpp"

namespace cuconform {

std::map<std::string, ReportVerb> report_verbs() { return {}; }

}  // namespace cuconform
