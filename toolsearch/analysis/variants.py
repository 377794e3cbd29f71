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
from typing import Any, Mapping

from ..engine.errors import ToolsearchError
from ..engine.search import SearchOptions

REFERENCE = "reference"


class VariantError(ToolsearchError):
    """A variant name is not registered (nor a ``+`` combination of registered names)."""


@dataclass(frozen=True)
class Variant:
    """One registered variant.

    Attributes:
        name: the name used on the command line and in the app.
        switches: :class:`SearchOptions` fields it sets (empty for the reference).
        summary: one sentence saying what it changes.
    """

    name: str
    switches: Mapping[str, Any]
    summary: str

    @property
    def what_if(self) -> bool:
        """True for every variant but the reference (what the model really gets)."""
        return self.name != REFERENCE


def _v(name: str, summary: str, **switches: Any) -> Variant:
    SearchOptions(**switches)  # fail at import on a bad switch
    return Variant(name, MappingProxyType(switches), summary)


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
)})
#: What ``toolsearch eval`` and the app compare when no variant is named: every registered one.
DEFAULT_VARIANTS: tuple[str, ...] = tuple(VARIANTS)
#: One sentence per variant, for tables and help text.
VARIANT_HELP: Mapping[str, str] = MappingProxyType({name: v.summary for name, v in VARIANTS.items()})


def variant_options(name: str) -> SearchOptions:
    """The :class:`SearchOptions` of a variant name such as ``no-gate`` or ``unicode+no-gate``.

    Raises:
        VariantError: a part that is not registered.
    """
    switches: dict[str, Any] = {}
    for part in name.split("+"):
        part = part.strip()
        if part not in VARIANTS:
            raise VariantError(f"unknown variant {part!r} in {name!r}: expected one of {', '.join(VARIANTS)}, "
                               "or several joined with '+'")
        switches.update(VARIANTS[part].switches)
    return replace(SearchOptions(), **switches)


def is_reference(name: str) -> bool:
    """True when ``name`` gives exactly the reference search (e.g. ``reference``)."""
    return variant_options(name) == SearchOptions()


def variant_label(name: str) -> str:
    """How results are labeled: ``"reference (what the model gets)"`` or ``"what-if: NAME"``."""
    return f"{REFERENCE} (what the model gets)" if is_reference(name) else f"what-if: {name}"
