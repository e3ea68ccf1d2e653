// The consumer rules of issue 44 (areas cub, cccl, cuda_samples, deepep, deepgemm, thunderkittens, triton) checked without a
// GPU: every case of fixture consumer.words names a kernel its module really has (and its primary),
// a memory kind the harness knows, and one expected value per word; the memory kinds and the word
// texts the fixture judges by.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "fixtures/common/word_text.hpp"
#include "harness/driver/embedded_modules.hpp"
#include "harness/driver/kernel_memory.hpp"
#include "harness/spec/catalog.hpp"

using namespace cuconform;

namespace {

// Does the module's PTX (every arch it was built for) define entry `kernel`?
bool has_entry(const EmbeddedModule& m, const std::string& kernel) {
  if (m.ptx.empty()) return false;
  for (const auto& [arch, text] : m.ptx)
    if (text.find(".entry " + kernel + "(") == std::string_view::npos) return false;
  return true;
}

}  // namespace

TEST_CASE("consumer.words cases: kernels exist, memory kinds parse, one want per word", "[host][consumer-words]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  std::set<std::string> rules, areas;
  for (const Case& c : cat.cases) {
    if (c.rule->fixture != "consumer.words") continue;
    INFO("case " << c.name);
    rules.insert(c.rule->id);
    areas.insert(c.rule->area);
    CHECK(c.rule->basis == Basis::relied_upon);
    CHECK_FALSE(c.rule->relies.empty());
    const EmbeddedModule* m = embedded_module(c.expect.str("module"));
    REQUIRE(m);
    CHECK(has_entry(*m, c.expect.str("kernel")));
    if (c.expect.has("primary")) CHECK(has_entry(*m, c.expect.str("primary")));
    MemoryKind kind;
    CHECK(parse_memory_kind(c.expect.str("memory", "device"), &kind));
    const auto words = split_list(c.expect.str("words")), want = split_list(c.expect.str("want"));
    CHECK(!words.empty());
    CHECK(words.size() <= 64);
    CHECK(want.size() == words.size());
    // A want above 0xffff is written as the fixture prints it: 0x%08x.
    for (const auto& w : want)
      if (w != "*" && w.rfind("0x", 0) != 0) CHECK(std::stoul(w) < 0x10000);
  }
  CHECK(areas == std::set<std::string>{"cccl", "cub", "cuda_samples", "deepep", "deepgemm", "thunderkittens", "triton"});
  CHECK(rules.size() >= 35);
}

TEST_CASE("memory kinds: the four the consumers use, nothing else", "[host][consumer-words]") {
  MemoryKind k;
  for (const char* w : {"device", "pinned", "managed", "pageable"}) {
    REQUIRE(parse_memory_kind(w, &k));
    CHECK(std::string(to_string(k)) == w);
  }
  CHECK_FALSE(parse_memory_kind("host", &k));
  CHECK_FALSE(parse_memory_kind("", &k));
  CHECK(KernelMemory::kManagedLimit <= (1u << 20));
}

TEST_CASE("word texts and lists of the word-writing fixtures", "[host][consumer-words]") {
  CHECK(word_text(kUnwrittenWord) == "unwritten");
  CHECK(word_text(0) == "0");
  CHECK(word_text(0xffff) == "65535");
  CHECK(word_text(0x10000) == "0x00010000");
  CHECK(word_text(512000) == "0x0007d000");
  CHECK(split_list(" bad,  timed_out , rounds,") == std::vector<std::string>{"bad", "timed_out", "rounds"});
  CHECK(split_list("").empty());
}
