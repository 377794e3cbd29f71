"""Search over the deferred catalog (docs/reference.md §7): tokenize, stem, gate term, coverage floor, BM25.

BM25 comes from ``rank_bm25`` with its IDF replaced by the reference's always-positive form
``ln(1 + (N - df + 0.5) / (df + 0.5))`` and ``avgdl`` floored at 1 (docs/reference.md §7.3). Only admitted
documents are scored, so a query costs time proportional to the gate term's postings.
"""

from __future__ import annotations

import itertools
import math
import re
import threading
import time
import unicodedata
import warnings
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

import regex

from . import constants as C

if TYPE_CHECKING:
    import numpy as np
    from rank_bm25 import BM25Okapi

# numpy (with rank_bm25, which needs it) and the Snowball stemmer are imported where a search
# needs them, not with this module: a command that only plans (and every command's start-up)
# would otherwise pay about 0.2 s of CPU to load them.

_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
#: Seconds one regex-mode search may spend on the whole catalog (names and texts together; the
#: ``regex`` package's timeout, given what is left of it to each step of the scan).
REGEX_TIMEOUT = 2.0
#: Longest regex-mode pattern searched, in characters. The ``regex`` package's search does not
#: check its timeout while it matches a long literal run (6,000 characters took 44 s on a sample
#: catalog), so a longer pattern is not searched at all (said in :meth:`RegexScan.notes`).
REGEX_MAX_PATTERN_CHARS = 200
#: Largest product of the minimum counts of a pattern's ``{m}`` / ``{m,n}`` repeats. The ``regex``
#: package unrolls them while compiling, before any timeout applies: ``a{1000000000}`` takes all
#: memory, and a product of 1,000,000 (``(?:x{1000}){1000}``) compiled to about 250 MB in 0.6 s.
#: A pattern above it is matched as literal text.
REGEX_MAX_REPEAT_PRODUCT = 10_000
#: Compiled regex-mode patterns kept (the ``regex`` package's own cache, which keeps 500, is not
#: used: 500 large patterns typed into a long-running app would be gigabytes).
REGEX_PATTERN_CACHE = 64
_REPEAT_COUNT = re.compile(r"\{\s*(\d+)\s*(?:,\s*\d*\s*)?\}")
_NAME_SEPARATORS = re.compile(r"[_.:\-]")
_local = threading.local()


def _stemmer(language: str = "english"):
    # The Snowball stemmer holds mutable state: one instance per thread and language (docs/reference.md §7.1).
    stemmers = getattr(_local, "stemmers", None)
    if stemmers is None:
        stemmers = _local.stemmers = {}
    stemmer = stemmers.get(language)
    if stemmer is None:
        import snowballstemmer  # noqa: PLC0415

        stemmer = stemmers[language] = snowballstemmer.stemmer(language)
    return stemmer


@lru_cache(maxsize=C.STEM_CACHE_SIZE)
def stem(word: str) -> str:
    """Snowball English stem of one lowercased token (memoized, docs/reference.md §7.1)."""
    return _stemmer().stemWord(word)


@lru_cache(maxsize=C.STEM_CACHE_SIZE)
def stem_russian(word: str) -> str:
    """Snowball Russian stem of one lowercased word (memoized; Unicode-aware variant only)."""
    return _stemmer("russian").stemWord(word)


_CYRILLIC = re.compile("[\u0400-\u04ff]")
# camelCase humps, acronym ends (``HTTPServer``) and letter–digit boundaries (``s3Bucket``).
_WORD_BOUNDARY = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")


_IDENTIFIER_EDGES = "\"'`?!,;:()[]{}<>"
_IDENTIFIER_MARKS = re.compile(r"[0-9_/.\\\-:#@=*]|[a-z][A-Z]")


def is_identifier(word: str) -> bool:
    """True for a whitespace-free word that looks like a value, not prose: it holds a digit, one of
    ``_ / . \\ - : # @ = *`` or a camelCase hump once surrounding quotes and punctuation are
    stripped (``MI_Rock``, ``config/settings.yaml``, ``ENG-123``, ``PlayerCharacter``)."""
    core = word.strip(_IDENTIFIER_EDGES).rstrip(".")
    return bool(core) and bool(_IDENTIFIER_MARKS.search(core))


def split_words(text: str) -> str:
    """Insert a space at camelCase humps and letter–digit boundaries: ``getPlayerStart2D`` →
    ``get Player Start 2 D``; ``HTTPServer`` → ``HTTP Server``. Used by variants with
    ``split_words`` on, for documents and queries alike."""
    return _WORD_BOUNDARY.sub(" ", text)


_LOWER_RUN = re.compile(r"[a-z]{6,}")


@lru_cache(maxsize=1)
def _word_list() -> tuple[Any, frozenset[str]]:
    import wordsegment  # noqa: PLC0415  (loaded on first use: its word list takes about a second)

    wordsegment.load()
    return wordsegment, frozenset(wordsegment.WORDS) | frozenset(wordsegment.UNIGRAMS)


@lru_cache(maxsize=C.STEM_CACHE_SIZE)
def _segment_run(run: str) -> str:
    segmenter, known = _word_list()
    if run in known:
        return run
    parts = segmenter.segment(run)
    # Keep a split only when every piece is a word of three letters or more ("generateguid" →
    # "generate guid"); otherwise the run stays whole.
    if len(parts) > 1 and all(len(p) >= 3 and p in known for p in parts):
        return " ".join(parts)
    return run


def segment_words(text: str) -> str:
    """Split run-together lowercase words that are not words themselves, with the English word
    list that the ``wordsegment`` package ships (offline): ``generateguid`` → ``generate guid``;
    ``shortener`` (a word) stays. Only runs of six letters or more are looked at, and a split is
    kept only when every piece is a word of three letters or more."""
    return _LOWER_RUN.sub(lambda m: _segment_run(m.group(0)), text.lower())


def tokenize(text: str) -> list[str]:
    """docs/reference.md §7.1: ``[A-Za-z0-9]+`` tokens, lowercased and stemmed; no stop words, no camelCase split."""
    return [stem(t.lower()) for t in _ASCII_WORD.findall(text)]


def query_tokens(text: str) -> list[tuple[str, str]]:
    """``(raw token, stem)`` pairs of a query, in order (for explanations)."""
    return [(t, stem(t.lower())) for t in _ASCII_WORD.findall(text)]


# --- Unicode-aware tokenizer (a what-if variant; the reference is tokenize above) -----------
# CJK runs: Hangul Jamo, the ideographic iteration and closing marks (々〆〇), Hiragana,
# Katakana (with ー), Katakana extensions, Hangul compatibility Jamo, CJK ideographs (Ext A, the
# main block, compatibility), Hangul syllables, and the supplementary ideograph planes.
_CJK = ("\u1100-\u11ff\u3005-\u3007\u3040-\u309f\u30a0-\u30ff\u3130-\u318f\u31f0-\u31ff"
        "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f")
_UNICODE_TOKEN = re.compile(f"([{_CJK}]+)|([^\\W_{_CJK}]+)")


def unicode_query_tokens(text: str) -> list[tuple[str, str]]:
    """``(raw token, term)`` pairs of the Unicode-aware tokenizer, in order.

    The text is NFKC-normalized (full-width letters and digits become ASCII, half-width katakana
    becomes full-width). Each run of CJK characters (Han, Hiragana, Katakana, Hangul) gives, in
    text order, every character and every overlapping pair of characters: ``経路検索`` gives
    ``経 経路 路 路検 検 検索 索``. This is Lucene's CJK bigram analysis with unigrams kept
    (``CJKBigramFilter(outputUnigrams=true)``): it needs no dictionary, so Japanese, Chinese and
    Korean work alike with no new dependency; the bigrams carry most of the meaning (``経路``
    route, ``検索`` search) and the unigrams keep one-character words findable (``駅`` station,
    ``税`` tax). Every other run of Unicode letters and digits (``\\w`` without ``_``) is one
    word, lowercased and Snowball-stemmed: with the Russian stemmer when it has a Cyrillic letter
    (``портфеля`` and ``портфель`` both give ``портфел``), else with the English one like the
    reference. On ASCII text the result equals :func:`query_tokens`, so only non-ASCII text is
    handled differently.

    Limits: bigrams across a word boundary (``路検`` above) and particle bigrams (``を調``) are
    noise that no tool contains. The ``unicode`` variant therefore ignores every non-ASCII query
    term that occurs in no tool (``SearchOptions.unknown_terms="ignore-non-ascii"``), so such a
    term never becomes the gate term; a dictionary segmenter (e.g. MeCab for Japanese) would
    avoid the noise itself, per language.
    """
    out: list[tuple[str, str]] = []
    for cjk, word in _UNICODE_TOKEN.findall(unicodedata.normalize("NFKC", text)):
        if cjk:
            for i, char in enumerate(cjk):
                out.append((char, char))
                if i + 1 < len(cjk):
                    out.append((cjk[i:i + 2], cjk[i:i + 2]))
        elif _CYRILLIC.search(word):
            out.append((word, stem_russian(word.lower())))
        else:
            out.append((word, stem(word.lower())))
    return out


