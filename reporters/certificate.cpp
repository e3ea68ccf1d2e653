#include "reporters/certificate.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "harness/util/input_file.hpp"
#include "harness/util/json_write.hpp"
#include "harness/util/output_file.hpp"
#include "harness/util/tools.hpp"
#include "reporters/manifest.hpp"
#include "reporters/results_json.hpp"  // kResultsSchema
#include "reporters/waivers.hpp"

namespace fs = std::filesystem;

namespace cuconform {

namespace {

constexpr double kToolTimeout = 120;

std::string tool_path(const std::string& name) {
  std::string p = find_tool(name);
  if (p.empty()) throw ResultsError(name + " not found on PATH (" + (name == "ssh-keygen" ? "Debian's openssh-client" : "coreutils") + ")");
  return p;
}

// argv run by /bin/sh in `dir`: `sh -c 'cd "$1" && shift && exec "$@"' sh DIR ARGV...`, so no name is
// ever parsed by the shell; `stdin_file` (relative to dir) is its standard input.
ToolRun run_in(const std::string& dir, const std::vector<std::string>& argv, const std::string& stdin_file = "") {
  std::vector<std::string> a = {"/bin/sh", "-c",
                                stdin_file.empty() ? "cd \"$1\" && shift && exec \"$@\"" : "cd \"$1\" && shift && exec \"$@\" < \"$0\"",
                                stdin_file.empty() ? "sh" : stdin_file, dir};
  a.insert(a.end(), argv.begin(), argv.end());
  return run_tool(a, kToolTimeout);
}

Json parsed(const std::string& text) {
  try {
    return Json::parse(text);
  } catch (const std::exception&) {
    return Json::object();
  }
}

// The run's identity: suite, device (GPU, driver) and run (host, times, selection, code path and
// compiler), without the run's timing breakdown.
Json identity_of(const RunInfo& r, const std::string& file) {
  Json run = parsed(r.run_json);
  run.erase("timing");
  return {{"file", file}, {"suite", parsed(r.suite_json)}, {"device", parsed(r.device_json)}, {"run", run}};
}

std::string cell(const std::string& s) { return s.empty() ? "-" : s; }

}  // namespace

std::vector<std::string> certify(const CertifyInput& in) {
  if (in.signer.empty()) throw ResultsError("--signer is required: the identity the verifier's allowed_signers names");
  if (in.signer.find_first_of("\n\r") != std::string::npos) throw ResultsError("--signer must be one line");
  if (in.results.empty()) throw ResultsError("no results file given");
  std::error_code ec;
  if (fs::exists(in.out_dir, ec) && !(fs::is_directory(in.out_dir, ec) && fs::is_empty(in.out_dir, ec)))
    throw ResultsError(in.out_dir + ": exists and is not an empty folder (a bundle is written into a new one)");
  const std::string ssh_keygen = tool_path("ssh-keygen"), sha256sum = tool_path("sha256sum");
  const Manifest manifest = parse_manifest(in.manifest_text, "manifest");

  std::vector<Fleet> runs;
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (auto& path : in.results) {
    Fleet f = load_results(path);
    if (f.schema != kResultsSchema || f.runs.size() != 1)
      throw ResultsError(path + ": certify takes results files (" + kResultsSchema + "), one per GPU, not " + f.schema);
    const std::string version = f.runs[0].get(f.runs[0].suite, "version");
    if (version != manifest.version)
      throw ResultsError(path + ": suite " + version + ", but the manifest is of suite " + manifest.version +
                         " (certify with the build that made the run)");
    const std::string name = "results/" + fs::path(path).filename().string();
    if (!seen.insert(name).second) throw ResultsError(path + ": a second results file named " + name + " (rename one)");
    runs.push_back(std::move(f));
    names.push_back(name);
  }

  fs::create_directories(fs::path(in.out_dir) / "results");
  std::vector<std::string> files;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    fs::copy_file(in.results[i], fs::path(in.out_dir) / names[i]);
    files.push_back(names[i]);
  }
  auto write = [&](const std::string& name, const std::string& text) {
    write_file_atomically((fs::path(in.out_dir) / name).string(), text);
    files.push_back(name);
  };
  write("manifest.json", in.manifest_text);

