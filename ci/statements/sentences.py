"""Sentence splitting and normative-keyword detection for the statement index."""
import hashlib
import re

# Normative words: a sentence without one of these states no rule.
EN_KEYWORDS = re.compile(
    r"\b(must|shall|should|required|requires?|only|undefined|unspecified|supports?|supported|"
    r"unsupported|guarantee[sd]?|defaults?|cannot|can not|may not|illegal|invalid|not allowed|"
    r"always|never)\b",
    re.IGNORECASE,
)
ZH_KEYWORDS = re.compile(
    "必须|必須|需要|须|須|只能|只支援|只支持|仅|僅|未定义|未定義|支持|支援|保证|保證|默认|預設|预设|"
    "应该|應該|应当|應當|不能|不可|禁止|一定|总是|總是|永远|永遠|要求|务必|務必|只有|唯一|不得|无法|無法"
)

# A sentence ends at . ! ? followed by space and a capital/quote/backtick, or at CJK punctuation.
_EN_SPLIT = re.compile(r"(?<=[A-Za-z0-9)`'\"][.!?])\s+(?=[A-Za-z`(\[*\"'\u4e00-\u9fff])")
_ZH_SPLIT = re.compile(r"(?<=[。！？；])")
_ABBREV = re.compile(r"(\b(e\.g|i\.e|etc|vs|cf|Fig|Sec|No|resp)|\b[A-Za-z]|\.[A-Za-z_:]+|::\w+)\.$", re.IGNORECASE)


def keywords(sentence):
    """The normative keywords a sentence contains, lowercased, in order, without repeats."""
    found = [m.group(0).lower() for m in EN_KEYWORDS.finditer(sentence)]
    found += [m.group(0) for m in ZH_KEYWORDS.finditer(sentence)]
    out = []
    for k in found:
        if k not in out:
            out.append(k)
    return out


def split_sentences(text):
    """Split one paragraph (already joined into a single line) into sentences."""
    parts = []
    for chunk in _ZH_SPLIT.split(text):
        pieces = _EN_SPLIT.split(chunk)
        merged = []
        for p in pieces:
            if merged and _ABBREV.search(merged[-1]):
                merged[-1] += " " + p
            else:
                merged.append(p)
        parts.extend(merged)
    return [p.strip() for p in parts if p.strip()]


def normalize(sentence):
    """What the id hash is computed from: markup and spacing do not change an id."""
    s = re.sub(r"[`*_]+", "", sentence)
    s = re.sub(r"\s+", " ", s)
    return s.strip().lower()


def short_hash(sentence):
    return hashlib.sha1(normalize(sentence).encode("utf-8")).hexdigest()[:6]


def slug(title, limit=32):
    """A section's id part: the ASCII words of its title (after the last colon), else a hash."""
    t = title.split(":")[-1] if ":" in title else title
    t = re.sub(r"^[\d.]+\s*", "", t.strip())
    words = re.findall(r"[A-Za-z0-9]+", t.lower())
    s = ""
    for w in words:
        if len(s) + len(w) + 1 > limit:
            break
        s = w if not s else s + "-" + w
    if s:
        return s
    num = re.match(r"^\s*(\d+(?:\.\d+)*)", title)
    if num:
        return "s" + num.group(1).replace(".", "-")
    return "h" + hashlib.sha1(title.strip().encode("utf-8")).hexdigest()[:4]