_KATAKANA_WORD = re.compile("[\u30a0-\u30ff\u31f0-\u31ff]{2,}")


def katakana_words(text: str) -> list[str]:
    """Runs of two or more katakana (with ``ー``) in ``text`` (NFKC-normalized), in order:
    ``ホテルを予約して`` gives ``["ホテル"]``."""
    return _KATAKANA_WORD.findall(unicodedata.normalize("NFKC", text))


def cjk_inner_characters(text: str) -> set[str]:
    """CJK characters of ``text`` that occur only inside longer CJK runs (never as a run of their
    own): ``天気予報`` gives ``{天, 気, 予, 報}``, ``駅 出口`` gives ``{出, 口}``. Under the
    ``unicode`` variant these unigrams are never the gate term: they are part of a word that
    the run's bigrams stand for, and alone they match unrelated words (``予`` of ``予報`` forecast
    in ``予約`` reservation)."""
    inner: set[str] = set()
    alone: set[str] = set()
    for cjk, _ in _UNICODE_TOKEN.findall(unicodedata.normalize("NFKC", text)):
        if len(cjk) == 1:
            alone.add(cjk)
        else:
            inner.update(cjk)
    return inner - alone


def tokenize_unicode(text: str) -> list[str]:
    """Terms of the Unicode-aware tokenizer (see :func:`unicode_query_tokens`)."""
    return [term for _, term in unicode_query_tokens(text)]


_FALLBACK_SEPARATORS = re.compile(r"[\s_.:\-]+")


def fallback_key(text: str) -> str:
    """Text normalized for the name-substring fallback: lowercased, with whitespace, ``_``, ``.``,
    ``:`` and ``-`` removed, so "DNS records" is found in ``zones_dns_records_list``, "e-ticket"
    in ``issue_eticket`` and "on call" in ``get_current_oncall_users``."""
    return _FALLBACK_SEPARATORS.sub("", text.lower())


@dataclass(frozen=True)
class SearchDoc:
    """What the index knows of one deferred tool (docs/reference.md §7.2).

    Attributes:
        name: the wire name.
        label: the source label used in the document, ``""`` for unregistered tools.
        description: the full description (characters).
        param_names: top-level parameter names (keys of ``parameters.properties``).
        param_descriptions: the ``description`` strings of those parameters (only variants with
            ``index_param_descriptions`` index them; the reference does not).
    """

    name: str
    label: str
    description: str
    param_names: tuple[str, ...] = ()
    param_descriptions: tuple[str, ...] = ()

    def text(self) -> str:
        """The indexed text (docs/reference.md §7.2): name words, label (if not already a name word),
        description, params."""
        bare = self.name[len(C.MCP_TOOL_NAME_PREFIX):] if self.name.startswith(C.MCP_TOOL_NAME_PREFIX) else self.name
        name_words = _NAME_SEPARATORS.sub(" ", bare)
        parts = [name_words]
        if self.label and self.label not in name_words.split():
            parts.append(self.label)
        parts.append(self.description)
        parts.extend(self.param_names)
        return " ".join(parts)


def doc_for(name: str, label: str, description: str, parameters: Any) -> SearchDoc:
    """Build a :class:`SearchDoc` (docs/reference.md §7.2); ``parameters`` may be any value
    (non-dicts give no params)."""
    props = parameters.get("properties") if isinstance(parameters, Mapping) else None
    params = tuple(str(k) for k in props) if isinstance(props, Mapping) else ()
    notes = tuple(v["description"] for v in props.values()
                  if isinstance(v, Mapping) and isinstance(v.get("description"), str)) if params else ()
    return SearchDoc(name=name, label=label, description=description or "", param_names=params,
                     param_descriptions=notes)


def required_coverage(answerable: int) -> int:
    """docs/reference.md §7.4: 1 below 4 answerable terms, else ``ceil(0.5 × count)``."""
    if answerable < C.MIN_ANSWERABLE_TERMS_FOR_COVERAGE:
        return 1
    return math.ceil(C.MIN_QUERY_TERM_COVERAGE * answerable)


@lru_cache(maxsize=1)
def _reference_bm25() -> type[BM25Okapi]:
    """The BM25 class the index scores with (defined on first use, as rank_bm25 loads numpy)."""
    from rank_bm25 import BM25Okapi  # noqa: PLC0415

    class _ReferenceBM25(BM25Okapi):
        """rank_bm25's Okapi BM25 with the reference IDF (no epsilon floor) and avgdl ≥ 1."""

        def _calc_idf(self, nd: dict[str, int]) -> None:
            n = self.corpus_size
            self.idf = {word: math.log(1 + (n - df + 0.5) / (df + 0.5)) for word, df in nd.items()}
            self.avgdl = max(self.avgdl, 1.0)

    return _ReferenceBM25


