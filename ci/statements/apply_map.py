#!/usr/bin/env python3
"""Write `statements: [...]` into specs/*.yaml from a mapping file of lines `rule.id: sid sid ...`
(a helper for mapping rules; it replaces a rule's existing list, placed after its `source:`)."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(map_file):
    want = {}
    for line in open(map_file, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            rid, _, ids = line.partition(":")
            want[rid.strip()] = ids.split()
    done = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "specs", "*.yaml"))):
        out, rid, in_source = [], None, False
        for line in open(path, encoding="utf-8"):
            m = re.match(r"^  - id: (\S+)", line)
            if m:
                rid = m.group(1)
            if rid in want and re.match(r"^    statements:", line):
                continue  # replaced below
            if in_source and not re.match(r"^      \S", line):
                out.append(f"    statements: [{', '.join(want[rid])}]\n")
                done.add(rid)
                in_source = False
            out.append(line)
            if rid in want and want[rid] and re.match(r"^    source:", line):
                in_source = True
        if in_source:
            out.append(f"    statements: [{', '.join(want[rid])}]\n")
            done.add(rid)
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(out)
    missing = [r for r in want if want[r] and r not in done]
    if missing:
        sys.exit("no such rule: " + ", ".join(missing))


if __name__ == "__main__":
    main(sys.argv[1])
