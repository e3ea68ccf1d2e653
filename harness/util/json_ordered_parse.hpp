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
// `prune`, when given, says which members a reader never looks at: called with the path of the
// object that holds the member, indices as "[]" ("cases[]", "cases[].facts"), and its key; true
// leaves the member's value out (it reads as null; its key stays, so a repeated key is still
// found, though not one inside a value left out). The text is still read, and must parse, whole.
using JsonPrune = bool (*)(const std::string& object_path, const std::string& key);
nlohmann::ordered_json parse_ordered_json(const std::string& text, std::vector<std::string>* repeated_keys = nullptr,
                                          JsonPrune prune = nullptr);

// An object of `members` in their order, made in linear time: ordered_json's operator[] searches
// the members before each one it adds (writing 200,000 measurements took minutes). A key given
// twice keeps its first place and its last value, as operator[] does.
nlohmann::ordered_json ordered_object(std::vector<std::pair<std::string, nlohmann::ordered_json>> members);

}  // namespace cuconform
