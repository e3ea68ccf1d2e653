#!/usr/bin/env python3
"""Kernel mutation: proves the rules catch broken kernels and checkers, not only flipped
expectations (ci/mutation-check.py does those). Each mutant of ci/kernel-mutants.yaml edits one
source file in place (a wait removed, a fence removed, a count off by 16 bytes, a scope
narrowed, a reference formula changed, a rejection read as acceptance, ...); the build is
incremental (one nvcc or one .cpp, and the link); only the mutant's rules run; the file is
restored byte for byte, on an error or Ctrl-C too, and a last build restores the binary.

  python3 ci/kernel-mutation.py BUILD_DIR OUTDIR [--only ID ...] [--serial] [-j N] [--baseline RESULTS.json]
                                [--budget SECONDS] [--resume]
  python3 ci/kernel-mutation.py --check [BUILD_DIR] [--compile]   # no GPU: validate the list

A mutant is caught when one of its selected cases that failed (a known finding) now passes, or
one that passed (or was recorded) in the unmutated baseline run (made first, or --baseline: a results file of this build, a whole run) now fails, times out or crashes, loses its coverage (pass -> not-supported), or
records another outcome category; it survived otherwise. Mutants on different files whose rules
use none of the other's files share one build and one run (their cases are told apart by the
rule globs); --serial builds and runs them one at a time. Writes OUTDIR/kernel-mutation.md (the
table) and OUTDIR/kernel-mutation.json, after every build, so a run cut short keeps what it
judged. --budget: start no build after that many seconds (the rest are listed as not run; a GPU
runner's time limit), and --resume: judge only the mutants OUTDIR/kernel-mutation.json has no
outcome for, keeping the others. Exit 0 when every mutant was run and caught.
"""
import argparse
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "ci", "kernel-mutants.yaml")
# Every area of specs/ (one file each) needs a mutant.
AREAS = sorted(os.path.splitext(f)[0] for f in os.listdir(os.path.join(ROOT, "specs")) if f.endswith(".yaml"))
KEYS = ["id", "area", "kind", "file", "find", "replace", "why", "rules"]
# Files every fixture or kernel may use: a mutant there never shares a build.
SHARED = re.compile(r"(^fixtures/common/|\.(cuh|hpp|h)$)")


def load_mutants(path=LIST):
    """The list: `mutants:`, then `  - id: JSON` entries with `    key: JSON` lines."""
    mutants, cur = [], None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        s = line.rstrip("\n")
        if not s.strip() or s.lstrip().startswith("#") or s == "mutants:":
            continue
        m = re.match(r"^  - (\w+): (.*)$", s) or re.match(r"^    (\w+): (.*)$", s)
        if not m:
            raise SystemExit(f"{path}:{n}: expected '  - id: ...' or '    key: JSON value'")
        if s.startswith("  - "):
            cur = {}
            mutants.append(cur)
        key, raw = m.group(1), m.group(2)
        if key not in KEYS:
            raise SystemExit(f"{path}:{n}: unknown key '{key}' ({', '.join(KEYS)})")
        try:
            cur[key] = json.loads(raw)
        except ValueError as e:
            raise SystemExit(f"{path}:{n}: {key}: not a JSON value: {e}")
        cur.setdefault("_line", n)
    for m in mutants:
        missing = [k for k in KEYS if k not in m]
        if missing:
            raise SystemExit(f"{path}:{m['_line']}: mutant {m.get('id')} lacks {', '.join(missing)}")
    return mutants


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def write(path, data):
    with open(os.path.join(ROOT, path), "wb") as f:
        f.write(data)


def list_cases(exe, globs):
    """Case names `cuconform list --rule G...` selects ([] when none)."""
    r = subprocess.run([exe, "list"] + [a for g in globs for a in ("--rule", g)], capture_output=True, text=True)
    if r.returncode != 0:
        return []
    return [l.split()[0] for l in r.stdout.splitlines() if l and not l.endswith("case(s)") and " " in l]


