"""Statement sources in the CUDA toolkit headers: documentation comments, and cuda::ptx's arch gates."""
import re

from documents import Paragraph, _LIST_ITEM, joined

_LICENSE = re.compile(r"copyright|spdx|license|licensor|notice|warranty", re.IGNORECASE)
# Implementation notes are not documentation: to-dos, compiler workarounds, links.
_INTERNAL = re.compile(r"^(TODO|FIXME|XXX|HACK|NB|note:)|https?://|\bGCC\b|\bcompilers? <=|logging purpose", re.IGNORECASE)


def _comment_lines(lines):
    """(line number, comment text) for every comment line; blocks are separated by None."""
    out, in_block = [], False
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if in_block:
            end = s.find("*/")
            text = s if end < 0 else s[:end]
            out.append((n, re.sub(r"^\*+\s?", "", text)))
            if end >= 0:
                in_block = False
                out.append(None)
            continue
        if s.startswith("/*"):
            body = s[2:].lstrip("*")
            if "*/" in body:
                out.append((n, body[: body.find("*/")]))
                out.append(None)
            else:
                out.append((n, body))
                in_block = True
            continue
        if s.startswith("//"):
            out.append((n, s.lstrip("/").lstrip("!<").strip()))
            continue
        out.append(None)
    return out


def _blocks(lines):
    block = []
    for item in _comment_lines(lines) + [None]:
        if item is None:
            if block:
                yield block
            block = []
        else:
            block.append(item)


def _next_declaration(lines, after):
    for line in lines[after: after + 6]:
        m = re.match(r"^\s*(?:CUresult\s+CUDAAPI\s+)?(\w+)\s*\(", line.replace("CUresult CUDAAPI ", ""))
        if m:
            return m.group(1)
    return ""


def read_header_comments(lines, section, only_before=None):
    """Paragraphs of a header's comments (license text and \\code blocks skipped).

    With only_before (a regex), only the comment blocks documenting a matching declaration are read,
    each under that declaration's name as its section."""
    out = []
    for block in _blocks(lines):
        text = " ".join(t for _, t in block)
        if _LICENSE.search(text) and len(block) > 3:
            continue
        sec = section
        if only_before:
            name = _next_declaration(lines, block[-1][0])
            if not re.fullmatch(only_before, name):
                continue
            sec = name
        buf, code = [], False
        for n, t in block:
            if t.strip().startswith("\\code"):
                code = True
            if code:
                code = not t.strip().startswith("\\endcode")
                continue
            if not t.strip() or _LIST_ITEM.match(t) or re.match(r"\s*[\\@](param|return|note)\b", t):
                if buf:
                    out.append(joined(sec, buf))
                buf = []
                if not t.strip():
                    continue
                t = _LIST_ITEM.sub("", t, count=1)
            buf.append((n, t))
        if buf:
            out.append(joined(sec, buf))
    return [p for p in out if not _INTERNAL.search(p.text)]


_GATE = re.compile(r"^//\s*(.*?;)\s*//\s*(?:\d+[a-z]?\.\s*)?PTX ISA\s*(\d)(\d+),\s*(SM_\w+(?:,\s*SM_\w+)*)\s*$")


def read_ptx_wrapper_gates(lines, instruction):
    """One statement per documented cuda::ptx wrapper: its PTX form and the PTX ISA and SM it requires."""
    out = []
    for i, line in enumerate(lines):
        m = _GATE.match(line.strip())
        if not m:
            continue
        variants, name = [], ""
        for follow in lines[i + 1: i + 20]:
            f = follow.strip()
            v = re.match(r"^//\s*(\.\w+\s*=\s*\{.*\})", f)
            if v:
                variants.append(re.sub(r"\s+", " ", v.group(1)))
            d = re.search(r"__device__ static inline \S+ (\w+)\(", f)
            if d:
                name = d.group(1)
            if f == "*/":
                break
        isa = f"{m.group(2)}.{m.group(3)}"
        form = re.sub(r"\s+", " ", m.group(1))
        text = (f"cuda::ptx::{name or instruction} issues `{form}`"
                + (f" ({', '.join(variants)})" if variants else "")
                + f" and requires PTX ISA {isa} and {m.group(4).replace(',', ' or')}.")
        out.append(Paragraph(instruction, i + 1, text))
    return out
