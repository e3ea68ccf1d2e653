#include "harness/util/json_ordered_parse.hpp"

#include <unordered_map>
#include <utility>

namespace cuconform {
namespace {

using Json = nlohmann::ordered_json;

// nlohmann's SAX interface, building the document as json_sax_dom_parser does, but appending
// object members instead of looking each one up.
class Builder {
 public:
  Builder(Json& root, std::vector<std::string>* repeated, JsonPrune prune) : root_(root), repeated_(repeated), prune_(prune) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(Json::number_integer_t v) { return put(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(v); }
  bool number_float(Json::number_float_t v, const std::string&) { return put(v); }
  bool string(std::string& v) { return put(std::move(v)); }
  bool binary(Json::binary_t& v) { return put(std::move(v)); }
  bool start_object(std::size_t) { return open(Json::value_t::object); }
  bool start_array(std::size_t) { return open(Json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    if (skipping_ > 0) return true;
    Open& o = open_.back();
    // ordered_map is a std::vector of members: its own operator[] and emplace search by key.
    auto& members = static_cast<std::vector<std::pair<const std::string, Json>>&>(o.value->get_ref<Json::object_t&>());
    auto [at, fresh] = o.keys.emplace(k, members.size());
    if (fresh) {
      members.emplace_back(std::move(k), nullptr);  // std::vector's: no search
      member_ = &members.back().second;
    } else {
      if (repeated_) repeated_->push_back(path_of(k));
      member_ = &members[at->second].second;
      *member_ = nullptr;
    }
    last_key_ = &at->first;
    pruned_ = prune_ && prune_(o.pattern, *last_key_);
    return true;
  }

  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  struct Open {
    Json* value;
    std::unordered_map<std::string, std::size_t> keys;  // an object's members by key
    std::string key;                                    // for paths: the member being read
    std::string pattern;                                // with prune: its path, indices as "[]"
  };

  template <class V>
  Json* place(V&& v) {
    if (open_.empty()) {
      root_ = Json(std::forward<V>(v));
      return &root_;
    }
    Open& o = open_.back();
    if (o.value->is_array()) {
      auto& items = o.value->get_ref<Json::array_t&>();
      items.emplace_back(std::forward<V>(v));
      return &items.back();
    }
    *member_ = Json(std::forward<V>(v));
    return member_;
  }
  template <class V>
  bool put(V&& v) {
    if (skipping_ > 0) return true;
    if (pruned_) {
      pruned_ = false;  // the member stays, as null
      return true;
    }
    place(std::forward<V>(v));
    return true;
  }
  bool open(Json::value_t t) {
    if (skipping_ > 0 || pruned_) {  // inside a member left out: nothing kept, the levels counted
      pruned_ = false;
      ++skipping_;
      return true;
    }
    std::string pattern;
    if (prune_ && !open_.empty()) {
      const Open& parent = open_.back();
      pattern = parent.pattern + (parent.value->is_array() ? "[]" : (parent.pattern.empty() ? "" : ".") + *last_key_);
    }
    if (!open_.empty() && open_.back().value->is_object()) open_.back().key = *last_key_;
    Json* v = place(t);
    open_.push_back({v, {}, {}, std::move(pattern)});
    return true;
  }
  bool close() {
    if (skipping_ > 0) --skipping_;
    else open_.pop_back();
    return true;
  }

  // "cases[3].verdict": only for a repeated key, so paths cost nothing on good input.
  std::string path_of(const std::string& key) const {
    std::string p;
    for (std::size_t i = 0; i + 1 < open_.size(); ++i) {
      const Json& v = *open_[i].value;
      if (v.is_array()) p += "[" + std::to_string(v.size() - 1) + "]";
      else p += (p.empty() ? "" : ".") + open_[i].key;
    }
    return p + (p.empty() ? "" : ".") + key;
  }

  Json& root_;
  std::vector<std::string>* repeated_;
  std::vector<Open> open_;
  Json* member_ = nullptr;
  const std::string* last_key_ = nullptr;  // the key of the member being read (in Open::keys)
  JsonPrune prune_;
  bool pruned_ = false;        // the next value is a member left out
  std::size_t skipping_ = 0;  // open levels inside a member left out
};

}  // namespace

nlohmann::ordered_json ordered_object(std::vector<std::pair<std::string, nlohmann::ordered_json>> members) {
  Json out = Json::object();
  auto& list = static_cast<std::vector<std::pair<const std::string, Json>>&>(out.get_ref<Json::object_t&>());
  list.reserve(members.size());
  std::unordered_map<std::string, std::size_t> at;
  for (auto& [k, v] : members) {
    auto [it, fresh] = at.emplace(k, list.size());
    if (fresh) list.emplace_back(std::move(k), std::move(v));
    else list[it->second].second = std::move(v);
  }
  return out;
}

nlohmann::ordered_json parse_ordered_json(const std::string& text, std::vector<std::string>* repeated_keys, JsonPrune prune) {
  Json root;
  Builder b(root, repeated_keys, prune);
  Json::sax_parse(text, &b);
  return root;
}

}  // namespace cuconform