@dataclass(frozen=True)
class SearchOptions:
    """Switches for what-if variants; the defaults are the reference behavior.

    Attributes:
        gate: require the rarest query term (docs/reference.md §7.4 "gate term").
        coverage: require the coverage floor (docs/reference.md §7.4 "coverage floor").
        tokenizer: ``"ascii"`` (docs/reference.md §7.1) or ``"unicode"`` (:func:`tokenize_unicode`: CJK bigrams
            and non-ASCII words become searchable), for the documents and the queries alike.
        name_substring_fallback: when a query admits nothing, return the tools whose name
            (without ``mcp__``) contains the query, both normalized by :func:`fallback_key`,
            with score 0.1 in catalog order (the early fallback of docs/reference.md §12, separators ignored).
        unknown_terms: what a query term that occurs in no tool does. ``"gate"`` (the reference):
            it stays a term, so it can become the gate term and empty the result;
            ``"ignore-non-ascii"``: non-ASCII terms in no tool are dropped before the gate is
            picked (particle bigrams, verb endings, Russian function words), except the bigrams
            of a katakana word none of whose bigrams is known (a loanword such as ホテル: an
            unknown word, which empties the result like an unknown ASCII word); and a CJK
            character from a longer run is never the gate term
            (:func:`cjk_inner_characters`); ``"ignore"``: every term in no tool is dropped.
        stop_words: drop the English function words of :data:`toolsearch.engine.constants.SEARCH_STOP_WORDS`
            ("the", "my", "how", "please"…) and numbers (``8080``, ``42``: argument values, not
            words a tool is described with) from queries before anything else.
        split_words: split camelCase humps and letter–digit boundaries (:func:`split_words`) in
            documents and queries, so ``getPlayerStart`` holds ``get player start``.
        ignore_unknown_identifiers: drop query terms that occur in no tool when they come from an
            identifier-like word (:func:`is_identifier`: ``MI_Rock``, ``config/settings.yaml``,
            ``ENG-123``): agents paste argument values into queries, and those say nothing about
            which tool fits.
        field_weights: ``(name, label, description)`` repeat counts of each field's tokens in a
            document (a simple BM25F); parameter names count once. ``(1, 1, 1)`` is the reference.
        min_known_share: when above 0, a query whose terms that occur in some tool carry less
            than this share of its total IDF admits nothing (terms in no tool count with the
            highest possible IDF): a query made mostly of words no tool knows is not about this
            catalog. 0 (the reference) turns it off.
        min_idf_share: when above 0, a document must hold at least this share of the IDF of the
            query's answerable terms (those that occur in some tool). 0 (the reference) turns it
            off.
        query_mode: ``"words"`` (the reference: the query is words) or ``"regex"``: the query is
            a case-insensitive regular expression (Python ``re.search``) matched against each
            tool's name, description, parameter names and parameter descriptions; tools whose
            name matches come first, then the others, each by wire name. A pattern that does
            not compile is matched as literal text; the scan of the catalog stops after
            :data:`REGEX_TIMEOUT` seconds (:meth:`SearchIndex.regex_scan` says whether it did).
        index_param_descriptions: index the parameters' descriptions too (after the parameter
            names).
        segment_words: split run-together words in names and parameter names, and in the query
            (:func:`segment_words`, with the ``wordsegment`` word list): ``generateguid`` holds
            ``generate guid``. Implies splitting camelCase (``split_words``) in those fields.
        param_weight: repeat count of parameter-name tokens (1 in the reference).
        max_results: when above 0, at most this many matches, whatever the limit.
        never_empty: when a query admits nothing, return the first tools by wire name (score
            0), as rankers that always answer do.
        name_coverage_bonus: when above 0, each admitted tool's score gains ``bonus × c × top``,
            where ``c`` is the share of the words of its name (without ``mcp__server__``) that
            the query holds and ``top`` the best BM25 score of the query: names the query spells
            out win, and of two such names the shorter one.
        min_best_share: when above 0, the result is empty unless the best match holds at least
            this share of the IDF of all the query's distinct terms (terms in no tool count with
            the highest IDF). This decides abstention from the evidence of the match as a whole,
            not from one rare word.
        min_best_terms: when above 0, the result is empty unless the best match contains at least
            this many distinct query terms (or all of them, for shorter queries).
        min_score_ratio: when above 1, the result is empty unless the best match's score is at
            least this many times the second's (a clear winner; one match alone always passes).
        ranker: ``"bm25"`` (the reference) or ``"semantic"``: tools are ranked by the cosine
            between the query's sentence embedding and each tool's (name words, description,
            parameter names and descriptions; :mod:`toolsearch.engine.embedding`, optional extra
            ``toolsearch[semantic]``). Every tool is ranked; the admission rules above do not
            apply, only ``min_cosine``, ``min_cosine_margin`` and ``max_results``.
        lexical_weight: semantic ranker only: each tool's score is its cosine plus this weight
            times its BM25 score (this variant's documents, no gate, no floor) divided by the
            query's best BM25 score (a hybrid; 0 ranks by cosine alone).
        min_cosine: semantic ranker only: the result is empty unless the best match's cosine
            (-1 to 1) reaches this value.
        min_cosine_margin: semantic ranker only: the result is empty unless the first match's
            score exceeds the second match's by at least this much (with ``lexical_weight`` 0, the
            lead of its cosine).

    Raises:
        ValueError: an unknown ``tokenizer`` or ``unknown_terms``, a weight below 1, or a share
            outside ``[0, 1]``.
    """

    gate: bool = True
    coverage: bool = True
    tokenizer: str = "ascii"
    name_substring_fallback: bool = False
    unknown_terms: str = "gate"
    stop_words: bool = False
    split_words: bool = False
    ignore_unknown_identifiers: bool = False
    field_weights: tuple[int, int, int] = (1, 1, 1)
    min_known_share: float = 0.0
    min_idf_share: float = 0.0
    query_mode: str = "words"
    index_param_descriptions: bool = False
    segment_words: bool = False
    param_weight: int = 1
    max_results: int = 0
    never_empty: bool = False
    name_coverage_bonus: float = 0.0
    min_best_share: float = 0.0
    min_best_terms: int = 0
    min_score_ratio: float = 0.0
    ranker: str = "bm25"
    lexical_weight: float = 0.0
    min_cosine: float = 0.0
    min_cosine_margin: float = 0.0

    def __post_init__(self) -> None:
        if self.tokenizer not in C.SEARCH_TOKENIZERS:
            raise ValueError(f"tokenizer must be one of {C.SEARCH_TOKENIZERS}, got {self.tokenizer!r}")
        if self.unknown_terms not in C.SEARCH_UNKNOWN_TERMS:
            raise ValueError(f"unknown_terms must be one of {C.SEARCH_UNKNOWN_TERMS}, got {self.unknown_terms!r}")
        if len(self.field_weights) != 3 or any(not isinstance(w, int) or w < 1 for w in self.field_weights):
            raise ValueError(f"field_weights must be three whole numbers >= 1, got {self.field_weights!r}")
        if self.query_mode not in ("words", "regex"):
            raise ValueError(f"query_mode must be 'words' or 'regex', got {self.query_mode!r}")
        for key in ("param_weight",):
            if not isinstance(getattr(self, key), int) or getattr(self, key) < 1:
                raise ValueError(f"{key} must be a whole number >= 1, got {getattr(self, key)!r}")
        for key in ("max_results", "min_best_terms"):
            if not isinstance(getattr(self, key), int) or getattr(self, key) < 0:
                raise ValueError(f"{key} must be a whole number >= 0, got {getattr(self, key)!r}")
        if self.ranker not in ("bm25", "semantic"):
            raise ValueError(f"ranker must be 'bm25' or 'semantic', got {self.ranker!r}")
        for key in ("lexical_weight", "min_cosine_margin"):
            if not getattr(self, key) >= 0:
                raise ValueError(f"{key} must be >= 0, got {getattr(self, key)!r}")
        if not -1.0 <= self.min_cosine <= 1.0:
            raise ValueError(f"min_cosine must be within [-1, 1], got {self.min_cosine!r}")
        if not self.min_score_ratio >= 0:
            raise ValueError(f"min_score_ratio must be >= 0, got {self.min_score_ratio!r}")
        if not self.name_coverage_bonus >= 0:
            raise ValueError(f"name_coverage_bonus must be >= 0, got {self.name_coverage_bonus!r}")
        for key in ("min_known_share", "min_idf_share", "min_best_share"):
            if not 0.0 <= getattr(self, key) <= 1.0:
                raise ValueError(f"{key} must be within [0, 1], got {getattr(self, key)!r}")


def evidence_abstains(options: SearchOptions, share: float, held: int, distinct: int,
                      ratio: float = math.inf, cosine: float = math.inf, margin: float = math.inf) -> bool:
    """True when a best match with IDF share ``share`` (0–1) holding ``held`` of the query's
    ``distinct`` terms, scoring ``ratio`` times the second match, is too weak for
    ``options.min_best_share`` / ``min_best_terms`` / ``min_score_ratio``, or (semantic ranker)
    its ``cosine`` is below ``options.min_cosine`` or its score leads the second's by less than
    ``options.min_cosine_margin`` (``margin``), so the result is empty.

    The evidence may also be NumPy arrays of one shape (one entry per result, as tuning applies
    many thresholds to many searches); the answer is then a boolean array of that shape."""
    import numpy as np  # noqa: PLC0415

    weak = np.less(share, options.min_best_share) | np.less(held, np.minimum(options.min_best_terms, distinct))
    if options.min_score_ratio > 1:
        weak = weak | np.less(ratio, options.min_score_ratio)
    if options.ranker == "semantic":
        weak = weak | np.less(cosine, options.min_cosine) | np.less(margin, options.min_cosine_margin)
    return weak if isinstance(weak, np.ndarray) else bool(weak)


def evidence_shortfall(options: SearchOptions, best: str, share: float, held: int, distinct: int,
                       ratio: float = math.inf) -> str:
    """Why the evidence thresholds empty a result, in words: the best match ``best`` holds
    ``share`` (0–1) of the IDF of the query's words and ``held`` of its ``distinct`` words and
    scores ``ratio`` times the second match, against ``options``' thresholds (see
    :func:`evidence_abstains`). One sentence fragment, e.g. ``"the best match (x) holds 33% of
    the IDF of the query's words and 1 of its 2 distinct words; the variant needs 20% and 2, so
    the result is empty"``."""
    ratio_text = "" if options.min_score_ratio <= 1 else (
        f"; it scores {ratio:.2f} times the second match, the variant needs {options.min_score_ratio:g}")
    return (f"the best match ({best}) holds {share:.0%} of the IDF of the query's words and {held} of its "
            f"{distinct} distinct words; the variant needs {options.min_best_share:.0%} and "
            f"{min(options.min_best_terms, distinct)}{ratio_text}, so the result is empty")


#: What a never-empty variant's result is when nothing matched (:attr:`SearchOptions.never_empty`).
FILLER_NOTE = ("nothing matched, so this variant returns the first tools by wire name (never empty on "
               "purpose)")


@dataclass(frozen=True)
class RegexScan:
    """One regex-mode search (:meth:`SearchIndex.regex_scan`).

    Attributes:
        matches: ``(wire name, score)``, name matches (2.0) first, then the others (1.0).
        timed_out: the scan stopped after :data:`REGEX_TIMEOUT` seconds; tools after that point
            were not checked.
        literal: the query does not compile as a regular expression (or repeats too much to
            compile safely) and was matched as text.
        too_long: the pattern is longer than :data:`REGEX_MAX_PATTERN_CHARS`: nothing searched.
    """

    matches: list[tuple[str, float]]
    timed_out: bool
    literal: bool
    too_long: bool = False

    def notes(self) -> list[str]:
        """What the matches alone do not say, one sentence each: a pattern too long to search, a
        pattern matched as literal text, a scan stopped at the time limit."""
        notes = []
        if self.too_long:
            notes.append(f"the pattern is longer than {REGEX_MAX_PATTERN_CHARS} characters, the regex mode's limit; "
                         "nothing was searched")
        if self.literal:
            notes.append(REGEX_LITERAL_WORDS)
        if self.timed_out:
            notes.append(f"the pattern ran for more than {REGEX_TIMEOUT:g} s on the catalog's text (nested repeats "
                         "such as (a+)+ backtrack); tools after that point were not checked")
        return notes

    def why(self) -> str:
        """One line on how the result came about."""
        if self.too_long:
            return f"the pattern was not searched (over {REGEX_MAX_PATTERN_CHARS} characters)"
        if not self.matches:
            return ("no tool matched before the scan stopped" if self.timed_out else
                    "the pattern matches no tool's name, description, parameter names or parameter descriptions")
        # By wire name, as the variant's summary and docs/search-quality.md say: "catalog order"
        # read as the order of the user's file, which it is not (the session's tool list is sorted).
        return ("regex mode: tools whose name matches the pattern first, then those whose description or "
                "parameters match, each by wire name")


@dataclass(frozen=True)
class TermInfo:
    """Corpus statistics of one distinct query stem: ``df`` documents, ``idf`` (natural log)."""

    stem: str
    df: int
    idf: float


