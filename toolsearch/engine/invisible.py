"""Invisible and format characters in untrusted text: find them, decode TAG text, show them.

Tool text from servers and catalogs can carry characters a reader never sees but a model does
(or did, before registration): Unicode TAG characters (U+E0000–U+E007F, which spell hidden ASCII),
runs of variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF, which can carry one byte each),
zero-width characters, bidi controls and other format (``Cf``) characters, and raw control
characters. :func:`reveal` turns each into a visible marker (``⟨U+200B⟩``; a run of TAG characters
becomes ``⟨TAG "decoded text"⟩``, a run of variation selectors ``⟨VS ×12 "decoded"⟩``), for the
app, the CLI and the HTML report (:func:`reveal_html` highlights the markers). The one form of a
single character's marker is :func:`marker`; every surface writes a control character (ESC…) with
it, :func:`mark_controls` where nothing else may change, and a line break in a place that is one
line (a name, a table cell, an error line) with it too (``one_line=True``, :func:`reveal_line`).

Ordinary emoji are left alone: a zero-width joiner between two emoji (👨‍👩‍👧), a single variation
selector (❤️, or an ideographic variant after a Han character) and emoji tag sequences (flags).
"""

from __future__ import annotations

import datetime
import html
import json
import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import regex

from .constants import ELLIPSIS, SHOWN_NAME_MAX_CHARS

