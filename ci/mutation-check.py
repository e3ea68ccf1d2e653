#!/usr/bin/env python3
"""Proves that checks can fail: each mutation flips one rule's expectation in a copy of
specs/, runs that rule, and requires every selected case to fail. Run on a GPU machine
(the host-tool mutations also run without one). Exit 0 when every mutation was caught.

usage: ci/mutation-check.py CUCONFORM_EXE SPECS_DIR OUT_DIR
"""
import json
import os
import shutil
import subprocess
import sys

# (spec file, rule id, text in the rule's block, replacement, --rule glob of the cases that must fail)
MUTATIONS = [
    ("ldgsts.yaml", "ldgsts.l1.access_for_4_and_8", "l1: access", "l1: bypass", "ldgsts.l1.access_for_4_and_8.*"),
    ("ldgsts.yaml", "ldgsts.l1.bypass_for_16", "l1: bypass", "l1: access", "ldgsts.l1.bypass_for_16.*"),
    ("ldgsts.yaml", "ldgsts.perf.align_128", "min_ratio: 1.0", "min_ratio: 3.0", "ldgsts.perf.align_128.*"),
    ("ldgsts.yaml", "ldgsts.alignment.size_aligned", "fault: CUDA_ERROR_MISALIGNED_ADDRESS",
     "fault: CUDA_ERROR_ILLEGAL_ADDRESS", "ldgsts.alignment.size_aligned.violation.*"),
    ("ldgsts.yaml", "ldgsts.ptx.cg_is_16_only", "accepted: false", "accepted: true",
     "ldgsts.ptx.cg_is_16_only.violation"),
    ("ldgsts.yaml", "ldgsts.sass.cg16_bypass_form", 'has: ["^LDGSTS.*BYPASS.*128"]', 'lacks: ["^LDGSTS.*BYPASS.*128"]',
     "ldgsts.sass.cg16_bypass_form.*sm_90a"),
    ("tma_bulk.yaml", "tma_bulk.tx.overcount_blocks_phase", "completes: false", "completes: true",
     "tma_bulk.tx.overcount_blocks_phase.violation*"),
    ("proxy.yaml", "proxy.sass.fixture_fences_kept", 'has: ["^FENCE\\\\.VIEW\\\\.ASYNC\\\\.S"]',
     'lacks: ["^FENCE\\\\.VIEW\\\\.ASYNC\\\\.S"]', "proxy.sass.fixture_fences_kept.*"),
    ("proxy.yaml", "proxy.litmus.harness.interleaves", "min_weak: 1", "min_weak: 1000000000",
     "proxy.litmus.harness.interleaves.*"),
    ("proxy.yaml", "proxy.generic_to_async.missing_fence", "weak: forbidden", "weak: forbidden\n      min_runs: 1000000000",
     "proxy.generic_to_async.missing_fence.control.*"),
]


def mutate(specs, file, rule, old, new):
    path = os.path.join(specs, file)
    text = open(path).read()
    start = text.index("  - id: " + rule + "\n")
    end = text.find("\n  - id: ", start + 1)
    end = len(text) if end < 0 else end
    block = text[start:end]
    if old not in block:
        raise SystemExit(f"mutation-check: '{old}' not in rule {rule} of {file}")
    open(path, "w").write(text[:start] + block.replace(old, new, 1) + text[end:])


def main():
    exe, specs, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    caught = 0
    for i, (file, rule, old, new, glob) in enumerate(MUTATIONS):
        work = os.path.join(out, f"mutated-specs-{i}")
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(specs, work)
        mutate(work, file, rule, old, new)
        res = os.path.join(out, f"mutation-{i}.json")
        subprocess.run([exe, "run", "--specs", work, "--rule", glob, "--json", res],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        cases = json.load(open(res))["cases"] if os.path.exists(res) else []
        verdicts = [c["verdict"] for c in cases]
        ok = bool(verdicts) and all(v == "fail" for v in verdicts)
        caught += ok
        print(f"mutation {i}: {rule}: '{old}' -> '{new}': {verdicts.count('fail')} of {len(verdicts)} cases failed"
              f" ({'caught' if ok else 'NOT CAUGHT: ' + ', '.join(sorted(set(verdicts)))})")
        shutil.rmtree(work, ignore_errors=True)
    print(f"mutation-check: {caught} of {len(MUTATIONS)} mutations caught")
    return 0 if caught == len(MUTATIONS) else 1


if __name__ == "__main__":
    sys.exit(main())