def rule_files():
    """fixture name -> its .cpp, and for each spec rule the text of its block (to find modules)."""
    reg = {}
    for d, _, files in os.walk(os.path.join(ROOT, "fixtures")):
        for f in files:
            if f.endswith(".cpp"):
                p = os.path.relpath(os.path.join(d, f), ROOT)
                for name in re.findall(r'\.name = "([^"]+)"', open(os.path.join(d, f), encoding="utf-8").read()):
                    reg[name] = p
    blocks = {}
    for f in sorted(os.listdir(os.path.join(ROOT, "specs"))):
        if f.endswith(".yaml"):
            text = open(os.path.join(ROOT, "specs", f), encoding="utf-8").read()
            for b in re.split(r"\n(?=  - id: )", text):
                m = re.match(r"\s*- id: (\S+)", b)
                if m:
                    blocks[m.group(1)] = b
    return reg, blocks


def uses(mutant, other_file, reg, blocks, cases):
    """Whether the rules of `mutant` may use `other_file` (its fixture .cpp, a module it names)."""
    stem = os.path.splitext(os.path.basename(other_file))[0]
    rules = {r for r in blocks if any(c == r or c.startswith(r + ".") for c in cases)}
    for r in rules:
        b = blocks[r]
        fx = re.search(r"fixture: (\S+)", b)
        cpp = reg.get(fx.group(1)) if fx else None
        if cpp == other_file or re.search(r"\b" + re.escape(stem) + r"\b", b):
            return True
        if cpp and other_file.endswith(".cu") and re.search(r'"' + re.escape(stem) + r'"', open(os.path.join(ROOT, cpp)).read()):
            return True
    return False


def batches(mutants, exe, serial):
    if serial:
        return [[m] for m in mutants]
    reg, blocks = rule_files()
    out = []
    for m in mutants:
        placed = False
        if not SHARED.search(m["file"]):
            for b in out:
                if any(SHARED.search(x["file"]) or x["file"] == m["file"] for x in b):
                    continue
                if any(set(x["_cases"]) & set(m["_cases"]) for x in b):
                    continue
                if any(uses(x, m["file"], reg, blocks, x["_cases"]) or uses(m, x["file"], reg, blocks, m["_cases"]) for x in b):
                    continue
                b.append(m)
                placed = True
                break
        if not placed:
            out.append([m])
    return out


def build(build_dir, jobs, log):
    t = time.time()
    r = subprocess.run(["cmake", "--build", build_dir, "--target", "cuconform", "-j", str(jobs)],
                       capture_output=True, text=True)
    with open(log, "a") as f:
        f.write(r.stdout + r.stderr)
    return r.returncode == 0, time.time() - t, (r.stdout + r.stderr)[-1500:]