#: Kinds, most dangerous first.
KINDS = ("tag", "variation", "bidi", "zero-width", "format", "control")
_ZERO_WIDTH = {0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF}
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}
_TAG_RUN = re.compile("[\U000E0000-\U000E007F]+")
#: Characters that end or split a line: shown as markers where the text is one line (``one_line``).
LINE_BREAKS = frozenset("\n\t\u2028\u2029")
#: C0 but newline and tab, DEL, C1, and a lone surrogate (no UTF-8 text holds one: written raw it
#: ends the output with UnicodeEncodeError)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_OR_BREAK = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
#: Characters worth a look: TAG block, Cf, and C0/C1 controls other than newline and tab.
#: Every ``Cf`` character of Unicode 15 is in it (a newer ``unicodedata`` may add some: tests/test_invisible_format_characters.py checks).
_CANDIDATE = re.compile("[\U000E0000-\U000E007F\U000E0100-\U000E01EF\ufe00-\ufe0f\u00ad\u0600-\u0605\u061c\u06dd\u070f"
                        "\u0890\u0891\u08e2\u180e\u200b-\u200f"
                        "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
                        "\U00013430-\U0001343f\U0001bca0-\U0001bca3"
                        "\U0001d173-\U0001d17a\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
#: Emoji tag sequences (subdivision flags) are visible and legitimate (docs/reference.md §22 keeps them).
_EMOJI_TAG_SEQUENCE = re.compile("\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F")
#: A zero-width joiner inside an emoji ZWJ sequence (👨‍👩‍👧, 🏳️‍🌈): an emoji (with an optional
#: variation selector or skin tone) on each side. Such a joiner only draws the emoji together.
_EMOJI_ZWJ = regex.compile(r"(?<=\p{Extended_Pictographic}[\N{VARIATION SELECTOR-16}\U0001F3FB-\U0001F3FF]?)\u200d"
                           r"(?=\p{Extended_Pictographic})")
#: The same, with the line breaks of :data:`LINE_BREAKS`.
_CANDIDATE_LINE = re.compile(_CANDIDATE.pattern[:-1] + "\n\t\u2028\u2029]")
#: A variation-selector run shorter than this is ordinary text (❤️, 葛󠄀); longer runs carry data.
VARIATION_RUN_MIN = 2


def marker(char: str) -> str:
    """The visible form of one invisible or control character on every surface (CLI, app, HTML
    report, YAML comments): ``⟨U+001B⟩``, ``⟨U+200B⟩``, ``⟨U+000A⟩`` (four hex digits at least,
    upper case). A character U+DC80–U+DCFF is how a byte that is not UTF-8 is kept in text read
    with Python's ``surrogateescape`` (a session id in a store, say): it is shown as that byte,
    ``⟨\\xFF⟩``."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"⟨\\x{code - 0xDC00:02X}⟩"
    return f"⟨U+{code:04X}⟩"


def mark_controls(text: str, one_line: bool = False) -> str:
    """``text`` with every control character (C0 but newline and tab, DEL, C1: ESC, BEL, CSI, OSC…)
    and every lone surrogate (``⟨U+D800⟩``) as its :func:`marker`, and nothing else changed, so a
    terminal never receives one. With ``one_line``, newline, tab and the line/paragraph separators U+2028/U+2029 too, so the text
    cannot split a table row or start a line of its own."""
    pattern = _CONTROL_OR_BREAK if one_line else _CONTROL
    return pattern.sub(lambda m: marker(m.group()), text)


def kind_of(char: str, one_line: bool = False) -> str | None:
    """``tag`` | ``variation`` (a variation selector) | ``bidi`` | ``zero-width`` | ``format`` (other ``Cf``) | ``control`` (C0 except
    newline and tab, DEL, C1, and a lone surrogate) | ``None`` for a visible character. With ``one_line``, newline and tab
    are ``control`` and U+2028/U+2029 ``format`` (:data:`LINE_BREAKS`)."""
    if one_line and char in LINE_BREAKS:
        return "control" if char < " " else "format"
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag"
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return "variation"
    if code in _BIDI:
        return "bidi"
    if code in _ZERO_WIDTH:
        return "zero-width"
    if char in "\n\t":
        return None
    category = unicodedata.category(char)
    if category == "Cf":
        return "format"
    if category in ("Cc", "Cs"):  # a lone surrogate (a JSON file's "\ud800") is no character: no UTF-8 holds it
        return "control"
    return None


@dataclass(frozen=True)
class Hidden:
    """A run of invisible characters of one kind.

    Attributes:
        kind: see :func:`kind_of`.
        offset: index of the first character in the text (code points).
        text: the characters themselves.
        decoded: for ``tag`` runs, the ASCII they spell; for ``variation`` runs, the text their
            bytes spell when it is readable (:func:`decode_variation_selectors`); ``""`` otherwise.
    """

    kind: str
    offset: int
    text: str
    decoded: str = ""

    @property
    def codepoints(self) -> str:
        """``U+200B U+200B`` (at most 6, then ``…``)."""
        shown = " ".join(f"U+{ord(c):04X}" for c in self.text[:6])
        return shown + (" …" if len(self.text) > 6 else "")


def decode_tags(text: str) -> str:
    """The ASCII a run of TAG characters spells (U+E0020–U+E007E → space–``~``; others dropped)."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)


def decode_variation_selectors(text: str) -> str:
    """The text a run of variation selectors spells, read as one byte each (U+FE00–U+FE0F → 0–15,
    U+E0100–U+E01EF → 16–255, the usual way to hide data in them) and decoded as UTF-8; ``""``
    when that is not readable text (mostly printable characters)."""
    data = bytes(ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in text
                 if 0xFE00 <= ord(c) <= 0xFE0F or 0xE0100 <= ord(c) <= 0xE01EF)
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    printable = sum(1 for c in decoded if c.isprintable() or c in "\n\t")
    return decoded if decoded and printable == len(decoded) else ""


def find_hidden(text: str, one_line: bool = False) -> list[Hidden]:
    """Runs of invisible characters in ``text``, in order. Left out: emoji tag sequences (flags),
    zero-width joiners inside emoji sequences, and variation-selector runs shorter than
    :data:`VARIATION_RUN_MIN` (a single selector picks how the character before it is drawn).
    With ``one_line``, the line breaks of :data:`LINE_BREAKS` are found too."""
    candidate = _CANDIDATE_LINE if one_line else _CANDIDATE
    if not text or (text.isascii() and text.isprintable()) or not candidate.search(text):  # printable ASCII: no candidate
        return []
    skip = {i for m in _EMOJI_TAG_SEQUENCE.finditer(text) for i in range(m.start() + 1, m.end())}
    if "\u200d" in text:
        skip.update(m.start() for m in _EMOJI_ZWJ.finditer(text))
    out: list[Hidden] = []
    run_kind, run_start = None, 0
    for index, char in enumerate(text + "\0"):
        kind = None if index in skip or index == len(text) else kind_of(char, one_line)
        if kind != run_kind:
            if run_kind is not None:
                chunk = text[run_start:index]
                if run_kind == "tag":
                    out.append(Hidden(run_kind, run_start, chunk, decode_tags(chunk)))
                elif run_kind != "variation" or len(chunk) >= VARIATION_RUN_MIN:
                    out.append(Hidden(run_kind, run_start, chunk,
                                      decode_variation_selectors(chunk) if run_kind == "variation" else ""))
            run_kind, run_start = kind, index
    return out


def _marker(hidden: Hidden) -> str:
    if hidden.kind == "tag":
        return f"⟨TAG {hidden.decoded!r}⟩" if hidden.decoded else f"⟨TAG ×{len(hidden.text)}⟩"
    if hidden.kind == "variation":
        decoded = f" {hidden.decoded!r}" if hidden.decoded else ""
        return f"⟨VS ×{len(hidden.text)}{decoded}⟩"
    return "".join(marker(c) for c in hidden.text)


def reveal(text: str, one_line: bool = False) -> str:
    """``text`` with every invisible character as a visible marker: ``⟨U+200B⟩``, a control
    character as ``⟨U+001B⟩`` (:func:`marker`), and a run of TAG characters as
    ``⟨TAG 'decoded ASCII'⟩``. Newline and tab are kept unless ``one_line`` (then they, and
    U+2028/U+2029, are markers too: :func:`reveal_line`). Text without such characters is returned
    as is; a value that is not a string is returned unchanged."""
    if not isinstance(text, str):
        return text
    runs = find_hidden(text, one_line)
    if not runs:
        return text
    parts, last = [], 0
    for hidden in runs:
        parts.append(text[last:hidden.offset])
        parts.append(_marker(hidden))
        last = hidden.offset + len(hidden.text)
    parts.append(text[last:])
    return "".join(parts)


def reveal_line(text: str) -> str:
    """:func:`reveal` for a place that is one line (a name, a table cell, a message line): line
    breaks and tabs as markers too (``⟨U+000A⟩``, ``⟨U+0009⟩``)."""
    return reveal(text, one_line=True)


def quoted(text: str) -> str:
    """``text`` between single quotes as :func:`reveal_line` shows it, for naming untrusted text
    inside a message (``'a⟨U+200B⟩b'``) where ``repr`` would write escapes of its own (``\\x1b``).
    A value that is not a string is written as ``repr`` writes it (``None``, ``5``), except what
    YAML reads from an unquoted date or a ``!!binary`` value, which ``repr`` writes as Python code
    (``datetime.date(2024, 1, 1)``): ``the date 2024-01-01 (put it in quotes to keep it as text)``,
    ``binary data (a !!binary value)``."""
    if isinstance(text, str):
        return f"'{reveal_line(text)}'"
    if isinstance(text, (datetime.date, datetime.time)):  # datetime.datetime is a date
        return f"the date {text.isoformat()} (put it in quotes to keep it as text)"
    if isinstance(text, (bytes, bytearray)):
        return "binary data (a !!binary value)"
    return repr(text)


def yaml_spelled(value: Any, limit: int | None = None) -> str:
    """A value read from a YAML file, as a message quotes it: in YAML's spelling rather than
    Python's, untrusted text as every surface shows it. A string as :func:`quoted` writes it
    (``'on⟨U+202E⟩'``, invisible and control characters as markers); ``null``, ``true``,
    ``false``; a number as written (``5``, ``2.5``, ``.inf``, ``-.inf``, ``.nan``); a date or time
    in ISO form (``2001-12-14``); binary data by its size only (``!!binary (5 bytes)``); a list
    (``[1, true, null]``) or mapping (``{'a': 2001-12-14}``) of these. ``limit``: a length in
    characters past which the items of a list or mapping are no longer spelled (the caller cuts
    the text; a list of a million items is not written out first)."""
    if isinstance(value, str):
        return quoted(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else ("-.inf" if value < 0 else ".inf")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (datetime.date, datetime.time)):  # datetime.datetime is a date
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return f"!!binary ({len(value):,} bytes)"
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        pairs = value.items() if isinstance(value, dict) else value
        parts: list[str] = []
        size = 2
        for item in pairs:
            part = (f"{yaml_spelled(item[0], limit)}: {yaml_spelled(item[1], limit)}" if isinstance(value, dict)
                    else yaml_spelled(item, limit))
            parts.append(part)
            size += len(part) + 2
            if limit is not None and size > limit:
                parts.append(ELLIPSIS)
                break
        return ("{%s}" if isinstance(value, dict) else "[%s]") % ", ".join(parts)
    return quoted(repr(value))


def yaml_kind(value: Any) -> str:
    """What kind of value a YAML or JSON file gave, in the file's words rather than Python's, for a
    message that says what it got instead of what it expected (``got a mapping``, not ``got dict``).

    ``value`` is a value as the YAML or JSON reader returns it. Returns ``"a mapping"`` (a YAML
    mapping, a JSON object), ``"a list"``, ``"a string"``, ``"a whole number"`` (``5``),
    ``"a number"`` (``2.5``, ``.inf``, ``.nan``), ``"true/false"`` (a boolean), ``"null"``
    (``null``, ``~`` or nothing after the colon), ``"a date"`` (YAML reads an unquoted
    ``2024-01-01`` so, with or without a time), ``"a time"``, ``"binary data"`` (a ``!!binary``
    value), ``"a set"`` (a ``!!set`` value), and ``"a value of another kind"`` for anything else.
    The value itself is not shown: :func:`yaml_spelled` spells it."""
    if value is None:
        return "null"
    if isinstance(value, bool):  # before int: a bool is an int to Python
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, datetime.date):  # datetime.datetime is a date
        return "a date"
    if isinstance(value, datetime.time):
        return "a time"
    if isinstance(value, (bytes, bytearray)):
        return "binary data"
    if isinstance(value, (set, frozenset)):
        return "a set"
    return "a value of another kind"