#: The admission rules that can exclude a candidate (``Candidate.rule``).
RULE_GATE = "gate"
RULE_COVERAGE = "coverage"
RULE_IDF_SHARE = "idf-share"
RULE_KNOWN_SHARE = "known-share"


def _word_of(tokens: Iterable[tuple[str, str]], stem: str | None) -> str | None:
    """The first query word (lowercased) of ``(word, stem)`` pairs whose stem is ``stem``."""
    return next((raw.lower() for raw, term in tokens if term == stem), None)


def gate_term_text(word: str | None, stem: str | None) -> str:
    """A gate term as shown to a reader: the query word and its stem, ``create → creat``.

    Args:
        word: the query word the stem came from (``None`` when unknown).
        stem: the term the search matches on (``None``: no gate term).

    Returns:
        ``"create → creat"``; the stem alone when the word is unknown or equal to it (``send``);
        ``"—"`` without a stem.
    """
    if not stem:
        return "—"
    if not word or word == stem:
        return stem
    return f"{word} → {stem}"


@dataclass(frozen=True)
class Candidate:
    """One document that shares a term with the query (or matches its name), explained.

    Attributes:
        name: the tool name.
        score: BM25 score (``inf`` for an exact-name match).
        has_gate: contains the gate term.
        matched_terms: distinct answerable query stems it contains.
        admitted: passes admission (docs/reference.md §7.4).
        reason: why it was or was not admitted, in words.
        rank: 1-based position among admitted documents, else ``None``.
        rule: the rule that excluded it (``"gate"``, ``"coverage"``, ``"known-share"``,
            ``"idf-share"``), ``""`` when admitted.
    """

    name: str
    score: float
    has_gate: bool
    matched_terms: tuple[str, ...]
    admitted: bool
    reason: str
    rank: int | None = None
    rule: str = ""


@dataclass(frozen=True)
class Explanation:
    """How one query was answered (docs/reference.md §7.3–§7.5).

    Attributes:
        query: the raw query.
        tokens: ``(raw token, stem)`` pairs.
        terms: statistics per distinct stem, in first-occurrence order.
        gate: the gate stem (the rarest term), or ``None`` when the query has no tokens; variants
            without the gate name it too but do not require it (``gate_required``).
        answerable: distinct stems with ``df > 0``.
        required: the coverage floor (distinct answerable terms a document needs).
        candidates: every document sharing a stem or matching the name, best first.
        matches: the admitted names returned for ``limit``.
        corpus_size: N; ``avgdl``: mean document length in tokens (floored at 1).
        ignored: ``(term, why)`` for query terms the variant dropped (stop words, terms in no
            tool); always empty under the reference.
        excluded: ``{rule: number of candidates that rule excluded}`` over all candidates (not
            only the listed ones); rules are ``"gate"``, ``"coverage"``, ``"known-share"`` and
            ``"idf-share"``.
        tokenizer: the tokenizer used (``"ascii"`` is the reference).
        gate_required: whether the variant requires the gate term (the reference does).
        coverage_required: whether the variant applies the coverage floor (the reference does).
        abstained: why the variant returns nothing although tools were admitted (its evidence
            thresholds, see :func:`evidence_shortfall`), else ``""``.
        filler: the variant returns the first tools by wire name because nothing matched
            (``never_empty``, e.g. ``anthropic-bm25``).
    """

    query: str
    tokens: tuple[tuple[str, str], ...]
    terms: tuple[TermInfo, ...]
    gate: str | None
    answerable: tuple[str, ...]
    required: int
    candidates: tuple[Candidate, ...]
    matches: tuple[str, ...]
    limit: int
    corpus_size: int
    avgdl: float
    ignored: tuple[tuple[str, str], ...] = ()
    excluded: Mapping[str, int] = field(default_factory=dict)
    tokenizer: str = "ascii"
    gate_required: bool = True
    coverage_required: bool = True
    abstained: str = ""
    filler: bool = False

    @property
    def gate_df(self) -> int | None:
        """Tools that contain the gate term (``None`` without a gate term)."""
        if self.gate is None:
            return None
        return next((t.df for t in self.terms if t.stem == self.gate), 0)

    @property
    def gate_word(self) -> str | None:
        """The query word the gate term came from, lowercased (the first one whose stem it is), or
        ``None`` without a gate term."""
        if self.gate is None:
            return None
        return _word_of(self.tokens, self.gate)

    @property
    def gate_text(self) -> str:
        """The gate term as shown to a reader: word and stem, ``create → creat`` (see :func:`gate_term_text`)."""
        return gate_term_text(self.gate_word, self.gate)

    @property
    def best_excluded(self) -> Candidate | None:
        """The best-scoring candidate an admission rule excluded, or ``None``."""
        return next((c for c in self.candidates if not c.admitted), None)

    def summary(self) -> str:
        """One line saying why the result is what it is: the gate term and its document
        frequency, how many tools each admission rule excluded, and the best-scoring excluded
        tool with the rule that excluded it (or why nothing can be found at all)."""
        reason = self.empty_reason()
        if reason and not self.terms:
            return reason[0].upper() + reason[1:] + "."
        parts = []
        if self.gate is not None:
            df = self.gate_df
            gate = f"gate term '{self.gate_text}' in {df} tool{'s' if df != 1 else ''}"
            parts.append(gate if self.gate_required else gate + " (not required by this variant)")
        excluded = self.excluded
        words = {RULE_GATE: "the gate", RULE_COVERAGE: "the coverage floor", RULE_KNOWN_SHARE: "the known-words share",
                 RULE_IDF_SHARE: "the IDF share"}
        # The reference's two rules always show (with 0); a variant's other rules when they excluded something.
        shown = [rule for rule, on in ((RULE_GATE, self.gate_required), (RULE_COVERAGE, self.coverage_required))
                 if on and (self.gate_required or excluded.get(rule))]
        shown += [r for r in (RULE_KNOWN_SHARE, RULE_IDF_SHARE) if r in excluded]
        parts.append("excluded: " + ", ".join(f"{excluded.get(r, 0)} by {words[r]}" for r in shown) if shown
                     else "no admission rule excluded a tool")
        best = self.best_excluded
        if not self.candidates:
            parts.append("no tool contains any query term")
        elif best is not None:
            score = "exact name" if best.score == math.inf else f"score {best.score:.3f}"
            parts.append(f"best excluded: {best.name} ({score}): {best.reason}")
        line = "; ".join(parts)
        line = line[0].upper() + line[1:]
        if self.filler:
            line += ". " + FILLER_NOTE[0].upper() + FILLER_NOTE[1:]
        return line + "." if not reason else f"{line}. Nothing found: {reason}."

    def empty_reason(self) -> str | None:
        """One line saying why nothing can be found, or ``None`` when that is not the case.

        Covers a query with no word the tokenizer reads (e.g. Japanese or Russian under the
        reference's ASCII tokenizer, docs/reference.md §7.1), a query whose words were all ignored, and a gate
        term that occurs in no tool (docs/reference.md §7.4).
        """
        if self.abstained:
            return self.abstained
        if not self.tokens:
            # Only a query with letters or digits in another script has words the unicode variant
            # reads; punctuation, symbols or control characters alone have none in any tokenizer.
            if self.tokenizer == "ascii" and any(ch.isalnum() for ch in self.query):
                return ("the query has no ASCII word ([A-Za-z0-9]+), the only words the reference's tokenizer reads "
                        "(docs/reference.md §7.1), so nothing is searched and the result is empty; the unicode variant reads "
                        "other scripts")
            return "the tokenizer finds no word in the query, so nothing is searched"
        if not self.terms and self.ignored:
            return "every word of the query was ignored by this variant, so nothing is searched"
        if self.gate_required and self.gate is not None and self.gate_df == 0 and not self.matches:
            return (f"the gate term '{self.gate_text}' occurs in no tool, so nothing is admitted except an exact-name "
                    "match (docs/reference.md §7.4)")
        return None


