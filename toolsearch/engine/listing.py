"""The listing of deferred tools embedded in the ``tool_search`` description (docs/reference.md §5).

Group blocks are rendered once per deferred set; choosing the form for a budget then only adds
up lengths (chars4) or the counts of blocks counted once (BPE tokenizers, where the parts add up
exactly; otherwise each candidate text is counted), so a re-plan is cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import constants as C
from .profile import Profile

# A sentence ends at . ! ? followed by whitespace or the end of the text (docs/reference.md §5.1).
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
# "e.g." "i.e." "etc." at a word start, lowercase, do not end a sentence.
_PROTECTED = re.compile(r"\b(?:e\.g|i\.e|etc)$")


def short_description(description: str | None) -> str:
    """First sentence of a description, at most 60 characters (+ ``…``) (docs/reference.md §5.1).

    Whitespace runs collapse to one space; the first ``.``/``!``/``?`` followed by whitespace or
    the end ends the sentence, except the dot closing a lowercase ``e.g``, ``i.e`` or ``etc`` at a
    word start. Over 60 characters: cut at the last space within the first 60 (else hard cut),
    strip trailing ``,;:`` and spaces, append ``…`` (at most 61 characters). Empty → ``""``.
    """
    # str.split() splits at exactly the characters \s matches in a str pattern (str.isspace()),
    # so this equals collapsing \s+ runs to one space and stripping, and is faster.
    text = " ".join((description or "").split())
    if not text:
        return ""
    for match in _SENTENCE_END.finditer(text):
        if match.group() == "." and _PROTECTED.search(text, 0, match.start()):
            continue
        text = text[: match.end()]
        break
    limit = C.SHORT_DESCRIPTION_MAX_CHARS
    if len(text) <= limit:
        return text
    head = text[:limit]
    if " " in head:
        head = head[: head.rfind(" ")]
    return head.rstrip(",;: ") + C.ELLIPSIS


@dataclass(frozen=True)
class GroupBlocks:
    """One listing group rendered in its three forms.

    Attributes:
        label: the group label (docs/reference.md §5.2).
        names: tool names, sorted by (name, short description).
        full: heading plus one ``- name: desc`` line per tool.
        names_block: heading plus one line of names joined by ``", "``.
        summary: the one-line summary of a collapsed group.
    """

    label: str
    names: tuple[str, ...]
    full: str
    names_block: str
    summary: str


def render_groups(entries: Iterable[tuple[str, str, str | None]], profile: Profile) -> list[GroupBlocks]:
    """Render the groups of a deferred catalog (docs/reference.md §5.2, §5.3).

    Args:
        entries: ``(label, name, description)`` per deferred tool, in any order.
        profile: the wording (header, heading, line and summary patterns).

    Returns:
        Groups sorted by label (code-point order); tools in a group sorted by
        ``(name, short description)``. Input order never changes the result.
    """
    grouped: dict[str, list[tuple[str, str]]] = {}
    for label, name, description in entries:
        grouped.setdefault(label, []).append((name, short_description(description)))
    blocks = []
    full_line = profile.formatter("listing", "full_line", "name", "description")
    bare_line = profile.formatter("listing", "full_line_bare", "name")
    for label in sorted(grouped):
        items = sorted(grouped[label])
        heading = profile.text("listing", "group_heading", label=label, count=len(items))
        # profile.text fills each placeholder once; the same with format strings made once (one
        # call per line is a noticeable part of a 50,000-tool plan).
        lines = [full_line.format(n, d) if d else bare_line.format(n) for n, d in items]
        sep = profile.sections["listing"]["names_separator"]
        blocks.append(GroupBlocks(
            label=label,
            names=tuple(n for n, _ in items),
            full="\n".join([heading, *lines]),
            names_block=heading + "\n" + sep.join(n for n, _ in items),
            summary=profile.text("listing", "summary_line", label=label, count=len(items)),
        ))
    return blocks


@dataclass(frozen=True)
class DegradationStep:
    """One candidate the degradation tried (docs/reference.md §5.4).

    Attributes:
        form: ``full``, ``names``, ``mixed`` or ``groups``.
        collapsed: labels shown as summaries at this step, in collapse order (a tuple, or a
            :class:`CollapsedPrefix`, which compares equal to the same tuple).
        tokens: the candidate text's size in the planning tokenizer.
        fits: ``tokens <= budget``.
    """

    form: str
    collapsed: Sequence[str]
    tokens: int
    fits: bool

    def to_dict(self) -> dict[str, Any]:
        """The step in ``plan --json``: ``collapsed_count`` (how many labels of ``collapse_order``
        are summaries at this step: the first that many) and ``collapsed_label`` (the one this step
        collapsed, the last of them; ``None`` for ``full`` and ``names``) instead of the collapsed
        labels themselves, which would make the steps grow with the square of the servers."""
        count = len(self.collapsed)
        return {"form": self.form, "collapsed_count": count,
                "collapsed_label": self.collapsed[count - 1] if count else None,
                "tokens": self.tokens, "fits": self.fits}


class CollapsedPrefix(Sequence[str]):
    """The first ``count`` labels of a collapse order, without a copy of them.

    Step *k* of the degradation collapses the first *k* servers of one order, so a tuple per step
    held n²/2 labels for n servers: 20,000 servers (a 2.5 MB catalog file) took 1.7 GB for the steps
    alone. Every step shares the one order instead. It reads like the tuple it stands for, and is
    equal to it.
    """

    __slots__ = ("_order", "_count")

    def __init__(self, order: tuple[str, ...], count: int) -> None:
        self._order = order
        self._count = count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):  # without copying the whole prefix first (a step's table cell reads a few)
            picked = range(self._count)[index]
            if picked.step == 1:
                return self._order[picked.start:picked.stop]
            return tuple(self._order[i] for i in picked)
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("collapsed label index out of range")
        return self._order[index]

    def __iter__(self) -> Iterator[str]:
        return islice(self._order, self._count)

    def __contains__(self, label: object) -> bool:
        return any(label == item for item in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, CollapsedPrefix)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return CollapsedPrefix, (self._order, self._count)


@dataclass(frozen=True)
class ListingChoice:
    """The outcome of the degradation.

    Attributes:
        form: ``full`` | ``names`` | ``mixed`` | ``groups`` | ``none``.
        text: the listing (header + blocks joined with ``\\n``), or ``None`` for ``none``.
        tokens: the listing's size in the planning tokenizer (0 for ``none``).
        states: ``{label: "full" | "names" | "summary" | "hidden"}``.
        collapse_order: every label in the order docs/reference.md §5.4 would collapse them.
        steps: the candidates tried, in order.
    """

    form: str
    text: str | None
    tokens: int
    states: dict[str, str]
    collapse_order: tuple[str, ...]
    steps: tuple[DegradationStep, ...]


def collapse_order(groups: Sequence[GroupBlocks]) -> list[GroupBlocks]:
    """docs/reference.md §5.4 step 3 order: descending names-block length (characters), ties by label ascending."""
    return sorted(groups, key=lambda g: (-len(g.names_block), g.label))


def _compose(header: str, blocks: Sequence[str]) -> str:
    return "\n".join([header, *blocks])


#: Collapsed servers named in full in a step's description; past it, the first and last few.
COLLAPSED_NAMED_MAX = 12


def collapsed_words(collapsed: Sequence[str], show: Callable[[str], str] = str) -> str:
    """The servers collapsed at a degradation step, for a table cell: every label (each through
    ``show``), or past :data:`COLLAPSED_NAMED_MAX` the first five and the last five (the last is the
    one this step collapsed) with the count between them: a cell per step naming every label
    would make the steps table grow with the square of the servers."""
    count = len(collapsed)
    if count <= COLLAPSED_NAMED_MAX:
        return ", ".join(show(label) for label in collapsed)
    return (", ".join(show(label) for label in collapsed[:5]) + f", … {count - 10:,} more …, "
            + ", ".join(show(label) for label in collapsed[count - 5:]))


def _splits_cleanly(block: str) -> bool:
    """True when a BPE pre-tokenizer (tiktoken's ``cl100k_base`` and ``o200k_base`` patterns)
    always ends a piece at a ``\n`` followed by ``block``: the block starts with a character
    that no piece continues into past a newline (not whitespace, not ``/``)."""
    first = block[:1]
    return bool(first) and not first.isspace() and first != "/"


def _segment_counter(blocks: Sequence[str], count: Callable[[str], int],
                     cache: dict[tuple[str, bool], int] | None) -> Callable[[str, bool], int] | None:
    """Tokens of one listing segment, or ``None`` when the listing cannot be counted in parts.

    A listing is ``header + "\n" + block + "\n" + … + block``. When every block starts with a
    character at which the pre-tokenizer always starts a new piece (:func:`_splits_cleanly`),
    no piece spans a joining newline and BPE merges never cross pieces, so the listing's count
    is the sum of the counts of its segments: the header and each block with its joining ``\n``
    (the last block without). Each segment is counted once and remembered in ``cache``
    (``{(text, followed by a newline): tokens}``), so a degradation step costs a subtraction and
    an addition instead of counting the whole candidate again.
    """
    if not all(_splits_cleanly(b) for b in blocks):
        return None
    memo = cache if cache is not None else {}

    def segment(text: str, joined: bool) -> int:
        key = (text, joined)
        tokens = memo.get(key)
        if tokens is None:
            tokens = memo[key] = count(text + "\n" if joined else text)
        return tokens

    return segment


def choose_listing(groups: Sequence[GroupBlocks], budget: int, header: str,
                   count: Callable[[str], int] | None = None, *, bpe: bool = False,
                   cache: dict[tuple[str, bool], int] | None = None) -> ListingChoice:
    """Pick the listing form for ``budget`` tokens with the greedy per-server degradation (docs/reference.md §5.4).

    Args:
        groups: rendered groups in label order.
        budget: the listing budget in tokens.
        header: the listing's first line.
        count: token counter for candidate texts; ``None`` means chars4, computed from lengths
            without building the texts. Any other counter counts each candidate text in full,
            unless ``bpe`` is set.
        bpe: ``count`` is a tiktoken BPE count (``cl100k_base``, ``o200k_base``): each block is
            then counted once and the parts are added up wherever that gives the whole text's
            count exactly (see :func:`_segment_counter`), with the same results as counting
            every candidate in full. (A chars4 count does not add up over parts: it rounds.)
        cache: with ``bpe``, an optional ``{(segment text, followed by a newline): tokens}`` the
            caller keeps for one ``count`` (the planner keeps one per tokenizer), so later calls
            count no segment again.

    Returns:
        A :class:`ListingChoice`. ``fits`` means ``tokens(text) <= budget``.
    """
    steps: list[DegradationStep] = []
    order = collapse_order(groups)
    order_labels = tuple(g.label for g in order)
    segment = None
    if count is not None and bpe and groups:
        segment = _segment_counter([b for g in groups for b in (g.full, g.names_block, g.summary)], count, cache)

    def measure(blocks: list[str]) -> int:
        if count is None:
            length = len(header) + sum(1 + len(b) for b in blocks)
            return -(-length // 4)
        if segment is not None:
            return segment(header, True) + sum(segment(b, True) for b in blocks[:-1]) + segment(blocks[-1], False)
        return count(_compose(header, blocks))

    def result(form: str, blocks: list[str] | None, tokens: int, states: dict[str, str]) -> ListingChoice:
        text = _compose(header, blocks) if blocks is not None else None
        return ListingChoice(form, text, tokens, states, order_labels, tuple(steps))

    full = [g.full for g in groups]
    tokens = measure(full)
    steps.append(DegradationStep("full", (), tokens, tokens <= budget))
    if tokens <= budget:
        return result("full", full, tokens, {g.label: "full" for g in groups})
    names = [g.names_block for g in groups]
    tokens = measure(names)
    steps.append(DegradationStep("names", (), tokens, tokens <= budget))
    if tokens <= budget:
        return result("names", names, tokens, {g.label: "names" for g in groups})
    collapsed: list[str] = []
    index = {g.label: i for i, g in enumerate(groups)}
    current = list(names)
    # chars4: keep the candidate's length as a running sum, so each step costs O(1), not O(groups);
    # a BPE counter whose listing splits cleanly keeps a running sum of segment counts.
    length = len(header) + sum(1 + len(b) for b in names)
    last = len(groups) - 1
    for group in order:
        collapsed.append(group.label)
        position = index[group.label]
        current[position] = group.summary
        if count is None:
            length += len(group.summary) - len(group.names_block)
            tokens = -(-length // 4)
        elif segment is not None:
            joined = position != last
            tokens += segment(group.summary, joined) - segment(group.names_block, joined)
        else:
            tokens = measure(current)
        form = "groups" if len(collapsed) == len(groups) else "mixed"
        steps.append(DegradationStep(form, CollapsedPrefix(order_labels, len(collapsed)), tokens, tokens <= budget))
        if tokens <= budget:
            done = set(collapsed)
            states = {g.label: ("summary" if g.label in done else "names") for g in groups}
            return result(form, list(current), tokens, states)
    return result("none", None, 0, {g.label: "hidden" for g in groups})