def _form(text: str) -> str:
    """Which Unicode normalisation form ``text`` is written in, in words."""
    if unicodedata.is_normalized("NFC", text):
        return "composed, NFC"
    return "decomposed, NFD" if unicodedata.is_normalized("NFD", text) else "neither NFC nor NFD"


def normalisation_note(given: str, other: str) -> str:
    """Where two names that print alike differ only in Unicode normalisation (``café`` as ``e`` and a
    combining accent, and as one character), a sentence that says so, for a message that names them
    both: ``'café' differs from 'café' only in Unicode normalisation (the first decomposed, NFD; the
    second composed, NFC)``; ``""`` when they are equal or differ otherwise."""
    if given == other or unicodedata.normalize("NFC", given) != unicodedata.normalize("NFC", other):
        return ""
    return (f"{quoted(given)} differs from {quoted(other)} only in Unicode normalisation (the first "
            f"{_form(given)}; the second {_form(other)})")


def quoted_key(key: object) -> str:
    """A mapping key as the file wrote it, for a message naming it: a string as :func:`quoted`
    writes it (``'limit'``); a key YAML reads as another type (an unquoted ``null``, ``true``, number
    or date) in YAML's words rather than Python's (``null``, not ``None``), with the advice
    :func:`quoted` gives for a date: ``null (put it in quotes to keep it as text)``,
    ``the number 5 (put it in quotes to keep it as text)``."""
    if isinstance(key, str) or isinstance(key, (datetime.date, datetime.time, bytes, bytearray)):
        return quoted(key)
    if key is None:
        written = "null"
    elif isinstance(key, bool):
        written = "true" if key else "false"
    elif isinstance(key, float) and key != key:
        written = "the number .nan"
    elif isinstance(key, float) and key in (float("inf"), float("-inf")):
        written = f"the number {'-' if key < 0 else ''}.inf"
    elif isinstance(key, (int, float)):
        written = f"the number {key!r}"
    else:
        return quoted(key)
    return f"{written} (put it in quotes to keep it as text)"


