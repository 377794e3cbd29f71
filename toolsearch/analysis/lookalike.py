"""Look-alike names: a server or tool name written with characters that look like another's.

``gіthub`` (with a Cyrillic ``і``) reads as ``github``; ``paypa1`` as ``paypal``. Two names are
look-alikes when their *skeletons* are equal, in the sense of Unicode's confusable detection
(UTS #39): every character is replaced by the prototype it can be confused with, after
compatibility folding (NFKC: full-width and mathematical letters) and decomposition (NFD). The confusable pairs come from the Unicode ``confusables.txt`` data shipped
with the ``confusable-homoglyphs`` package (read from the installed package, never from the
network).

That package keeps each pair in both directions (``і`` → ``i`` and ``i`` → ``і``…) without saying
which side is the prototype, so :func:`skeleton` maps every character to one representative of
its group of look-alikes: the ASCII member when there is one (the prototype of a Latin letter or
digit group), else the lowest code point; a character whose only look-alike is a sequence
(``m`` → ``rn``) maps to that sequence. Equal skeletons mean "looks alike"; the skeleton itself is
not meant to be shown.
"""

from __future__ import annotations

import functools
import unicodedata

_DIRECTION_MARKS = "\u200e\u200f"


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    """``{character: its representative}`` for every confusable single character."""
    from confusable_homoglyphs.confusables import confusables_data  # noqa: PLC0415 - 0.9 MB, loaded on first use

    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def rank(c: str) -> tuple[int, int]:
        return (0 if c.isascii() and c.isprintable() else 1, ord(c))

    sequence: dict[str, str] = {}
    for key, entries in confusables_data.items():
        key = key.strip(_DIRECTION_MARKS)
        if len(key) != 1:
            continue  # a sequence prototype ("rn"): its sources map to it below
        targets = [e["c"].strip(_DIRECTION_MARKS) for e in entries]
        if len(targets) == 1 and len(targets[0]) > 1:
            sequence[key] = targets[0]  # the key's only look-alike is a sequence: its prototype
            continue
        for target in targets:
            if len(target) == 1:
                a, b = find(key), find(target)
                if a != b:
                    keep, drop = (a, b) if rank(a) <= rank(b) else (b, a)
                    parent[drop] = keep
    table = {c: find(c) for c in list(parent)}
    table = {c: r for c, r in table.items() if c != r}
    for c, target in sequence.items():
        table[c] = "".join(table.get(t, t) for t in target)
    return table


@functools.lru_cache(maxsize=1 << 16)
def skeleton(text: str) -> str:
    """The look-alike skeleton of ``text`` (see the module docstring), case-folded: two names with
    equal skeletons look alike. ``skeleton("gіthub") == skeleton("github")``."""
    table = _table()
    # NFKC first: full-width and mathematical letters (ｇ, 𝐠) are compatibility forms of ASCII.
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text)))
    return unicodedata.normalize("NFD", mapped).casefold()


def looks_alike(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are different names that read the same: equal skeletons, and not
    merely the same letters in another case."""
    return a != b and a.casefold() != b.casefold() and skeleton(a) == skeleton(b)


def odd_characters(name: str, other: str | None = None) -> str:
    """The characters of ``name`` that make it a look-alike, described for a message:
    ``"'і' U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I at 1"`` (at most three). With
    ``other``, the characters where the two names differ; otherwise the non-ASCII ones."""
    if other is not None and len(other) == len(name):
        places = [i for i, (x, y) in enumerate(zip(name, other)) if x != y]
    else:
        places = [i for i, c in enumerate(name) if not c.isascii()]
    parts = [f"{name[i]!r} U+{ord(name[i]):04X} {unicodedata.name(name[i], 'unnamed character')} at {i}"
             for i in places[:3]]
    return ", ".join(parts) + (" …" if len(places) > 3 else "")
