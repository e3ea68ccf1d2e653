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

# What to flip: ci/mutations.json (spec file, rule id, text in the rule's block, its replacement,
# the --rule glob of the cases that must then fail).
MUTATIONS = [(m["file"], m["rule"], m["old"], m["new"], m["cases"])
             for m in json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "mutations.json")))["mutations"]]


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