def shortened(text: str, limit: int = SHOWN_NAME_MAX_CHARS) -> str:
    """``text`` as it is when it has at most ``limit`` characters; else its first ``limit - 1``,
    ``…`` and how long it is: ``'aaaa… (100,000 characters)'``. For a name a line or a cell names
    unquoted (a lint line's ``server/tool``); the caller shows it as its surface does
    (:func:`reveal_line`…). A name 100,000 characters long made a line as long."""
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}{ELLIPSIS} ({len(text):,} characters)"


def quoted_short(text: Any, limit: int = SHOWN_NAME_MAX_CHARS) -> str:
    """:func:`quoted` for a name or value a message names that may be of any length (a tool or
    server name, a query): whole up to ``limit`` characters; a longer one cut inside the quotes,
    with ``…`` and its length after them: ``'aaaa…' (100,000 characters)``. A value that is not
    a string is written as ``repr`` writes it, cut the same way (:func:`shortened`)."""
    if not isinstance(text, str):
        return shortened(quoted(text), limit)
    if len(text) <= limit:
        return quoted(text)
    return f"'{reveal_line(text[:limit - 1])}{ELLIPSIS}' ({len(text):,} characters)"


def reveal_html(text: str, one_line: bool = False) -> str:
    """HTML-escaped ``text`` with each invisible run as ``<mark class="hidden-char">`` around its
    marker (:func:`reveal`, with ``one_line`` as there); decoded TAG text is in the marker, highlighted."""
    runs = find_hidden(text, one_line)
    parts, last = [], 0
    for hidden in runs:
        parts.append(html.escape(text[last:hidden.offset]))
        parts.append(f'<mark class="hidden-char" title="{html.escape(hidden.kind)}: {html.escape(hidden.codepoints)}">'
                     f"{html.escape(_marker(hidden))}</mark>")
        last = hidden.offset + len(hidden.text)
    parts.append(html.escape(text[last:]))
    return "".join(parts)


