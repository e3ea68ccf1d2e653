// The SASS listing split (fixtures/common/sass_listing.hpp) against the two regular expressions it
// replaced (kept here as the reference), on lines in cuobjdump's forms and on near-misses.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "fixtures/common/sass_listing.hpp"

using namespace cuconform;

namespace {

std::map<std::string, std::vector<std::string>> by_regex(const std::string& text) {
  std::map<std::string, std::vector<std::string>> out;
  static const std::regex fn_re(R"(^\s*Function\s*:\s*(\S+))");
  static const std::regex op_re(R"(/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[0-9T]\s+)?([A-Z][A-Z0-9_.]*))");
  std::istringstream in(text);
  std::vector<std::string>* current = nullptr;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, fn_re)) current = &out[m[1]];
    else if (current && std::regex_search(line, m, op_re)) current->push_back(m[1]);
  }
  return out;
}

}  // namespace

TEST_CASE("the SASS listing split finds what its regular expressions found", "[host][sass]") {
  const std::string text =
      "\n\tcode for sm_90a\n"
      "        /*0000*/                   MOV R1, c[0x0][0x28] ;        /* 0x00000a0000017a02 */\n"  // before any function
      "\t\tFunction : scopes_lit_mp_relaxed_sys\n"
      "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */\n"
      "                                                                            /* 0x000fe20000000800 */\n"
      "        /*0010*/                   S2R R0, SR_TID.X ;                      /* 0x0000000000007919 */\n"
      "        /*0020*/              @!PT LDS RZ, [RZ] ;                          /* 0x00000000fffff984 */\n"
      "        /*0030*/               @P0 BRA 0x120 ;                             /* 0x0000000000000947 */\n"
      "        /*0040*/             @!UP0 STG.E.STRONG.SYS desc[UR4][R2.64], R5 ; /* 0x0000000502007986 */\n"
      "        /*0050*/              @UPT UMOV UR4, 0x4 ;                         /* 0x0000000400047882 */\n"
      "        /*0060*/              @P7 MEMBAR.SC.GPU ;\n"
      "        /*0070*/   @Q1 FOO ;  /*0080*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"  // a predicate it does not know, then a second address
      "        /*007*/                    NOP ;\n"                                 // three hex digits: not an address
      "        /*00A0*/                   NOP ;\n"                                 // upper-case hex: not an address
      "        /*00b0*/NOP ;\n"                                                    // no space after the address
      "        /*00c0*/                   ATOM.E.ADD.STRONG.GPU PT, R0, desc[UR4][R2.64], R5 ;\n"
      "        /*00d0*/                   fence ;\n"                               // lower case: no opcode
      "  Function:second_kernel   \n"
      "        /*0000*/                   EXIT ;\n"
      "        /*0010*/                   BRA 0x10;\n"
      "Function :\n"                                                               // no name: not a function
      "        /*0020*/                   NOP ;\n"
      "\t\tFunction : third\r\n"
      "        /*0000*/                   RET.REL.NODEC R20 0x0 ;\r\n";
  const auto mine = split_sass_listing(text);
  const auto ref = by_regex(text);
  CHECK(mine == ref);
  REQUIRE(mine.count("scopes_lit_mp_relaxed_sys"));
  CHECK(mine.at("scopes_lit_mp_relaxed_sys") ==
        std::vector<std::string>{"LDC", "S2R", "LDS", "BRA", "STG.E.STRONG.SYS", "UMOV", "MEMBAR.SC.GPU", "BAR.SYNC.DEFER_BLOCKING", "ATOM.E.ADD.STRONG.GPU"});
  CHECK(mine.at("second_kernel") == std::vector<std::string>{"EXIT", "BRA", "NOP"});
  CHECK(mine.size() == 3);
}