class SearchIndex:
    """BM25 index over the deferred catalog, in catalog order.

    Args:
        docs: one :class:`SearchDoc` per deferred tool, in the session's tool-list order (ties
            in score keep this order, docs/reference.md §7.5).
        options: variant switches; defaults are the reference.
    """

    def __init__(self, docs: Sequence[SearchDoc], options: SearchOptions = SearchOptions(), *,
                 shared: "SearchIndex | None" = None) -> None:
        self.docs = list(docs)
        self.options = options
        unicode = options.tokenizer == "unicode"
        self._tokenize = tokenize_unicode if unicode else tokenize
        self._query_tokens = unicode_query_tokens if unicode else query_tokens
        if shared is not None and shared.document_key == self.document_key and shared.docs == self.docs:
            # Same documents, tokenized the same way: only the query side differs (gate, coverage,
            # stop words…), so the BM25 statistics and postings are shared, read-only.
            self.names, self._by_lower = shared.names, shared._by_lower
            self._bm25, self._postings = shared._bm25, shared._postings
            self._fallback_keys = (shared._fallback_keys or [fallback_key(_bare(n)) for n in self.names]
                                   if options.name_substring_fallback else [])
            return
        self.names = [d.name for d in self.docs]
        self._by_lower: dict[str, list[int]] = {}
        for i, name in enumerate(self.names):
            self._by_lower.setdefault(name.lower(), []).append(i)
        self._fallback_keys = [fallback_key(_bare(n)) for n in self.names] if options.name_substring_fallback else []
        corpus = [self._doc_tokens(d) for d in self.docs]
        self._bm25 = _reference_bm25()(corpus, k1=C.BM25_K1, b=C.BM25_B) if corpus else None
        self._postings: dict[str, list[int]] = {}
        if self._bm25 is not None:
            for i, freqs in enumerate(self._bm25.doc_freqs):
                for term in freqs:
                    self._postings.setdefault(term, []).append(i)

    @property
    def document_key(self) -> tuple:
        """The options that shape the documents' tokens (tokenizer, word splitting, field
        weights): two indexes over the same documents with the same key have the same BM25
        statistics and postings, whatever their query-side options."""
        opts = self.options
        return (opts.tokenizer, opts.split_words, opts.field_weights, opts.segment_words, opts.param_weight,
                opts.index_param_descriptions)

    def _doc_tokens(self, doc: SearchDoc) -> list[str]:
        opts = self.options
        if (opts.field_weights == (1, 1, 1) and not opts.split_words and not opts.segment_words
                and opts.param_weight == 1 and not opts.index_param_descriptions):
            return self._tokenize(doc.text())  # the reference document, docs/reference.md §7.2
        prep = split_words if opts.split_words or opts.segment_words else (lambda text: text)
        ident = (lambda text: segment_words(split_words(text))) if opts.segment_words else prep
        w_name, w_label, w_desc = opts.field_weights
        name_words = _NAME_SEPARATORS.sub(" ", _bare(doc.name))
        tokens = self._tokenize(ident(name_words)) * w_name
        if doc.label and doc.label not in name_words.split():
            tokens += self._tokenize(prep(doc.label)) * w_label
        tokens += self._tokenize(prep(doc.description)) * w_desc
        tokens += self._tokenize(ident(_NAME_SEPARATORS.sub(" ", " ".join(doc.param_names)))
                                 if opts.segment_words else prep(" ".join(doc.param_names))) * opts.param_weight
        if opts.index_param_descriptions:
            tokens += self._tokenize(prep(" ".join(doc.param_descriptions)))
        return tokens

    def _query_text(self, query: str) -> str:
        opts = self.options
        if opts.segment_words:
            return segment_words(split_words(query))
        return split_words(query) if opts.split_words else query

    def __len__(self) -> int:
        return len(self.docs)

    def df(self, term: str) -> int:
        """Number of documents containing ``term`` (a stem): BM25's df (docs/reference.md §7.3)."""
        return len(self._postings.get(term, ()))

    def idf(self, term: str) -> float:
        """docs/reference.md §7.3 IDF of a stem; a stem in no document gets the highest possible value."""
        n = len(self.docs)
        df = self.df(term)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def _score(self, stems: list[str], doc_ids: list[int]) -> list[float]:
        if not doc_ids or self._bm25 is None:
            return []
        if self.options == SearchOptions() or len(doc_ids) < 64:
            return self._bm25.get_batch_scores(stems, doc_ids)  # the reference's own computation
        # What-if variants that touch many tools: the same per-term contributions as rank_bm25
        # (same expression, same order of addition), from precomputed postings.
        import numpy as np  # noqa: PLC0415

        scores = np.zeros(len(self.docs))
        for term in stems:
            posting = self._term_weights(term)
            if posting is not None:
                scores[posting[0]] += posting[1]
        return scores[np.asarray(doc_ids)].tolist()

    def _term_weights(self, term: str):
        cache = self.__dict__.setdefault("_weights_cache", {})
        if term not in cache:
            ids = self._postings.get(term)
            if not ids:
                cache[term] = None
            else:
                import numpy as np  # noqa: PLC0415

                bm = self._bm25
                arr = np.asarray(ids)
                tf = np.array([bm.doc_freqs[i][term] for i in ids])
                dl = np.array(bm.doc_len)[arr]
                cache[term] = (arr, (bm.idf.get(term) or 0) * (tf * (bm.k1 + 1) / (tf + bm.k1 * (1 - bm.b + bm.b * dl / bm.avgdl))))
        return cache[term]

    def _pairs(self, query: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
        """``(all (raw, term) pairs, kept pairs, ignored (term, why))`` of a query under the options."""
        opts = self.options
        pairs = self._query_tokens(self._query_text(query))
        unknown_words: set[str] = set()
        if opts.unknown_terms == "ignore-non-ascii" and opts.tokenizer == "unicode":
            # Katakana writes loanwords and names: content words, like English nouns. A katakana
            # word none of whose bigrams occurs in any tool (ホテル, hotel) is an unknown word: it
            # stays, becomes the gate term and empties the result, as an unknown ASCII word does
            # (docs/reference.md §7.4). Other unknown non-ASCII terms are mostly grammar (particles, verb endings,
            # bigrams across word boundaries) and are ignored.
            for word in katakana_words(query):
                grams = [word[i:i + 2] for i in range(len(word) - 1)]
                if not any(self.df(g) > 0 for g in grams):
                    unknown_words.update(grams)
        in_identifier: set[str] = set()
        if opts.ignore_unknown_identifiers:
            for chunk in query.split():
                if is_identifier(chunk):
                    in_identifier.update(self._tokenize(split_words(chunk) if opts.split_words else chunk))
        kept: list[tuple[str, str]] = []
        ignored: list[tuple[str, str]] = []
        for raw, term in pairs:
            if term in in_identifier and self.df(term) == 0:
                ignored.append((term, "argument value in no tool"))
            elif opts.stop_words and (raw.lower() in C.SEARCH_STOP_WORDS or raw.isdigit()):
                ignored.append((term, "number" if raw.isdigit() else "stop word"))
            elif (opts.unknown_terms != "gate" and self.df(term) == 0 and term not in unknown_words
                  and (opts.unknown_terms == "ignore" or not term.isascii())):
                ignored.append((term, "in no tool"))
            else:
                kept.append((raw, term))
        return pairs, kept, list(dict.fromkeys(ignored))

    def _analyse(self, query: str):
        _, kept, _ = self._pairs(query)
        stems = [term for _, term in kept]
        distinct = list(dict.fromkeys(stems))
        gate = None
        eligible = stems
        if self.options.tokenizer == "unicode" and self.options.unknown_terms != "gate":
            inner = cjk_inner_characters(query)
            eligible = [t for t in stems if t not in inner]
        if eligible:
            # Highest IDF wins; ties go to the first in query order (max keeps the first). Variants
            # without the gate still name it (for explanations) but do not require it.
            gate = max(eligible, key=self.idf)
        answerable = [t for t in distinct if self.df(t) > 0]
        return stems, gate, answerable, required_coverage(len(answerable))

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        """Ranked ``(name, score)`` matches for one query (docs/reference.md §7.4, §7.5).

        ``limit`` ≤ 0, an empty catalog or a query without ASCII tokens give ``[]``. Exact-name
        matches score ``inf``.
        """
        opts = self.options
        if opts.query_mode == "regex":
            return self.regex_result(query, limit).matches
        if opts.max_results > 0:
            limit = min(limit, opts.max_results)
        if opts.ranker == "semantic":
            ranked, cosine, margin = self._semantic_ranking(query, limit)
            if ranked and ranked[0][1] != math.inf and evidence_abstains(opts, 1.0, 0, 0, cosine=cosine, margin=margin):
                return []
            return ranked
        stems, gate, answerable, required = self._analyse(query)
        if not stems or not self.docs or limit <= 0:
            if not self.docs or limit <= 0:
                return []
            if opts.never_empty:
                return [(name, 0.0) for name in self.names[:limit]]
            if stems or not opts.name_substring_fallback:
                return []
            return [(self.names[i], C.NAME_SUBSTRING_FALLBACK_SCORE) for i in self._fallback(query)[:limit]]
        exact = set(self._by_lower.get(query.strip().lower(), ()))
        candidates = self._admitted(stems, gate, answerable, required)
        scored = self._with_name_bonus(dict(zip(candidates, self._score(stems, candidates))), stems)
        for i in exact:
            scored[i] = math.inf
        if not scored and opts.name_substring_fallback:
            scored = {i: C.NAME_SUBSTRING_FALLBACK_SCORE for i in self._fallback(query)}
        order = sorted(scored, key=lambda i: (-scored[i], i))
        if order and (opts.min_best_share > 0 or opts.min_best_terms > 0 or opts.min_score_ratio > 1) \
                and scored[order[0]] != math.inf:
            share, held = self.best_evidence(stems, order[0])
            if evidence_abstains(opts, share, held, len(set(stems)), _ratio([scored[i] for i in order[:2]])):
                order = []
        if not order and opts.never_empty:
            return [(name, 0.0) for name in self.names[:limit]]
        return [(self.names[i], scored[i]) for i in order[:limit]]

    def search_with_notes(self, query: str, limit: int) -> tuple[list[tuple[str, float]], list[str]]:
        """:meth:`search`'s ``[(wire name, score)]`` for ``query`` with what the matches alone do not
        say, one sentence each: the regex scan's notes (:meth:`RegexScan.notes`) in regex mode, and
        :data:`FILLER_NOTE` when a never-empty variant filled the result because nothing matched."""
        if self.options.query_mode == "regex":
            scan = self.regex_scan(query, limit)
            return scan.matches, scan.notes()
        found = self.search(query, limit)
        return found, [FILLER_NOTE] if self.options.never_empty and found and found[0][1] == 0.0 else []

    def _with_name_bonus(self, scored: dict[int, float], stems: Sequence[str]) -> dict[int, float]:
        """``scored`` (document → BM25 score of the admitted documents) with the name-coverage
        bonus added when the variant has one (``name_coverage_bonus`` times the best score times
        the share of the document's name words the query holds); unchanged otherwise."""
        bonus = self.options.name_coverage_bonus
        if bonus > 0 and scored:
            top = max(scored.values())
            wanted = set(stems)
            for i in scored:
                words = self._name_stems(i)
                if words:
                    scored[i] += bonus * top * sum(1 for w in words if w in wanted) / len(words)
        return scored

    def ranked_evidence(self, query: str, limit: int) -> tuple[list[tuple[str, float]],
                                                               tuple[float, int, int, float] | None]:
        """The matches :meth:`search` gives with ``min_best_share`` and ``min_best_terms`` off, and
        the evidence of the best one: ``(share, held, distinct, ratio)`` as :meth:`best_evidence`
        and :func:`evidence_abstains` take it, or ``None`` when there is no match, the best one is an
        exact-name match, or the query mode is ``regex``. Lets a caller try many thresholds
        with one search per query (``evidence_abstains(options, *evidence)``)."""
        base = replace(self.options, min_best_share=0.0, min_best_terms=0, min_score_ratio=0.0,
                       min_cosine=-1.0, min_cosine_margin=0.0)
        if base.ranker == "semantic":
            ranked, cosine, margin = self._semantic_ranking(query, limit)
            if not ranked or ranked[0][1] == math.inf:
                return ranked, None
            return ranked, (1.0, 0, 0, math.inf, cosine, margin)
        index = self if base == self.options else SearchIndex(self.docs, base, shared=self)
        ranked = index.search(query, max(limit, 2))
        if not ranked or base.query_mode == "regex" or ranked[0][1] == math.inf or (
                base.never_empty and ranked[0][1] == 0.0):
            return ranked, None
        stems = index._analyse(query)[0]
        share, held = index.best_evidence(stems, self._by_lower[ranked[0][0].lower()][0])
        return ranked[:limit], (share, held, len(set(stems)), _ratio([score for _, score in ranked[:2]]))

    def semantic_texts(self) -> list[str]:
        """What the semantic ranker embeds per tool, in catalog order: the bare name's words
        (separators, camelCase and run-together words split), the description, then each
        parameter's name and description."""
        cache = self.__dict__.get("_semantic_texts")
        if cache is None:
            cache = []
            for doc in self.docs:
                name = " ".join(segment_words(split_words(_NAME_SEPARATORS.sub(" ", _bare(doc.name)))).split())
                params = [f"{p}: {d}" if d else p for p, d in
                          itertools.zip_longest(doc.param_names, doc.param_descriptions, fillvalue="")]
                parts = (name, doc.description.strip().rstrip("."), "; ".join(params))
                cache.append(". ".join(part for part in parts if part))
            self.__dict__["_semantic_texts"] = cache
        return cache

    def warm(self, queries: Sequence[str], progress: Callable[[int, int], None] | None = None) -> None:
        """Embed ``queries`` (and the catalog) in batches ahead of many searches; a no-op unless
        the ranker is semantic. ``progress(done, total)`` follows the tool texts being embedded
        (:func:`~toolsearch.engine.embedding.catalog_embeddings`). Raises
        :class:`~toolsearch.engine.embedding.SemanticUnavailable` when the semantic extra is
        missing."""
        if self.options.ranker == "semantic" and self.docs:
            from . import embedding  # noqa: PLC0415

            self.catalog_vectors(progress)
            embedding.query_embeddings([q for q in queries if q.strip()])

    def cosines(self, query: str) -> "np.ndarray":
        """Cosine (-1 to 1) between ``query``'s embedding and every tool's, in catalog order.

        Raises:
            SemanticUnavailable: the ``semantic`` extra is not installed.
        """
        from . import embedding  # noqa: PLC0415

        return self.catalog_vectors() @ embedding.query_embeddings([query])[0]

    def catalog_vectors(self, progress: Callable[[int, int], None] | None = None) -> "np.ndarray":
        """Every tool's unit vector, shape ``(tools, 384)``, in catalog order: the embedding cache's
        (:func:`toolsearch.engine.embedding.catalog_embeddings`), kept on this index until the
        cache is cleared, so a search does not hash the whole catalog again to find them.
        ``progress(done, total)`` follows the tool texts being embedded, when some are.

        Raises:
            SemanticUnavailable: the ``semantic`` extra is not installed.
        """
        from . import embedding  # noqa: PLC0415

        held = self.__dict__.get("_semantic_vectors")
        if held is None or held[0] != embedding.generation():
            held = (embedding.generation(), embedding.catalog_embeddings(self.semantic_texts(), progress=progress))
            self.__dict__["_semantic_vectors"] = held
        return held[1]

    def _semantic_ranking(self, query: str, limit: int) -> tuple[list[tuple[str, float]], float, float]:
        """``(ranked matches, the first match's cosine, its score's lead over the second's)`` of the
        semantic ranker with its abstention thresholds off (the lead is ``inf`` with one tool);
        ``([], -inf, 0)`` for an empty query or catalog."""
        opts = self.options
        if opts.max_results > 0:
            limit = min(limit, opts.max_results)
        if not self.docs or limit <= 0 or not query.strip():
            return [], -math.inf, 0.0
        import numpy as np  # noqa: PLC0415

        cos = self.cosines(query)
        scores = cos.astype(np.float64)
        if opts.lexical_weight > 0:
            stems = self._analyse(query)[0]
            ids = sorted({i for t in stems for i in self._postings.get(t, ())})
            if ids:
                lexical = np.zeros(len(self.docs))
                lexical[ids] = self._score(stems, ids)
                top = lexical.max()
                if top > 0:
                    scores = scores + opts.lexical_weight * lexical / top
        order = np.argsort(-scores, kind="stable")
        ranked = [(self.names[i], float(scores[i])) for i in order[:limit]]
        exact = self._by_lower.get(query.strip().lower())
        if exact:
            ranked = [(self.names[i], math.inf) for i in exact] + [r for r in ranked if r[0].lower() != query.strip().lower()]
            ranked = ranked[:limit]
        best = float(cos[order[0]])
        margin = float(scores[order[0]] - scores[order[1]]) if len(order) > 1 else math.inf
        return ranked, best, margin

    def semantic_explain(self, query: str, limit: int, shown: int = 10) -> dict[str, Any]:
        """Why the semantic ranker returns what it returns for ``query``: ``{"query", "lexical_weight",
        "min_cosine", "min_cosine_margin", "best_cosine", "margin", "empty", "candidates"}`` where
        ``candidates`` are the first ``max(limit, shown)`` tools by score, each ``{"rank", "tool",
        "cosine", "score", "returned"}`` (cosine -1 to 1; score = cosine + the BM25 share).

        Raises:
            SemanticUnavailable: the ``semantic`` extra is not installed.
        """
        opts = self.options
        returned = {name for name, _ in self.search(query, limit)}
        ranked, best, margin = self._semantic_ranking(query, max(limit, shown))
        cos = self.cosines(query) if ranked else None
        position = {name: i for i, name in enumerate(self.names)}
        rows = [{"rank": r, "tool": name, "cosine": float(cos[position[name]]), "score": score,
                 "returned": name in returned} for r, (name, score) in enumerate(ranked, 1)]
        return {"query": query, "lexical_weight": opts.lexical_weight, "min_cosine": opts.min_cosine,
                "min_cosine_margin": opts.min_cosine_margin, "best_cosine": best if ranked else None,
                "margin": margin if ranked and math.isfinite(margin) else None, "empty": not returned,
                "candidates": rows}

    def semantic_shortfall(self, query: str, limit: int) -> str:
        """Why the semantic ranker returns nothing for ``query``, in one sentence: the first match's
        cosine and lead against the variant's ``min_cosine`` and ``min_cosine_margin`` (``"the
        query is empty"`` without one). The CLI's ``why:`` line and the Search page say this.

        Raises:
            SemanticUnavailable: the ``semantic`` extra is not installed.
        """
        data = self.semantic_explain(query, limit, shown=2)
        if data["best_cosine"] is None:
            return "the query is empty"
        margin = "—" if data["margin"] is None else f"{data['margin']:.3f}"
        return (f"the first match's cosine is {data['best_cosine']:.3f} and its score leads the second's by {margin}; "
                f"the variant needs {data['min_cosine']:g} and {data['min_cosine_margin']:g}")

    def _name_stems(self, i: int) -> list[str]:
        """Distinct stems of the words of tool ``i``'s own name, without ``mcp__server__``
        (camelCase split): the server's name is not a word of the tool's name."""
        cache = self.__dict__.setdefault("_name_stem_cache", {})
        if i not in cache:
            words = split_words(_NAME_SEPARATORS.sub(" ", _leaf(self.names[i])))
            if self.options.segment_words:
                words = segment_words(words)
            cache[i] = list(dict.fromkeys(self._tokenize(words)))
        return cache[i]

    def best_evidence(self, stems: Sequence[str], doc: int) -> tuple[float, int]:
        """``(share, count)`` for document ``doc``: the share of the IDF of all the query's
        distinct terms (terms in no tool at the highest IDF) that it holds, in [0, 1], and how
        many distinct query terms it contains."""
        distinct = list(dict.fromkeys(stems))
        total = sum(self.idf(t) for t in distinct)
        freqs = self._bm25.doc_freqs[doc]
        held = [t for t in distinct if t in freqs]
        return (sum(self.idf(t) for t in held) / total if total > 0 else 0.0), len(held)

    def regex_result(self, query: str, limit: int) -> RegexScan:
        """What :meth:`search` returns in regex mode, with the scan's flags (:class:`RegexScan`:
        whether it stopped at :data:`REGEX_TIMEOUT`): :meth:`regex_scan` of ``query`` at ``limit``
        cut to the variant's ``max_results`` when it has one."""
        if self.options.max_results > 0:
            limit = min(limit, self.options.max_results)
        return self.regex_scan(query, limit)

    def regex_scan(self, query: str, limit: int) -> RegexScan:
        """The regex-mode search of ``query`` (:attr:`SearchOptions.query_mode` ``regex``), with
        what a caller must tell the user (:meth:`RegexScan.notes`): whether the pattern was not
        searched (over :data:`REGEX_MAX_PATTERN_CHARS`), was matched as literal text (it does not
        compile, or repeats past :data:`REGEX_MAX_REPEAT_PRODUCT`) and whether the scan stopped at
        :data:`REGEX_TIMEOUT` seconds (tools after that point were not checked). ``matches``:
        ``(name, 2.0)`` for a name match, ``(name, 1.0)`` for a match in the other fields, at
        most ``limit``."""
        if not self.docs or limit <= 0 or not query.strip():
            return RegexScan([], False, False)
        if len(query) > REGEX_MAX_PATTERN_CHARS:
            return RegexScan([], False, False, too_long=True)
        deadline = time.monotonic() + REGEX_TIMEOUT
        pattern, literal = _compile_pattern(query)
        blocks = self.__dict__.get("_regex_blocks")
        if blocks is None:
            # Two texts for the whole catalog (names; descriptions and parameters), one line per
            # field and the documents one after another: one C-level search per match instead
            # of one per tool. A pattern without a newline never matches across two fields.
            blocks = self.__dict__["_regex_blocks"] = (
                _joined([doc.name + "\n" + _leaf(doc.name) for doc in self.docs]),
                _joined(["\n".join((doc.description, *doc.param_names, *doc.param_descriptions))
                         for doc in self.docs]))
        by_name, timed_out = _matching_docs(pattern, *blocks[0], deadline)
        named = set(by_name)
        by_text: list[int] = []
        if len(by_name) < limit and not timed_out:
            found, timed_out = _matching_docs(pattern, *blocks[1], deadline)
            by_text = [i for i in found if i not in named]
        return RegexScan([(self.names[i], 2.0) for i in by_name[:limit]] +
                         [(self.names[i], 1.0) for i in by_text[:max(0, limit - len(by_name))]], timed_out, literal)

    def regex_matches_tool(self, query: str, name: str) -> bool | None:
        """Whether the regex-mode ``query`` matches the tool ``name`` (its name, description,
        parameter names or parameter descriptions), checked on that tool alone: ``None`` when the
        pattern runs past :data:`REGEX_TIMEOUT` seconds on it.

        Raises:
            KeyError: ``name`` is not a tool of this index.
        """
        doc = self.docs[self._position(name)]
        if len(query) > REGEX_MAX_PATTERN_CHARS:
            return False
        pattern, _ = _compile_pattern(query)
        text = "\n".join((doc.name, _leaf(doc.name), doc.description, *doc.param_names, *doc.param_descriptions))
        try:
            return pattern.search(text, timeout=REGEX_TIMEOUT) is not None
        except TimeoutError:
            return None

    def _fallback(self, query: str) -> list[int]:
        """Documents whose normalized bare name contains the normalized query (catalog order)."""
        needle = fallback_key(query)
        if not needle:
            return []
        return [i for i, key in enumerate(self._fallback_keys) if needle in key]

    def known_share(self, stems: Sequence[str]) -> float:
        """Share of the query's total IDF carried by terms that occur in some tool (0–1); terms
        in no tool count with the highest IDF (``min_known_share``)."""
        distinct = list(dict.fromkeys(stems))
        total = sum(self.idf(t) for t in distinct)
        return sum(self.idf(t) for t in distinct if self.df(t) > 0) / total if total > 0 else 0.0

    def _idf_share(self, stems: Sequence[str], doc: int) -> float:
        known = [t for t in dict.fromkeys(stems) if self.df(t) > 0]
        total = sum(self.idf(t) for t in known)
        held = sum(self.idf(t) for t in known if t in self._bm25.doc_freqs[doc])
        return held / total if total > 0 else 0.0

    def _exclusion(self, i: int, stems, gate, answerable, required) -> str:
        """The first admission rule document ``i`` fails, or ``""`` when it is admitted."""
        opts = self.options
        freqs = self._bm25.doc_freqs[i]
        if opts.gate:
            if gate not in freqs:
                return RULE_GATE
        elif not any(t in freqs for t in answerable):
            return RULE_GATE  # unreachable for touched documents; kept for completeness
        if opts.coverage and required > 1 and sum(1 for t in answerable if t in freqs) < required:
            return RULE_COVERAGE
        if opts.min_known_share > 0 and self.known_share(stems) < opts.min_known_share:
            return RULE_KNOWN_SHARE
        if opts.min_idf_share > 0 and self._idf_share(stems, i) < opts.min_idf_share:
            return RULE_IDF_SHARE
        return ""

    def _admitted(self, stems, gate, answerable, required) -> list[int]:
        opts = self.options
        if opts.gate:
            pool = self._postings.get(gate, []) if gate is not None else []
        else:
            pool = sorted({i for t in answerable for i in self._postings.get(t, ())})
        if (not opts.coverage or required <= 1) and opts.min_idf_share <= 0 and opts.min_known_share <= 0:
            return list(pool)
        if not opts.gate and not (opts.coverage and required > 1):
            # Only the two share rules apply: the known share is one figure per query, the IDF
            # share is summed per document from the postings (the same sums as _exclusion's).
            if opts.min_known_share > 0 and self.known_share(stems) < opts.min_known_share:
                return []
            if opts.min_idf_share <= 0:
                return list(pool)
            known = [t for t in dict.fromkeys(stems) if self.df(t) > 0]
            total = sum(self.idf(t) for t in known)
            if total <= 0:
                return []
            held = {}
            for t in known:
                w = self.idf(t)
                for i in self._postings[t]:
                    held[i] = held.get(i, 0.0) + w
            return [i for i in pool if held.get(i, 0.0) / total >= opts.min_idf_share]
        return [i for i in pool if not self._exclusion(i, stems, gate, answerable, required)]

    def gate_word(self, query: str, gate: str | None) -> str | None:
        """The word of ``query`` the stem ``gate`` came from (lowercased, first in query order), as
        :meth:`explain` gives it (``gate_word``); ``None`` when no word of the query has that stem."""
        return _word_of(self._query_tokens(self._query_text(query)), gate)

    def explain(self, query: str, limit: int, max_candidates: int = 200) -> Explanation:
        """Explain one query: stems, df and IDF per term, gate, coverage, and every candidate.

        Candidates are documents containing any query stem, plus exact-name matches, best first
        (admitted before rejected), at most ``max_candidates``; ``excluded`` counts over all.
        """
        stems, gate, answerable, required = self._analyse(query)
        _, kept, ignored = self._pairs(query)
        tokens = tuple(self._query_tokens(self._query_text(query)))
        terms = tuple(TermInfo(t, self.df(t), self.idf(t)) for t in dict.fromkeys(stems))
        n = len(self.docs)
        avgdl = self._bm25.avgdl if self._bm25 is not None else 1.0
        extra = dict(ignored=tuple(ignored), tokenizer=self.options.tokenizer, gate_required=self.options.gate,
                     coverage_required=self.options.coverage)
        fallback: set[int] = set()
        if self.options.name_substring_fallback and self.docs and limit > 0:
            exact_ids = set(self._by_lower.get(query.strip().lower(), ())) if stems else set()
            if not stems or not (set(self._admitted(stems, gate, answerable, required)) | exact_ids):
                fallback = set(self._fallback(query))
        if not stems and fallback:
            ranked = [name for name, _ in self.search(query, limit)]
            out = [Candidate(self.names[i], C.NAME_SUBSTRING_FALLBACK_SCORE, False, (), True,
                             _FALLBACK_REASON + ("" if self.names[i] in ranked else f"; ranked below the limit of {limit}"),
                             ranked.index(self.names[i]) + 1 if self.names[i] in ranked else None)
                   for i in sorted(fallback)]
            return Explanation(query, tokens, terms, gate, tuple(answerable), required,
                               tuple(out[:max_candidates]), tuple(ranked), limit, n, avgdl, **extra)
        if not stems or not self.docs:
            return Explanation(query, tokens, terms, gate, tuple(answerable), required, (), (), limit, n, avgdl,
                               **extra)
        exact = set(self._by_lower.get(query.strip().lower(), ()))
        touched = sorted({i for t in answerable for i in self._postings.get(t, ())} | exact | fallback)
        gate_text = gate_term_text(_word_of(tokens, gate), gate)
        scores = dict(zip(touched, self._score(stems, touched)))
        freqs = self._bm25.doc_freqs
        admitted_bm25 = self._admitted(stems, gate, answerable, required)
        admitted_ids = set(admitted_bm25) | exact | fallback
        # The admitted documents' scores as the search ranks them (with the variant's name bonus).
        scores.update(self._with_name_bonus({i: scores[i] for i in admitted_bm25}, stems))
        found = self.search(query, limit)
        ranked = [name for name, _ in found]
        rank_of = {name: r for r, name in enumerate(ranked, 1)}
        # Nothing matched and the variant fills the result with the first tools (never empty).
        filler = bool(self.options.never_empty and found and found[0][1] == 0.0 and not (admitted_ids & {
            self._by_lower[name.lower()][0] for name in ranked}))
        abstained = ""
        if admitted_ids and not ranked and limit > 0:
            best, evidence = self.ranked_evidence(query, 1)
            if evidence is not None and evidence_abstains(self.options, *evidence):
                abstained = evidence_shortfall(self.options, best[0][0], *evidence)
        if filler:
            ranked, rank_of = [], {}
        excluded = {RULE_GATE: 0, RULE_COVERAGE: 0, RULE_KNOWN_SHARE: 0, RULE_IDF_SHARE: 0}
        out = []
        for i in touched:
            matched = tuple(t for t in answerable if t in freqs[i])
            has_gate = gate in freqs[i]
            rule = "" if i in exact or i in fallback else self._exclusion(i, stems, gate, answerable, required)
            if i in exact:
                reason = "exact-name match: skips the gate and the coverage floor"
            elif i in fallback:
                reason = _FALLBACK_REASON
            elif rule == RULE_GATE:
                reason = f"lacks the gate term '{gate_text}'"
            elif rule == RULE_COVERAGE:
                reason = f"covers {len(matched)} of {len(answerable)} answerable terms; needs {required}"
            elif rule == RULE_KNOWN_SHARE:
                reason = (f"the query's words that some tool contains carry {self.known_share(stems):.0%} of its "
                          f"IDF; needs {self.options.min_known_share:.0%} (the query is mostly about something "
                          "no tool knows)")
            elif rule == RULE_IDF_SHARE:
                reason = (f"holds {self._idf_share(stems, i):.0%} of the answerable terms' IDF; needs "
                          f"{self.options.min_idf_share:.0%}")
            elif self.options.gate:
                reason = f"has the gate term and covers {len(matched)} of {len(answerable)} answerable terms"
            else:
                reason = f"covers {len(matched)} of {len(answerable)} answerable terms"
            if rule:
                excluded[rule] += 1
            admitted = i in admitted_ids
            name = self.names[i]
            if admitted and name not in rank_of:
                reason += "; not returned: the variant's evidence thresholds empty the result" if abstained else \
                    f"; ranked below the limit of {limit}"
            score = C.NAME_SUBSTRING_FALLBACK_SCORE if i in fallback else scores[i]
            out.append(Candidate(name, math.inf if i in exact else score, has_gate, matched,
                                 admitted, reason, rank_of.get(name), "" if admitted else rule))
        out.sort(key=lambda c: (not c.admitted, -c.score, self._position(c.name)))
        return Explanation(query, tokens, terms, gate, tuple(answerable), required,
                           tuple(out[:max_candidates]), tuple(n for n, _ in found), limit, n, avgdl,
                           excluded={r: k for r, k in excluded.items() if k}, abstained=abstained,
                           filler=filler, **extra)

    def _position(self, name: str) -> int:
        return self._by_lower[name.lower()][0]


_FALLBACK_REASON = "name-substring fallback: nothing else was admitted and the name contains the query"


def _ratio(top: Sequence[float]) -> float:
    """The best score over the second (``inf`` with one match or a second score of 0)."""
    return top[0] / top[1] if len(top) > 1 and top[1] > 0 else math.inf


def _joined(texts: Sequence[str]) -> tuple[str, list[int]]:
    """The texts joined by newlines, and where each one starts."""
    starts, pos = [], 0
    for text in texts:
        starts.append(pos)
        pos += len(text) + 1
    return "\n".join(texts), starts


# re.compile warns (FutureWarning "Possible nested set…") on patterns such as [[a-z]--x]: the
# check below must not print that on the user's terminal.
warnings.filterwarnings("ignore", category=FutureWarning, module=re.escape(__name__) + "$")


#: Why a regex-mode query was searched as literal text, in words (``search``, ``explain`` and eval's misses).
REGEX_LITERAL_WORDS = ("the query is not a regular expression that can be run safely (it does not compile, or its "
                       f"repeat counts multiply past {REGEX_MAX_REPEAT_PRODUCT:,}); it was matched as literal text")


def regex_is_literal(query: str) -> bool:
    """Whether the regex mode searches ``query`` as literal text rather than as a pattern (it
    does not compile as a Python ``re`` pattern, or its repeat counts multiply past
    :data:`REGEX_MAX_REPEAT_PRODUCT`); see :func:`_compile_pattern`."""
    return _compile_pattern(query)[1]


@lru_cache(maxsize=REGEX_PATTERN_CACHE)
def _compile_pattern(query: str) -> tuple[Any, bool]:
    r"""The case-insensitive, multi-line pattern of a regex-mode query, and whether it is the
    query as literal text: when it does not compile as a Python (``re``) regular expression, or
    its repeat counts multiply past :data:`REGEX_MAX_REPEAT_PRODUCT` (counted over the whole
    pattern, nested or not: an over-estimate that errs on the safe side). The ``regex`` package
    runs it (for its timeout); its own syntax, which ``re`` refuses (``(?r)`` reverse search,
    ``\p{...}``, ``(?V1)`` set operations, ``\L<name>``), is not the regex form's language, and a
    reverse pattern found only the catalog's last match."""
    flags = regex.IGNORECASE | regex.MULTILINE
    product = 1
    for count in _REPEAT_COUNT.findall(query):
        product *= max(1, int(count))
        if product > REGEX_MAX_REPEAT_PRODUCT:
            return regex.compile(regex.escape(query), flags, cache_pattern=False), True
    try:
        re.compile(query, re.IGNORECASE | re.MULTILINE)
        return regex.compile(query, flags, cache_pattern=False), False
    except (re.error, regex.error, RecursionError, OverflowError, ValueError, MemoryError):
        return regex.compile(regex.escape(query), flags, cache_pattern=False), True


def _matching_docs(pattern: Any, text: str, starts: list[int], deadline: float) -> tuple[list[int], bool]:
    """Indexes of the documents of a :func:`_joined` text in which ``pattern`` finds a match
    (a match belongs to the document it starts in), in order, and whether the scan stopped at
    ``deadline`` (a :func:`time.monotonic` time): a pattern that backtracks stops there, however
    many documents it still matches one by one."""
    import bisect  # noqa: PLC0415

    found: list[int] = []
    pos = 0
    while pos <= len(text):
        left = deadline - time.monotonic()
        if left <= 0:
            return found, True
        try:
            m = pattern.search(text, pos, timeout=left)
        except TimeoutError:
            return found, True
        if m is None:
            break
        i = bisect.bisect_right(starts, m.start()) - 1
        found.append(i)
        if i + 1 >= len(starts):
            break
        pos = starts[i + 1]
    return found, False


def _leaf(name: str) -> str:
    """The server's own tool name: ``mcp__github__create_issue`` → ``create_issue``."""
    return name.split("__", 2)[-1] if name.startswith(C.MCP_TOOL_NAME_PREFIX) else name


def _bare(name: str) -> str:
    return name[len(C.MCP_TOOL_NAME_PREFIX):] if name.startswith(C.MCP_TOOL_NAME_PREFIX) else name
