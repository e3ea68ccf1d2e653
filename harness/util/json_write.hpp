#pragma once
// Writing JSON: an ordered_json keeps keys in the order they are set, so the files read
// top-down in the order their schemas document.
#include <nlohmann/json.hpp>

#include <string>

namespace cuconform {

using Json = nlohmann::ordered_json;

// A measured value: whole numbers as integers ("57", as written since the first results files,
// not "57.0"), other finite numbers exactly (they read back equal), NaN and infinities as null.
Json json_number(double v);

// The text of a document: pretty (two-space indent, final newline) for files, one line for the
// worker's protocol. Bytes that are not UTF-8 (a tool's output) become U+FFFD, never an error.
std::string json_text(const Json& j, bool pretty);

}  // namespace cuconform