  // The waivers applied, with the cases each waived per results file.
  Json waivers = Json::array();
  std::map<const KnownEntry*, Json> used;
  if (in.known)
    for (std::size_t i = 0; i < runs.size(); ++i)
      for (const WaiverUse& u : waivers_used(*in.known, runs[i])) used[u.entry][names[i]] = u.cases;
  std::vector<std::pair<const KnownEntry*, Json>> ordered(used.begin(), used.end());
  std::sort(ordered.begin(), ordered.end(), [](auto& a, auto& b) { return a.first->where < b.first->where; });
  for (auto& [e, cases] : ordered)
    waivers.push_back({{"entry", e->what()}, {"class", to_string(e->cls)}, {"reason", e->reason}, {"owner", e->owner},
                       {"expires", e->expires}, {"link", e->link}, {"expired", e->expired}, {"where", e->where}, {"cases", cases}});
  write("waivers.json", json_text(Json{{"known_list", in.known ? fs::path(in.known->file).filename().string() : ""},
                                       {"judged_on", in.known ? in.known->today : ""},
                                       {"waivers", waivers}},
                                  true));

  Json identity = Json::array();
  for (std::size_t i = 0; i < runs.size(); ++i) identity.push_back(identity_of(runs[i].runs[0], names[i]));
  write("identity.json", json_text(Json{{"runs", identity}}, true));

  // The statement: who certifies what, and what the runs gave, per GPU.
  std::ostringstream s;
  s << "# Conformance statement\n\n"
    << in.signer << " certifies that the files in `results/` are the results cuconform " << manifest.version
    << " reported on the GPUs listed in `identity.json` (GPU, driver, code path and compiler), running the cases of `manifest.json` ("
    << manifest.cases.size() << " cases, each with its rule's definition hash and tier); that the known failures and flakes "
    << "listed in `waivers.json` were the only waivers applied; and that none of these files has changed since: `SHA256SUMS` "
    << "holds their SHA-256 sums and `SHA256SUMS.sig` is " << in.signer << "'s OpenSSH signature of it (namespace "
    << kSignatureNamespace << ").\n\n";
  if (!in.statement.empty()) s << in.statement << "\n\n";
  s << "| results | GPU | UUID | driver | code path | cases | pass | fail | timeout | crash | not-supported | core failures not waived |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunInfo& r = runs[i].runs[0];
    auto counts = runs[i].counts(0);
    int core_open = 0;
    for (const CaseRow& c : runs[i].cases) {
      const ManifestCase* mc = manifest.find(c.name);  // the release's tier where the file has none
      const std::string tier = !c.tier.empty() ? c.tier : mc ? mc->tier : "";
      if (c.by_run.empty() || !c.by_run[0] || !is_failure(c.by_run[0]->verdict) || tier != "core" || c.shadow) continue;
      if (in.known && (in.known->failure(c, &r) || in.known->flake(c, &r))) continue;
      ++core_open;
    }
    s << "| `" << names[i] << "` | " << cell(r.dev("name")) << " | " << cell(r.dev("uuid")) << " | " << cell(r.dev("driver_version")) << " | "
      << cell(r.toolchain_line()) << " | " << runs[i].cases.size() << " | " << counts["pass"] << " | " << counts["fail"] << " | "
      << counts["timeout"] << " | " << counts["crash"] << " | " << counts["not-supported"] << " | " << core_open << " |\n";
  }
  s << "\nCheck it without cuconform (docs/contract.md):\n\n```sh\n" << standalone_commands(".", "allowed_signers") << "```\n";
  write("statement.md", s.str());
  write("signer", in.signer + "\n");

  std::sort(files.begin(), files.end());
  std::vector<std::string> argv = {sha256sum, "--"};
  argv.insert(argv.end(), files.begin(), files.end());
  ToolRun sums = run_in(in.out_dir, argv);
  if (sums.exit_code != 0) throw ResultsError("sha256sum failed: " + sums.output);
  write_file_atomically((fs::path(in.out_dir) / "SHA256SUMS").string(), sums.output);
  ToolRun sig = run_in(in.out_dir, {ssh_keygen, "-q", "-Y", "sign", "-f", fs::absolute(in.key).string(), "-n", kSignatureNamespace, "SHA256SUMS"});
  if (sig.exit_code != 0 || !fs::exists(fs::path(in.out_dir) / "SHA256SUMS.sig"))
    throw ResultsError("ssh-keygen -Y sign failed (exit " + std::to_string(sig.exit_code) + "): " + sig.output);
  files.push_back("SHA256SUMS");
  files.push_back("SHA256SUMS.sig");
  return files;
}

