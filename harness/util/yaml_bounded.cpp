#include "harness/util/yaml_bounded.hpp"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace cuconform {
namespace {

// Walks the parser's events once (linear in the text) and keeps, per anchor, the size and
// height of the subtree it names, so an alias is counted as the copy it stands for.
class BoundsCheck : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {
    anchors_.clear();
    open_.clear();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { leaf(m, a); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t a, const std::string& value) override {
    if (value.size() > kMaxYamlValue)
      throw YAML::ParserException(m, "a value of " + std::to_string(value.size()) + " characters, more than " + std::to_string(kMaxYamlValue) +
                                         ": not a cuconform file (its longest values have about 2,000)");
    leaf(m, a);
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override {
    auto it = anchors_.find(a);
    if (it == anchors_.end()) return;  // yaml-cpp refuses an unknown alias itself
    aliased_ += it->second.size;
    if (aliased_ > kMaxYamlAliasNodes)
      throw YAML::ParserException(m, "aliases expand to more than " + std::to_string(kMaxYamlAliasNodes) +
                                         " nodes (an alias bomb?): cuconform's YAML files use no aliases");
    reached(m, open_.size() + it->second.height);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override { open(m, a); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override { open(m, a); }
  void OnSequenceEnd() override { close(); }
  void OnMapEnd() override { close(); }

 private:
  struct Subtree {
    std::size_t size = 1, height = 0;
  };
  struct Open {
    YAML::anchor_t anchor;
    std::size_t nodes_before, depth, deepest;
  };

  void reached(const YAML::Mark& m, std::size_t depth) {
    if (depth > kMaxYamlDepth)
      throw YAML::ParserException(m, "nesting deeper than " + std::to_string(kMaxYamlDepth) +
                                         " levels: not a cuconform file (a spec nests about 8)");
    if (!open_.empty()) open_.back().deepest = std::max(open_.back().deepest, depth);
  }
  void leaf(const YAML::Mark& m, YAML::anchor_t a) {
    ++nodes_;
    reached(m, open_.size());
    if (a) anchors_[a] = Subtree{};
  }
  void open(const YAML::Mark& m, YAML::anchor_t a) {
    reached(m, open_.size());
    open_.push_back({a, nodes_ + aliased_, open_.size(), open_.size()});
    ++nodes_;
  }
  void close() {
    if (open_.empty()) return;
    Open o = open_.back();
    open_.pop_back();
    if (o.anchor) anchors_[o.anchor] = Subtree{nodes_ + aliased_ - o.nodes_before, o.deepest - o.depth};
    if (!open_.empty()) open_.back().deepest = std::max(open_.back().deepest, o.deepest);
  }

  std::unordered_map<YAML::anchor_t, Subtree> anchors_;
  std::vector<Open> open_;
  std::size_t nodes_ = 0, aliased_ = 0;
};

}  // namespace

YAML::Node load_yaml_text(const std::string& text) {
  {
    std::istringstream in(text);
    YAML::Parser parser(in);
    BoundsCheck check;
    while (parser.HandleNextDocument(check)) {
    }
  }
  return YAML::Load(text);
}

YAML::Node load_yaml_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw YAML::BadFile(path);
  std::ostringstream text;
  text << in.rdbuf();
  return load_yaml_text(text.str());
}

YAML::Node load_yaml_file_checked_before(const std::string& path) { return YAML::LoadFile(path); }

}  // namespace cuconform
