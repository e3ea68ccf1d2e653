// certify and verify (docs/contract.md): a bundle made from a run verifies with cuconform and with
// sha256sum + ssh-keygen alone, and a one-byte change to any file of it fails both. Tagged
// [certify], not [host]: suites/host/certify-test.sh runs it where ssh-keygen is (openssh-client),
// and reports it skipped, with the reason, where it is not.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "harness/util/json_write.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

namespace {

int sh(const std::string& cmd) {
  const int status = std::system(("{ " + cmd + "; } >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The standard tools alone, as docs/contract.md writes them.
int standalone(const std::string& bundle, const std::string& allowed) {
  return sh("cd '" + bundle + "' && sha256sum --strict -c SHA256SUMS && ssh-keygen -Y verify -f '" + allowed +
            "' -I \"$(cat signer)\" -n cuconform-certify -s SHA256SUMS.sig < SHA256SUMS");
}

}  // namespace

TEST_CASE("a certified run verifies with cuconform and with sha256sum and ssh-keygen alone; one changed byte fails both", "[certify]") {
  const std::string dir = temp_dir("contract-certify");
  // A throwaway signing key and the verifier's allowed_signers file.
  REQUIRE(sh("ssh-keygen -q -t ed25519 -N '' -C test -f '" + dir + "/key'") == 0);
  const std::string pub = read_text(dir + "/key.pub");
  write_text(dir + "/allowed_signers", "conformance@example.org namespaces=\"cuconform-certify\" " + pub);
  // A run of this suite version on two GPUs.
  auto s = synthetic_run();
  s->run.suite_version = CUCONFORM_VERSION;
  write_text(dir + "/results.gpu0.json", results_json(s->run));
  write_text(dir + "/results.gpu1.json", results_json(s->run));

  const std::string bundle = dir + "/bundle";
  Exe made = cuconform_cli("certify '" + dir + "/results.gpu0.json' '" + dir + "/results.gpu1.json' --signer conformance@example.org --key '" +
                           dir + "/key' -o '" + bundle + "' --statement 'Acceptance of node7 after its repair.'");
  INFO(made.out);
  REQUIRE(made.rc == 0);
  for (const char* f : {"results/results.gpu0.json", "results/results.gpu1.json", "manifest.json", "waivers.json", "identity.json",
                        "statement.md", "signer", "SHA256SUMS", "SHA256SUMS.sig"})
    CHECK(fs::is_regular_file(fs::path(bundle) / f));
  const std::string statement = read_text(bundle + "/statement.md");
  CHECK(statement.find("conformance@example.org certifies that the files in `results/`") != std::string::npos);
  CHECK(statement.find("Acceptance of node7 after its repair.") != std::string::npos);
  CHECK(read_text(bundle + "/identity.json").find("GPU-00000000-1111-2222-3333-444444444444") != std::string::npos);

  Exe ok = cuconform_cli("verify '" + bundle + "' --allowed-signers '" + dir + "/allowed_signers'");
  INFO(ok.out);
  CHECK(ok.rc == 0);
  CHECK(ok.out.find("RESULT: verified (exit 0)") != std::string::npos);
  CHECK(standalone(bundle, dir + "/allowed_signers") == 0);

  // Another signer's key is not trusted.
  write_text(dir + "/other_signers", "someone-else@example.org namespaces=\"cuconform-certify\" " + pub);
  CHECK(cuconform_cli("verify '" + bundle + "' --allowed-signers '" + dir + "/other_signers'").rc == 1);
  CHECK(standalone(bundle, dir + "/other_signers") != 0);

  // One byte changed in any file of the bundle: both checks fail.
  std::vector<std::string> files;
  for (auto& e : fs::recursive_directory_iterator(bundle))
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), bundle).string());
  REQUIRE(files.size() == 9);
  for (const std::string& f : files) {
    INFO("changed one byte of " << f);
    const std::string copy = dir + "/tampered";
    fs::remove_all(copy);
    fs::copy(bundle, copy, fs::copy_options::recursive);
    std::string text = read_text(copy + "/" + f);
    REQUIRE_FALSE(text.empty());
    const std::size_t at = text.size() / 2;
    text[at] = text[at] == 'x' ? 'y' : 'x';
    write_text(copy + "/" + f, text);
    Exe v = cuconform_cli("verify '" + copy + "' --allowed-signers '" + dir + "/allowed_signers'");
    INFO(v.out);
    CHECK(v.rc == 1);
    CHECK(standalone(copy, dir + "/allowed_signers") != 0);
  }
  // A file added to the bundle is not listed: cuconform verify refuses it.
  fs::remove_all(dir + "/tampered");
  fs::copy(bundle, dir + "/tampered", fs::copy_options::recursive);
  write_text(dir + "/tampered/results/extra.json", "{}");
  CHECK(cuconform_cli("verify '" + dir + "/tampered' --allowed-signers '" + dir + "/allowed_signers'").rc == 1);

  // Bad input: an existing bundle is never overwritten, a missing key or signer is named.
  CHECK(cuconform_cli("certify '" + dir + "/results.gpu0.json' --signer x --key '" + dir + "/key' -o '" + bundle + "'").rc == 2);
  CHECK(cuconform_cli("certify '" + dir + "/results.gpu0.json' --key '" + dir + "/key' -o '" + dir + "/b2'").rc == 2);
  CHECK(cuconform_cli("verify '" + dir + "/nothing' --allowed-signers '" + dir + "/allowed_signers'").rc == 2);
}