def reveal_data(value: Any) -> Any:
    """Every string (dict keys included) in parsed JSON ``value`` through :func:`reveal`.

    Returns a copy of the same shape (tuples become lists); other values are returned as they are.
    """
    if isinstance(value, str):
        return reveal(value)
    if isinstance(value, dict):
        return {reveal(k) if isinstance(k, str) else k: reveal_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [reveal_data(v) for v in value]
    return value


#: Characters a JSON string may carry raw but a terminal must not receive: C0/C1 controls and DEL
#: (``Cc``), format characters (``Cf``: bidi controls, zero-width characters, TAG characters…),
#: lone surrogates (``Cs``) and the line/paragraph separators (``Zl``, ``Zp``).
_JSON_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_NON_ASCII_OR_DEL = re.compile("[^\x00-\x7e]")


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if unicodedata.category(char) not in _JSON_ESCAPED_CATEGORIES:
        return char
    code = ord(char)
    if code > 0xFFFF:  # astral (e.g. TAG characters U+E0000…): a UTF-16 surrogate pair, as JSON spells it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(value: Any, indent: int | None = 2) -> str:
    """``value`` as JSON text that is safe to print on a terminal and to encode as UTF-8 (a download,
    a file: a lone surrogate from a recorded session or a catalog cannot be encoded raw).

    Readable characters stay as they are (``ensure_ascii`` is off), but every character that a
    terminal would act on or hide is written as a ``\\uXXXX`` escape: controls (including DEL and
    C1), all ``Cf`` format characters (bidi overrides such as U+202E, zero-width characters,
    U+E0001… TAG characters as surrogate pairs), lone surrogates and U+2028/U+2029. Escapes are only
    possible inside JSON strings, so the text stays valid JSON and ``json.loads`` gives back
    ``value`` exactly.

    Args:
        value: anything :func:`json.dumps` accepts.
        indent: spaces per level, or ``None`` for one line.

    Returns:
        The JSON text, without a trailing newline.

    Raises:
        TypeError / ValueError: as :func:`json.dumps` for values JSON cannot hold.
    """
    return _NON_ASCII_OR_DEL.sub(_json_escape, json.dumps(value, ensure_ascii=False, indent=indent))
