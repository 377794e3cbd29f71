"""Text for the views: untrusted catalog and server text made literal, and numbers formatted.

Used by every view and by the literal-text tables (:mod:`toolsearch.ui.tables`); imports no other
view module.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Sequence

from toolsearch.analysis.quantities import context_share
from toolsearch.engine import constants as C
from toolsearch.engine.invisible import reveal, reveal_data, reveal_line, shortened


#: ``/`` too: Streamlit turns ``:material/NAME:`` into an icon before Markdown reads the escapes
#: (``\\:material/home\\:`` is still an icon; ``\\:material\\/home\\:`` is the text).
_MD_SPECIAL = set("\\`*_{}[]()#+-.!|~<>$:&=/")

#: Words Streamlit's Markdown replaces in the text after escapes are resolved, so no escape keeps
#: them: standing alone, ``->`` (→), ``<-`` (←), ``<->`` (↔), ``--`` (—), ``>=`` (≥), ``<=`` (≤)
#: and ``~=`` (≈), and ``:streamlit:`` anywhere (its logo). Such a word is shown as a code span.
_REPLACED_WORDS = frozenset({"->", "<-", "<->", "--", ">=", "<=", "~="})


#: A word Streamlit's Markdown would turn into a link even with every character escaped: its
#: autolinking (GFM) finds ``scheme://``, ``www.`` and e-mail addresses in the text after escapes
#: are resolved, so such a word is shown as a code span, whose text is never linked.
_LINKISH = re.compile(r"(?i)://|www\.|@[^@]*\.|\b(?:mailto|xmpp):")


def _code_span(word: str) -> str:
    """``word`` as a Markdown code span (fence longer than any backtick run inside it)."""
    fence = "`" * (max((len(run) for run in re.findall("`+", word)), default=0) + 1)
    pad = " " if word.startswith("`") or word.endswith("`") else ""
    return f"{fence}{pad}{word}{pad}{fence}"


def md_escape(text: str, keep_newlines: bool = False) -> str:
    """Untrusted text made literal inside a Streamlit markdown string (backslash escapes; no HTML,
    links, emphasis, math, colour directives or icons; a word that Markdown would autolink, such as
    a URL or an e-mail address, or that Streamlit would replace, such as ``->`` or ``:streamlit:``,
    becomes a code span). Newlines become spaces unless ``keep_newlines``.
    Prefer ``st.text``/``st.code`` where possible."""
    text = str(text) if keep_newlines else str(text).replace("\n", " ")
    return "".join(_code_span(word) if _LINKISH.search(word) or word in _REPLACED_WORDS or ":streamlit:" in word
                   else "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in word)
                   for word in re.split(r"(\s+)", text))


def visible(text: Any) -> Any:
    """Untrusted tool text with invisible characters shown as markers (``⟨U+200B⟩``, decoded TAG
    text as ``⟨TAG '…'⟩``; :func:`toolsearch.engine.invisible.reveal`); other values unchanged. Use it
    wherever tool names, descriptions or schemas from a catalog or server are shown."""
    return reveal(text) if isinstance(text, str) else text


def visible_name(text: Any) -> Any:
    """A name (of a tool or a server) as :func:`visible` shows it, with line breaks and tabs shown
    as markers too (``⟨U+000A⟩``, :func:`toolsearch.engine.invisible.reveal_line`, as the CLI
    writes a table cell): a name is one line, so a newline in it is shown, never drawn as a second
    line. Other values unchanged."""
    return reveal_line(text) if isinstance(text, str) else text


def table_name(text: Any) -> Any:
    """A server or tool name as a table cell shows it: :func:`visible_name`, whole up to
    :data:`~toolsearch.engine.constants.SHOWN_NAME_MAX_CHARS` characters and a longer one cut with
    ``…`` and its length (:func:`toolsearch.engine.invisible.shortened`, as the command line's
    tables show it): a 100,000-character server name filled screens of one cell. The JSON views
    and downloads keep the whole name. Other values unchanged."""
    return visible_name(shortened(text)) if isinstance(text, str) else text


#: How much of a query the Search page's heading of it shows (a query file allows 2,000 characters,
#: the search box more); the response's exact JSON holds the whole query.
QUERY_HEADING_CHARS = 200


def query_heading(number: int, query: str) -> str:
    """``Query 3: text`` on one line, as :func:`visible_name` shows the query, cut after
    :data:`QUERY_HEADING_CHARS` characters with how many it has in all (a 10,000-character query
    filled the page above its results)."""
    if len(query) <= QUERY_HEADING_CHARS:
        return f"Query {number}: {visible_name(query)}"
    return (f"Query {number}: {visible_name(query[:QUERY_HEADING_CHARS])}… ({len(query):,} characters; the "
            "response's JSON tab holds the whole query)")


def visible_json(value: Any) -> str:
    """``value`` as indented JSON for ``st.code``, every string through :func:`visible`."""
    import json  # noqa: PLC0415

    return json.dumps(reveal_data(value), ensure_ascii=False, indent=2)


def fmt_tokens(n: int) -> str:
    """``12,345 tokens``."""
    return f"{n:,} tokens"


def pct_of_context(tokens: int, context_length: int | None) -> str:
    """Share of the context length (:func:`toolsearch.analysis.quantities.context_share`) in words,
    ``2.5% of context``, or an em dash when it is unknown."""
    share = context_share(tokens, context_length)
    return "— (context unknown)" if share is None else f"{share} of context"


def thousands(value: Any) -> str:
    """``29700`` → ``29,700``; other values as text (``None`` → ``—``)."""
    if value is None:
        return "—"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    try:
        if float(value).is_integer() and not isinstance(value, bool):
            return f"{int(value):,}"
    except (TypeError, ValueError):
        pass
    return str(value)


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``…"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def upload_labels(files: Sequence[tuple[str, bytes]]) -> list[str]:
    """How each uploaded file ``(name, bytes)`` is named wherever the app speaks of it, in upload
    order: its name, unless files of that name with different content were uploaded (the uploader
    keeps both, and every note about either said only ``catalog.json``); then each of them is
    ``catalog.json (2nd upload)``, counting the files of that name in upload order. Should a label
    still name two contents (a file uploaded as ``catalog.json (2nd upload)`` beside two
    ``catalog.json``), each of those labels ends with its content's short SHA-256 too
    (``catalog.json (2nd upload, sha256 1a2b3c4d)``)."""
    digests = [hashlib.sha256(data).hexdigest() for _, data in files]
    contents: dict[str, set[str]] = {}
    for (name, _), digest in zip(files, digests):
        contents.setdefault(name, set()).add(digest)
    seen: dict[str, int] = {}
    counted_as: list[str] = []  # "2nd upload", or "" for a name that is the label as it is
    for name, _ in files:
        seen[name] = seen.get(name, 0) + 1
        counted_as.append("" if len(contents[name]) == 1 else f"{_ordinal(seen[name])} upload")
    labels = [f"{name} ({how})" if how else name for (name, _), how in zip(files, counted_as)]
    named: dict[str, set[str]] = {}
    for label, digest in zip(labels, digests):
        named.setdefault(label, set()).add(digest)
    return [label if len(named[label]) == 1 else
            f"{name} ({how}, sha256 {digest[:8]})" if how else f"{name} (sha256 {digest[:8]})"
            for (name, _), how, label, digest in zip(files, counted_as, labels, digests)]


def link_name(name: str) -> str:
    """A name a link carries (``catalog=``, ``with=``, ``sessions=``) as a notice quotes it: in “”,
    Markdown escaped, invisible characters and line breaks shown as markers (``⟨U+000A⟩``), whole up
    to :data:`~toolsearch.engine.constants.LINK_NAME_MAX_CHARS` characters and a longer one cut with
    ``…`` and its length, so a crafted link cannot put a paragraph of its own words into the app's
    warning."""
    if len(name) <= C.LINK_NAME_MAX_CHARS:
        return f"“{md_escape(visible_name(name))}”"
    return f"“{md_escape(visible_name(name[:C.LINK_NAME_MAX_CHARS - 1]))}…” ({len(name):,} characters)"


def link_ignored_words(ignored: Sequence[tuple[str, str, str]], instead: str = "the default is used") -> str:
    """The notice for a link's values that cannot be used, ``(query key, value as given, why)``
    each: which keys, that the defaults are used, and for each its value (as :func:`link_name`
    quotes it: literal, invisible characters shown, cut when long) and why (Markdown escaped), in
    one sentence for one value and a list under one sentence for several. ``instead``: what one
    value's notice says is used in its place (``"the whole catalog is shown"`` for a scope)."""
    if len(ignored) == 1:
        ((qkey, raw, why),) = ignored
        return (f"The link's value for {qkey}, {link_name(raw)}, is not valid here and was ignored; {instead}. "
                f"{md_escape(visible(why))}")
    keys = [qkey for qkey, _, _ in ignored]
    return (f"The link's values for {', '.join(keys[:-1])} and {keys[-1]} are not valid here and were ignored; the "
            "defaults are used.\n\n" + "\n".join(f"- {qkey}, {link_name(raw)}: {md_escape(visible(why))}"
                                                 for qkey, raw, why in ignored))