std::string standalone_commands(const std::string& dir, const std::string& allowed_signers) {
  return "cd " + dir + "\nsha256sum --strict -c SHA256SUMS\nssh-keygen -Y verify -f " + allowed_signers +
         " -I \"$(cat signer)\" -n " + kSignatureNamespace + " -s SHA256SUMS.sig < SHA256SUMS\n";
}

VerifyReport verify_bundle(const std::string& dir, const std::string& allowed_signers) {
  VerifyReport v;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ResultsError(dir + ": not a folder (a bundle cuconform certify wrote)");
  if (!fs::is_regular_file(allowed_signers, ec)) throw ResultsError(allowed_signers + ": cannot read the allowed signers file");
  bool ok = true;
  auto say = [&](bool good, const std::string& what) {
    v.lines.push_back(std::string(good ? "ok: " : "FAILED: ") + what);
    ok = ok && good;
  };
  for (const char* f : {"SHA256SUMS", "SHA256SUMS.sig", "signer"})
    if (!fs::is_regular_file(fs::path(dir) / f, ec)) say(false, std::string(f) + " is missing");
  if (!ok) return v;

  // 1. Every file listed, and every listed file's sum (sha256sum itself).
  std::set<std::string> listed;
  {
    std::istringstream in(read_input_file((fs::path(dir) / "SHA256SUMS").string()));
    for (std::string line; std::getline(in, line);)
      if (line.size() > 66) listed.insert(line.substr(66));  // 64 hex digits, two spaces (or " *"), the name
  }
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory()) continue;
    const std::string rel = fs::relative(it->path(), dir).string();
    if (rel != "SHA256SUMS" && rel != "SHA256SUMS.sig" && !listed.count(rel)) say(false, rel + " is not listed in SHA256SUMS");
  }
  ToolRun sums = run_in(dir, {tool_path("sha256sum"), "--strict", "--quiet", "-c", "SHA256SUMS"});
  say(sums.exit_code == 0, "sha256sum --strict -c SHA256SUMS" + (sums.exit_code == 0 ? " (" + std::to_string(listed.size()) + " files)"
                                                                                      : ": " + sums.output));

  // 2. The signature of SHA256SUMS by the identity in `signer`.
  std::string signer = read_input_file((fs::path(dir) / "signer").string());
  while (!signer.empty() && (signer.back() == '\n' || signer.back() == '\r')) signer.pop_back();
  ToolRun sig = run_in(dir, {tool_path("ssh-keygen"), "-Y", "verify", "-f", fs::absolute(allowed_signers).string(), "-I", signer, "-n",
                             kSignatureNamespace, "-s", "SHA256SUMS.sig"},
                       "SHA256SUMS");
  std::string out = sig.output;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  say(sig.exit_code == 0, "ssh-keygen -Y verify (signer '" + signer + "', namespace " + kSignatureNamespace + "): " + out);
  if (!ok) return v;

  // 3. What the files say agrees: the results and the manifest read and name one suite version.
  try {
    Manifest m = load_manifest((fs::path(dir) / "manifest.json").string());
    for (const std::string& f : listed) {
      if (f.rfind("results/", 0) != 0) continue;
      Fleet run = load_results((fs::path(dir) / f).string());
      const std::string version = run.runs.at(0).get(run.runs[0].suite, "version");
      say(version == m.version, f + ": suite " + version + (version == m.version ? ", as the manifest" : ", the manifest is of " + m.version));
    }
  } catch (const std::exception& e) {
    say(false, e.what());
  }
  v.ok = ok;
  if (ok) v.statement = read_input_file((fs::path(dir) / "statement.md").string());
  return v;
}

}  // namespace cuconform
