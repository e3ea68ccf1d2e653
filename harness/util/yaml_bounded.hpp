#pragma once
// Every YAML file the project reads (specs, statements, tables, the known list) is loaded through
// here: a file nesting deeper than kMaxYamlDepth, whose aliases expand to more than
// kMaxYamlAliasNodes nodes, or with a value longer than kMaxYamlValue characters, is refused
// before any walk of the tree. yaml-cpp shares an aliased
// node instead of copying it, so a 1 KB "billion laughs" costs nothing to load, but every walk
// that visits each value (the absolute-path check of a spec, a dump) meets it 10^9 times.
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

namespace cuconform {

// std::regex, which checks ids, tags and paths in the spec layer, recurses once per character
// of the text it matches: a 30,000-character rule id, source or parameter overflowed the stack
// (SIGSEGV in lint). The longest value in specs/, statements/ and tables/ has 2,112 characters.
constexpr std::size_t kMaxYamlValue = 8192;
// A spec nests about 8 levels; the JSON readers' limit (kMaxJsonDepth) is the same.
constexpr std::size_t kMaxYamlDepth = 64;
// Nodes reached through aliases, counted as if each alias were a copy (none of the project's
// files uses an alias today).
constexpr std::size_t kMaxYamlAliasNodes = 100000;

// YAML::LoadFile with the bounds above: throws what LoadFile throws (YAML::BadFile,
// YAML::ParserException), a bound crossed as a YAML::ParserException at the node that crossed
// it ("nesting deeper than 64 levels ...", "aliases expand to more than 100000 nodes ...",
// "a value of 30000 characters ...").
YAML::Node load_yaml_file(const std::string& path);
// The same file read again in a process its checked reader started (a worker reading the spec files
// its supervisor loaded with the bounds a moment before): the bounds pass is a second parse of the
// text, about 40% of a worker's spec reading, which is on the isolated lane's critical path.
YAML::Node load_yaml_file_checked_before(const std::string& path);
// The same for text.
YAML::Node load_yaml_text(const std::string& text);

}  // namespace cuconform