def run_cases(exe, globs, out_json):
    # CUCONFORM_MUTATION_DEVICES=0,1: the cases run on those GPUs (run --devices), so that the rules
    # that need two GPUs judge; the first GPU's file is the one read.
    devices = os.environ.get("CUCONFORM_MUTATION_DEVICES", "")
    read_json = out_json
    extra = []
    if devices:
        extra = ["--devices", devices]
        read_json = out_json[:-len(".json")] + ".gpu" + devices.split(",")[0].strip() + ".json"
    for f in (out_json, read_json):
        if os.path.exists(f):
            os.remove(f)
    subprocess.run([exe, "run", "--json", out_json] + extra + [a for g in globs for a in ("--rule", g)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    if not os.path.exists(read_json):
        return {}
    run = json.load(open(read_json))
    # A run that lost its GPU turns every GPU case not-supported, which would read as "coverage
    # lost" and so as caught (seen 2026-11-25: the H100 needed a reset in the middle of a
    # mutation run, and every mutant came out "caught"). Such a run judges nothing.
    if any("gpu" in c.get("tags", []) for c in run["cases"]) and not run.get("device", {}).get("available"):
        raise SystemExit("kernel-mutation: " + read_json + ": no usable GPU in this run ("
                         + run.get("device", {}).get("error", "?") + "); nothing is judged without one")
    return {c["name"]: c for c in run["cases"]}


def category(c):
    o = c.get("facts", {}).get("outcome", "")
    return "timeout" if o.startswith("timeout") else o


def judge(m, base, now):
    """caught / survived, with the cases that show it."""
    hits = []
    for name in m["_cases"]:
        b, n = base.get(name), now.get(name)
        if not b or b["verdict"] in ("timeout", "crash", "planned", "not-supported"):
            continue  # never ran to a verdict before the mutation: proves nothing
        if not n:
            hits.append((name, "not run (the mutant broke the run)", b["verdict"], "missing"))
        elif b["verdict"] == "fail":
            # A known finding: only a pass shows the mutant (the check no longer sees the failure).
            if n["verdict"] == "pass":
                hits.append((name, "fail -> pass", b.get("expected", ""), n.get("observed", "")))
        elif n["verdict"] in ("fail", "timeout", "crash"):
            hits.append((name, n["verdict"], n.get("expected", ""), n.get("observed", "") or n.get("reason", "")))
        elif n["verdict"] == "not-supported":
            hits.append((name, "coverage lost", b["verdict"], n.get("reason", "")))
        elif b["verdict"] == "recorded" and n["verdict"] == "recorded" and category(b) != category(n):
            hits.append((name, "recorded outcome changed", category(b), category(n)))
    considered = sum(1 for name in m["_cases"] if base.get(name) and base[name]["verdict"] in ("pass", "recorded", "flake", "fail"))
    return ("caught" if hits else "survived"), hits, considered


def check(build_dir, compile_too):
    """No GPU: every find text occurs once, every glob selects cases, every area is covered; with
    --compile each mutated file still compiles."""
    mutants = load_mutants()
    exe = os.path.join(build_dir, "cuconform") if build_dir else None
    errors, ids = [], set()
    for m in mutants:
        where = f"{LIST}:{m['_line']}: {m['id']}"
        if m["id"] in ids:
            errors.append(f"{where}: duplicate id")
        ids.add(m["id"])
        if m["area"] not in AREAS:
            errors.append(f"{where}: unknown area '{m['area']}'")
        if m["kind"] not in ("kernel", "checker"):
            errors.append(f"{where}: kind must be kernel or checker")
        if not os.path.exists(os.path.join(ROOT, m["file"])):
            errors.append(f"{where}: no file {m['file']}")
            continue
        text = read(m["file"]).decode("utf-8")
        n = text.count(m["find"])
        if n != 1:
            errors.append(f"{where}: find text occurs {n} times in {m['file']} (must be once)")
        if m["find"] == m["replace"]:
            errors.append(f"{where}: replace equals find")
        if exe:
            cases = list_cases(exe, m["rules"])
            if not cases:
                errors.append(f"{where}: the rules {m['rules']} select no case")
            for g in m["rules"]:
                if not list_cases(exe, [g]):
                    errors.append(f"{where}: the glob '{g}' selects no case")
        if compile_too and n == 1:
            ok, msg = compiles(m, text.replace(m["find"], m["replace"]), build_dir)
            if not ok:
                errors.append(f"{where}: the mutated {m['file']} does not compile: {msg}")
    kinds = {m["kind"] for m in mutants}
    covered = {m["area"] for m in mutants}
    if len(mutants) < 30:
        errors.append(f"{LIST}: {len(mutants)} mutants (at least 30)")
    for a in AREAS:
        if a not in covered:
            errors.append(f"{LIST}: no mutant in area {a}")
    if kinds != {"kernel", "checker"}:
        errors.append(f"{LIST}: kernel and checker mutants are both needed")
    for e in errors:
        print(e)
    print(f"kernel-mutants: {len(mutants)} mutants over {len(covered)} areas, "
          f"{sum(m['kind'] == 'kernel' for m in mutants)} kernel, {sum(m['kind'] == 'checker' for m in mutants)} checker: "
          + ("OK" if not errors else f"{len(errors)} problem(s)"))
    return 1 if errors else 0


def compiles(m, mutated, build_dir):
    """nvcc -ptx for a kernel file; its command of compile_commands.json (-fsyntax-only) for a
    .cpp. The mutated copy sits beside the original, so relative includes still resolve."""
    src = os.path.join(ROOT, os.path.dirname(m["file"]), ".mutant-" + os.path.basename(m["file"]))
    with open(src, "w", encoding="utf-8") as f:
        f.write(mutated)
    try:
        if m["file"].endswith(".cu"):
            nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
            cmd = [nvcc, "-ptx", "-arch=sm_90a", "-std=c++17", "-I" + ROOT, "-x", "cu", src, "-o", os.devnull]
            cwd = ROOT
        else:
            db = json.load(open(os.path.join(build_dir, "compile_commands.json")))
            orig = os.path.realpath(os.path.join(ROOT, m["file"]))
            entry = next((e for e in db if os.path.realpath(os.path.join(e["directory"], e["file"])) == orig), None)
            if not entry:
                return False, "no compile command for it in compile_commands.json"
            args = entry.get("arguments") or shlex.split(entry["command"])
            cmd, skip = [], 0
            for x in args:
                if skip:
                    skip -= 1
                    continue
                if x in ("-o", "-MF", "-MT", "-MQ"):
                    skip = 1
                    continue
                if x in ("-c", "-MD", "-MMD"):
                    continue
                cmd.append(src if os.path.realpath(os.path.join(entry["directory"], x)) == orig else x)
            cmd.append("-fsyntax-only")
            cwd = entry["directory"]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
        return r.returncode == 0, (r.stderr or r.stdout)[-600:]
    finally:
        os.remove(src)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir", nargs="?")
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--only", nargs="+", default=[])
    ap.add_argument("--serial", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 8)
    ap.add_argument("--baseline", help="results file of an unmutated run of this build (skips the baseline run)")
    ap.add_argument("--budget", type=float, help="start no build after this many seconds")
    ap.add_argument("--resume", action="store_true", help="keep the outcomes in OUTDIR/kernel-mutation.json, run the rest")
    a = ap.parse_args()
    if a.check:
        return check(a.build_dir, a.compile)
    if not a.build_dir or not a.outdir:
        ap.error("BUILD_DIR and OUTDIR are required (or --check)")
    build_dir, out = os.path.abspath(a.build_dir), os.path.abspath(a.outdir)
    os.makedirs(out, exist_ok=True)
    exe = os.path.join(build_dir, "cuconform")
    mutants = load_mutants()
    all_ids = [m["id"] for m in mutants]
    report = os.path.join(out, "kernel-mutation.json")
    kept = []
    if a.resume and os.path.exists(report):
        kept = [r for r in json.load(open(report))["mutants"] if r["id"] in all_ids]
        mutants = [m for m in mutants if m["id"] not in {r["id"] for r in kept}]
    if a.only:
        unknown = set(a.only) - set(all_ids)
        if unknown:
            raise SystemExit(f"kernel-mutation: unknown mutant(s): {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m["id"] in a.only]
        all_ids = [i for i in all_ids if i in a.only or i in {r["id"] for r in kept}]
    for m in mutants:
        if read(m["file"]).decode("utf-8").count(m["find"]) != 1:
            raise SystemExit(f"kernel-mutation: {m['id']}: the find text does not occur exactly once in {m['file']}")
        m["_cases"] = list_cases(exe, m["rules"])
    log = os.path.join(out, "build.log")
    t0 = time.time()
    ok, secs, tail = build(build_dir, a.j, log)
    if not ok:
        raise SystemExit("kernel-mutation: the unmutated build fails:\n" + tail)
    globs = sorted({g for m in mutants for g in m["rules"]})
    if a.baseline:
        base = {c["name"]: c for c in json.load(open(a.baseline))["cases"]}
    else:
        base = run_cases(exe, globs, os.path.join(out, "baseline.json"))
    print(f"kernel-mutation: baseline of {len(base)} cases in {time.time() - t0:.0f} s")

    originals = {}

    def restore():
        for f, data in originals.items():
            write(f, data)
        originals.clear()

    def on_signal(sig, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    results = list(kept)
    pending = batches(mutants, exe, a.serial)
    try:
        while pending:
            if a.budget is not None and time.time() - t0 > a.budget:
                print(f"kernel-mutation: budget of {a.budget:.0f} s spent; {sum(len(b) for b in pending)} mutant(s) not run (--resume runs them)")
                break
            b = pending.pop(0)
            for m in b:
                originals[m["file"]] = read(m["file"])
                write(m["file"], originals[m["file"]].replace(m["find"].encode(), m["replace"].encode(), 1))
            ok, secs, tail = build(build_dir, a.j, log)
            if not ok:
                restore()
                for m in b:
                    results.append({"id": m["id"], "outcome": "invalid", "note": "the mutant does not build: " + tail[-300:]})
                    print(f"  {m['id']}: INVALID (does not build)")
                continue
            t = time.time()
            name = "+".join(m["id"] for m in b)[:120]
            now = run_cases(exe, sorted({g for m in b for g in m["rules"]}), os.path.join(out, f"mutant-{name}.json"))
            restore()
            for m in b:
                outcome, hits, considered = judge(m, base, now)
                results.append({"id": m["id"], "area": m["area"], "kind": m["kind"], "file": m["file"], "why": m["why"],
                                "rules": m["rules"], "outcome": outcome, "cases": len(m["_cases"]), "considered": considered,
                                "batch": [x["id"] for x in b], "hits": [list(h) for h in hits[:5]], "hit_count": len(hits)})
                print(f"  {m['id']}: {outcome.upper()} ({len(hits)} of {considered} cases; build {secs:.0f} s, run {time.time() - t:.0f} s"
                      + (f", batch of {len(b)}" if len(b) > 1 else "") + ")", flush=True)
            write_report(out, results, all_ids, t0)
    except KeyboardInterrupt:
        restore()
        print("kernel-mutation: interrupted; sources restored", file=sys.stderr)
        build(build_dir, a.j, log)
        return 130
    finally:
        restore()
    build(build_dir, a.j, log)  # the binary of the restored sources

    caught, valid, not_run = write_report(out, results, all_ids, t0)
    print(open(os.path.join(out, "kernel-mutation.md")).read())
    return 0 if caught == valid and not not_run else 1


def write_report(out, results, all_ids, t0):
    """kernel-mutation.json and .md of what is judged so far, in the list's order."""
    order = {i: n for n, i in enumerate(all_ids)}
    results.sort(key=lambda r: order.get(r["id"], len(order)))
    caught = sum(r["outcome"] == "caught" for r in results)
    valid = sum(r["outcome"] != "invalid" for r in results)
    not_run = [i for i in all_ids if i not in {r["id"] for r in results}]
    elapsed = round(time.time() - t0, 1)
    json.dump({"mutants": results, "caught": caught, "valid": valid, "not_run": not_run, "wall_s": elapsed},
              open(os.path.join(out, "kernel-mutation.json"), "w"), indent=2)
    cell = lambda s: str(s).replace("|", "/").replace("\n", " ")[:160]
    md = [f"# Kernel mutation: {caught} of {valid} caught ({100 * caught / max(valid, 1):.0f}%)"
          + (f", {len(not_run)} not run" if not_run else "") + f", {elapsed:.0f} s (this call)", "",
          "| id | area | file | what it breaks | rules | outcome | failing case | expected / observed |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        h = r.get("hits") or [["", "", "", ""]]
        md.append(f"| {r['id']} | {r.get('area', '')} | `{r.get('file', '')}` | {cell(r.get('why', r.get('note', '')))} | "
                  f"{cell(', '.join(r.get('rules', [])))} | {r['outcome']} | `{cell(h[0][0])}` ({cell(h[0][1])}) | "
                  f"{cell(h[0][2])} / {cell(h[0][3])} |")
    md += [f"| {i} | | | | | not run | | |" for i in not_run]
    open(os.path.join(out, "kernel-mutation.md"), "w").write("\n".join(md) + "\n")
    return caught, valid, not_run


if __name__ == "__main__":
    sys.exit(main())
