#pragma once
// A conformance statement (docs/contract.md): one run's results files (one per GPU), the
// manifest of the suite's cases, the waivers applied, the identity of the GPUs, driver and
// toolchain and a statement of who certifies what, in one folder with SHA-256 sums (SHA256SUMS,
// coreutils' sha256sum format) signed by OpenSSH (`ssh-keygen -Y sign`, namespace
// cuconform-certify). Anyone checks it offline with sha256sum and ssh-keygen alone; `cuconform
// verify` runs the same two tools and checks that no file is unlisted.
#include <string>
#include <vector>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

inline constexpr const char* kSignatureNamespace = "cuconform-certify";

struct CertifyInput {
  std::vector<std::string> results;  // results files, one per GPU
  std::string manifest_text;         // the manifest of the suite version the results name
  const KnownList* known = nullptr;  // the waivers (null: none applied)
  std::string signer;                // who certifies: the identity in the verifier's allowed_signers
  std::string statement;             // what the signer adds in words (may be empty)
  std::string key;                   // the OpenSSH private key (or the public key of one held by ssh-agent)
  std::string out_dir;               // made; must not exist or be empty
};

// Writes the bundle; returns the files it holds. Throws ResultsError on bad input or when a tool fails.
std::vector<std::string> certify(const CertifyInput& in);

struct VerifyReport {
  bool ok = false;
  std::vector<std::string> lines;  // what was checked, each "ok: ..." or "FAILED: ..."
  std::string statement;           // statement.md, once the checks passed
};
// Checks `dir` against `allowed_signers` (OpenSSH's format): every file listed in SHA256SUMS and
// its sum right (sha256sum --strict -c), no file unlisted, the signature of SHA256SUMS by the
// identity in `signer` (ssh-keygen -Y verify), and that the results and the manifest read and name
// the same suite version. Throws ResultsError when dir or allowed_signers cannot be read at all.
VerifyReport verify_bundle(const std::string& dir, const std::string& allowed_signers);

// The two commands that check a bundle without cuconform (docs/contract.md), for `verify` to print.
std::string standalone_commands(const std::string& dir, const std::string& allowed_signers);

}  // namespace cuconform
