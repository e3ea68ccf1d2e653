// cuconform certify / verify: a signed conformance statement of one run, and its check
// (reporters/certificate.hpp, docs/contract.md).
//   certify RESULTS.json... --signer ID --key KEY -o DIR [--statement TEXT] [--known K]
//                                                   0 written, 2 bad input (or a tool failed)
//   verify DIR --allowed-signers FILE               0 verified, 1 verification failed, 2 bad input
#include <filesystem>
#include <iostream>

#include "cli/verbs.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/util/input_file.hpp"
#include "reporters/certificate.hpp"
#include "reporters/manifest.hpp"

namespace cuconform {
namespace {

// The manifest of this build's suite version: the release's committed one beside the specs, else
// the one the specs give now (a build between releases).
std::string manifest_for(const Options& o, std::string* from) {
  const std::string dir = specs_dir_of(o);
  const std::string committed = find_manifest(releases_dir_beside(dir), CUCONFORM_VERSION, "");
  if (!committed.empty()) {
    *from = committed;
    return read_input_file(committed);
  }
  Catalog cat;
  if (!load_or_report(o, &cat)) throw ResultsError("the specs in " + dir + " do not load: no manifest to certify with");
  *from = "the specs in " + dir + " (no releases/" + std::string(CUCONFORM_VERSION) + "/manifest.json beside them)";
  return manifest_json(cat, CUCONFORM_VERSION, "");
}

int certify_cmd(const Options& o) {
  try {
    for (const char* need : {"--signer", "--key", "-o"})
      if (!o.has(need)) throw ResultsError(std::string(need) + " is required");
    CertifyInput in;
    in.results = o.positional;
    std::string from;
    in.manifest_text = manifest_for(o, &from);
    auto known = load_known_list(o, specs_dir_of(o), &std::cout);
    in.known = known ? &*known : nullptr;
    in.signer = o.get("--signer");
    in.statement = o.get("--statement");
    in.key = o.get("--key");
    in.out_dir = o.get("-o");
    std::vector<std::string> files = certify(in);
    std::cout << "manifest: " << from << "\n";
    std::cout << "bundle: " << in.out_dir << " (" << files.size() << " files, signed by '" << in.signer << "', namespace "
              << kSignatureNamespace << ")\n";
    std::cout << "check it: cuconform verify " << in.out_dir << " --allowed-signers FILE, or without cuconform:\n"
              << standalone_commands(in.out_dir, "ALLOWED_SIGNERS");
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "cuconform certify: " << e.what() << "\n";
    return kExitBadInput;
  }
}

int verify_cmd(const Options& o) {
  try {
    if (!o.has("--allowed-signers")) throw ResultsError("--allowed-signers FILE is required (OpenSSH's allowed_signers format)");
    VerifyReport v = verify_bundle(o.positional[0], o.get("--allowed-signers"));
    for (auto& l : v.lines) std::cout << l << "\n";
    if (!v.ok) {
      std::cout << "RESULT: NOT VERIFIED (exit 1)\n";
      return kExitFailed;
    }
    std::cout << "\n" << v.statement << "\nRESULT: verified (exit 0)\n";
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "cuconform verify: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace

const VerbRegistration kCertifyVerb("certify", "a signed conformance statement of one run (results, manifest, waivers, identity)",
                                    certify_cmd, [](Verb& v) {
  v.about("Packs one run (its results files, one per GPU) with the manifest of the suite's cases, the waivers applied, "
          "the identity of the GPUs, driver and toolchain, and a statement of who certifies what, into a new folder with "
          "SHA256SUMS signed by ssh-keygen -Y sign (namespace cuconform-certify). Anyone checks it offline with "
          "sha256sum and ssh-keygen alone, or with cuconform verify (docs/contract.md). Exit 0 written, 2 bad input.")
      .args(1, -1, "RESULTS.json...", "file")
      .value("--signer", "ID", "who certifies: the identity the verifiers' allowed_signers file names (e.g. an e-mail address)")
      .value("--key", "KEY", "the OpenSSH private key to sign with (or the public key of one ssh-agent holds)", ValueHint::file)
      .value("-o", "DIR", "the bundle folder to write (new, or empty)", ValueHint::dir)
      .value("--statement", "TEXT", "what the signer adds in words (the scope of the sign-off, the ticket)")
      .value("--known", "FILE", "the known list whose waivers applied (default: as for run)", ValueHint::file);
});

const VerbRegistration kVerifyVerb("verify", "check a conformance statement offline: checksums, signature, contents", verify_cmd,
                                   [](Verb& v) {
  v.about("Checks a bundle cuconform certify wrote: every file listed in SHA256SUMS with its sum (sha256sum --strict -c), "
          "no file unlisted, SHA256SUMS signed by the identity in `signer` as allowed by FILE (ssh-keygen -Y verify), and the "
          "results and manifest of one suite version; then prints the statement. Exit 0 verified, 1 not, 2 bad input.")
      .args(1, 1, "DIR", "folder")
      .value("--allowed-signers", "FILE", "the signers you trust, in OpenSSH's allowed_signers format", ValueHint::file);
});

}  // namespace cuconform
