#!/usr/bin/env python3
"""Regenerate statements/<document>.yaml: every normative sentence of the source documents, with a
stable id (document . section . hash of the normalized sentence) and where it is (file, section, line).

    python3 ci/statements/extract.py [--shared ../shared] [--cuda-include /usr/local/cuda/include] [--out statements]

Python 3 standard library only. Hand-made judgments (not-testable) live in statements/dispositions.yaml,
which this script never writes."""
import argparse
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from documents import read_markdown, read_plain_text  # noqa: E402
from headers import read_header_comments, read_ptx_wrapper_gates  # noqa: E402
from sentences import keywords, short_hash, slug, split_sentences  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# cuda::ptx wrapper headers of the instructions the suite's areas use (not tcgen05, multimem, bit ops).
PTX_WRAPPERS = re.compile(
    r"(barrier_cluster|clusterlaunchcontrol|cp_async_.*|cp_reduce_async_.*|fence.*|getctarank|mbarrier_.*|"
    r"red_async|st_async|st_bulk|tensormap_.*)\.h"
)


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def documents(shared, inc):
    """(document id, title, [(file shown in the index, paragraphs)])."""
    cccl = os.path.join(inc, "cccl")
    for path in sorted(glob.glob(os.path.join(shared, "reference", "ptx-isa", "*.md"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        lines = _read(path)
        yield f"ptx.{stem}", lines[0].lstrip("# ").strip(), [(_shown(path, shared, "../shared"), read_markdown(lines))]
    for path in sorted(glob.glob(os.path.join(shared, "seeds", "[0-9]*.*"))):
        lines = _read(path)
        yield (f"seed.{os.path.basename(path)[:3]}", lines[0].lstrip("# ").strip(),
               [(_shown(path, shared, "../shared"), read_plain_text(lines))])

    def hdr(paths, section_of=lambda rel: rel, **kw):
        out = []
        for p in paths:
            rel = os.path.relpath(p, cccl if p.startswith(cccl) else inc)
            out.append((_shown(p, inc, "include"), read_header_comments(_read(p), section_of(rel), **kw)))
        return out

    yield "hdr.cuda_pipeline_primitives", "cuda_pipeline*.h: the __pipeline_* primitives", hdr(
        sorted(glob.glob(os.path.join(inc, "cuda_pipeline*.h"))))
    barrier = [os.path.join(cccl, "cuda", "barrier"), os.path.join(cccl, "cuda", "std", "barrier")]
    for d in ("cuda/__barrier", "cuda/std/__barrier", "cuda/__memcpy_async"):
        barrier += sorted(glob.glob(os.path.join(cccl, d, "*.h")))
    yield "hdr.cuda_barrier", "<cuda/barrier>, <cuda/std/barrier> and cuda::memcpy_async", hdr(barrier)
    yield "hdr.cuda_pipeline", "<cuda/pipeline>", hdr([os.path.join(cccl, "cuda", "pipeline")])
    yield "hdr.cuda_annotated_ptr", "<cuda/annotated_ptr> and access properties", hdr(
        [os.path.join(cccl, "cuda", "annotated_ptr")]
        + [os.path.join(cccl, "cuda", "std", "detail", n) for n in ("__annotated_ptr", "__access_property")])
    gen = os.path.join(cccl, "cuda", "__ptx", "instructions", "generated")
    wrappers = []
    for p in sorted(glob.glob(os.path.join(gen, "*.h"))):
        if PTX_WRAPPERS.fullmatch(os.path.basename(p)):
            name = os.path.splitext(os.path.basename(p))[0]
            wrappers.append((_shown(p, inc, "include"), read_ptx_wrapper_gates(_read(p), name)))
    yield "hdr.cuda_ptx", "<cuda/ptx>: the wrappers' PTX ISA and SM requirements", wrappers
    yield "hdr.cuda_h", "cuda.h: cuTensorMapEncode* and cuTensorMapReplaceAddress", hdr(
        [os.path.join(inc, "cuda.h")], only_before=r"cuTensorMap(Encode\w+|ReplaceAddress)")


def _shown(path, base, prefix):
    return prefix + "/" + os.path.relpath(path, base).replace(os.sep, "/")


def statements(doc_id, files):
    seen, out = {}, []
    for shown, paragraphs in files:
        for para in paragraphs:
            pos = 0
            for sentence in split_sentences(para.text):
                at = para.text.find(sentence, pos)
                pos = at + len(sentence) if at >= 0 else pos
                kws = keywords(sentence)
                if not kws or len(sentence) < 12:
                    continue
                base = f"{doc_id}.{slug(para.section)}.{short_hash(sentence)}"
                seen[base] = seen.get(base, 0) + 1
                sid = base if seen[base] == 1 else f"{base}-{seen[base]}"
                out.append({"id": sid, "file": shown, "section": para.section, "line": para.line_at(max(at, 0)),
                            "keywords": kws, "text": sentence})
    return out


def _q(s):
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def write_index(out_dir, doc_id, title, items):
    path = os.path.join(out_dir, f"{doc_id}.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Generated by ci/statements/extract.py: do not edit (judgments go in dispositions.yaml).\n")
        f.write(f"document: {_q(doc_id)}\ntitle: {_q(title)}\nstatements:{'' if items else ' []'}\n")
        for s in items:
            f.write(f"  - id: {s['id']}\n    file: {_q(s['file'])}\n    section: {_q(s['section'])}\n"
                    f"    line: {s['line']}\n    keywords: [{', '.join(_q(k) for k in s['keywords'])}]\n"
                    f"    text: {_q(s['text'])}\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include")
    ap.add_argument("--out", default=os.path.join(ROOT, "statements"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for old in glob.glob(os.path.join(args.out, "*.yaml")):
        if os.path.basename(old) != "dispositions.yaml":
            os.remove(old)
    total = 0
    for doc_id, title, files in documents(os.path.abspath(args.shared), args.cuda_include):
        items = statements(doc_id, files)
        write_index(args.out, doc_id, title, items)
        total += len(items)
        print(f"{len(items):5d}  {doc_id}")
    print(f"{total:5d}  total")


if __name__ == "__main__":
    main()
