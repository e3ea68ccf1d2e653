#!/usr/bin/env python3
"""Suggest statement ids for spec rules (a helper for mapping; check every suggestion by hand).

    python3 ci/statements/suggest.py [--area A] [--rule ID] [--top N] [--unmapped]

Scores each statement by the sections the rule's `source:` cites (PTX ISA numbers, seed sections)
and by the words it shares with the rule's `rule:` and `source:` text."""
import argparse
import collections
import glob
import json
import math
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_index():
    out, cur, doc = [], None, ""
    for path in sorted(glob.glob(os.path.join(ROOT, "statements", "*.yaml"))):
        if path.endswith("dispositions.yaml"):
            continue
        for line in open(path, encoding="utf-8"):
            if line.startswith("document:"):
                doc = json.loads(line.split(":", 1)[1])
            m = re.match(r"^  - id: (\S+)", line)
            if m:
                cur = {"id": m.group(1), "doc": doc}
                out.append(cur)
            m = re.match(r"^    (section|text): (.*)$", line)
            if m and cur:
                cur[m.group(1)] = json.loads(m.group(2))
    return out


def load_rules():
    rules = []
    for path in sorted(glob.glob(os.path.join(ROOT, "specs", "*.yaml"))):
        cur, key = None, None
        for line in open(path, encoding="utf-8"):
            m = re.match(r"^  - id: (\S+)", line)
            if m:
                cur = {"id": m.group(1), "rule": "", "source": "", "status": "active", "statements": "", "reason": ""}
                rules.append(cur)
                key = None
                continue
            m = re.match(r"^    (\w+): ?(.*)$", line)
            if m and cur:
                key = m.group(1) if m.group(1) in cur else None
                if key:
                    cur[key] = m.group(2).strip().strip('"')
                continue
            if cur and key and re.match(r"^      \S", line):
                cur[key] += " " + line.strip().strip('"')
    return rules


def tokens(text):
    text = text.lower()
    words = re.findall(r"[a-z_][a-z0-9_.:\-]*[a-z0-9]|[0-9]+", text)
    cjk = re.findall(r"[\u4e00-\u9fff]+", text)
    bigrams = [w[i:i + 2] for w in cjk for i in range(len(w) - 1)]
    stop = {"the", "a", "an", "of", "to", "in", "is", "and", "or", "be", "by", "for", "on", "with", "that", "it",
            "are", "as", "this", "its", "at", "from", "not", "when", "which", "ptx", "isa", "seed"}
    return [w for w in words + bigrams if w not in stop]


def cited_sections(source):
    nums = re.findall(r"\b(\d+(?:\.\d+){1,6})\b", source)
    seeds = re.findall(r"seed (\d{3})", source)
    return nums, seeds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--area")
    ap.add_argument("--rule")
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--unmapped", action="store_true")
    ap.add_argument("--width", type=int, default=150)
    args = ap.parse_args()
    index = load_index()
    df = collections.Counter()
    toks = []
    for s in index:
        t = set(tokens(s["text"]))
        toks.append(t)
        df.update(t)
    n = len(index)
    for r in load_rules():
        if args.area and not r["id"].startswith(args.area + "."):
            continue
        if args.rule and not re.fullmatch(args.rule.replace(".", r"\.").replace("*", ".*"), r["id"]):
            continue
        if args.unmapped and r["statements"]:
            continue
        want = set(tokens(r["rule"] + " " + r["source"]))
        nums, seeds = cited_sections(r["source"])
        scored = []
        for s, t in zip(index, toks):
            sim = sum(math.log(n / df[w]) for w in want & t)
            sec = s.get("section", "")
            hit = any(sec.startswith(x + ".") or sec.startswith(x + " ") for x in nums)
            if s["doc"].startswith("seed.") and s["doc"][5:] not in seeds:
                hit = False
            scored.append((sim * (2.0 if hit else 1.0), s))
        scored.sort(key=lambda x: -x[0])
        print(f"## {r['id']} [{r['status']}] {r['rule'][:200]}\n   source: {r['source'][:200]}")
        for score, s in scored[: args.top]:
            print(f"   {score:4.0f} {s['id']}  {s['text'][:args.width]}")


if __name__ == "__main__":
    main()
