#pragma once
// What a rule checks, as a short hash: two suite versions judge a case alike only where its
// rule's hash is the same (the release manifest, `compare` across versions: docs/contract.md).
#include <string>

namespace YAML {
class Node;
}

namespace cuconform {

// The keys that do not change what a rule checks: where the documents say it, notes, statement,
// consumer (relies) and erratum references, tags (selection only), and the contract's own keys
// (tier, shadow).
// Every other key, a new one included, is part of the definition.
bool is_editorial_key(const std::string& key);

// The canonical JSON of the entry's defining keys (maps with sorted keys, every scalar as the
// text written, lists in order): `rule_definition_hash` hashes exactly this text.
std::string rule_definition_text(const YAML::Node& rule);

// FNV-1a (64 bits) of rule_definition_text, 16 hex digits. Not a cryptographic hash: it tells
// definitions apart; the bundle's SHA-256 sums and signature protect the manifest that lists it.
std::string rule_definition_hash(const YAML::Node& rule);

}  // namespace cuconform
