#pragma once
namespace cuconform {

// Registers one Catch2 test case per spec case of the default specs folder
// ($CUCONFORM_SPECS or the one built in), tagged [area][kind][ccX.Y][gpu|host-tool]...
void register_spec_cases(int argc, char** argv);

struct SpecCaseTally {
  int ran = 0;      // spec cases invoked
  int skipped = 0;  // of those, not-supported or planned
  int others = 0;   // non-spec test cases that ran
};
const SpecCaseTally& spec_case_tally();

}  // namespace cuconform
