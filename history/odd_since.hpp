#pragma once
// Since which night a GPU has differed from its peers: over the stored runs of that GPU (by
// its uuid), newest first, how far back each differing case has had tonight's category
// (verdict, and for recorded cases the outcome).
#include <string>
#include <utility>
#include <vector>

#include "history/db.hpp"

namespace cuconform {

struct CaseStreak {
  std::string case_name, category;
  std::string since;  // `started` of the oldest stored run of the streak; empty: not stored
  int runs = 0;       // stored runs in the streak
};

// `cases`: (case name, tonight's category as verdict_category() writes it).
std::vector<CaseStreak> odd_since(Db& db, const std::string& gpu_uuid, const std::vector<std::pair<std::string, std::string>>& cases);

}  // namespace cuconform
