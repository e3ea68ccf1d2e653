#pragma once
// JSON text into an nlohmann::ordered_json (members in file order) in time linear in the text.
// nlohmann's own parser inserts each member through ordered_map::operator[], a linear search of
// the members before it: an object of n members costs n^2/2 key comparisons (one case with
// 200,000 measurements took 23-32 s). Here each member is appended, and a hash of the object's
// keys finds a repeated one.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cuconform {

// As nlohmann::ordered_json::parse(text): throws nlohmann::json::parse_error on bad text; a key
// given twice in one object keeps its first place and its last value, as there. `repeated_keys`,
// when given, gets the path of each repeated key ("cases[3].verdict").
nlohmann::ordered_json parse_ordered_json(const std::string& text, std::vector<std::string>* repeated_keys = nullptr);

// An object of `members` in their order, made in linear time: ordered_json's operator[] searches
// the members before each one it adds (writing 200,000 measurements took minutes). A key given
// twice keeps its first place and its last value, as operator[] does.
nlohmann::ordered_json ordered_object(std::vector<std::pair<std::string, nlohmann::ordered_json>> members);

}  // namespace cuconform
