"""Readers that turn a document into paragraphs: (section, line, text) with the line where each starts.

Markdown (the PTX ISA sections, seed 004), plain-text seeds (headings guessed from numbering and
short unpunctuated lines), and C/C++ header comments (cuda.h, cuda_pipeline*.h, libcu++)."""
import re

from sentences import keywords

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_NUM_HEADING = re.compile(r"^\d+(\.\d+)+\.?\s+\S")
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s+")
_CODE_LINE = re.compile(
    r"^\s*(//|/\*|\*/|#include|#pragma|#if|#endif|#else|#define|template\b|using\b|__global__|__device__|"
    r"__shared__|[{}]|for\s*\(|if\s*\(|while\s*\(|return\b|auto\b|int\b|float\b|void\b|const\b|"
    r"extern\b|struct\b|namespace\b|cuda::|cg::|asm\b|[│▼─┌└├])"
    r"|[;{}]\s*(//.*)?$"
)


class Paragraph:
    """Text joined from source lines; starts: (offset in text, source line) of each joined line."""

    def __init__(self, section, line, text, starts=None):
        self.section, self.line, self.text = section, line, text
        self.starts = starts or [(0, line)]

    def line_at(self, offset):
        line = self.line
        for off, ln in self.starts:
            if off <= offset:
                line = ln
        return line


def joined(section, buf):
    """A Paragraph from [(line, text)], remembering where each line starts in the joined text."""
    parts, starts, off = [], [], 0
    for n, t in buf:
        t = t.strip()
        starts.append((off, n))
        parts.append(t)
        off += len(t) + 1
    return Paragraph(section, buf[0][0], " ".join(parts), starts)


def _flush(out, section, buf):
    if buf:
        out.append(joined(section, buf))
    return []


def _table_cells(line):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
        return None  # the separator row
    return " | ".join(c for c in cells if c)


def _numbered_title(title, level, numbered):
    """An unnumbered heading ("##### cp.async") takes the number of the numbered heading above it."""
    num = re.match(r"^(\d+(?:\.\d+)*)\.?\s", title)
    for lv in [k for k in numbered if k >= level]:
        del numbered[lv]
    if num:
        numbered[level] = num.group(1)
        return title
    parents = [numbered[k] for k in sorted(numbered) if k < level]
    return f"{parents[-1]} {title}" if parents else title


def read_markdown(lines):
    """Paragraphs of a Markdown document; fenced code is skipped, list items and table rows stand alone."""
    out, buf, section, fence = [], [], "", False
    numbered = {}  # heading level -> the section number of the nearest numbered heading there
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            buf = _flush(out, section, buf)
            fence = not fence
            continue
        if fence:
            continue
        h = _MD_HEADING.match(line)
        if h:
            buf = _flush(out, section, buf)
            section = _numbered_title(h.group(2).strip(), len(h.group(1)), numbered)
            continue
        if not line.strip() or re.fullmatch(r"\s*\*\*[^*]+\*\*\s*", line):
            buf = _flush(out, section, buf)
            continue
        if line.lstrip().startswith("|"):
            buf = _flush(out, section, buf)
            row = _table_cells(line)
            if row:
                out.append(Paragraph(section, n, row))
            continue
        if _LIST_ITEM.match(line):
            buf = _flush(out, section, buf)
            line = _LIST_ITEM.sub("", line, count=1)
        buf.append((n, line))
    _flush(out, section, buf)
    return out


def _is_text_heading(line):
    s = line.strip()
    if _NUM_HEADING.match(s) and len(s) < 90 and not re.search(r"[。，,;；:：]\s*$", s):
        return True
    # Short unpunctuated lines ("LDGSTS 基本概念", "重點總覽") are headings in the plain-text seeds.
    return len(s) <= 40 and not keywords(s) and not re.search(r"[。，,;；:：!?！？()（）=<>\[\]`]", s) and not _CODE_LINE.search(s)


def read_plain_text(lines):
    """Paragraphs of a plain-text seed: one line is one paragraph; code lines are skipped."""
    if any(_MD_HEADING.match(l) for l in lines[:3]):
        return read_markdown(lines)
    out, section = [], ""
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if s.startswith("|"):
            row = _table_cells(s)
            if row:
                out.append(Paragraph(section, n, row))
            continue
        if _CODE_LINE.search(s):
            continue
        if _is_text_heading(s):
            section = s
            continue
        out.append(Paragraph(section, n, _LIST_ITEM.sub("", s, count=1)))
    return out
