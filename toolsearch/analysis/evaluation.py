"""Search-quality evaluation: labeled queries scored against the search, per variant.

A *query file* (YAML or JSON) lists tasks. Each task is what a model would look for in one
``tool_search`` call: one or more queries and the tool names a correct search returns. An empty
``expected`` list makes the task an *abstention test*: nothing in the catalog fits, and the
search should return nothing (the gate term of docs/reference.md §7.4 exists for this)::

    name: Cloudflare flat API, labeled queries     # optional
    catalog: cloudflare-flat.yaml                  # optional, for readers
    tool_names: prefixed                           # optional: the naming the names below use
    tasks:
      - id: dns-create-record
        queries: [create dns record]               # 1 to 7 strings (``query: "..."`` for one)
        expected: [mcp__cloudflare__zones_dns_records_create]
        note: optional free text
      - id: abstain-payroll
        queries: [run payroll for employees]
        expected: []

Expected names are wire names, exactly as ``toolsearch plan --json`` shows them (``mcp__<server>__
<tool>`` with the default ``--tool-names prefixed``).

How a task is scored (``limit`` = the search limit, default ``search_default_limit``; k = 5):

* Each query is searched alone, exactly as ``tool_search`` runs the queries of one call, and
  ranked in full (the limit only cuts the list, it never reorders it, docs/reference.md §7.5).
* The *rank* of an expected tool in a task is its best (smallest) 1-based position over the
  task's queries: the model sees every group of the response, so a tool is found as soon as
  any of its queries shows it. A tool no query admits has no rank.
* recall@1, recall@k, recall@limit: the share of the task's expected tools whose rank is at
  most 1, k, limit. recall@1 and recall@k measure the ranking; recall@limit is what the model
  actually receives.
* Reciprocal rank: ``1 / r`` for the best rank r of any expected tool when ``r <= limit``, else 0
  (MRR cut at the limit: a tool the response does not carry earns nothing).
* Abstention: a task is correct when its result is empty exactly when it should be: an
  abstention task is correct when every query returns no match; a task with expected tools is
  correct when at least one query returns a match (any tool).
* Overall: recall and MRR are means over the tasks with expected tools (each task weighs the
  same); empty-or-not accuracy (:data:`EMPTY_OR_NOT_ACCURACY`, the attribute
  ``abstention_accuracy``) is the share of *all* tasks that are correct in that sense.
* Nonsense tasks empty (:data:`NONSENSE_TASKS_EMPTY`, the attribute ``abstention_rate``): the
  share of abstention tasks (``expected: []``, nonsense for this catalog) for which every query
  returned nothing: the price side of the recall trade-off.
* Per query (agents often send one query, and a task's best query hides its weak ones): query
  recall@k is the share of the queries of positive tasks whose first k matches hold an expected
  tool; nonsense queries empty is the share of the queries of abstention tasks that return
  nothing.
* Regex time limits (``anthropic-regex``): a query whose scan stopped at
  :data:`~toolsearch.engine.search.REGEX_TIMEOUT` (:data:`STOPPED`), or was not run because the run's
  :data:`REGEX_EVAL_BUDGET` was spent (:data:`NOT_RUN`), makes its task a failure in every figure (no
  rank, recall 0, not answered, not left empty; the query a miss or not empty), so denominators stay
  the same for every variant; :func:`time_limit_count` counts them for every surface.
* Misses: for each expected tool not within the limit, and each query of its task, the cause
  from :meth:`toolsearch.engine.search.SearchIndex.explain`: ``gate`` (lacks the gate term),
  ``coverage`` (too few of the answerable terms), ``known-share`` and ``idf-share`` (the
  ``agent`` variant's two thresholds), ``evidence`` (the ``evidence`` variant found the best
  match too weak and returned nothing), ``cosine`` (the ``semantic`` variant found the best
  match's cosine, or its lead over the second, below its threshold and returned nothing), ``pattern`` (regex mode: the pattern does not match the
  tool), ``rank`` (admitted, ranked below the limit or the variant's result cap),
  ``no-shared-term`` (contains none of the query's terms), ``no-tokens`` (the tokenizer sees no
  word in the query, e.g. Japanese under the reference's ASCII tokenizer) or ``not-in-catalog``
  (the name is not a deferred tool here: a labeling error or another naming).

Variants come from the one registry in :mod:`toolsearch.analysis.variants` (``reference`` = the defaults;
``no-gate``, ``no-coverage``, ``plain-bm25``, ``unicode``, ``name-substring``, ``agent``, ``evidence``,
other harnesses' rankers ``anthropic-bm25``, ``anthropic-regex``, ``hermes-name-bonus``, and
``semantic`` when its optional extra is installed),
combinable with ``+`` (e.g. ``unicode+no-gate``).

Out of sample: :func:`evaluate_tuned` tunes each variant's parameters (:data:`~toolsearch.analysis.variants.TUNABLE`)
on a tuning file only and scores another; :func:`evaluate_folds` does K folds over one file
(:func:`split_folds`: seeded, by task group). A miss is explained by checking the one missed tool
against the admission rules (about the cost of one search), so an evaluation of every variant
stays fast on large catalogs. The Unicode-aware tokenizer is character bigrams
over CJK runs plus Unicode words elsewhere (see :func:`toolsearch.engine.search.unicode_query_tokens`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import yaml

from ..engine import constants as C
from ..engine import readers
from ..engine.bridge import clean_string_list
from ..engine.config import ToolSearchConfig
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine import search as engine_search
from ..engine.search import (REGEX_LITERAL_WORDS, REGEX_MAX_PATTERN_CHARS, SearchIndex, SearchOptions, evidence_abstains,
                             evidence_shortfall, regex_is_literal)
from ..engine.wording import counted
# The registry lives in toolsearch.analysis.variants; these names stay importable from here.
from ..engine.invisible import kind_of, quoted, reveal, yaml_kind
from .wording import evaluation_share
from .variants import DEFAULT_VARIANTS, VARIANT_HELP, VARIANTS, VariantError, tunable_grid, variant_label, variant_options  # noqa: F401


class QueryFileError(ToolsearchError):
    """A query file cannot be read or does not have the expected shape."""


MISS_CAUSES = ("gate", "coverage", "known-share", "idf-share", "evidence", "cosine", "rank", "no-shared-term",
               "no-tokens", "pattern", "time-limit", "not-in-catalog")
#: Each miss cause in a few words, in :data:`MISS_CAUSES` order (for legends; the CLI and the
#: Quality page both show these).
MISS_CAUSE_HELP = {
    "gate": "lacks the rarest query term",
    "coverage": "too few of the answerable terms",
    "known-share": "the query is mostly words no tool contains (agent)",
    "idf-share": "holds too little of the query terms' IDF (agent)",
    "evidence": "the best match is too weak, so the result is empty (evidence)",
    "cosine": "the best match's cosine or lead is below the threshold, so the result is empty (semantic)",
    "rank": "admitted, ranked below the limit or the variant's result cap",
    "no-shared-term": "contains none of the query's terms",
    "no-tokens": "the tokenizer sees no word",
    "pattern": "the regular expression does not match it (anthropic-regex)",
    "time-limit": "the regex scan stopped at its time limit, or was not run (anthropic-regex)",
    "not-in-catalog": "not a deferred tool here",
}
#: Seed of the fold assignment (``toolsearch eval --folds``).
FOLD_SEED = 23
#: Longest query a query file may hold (characters): a request, not a document (each query is
#: stemmed and searched once per variant; a megabyte query took minutes).
MAX_QUERY_CHARS = 2_000
#: Most tasks a query file may hold: every task is searched once per query and variant, and
#: 20,000 tasks of the MetaTool set took 83 s under the default variants on two CPUs (200,000
#: took minutes per variant). The largest shipped file (``benchmarks/data/bfcl-live/all.json``)
#: has 473. ``sessions --export-queries`` writes at most this many.
MAX_QUERY_TASKS = 20_000
#: Seconds of regex-mode searching (scans and the explanations of their misses) one evaluation
#: run may spend in total, every variant, task and fold together. Each scan stops at
#: :data:`~toolsearch.engine.search.REGEX_TIMEOUT` (2 s), so a query file of patterns that
#: backtrack would otherwise run for hours (20,000 tasks of 7 queries); once this is spent, the
#: remaining regex-mode queries are not run (:data:`NOT_RUN`) and said so.
REGEX_EVAL_BUDGET = 60.0
#: A query whose regex scan stopped at the scan's time limit (:attr:`TaskResult.query_stops`).
STOPPED = "stopped"
#: A regex-mode query not run: the run's :data:`REGEX_EVAL_BUDGET` was spent before it.
NOT_RUN = "not run"
#: Share of abstention queries that must come back empty for a tuning point to be preferred.
ABSTAIN_TARGET = 0.95
ProgressFn = Callable[[int, int, str], None]


# --- query files ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    """One labeled task.

    Attributes:
        id: unique within the file.
        queries: the queries of one ``tool_search`` call (cleaned as the bridge cleans them).
        expected: wire names a correct search returns; empty for an abstention test.
        note: free text for readers.
        group: tasks with the same group stay on one side of a fold split (e.g. requests for one
            tool); ``""`` means the expected names (or, for abstention tasks, the id).
    """

    id: str
    queries: tuple[str, ...]
    expected: tuple[str, ...]
    note: str = ""
    group: str = ""

    @property
    def group_key(self) -> str:
        """The key folds split by: ``group``, else the sorted expected names, else the id."""
        if self.group:
            return self.group
        return "expected:" + ",".join(sorted(self.expected)) if self.expected else "id:" + self.id

    def group_words(self) -> str:
        """:attr:`group_key` in words, for messages: ``"group 'mail'"``, ``"expected tools
        'a,b' (tasks without a group are grouped by them)"`` or ``"task 'x' (a task with neither
        a group nor expected tools is a group of its own)"``. Worded from the field the key comes
        from, so a group the user named ``expected:…`` still reads as a group."""
        if self.group:
            return f"group {quoted(self.group)}"
        if self.expected:
            return f"expected tools {quoted(','.join(sorted(self.expected)))} (tasks without a group are grouped by them)"
        return f"task {quoted(self.id)} (a task with neither a group nor expected tools is a group of its own)"

    @property
    def abstention(self) -> bool:
        """True when nothing should be found."""
        return not self.expected


@dataclass(frozen=True)
class QueryFile:
    """A parsed query file.

    Attributes:
        name: display name (the file stem when the file has none).
        tasks: in file order.
        origin: the file (or upload) it came from.
        catalog: the catalog it was written for, if the file says.
        tool_names: the naming its expected names use (``prefixed`` or ``as-is``), if it says.
    """

    name: str
    tasks: tuple[Task, ...]
    origin: str = ""
    catalog: str | None = None
    tool_names: str | None = None


def _strings(value: Any, where: str, what: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise QueryFileError(f"{where}: expected '{what}' to be a list of strings")
    return value


#: The keys a task may have; any other is refused (a misspelt ``group`` or ``expected`` would
#: otherwise be dropped without a word).
TASK_KEYS = ("id", "queries", "query", "expected", "note", "group")


#: Line breaks and tabs: the characters :func:`~toolsearch.engine.invisible.reveal` leaves as they
#: are (other controls become markers). A label or a name printed with one would start a line of
#: its own in a report or a warning, and could pass for another line.
_LINE_BREAK = re.compile("[\n\t\u2028\u2029]")


def _one_line(text: str, where: str, what: str) -> str:
    """``text`` when it holds no line break or tab, else :class:`QueryFileError`."""
    found = _LINE_BREAK.search(text)
    if found:
        raise QueryFileError(f"{where}: expected '{what}' on one line (no line break or tab), got "
                             f"U+{ord(found.group()):04X} at character {found.start() + 1} of {quoted(text)}")
    return text


def _label(value: Any, where: str, what: str, one_line: bool = True) -> str:
    """A scalar label (string or whole number; ``None`` → ``""``) as text, on one line (unless
    ``one_line`` is false: the ``catalog`` note, which eval never prints); anything else is refused."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise QueryFileError(f"{where}: expected '{what}' to be a string or a whole number, got {yaml_kind(value)}")
    return _one_line(str(value), where, what) if one_line else str(value)


def _top_level_line(text: str, key: str) -> int | None:
    """The 1-based line of the top-level ``key`` in the YAML (or JSON) ``text``; ``None`` when it
    cannot be found (JSONC with comments, a file that is not a mapping)."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    if isinstance(root, yaml.MappingNode):
        for name, _value in root.value:
            if isinstance(name, yaml.ScalarNode) and name.value == key:
                return name.start_mark.line + 1
    return None


def parse_queries(data: Any, origin: str = "<query file>",
                  line_of: Callable[[str], int | None] | None = None) -> QueryFile:
    """Validate a loaded query document (see the module docstring for the shape).

    ``line_of`` (a top-level key → its 1-based line, or ``None``) puts the line in the messages
    about a top-level key (``name``, ``catalog``, ``tool_names``); it is called only on an error.

    Raises:
        QueryFileError: naming the file, the task and what was expected: a missing or malformed
            key, a key not in :data:`TASK_KEYS`, a repeated id, a label (``name``, ``catalog``,
            ``id``, ``group``) that is not a string or whole number, a ``note`` that is not text, a query
            of invisible characters only (zero-width, bidi, format, control), an
            ``expected`` list of blank names only (it would read as an abstention test), a query given
            twice in one task, an expected name given twice in one task, an id, group,
            name or expected name with a line break or a tab; more than :data:`MAX_QUERY_TASKS`
            tasks (then also an :class:`~toolsearch.engine.errors.InputLimitError`).
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("tasks"), list):
        catalog_like = isinstance(data, list) or (isinstance(data, Mapping) and ("servers" in data or "tools" in data))
        raise QueryFileError(f"{origin}: expected a mapping with a 'tasks' list"
                             + ("; this looks like a catalog (the catalog files come first, the query file last: "
                                "toolsearch eval CATALOG... QUERIES)" if catalog_like else ""))
    def at(key: str) -> str:
        line = line_of(key) if line_of is not None else None
        return origin if line is None else f"{origin}: line {line}"

    try:
        name = _label(data.get("name"), origin, "name")
    except QueryFileError as exc:
        raise QueryFileError(str(exc).replace(origin, at("name"), 1)) from None
    try:
        catalog = _label(data.get("catalog"), origin, "catalog", one_line=False)  # a note for readers
    except QueryFileError as exc:
        raise QueryFileError(str(exc).replace(origin, at("catalog"), 1)) from None
    tool_names = data.get("tool_names")
    if tool_names is not None and tool_names not in C.TOOL_NAMING:
        raise QueryFileError(f"{at('tool_names')}: tool_names: expected one of {', '.join(C.TOOL_NAMING)}, got {quoted(tool_names)}")
    if len(data["tasks"]) > MAX_QUERY_TASKS:
        # Refused before any task is checked: each one would be searched once per variant.
        raise readers.limit_error(QueryFileError, f"{origin}: {len(data['tasks']):,} tasks, over the limit of "
                                                  f"{MAX_QUERY_TASKS:,} per query file; split it into smaller files")
    tasks: list[Task] = []
    seen: set[str] = set()
    for i, item in enumerate(data["tasks"]):
        where = f"{origin}: tasks[{i}]"
        if not isinstance(item, Mapping):
            raise QueryFileError(f"{where}: expected a mapping with id, queries and expected")
        task_id = item.get("id")
        if isinstance(task_id, bool) or not isinstance(task_id, (str, int)) or not str(task_id).strip():
            got = ("" if isinstance(task_id, str) else " (there is none)" if task_id is None
                   else f", got {yaml_kind(task_id)}")  # a blank string needs no "got"
            raise QueryFileError(f"{where}: expected a non-empty 'id' (a string or a whole number){got}")
        task_id = _one_line(str(task_id).strip(), where, "id")
        where = f"{origin}: tasks[{i}] ({reveal(task_id)})"
        if task_id in seen:
            raise QueryFileError(f"{where}: the id {quoted(task_id)} is used twice")
        seen.add(task_id)
        unknown = [key for key in item if key not in TASK_KEYS]
        if unknown:
            raise QueryFileError(f"{where}: unknown key {quoted(unknown[0])} (expected "
                                 f"{', '.join(TASK_KEYS)})")
        if "queries" in item and "query" in item:
            raise QueryFileError(f"{where}: give either 'queries' or 'query', not both")
        raw = item.get("queries", item.get("query"))
        given = _strings(raw, where, "queries") if raw is not None else []
        blank = next((j for j, q in enumerate(given) if not q.strip()), None)
        if blank is not None and any(q.strip() for q in given):
            # tool_search drops a blank query without a word; in a labeled file it is a mistake
            raise QueryFileError(f"{where}: query {blank + 1} is blank; expected text (remove it)")
        hidden = next((j for j, q in enumerate(given) if q.strip() and all(c.isspace() or kind_of(c) for c in q)), None)
        if hidden is not None:
            # Blank to a reader, and to every search (no word): an abstention test passed by it
            # proves nothing, yet it counts among the nonsense queries left empty.
            raise QueryFileError(f"{where}: query {hidden + 1} holds only invisible characters "
                                 f"({quoted(given[hidden])}); expected text (remove it)")
        queries = clean_string_list(given, dedupe=False) if raw is not None else []
        if not queries:
            raise QueryFileError(f"{where}: expected at least one non-blank query")
        if len(queries) > C.MAX_QUERIES_PER_CALL:
            raise QueryFileError(f"{where}: {len(queries)} queries; tool_search accepts at most "
                                 f"{C.MAX_QUERIES_PER_CALL} per call")
        long = next((j for j, q in enumerate(queries) if len(q) > MAX_QUERY_CHARS), None)
        if long is not None:
            raise QueryFileError(f"{where}: query {long + 1} has {len(queries[long]):,} characters; expected at most "
                                 f"{MAX_QUERY_CHARS:,} (a request as a user or an agent writes it)")
        repeat = next((j for j, q in enumerate(queries) if q in queries[:j]), None)
        if repeat is not None:
            # Each query is scored alone (query recall@5, nonsense queries empty): a repeat would
            # weigh twice without a word.
            raise QueryFileError(f"{where}: query {repeat + 1} repeats query {queries.index(queries[repeat]) + 1} "
                                 f"{quoted(queries[repeat])}; remove it (it would count twice in the "
                                 "per-query figures)")
        if "expected" not in item:
            raise QueryFileError(f"{where}: expected an 'expected' list (empty for an abstention test)")
        if item["expected"] is None:
            # "expected:" left empty in YAML (or null in JSON) reads as nothing: as an abstention
            # test it would pass whenever the search finds nothing, without a word.
            raise QueryFileError(f"{where}: 'expected' has no value; give the tool names a correct search returns, "
                                 "or expected: [] for an abstention test")
        expected = _strings(item["expected"], where, "expected")
        if expected and not any(e.strip() for e in expected):
            # Cleaned to nothing, the task would turn into an abstention test without a word.
            raise QueryFileError(f"{where}: 'expected' holds only blank names; give the tool names a correct "
                                 "search returns, or expected: [] for an abstention test")
        expected = [_one_line(e.strip(), where, "expected") for e in expected if e.strip()]
        repeat = next((j for j, e in enumerate(expected) if e in expected[:j]), None)
        if repeat is not None:
            # A set is scored, so the repeat changes nothing; it is refused as a repeated query is,
            # since a name written twice is most often another tool's name mistyped.
            raise QueryFileError(f"{where}: expected name {repeat + 1} repeats name "
                                 f"{expected.index(expected[repeat]) + 1} {quoted(expected[repeat])}; remove it "
                                 "(or write the tool it was meant to name)")
        note = item.get("note")
        if isinstance(note, (Mapping, list)):  # free text: any scalar reads as its text
            raise QueryFileError(f"{where}: expected 'note' to be text, got a {'mapping' if isinstance(note, Mapping) else 'list'}")
        note = "" if note is None else str(note)
        group = _label(item.get("group"), where, "group").strip()
        tasks.append(Task(task_id, tuple(queries), tuple(expected), note, group))
    if not tasks:
        raise QueryFileError(f"{origin}: the 'tasks' list is empty")
    return QueryFile(name=name or readers.source_stem(origin), tasks=tuple(tasks), origin=origin,
                     catalog=catalog or None, tool_names=tool_names)


def load_queries_text(text: str, origin: str) -> QueryFile:
    """Parse query-file text: YAML, JSON or JSONC (``//`` and ``/* */`` comments, trailing commas),
    as catalogs are read, within the readers' size and nesting limits. Raises :class:`QueryFileError`."""
    return parse_queries(readers.load_data(text, origin, QueryFileError), origin,
                         lambda key: _top_level_line(text, key))


def load_queries(path: str | Path, origin: str | None = None) -> QueryFile:
    """Read and parse a query file; ``origin`` (default: the path) is how messages name it.
    Raises :class:`QueryFileError`."""
    return load_queries_text(readers.read_text(path, QueryFileError, "the query file"),
                             str(path) if origin is None else origin)


# --- results --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Miss:
    """Why one expected tool was not returned for one query of its task.

    Attributes:
        task: the task id.
        tool: the expected wire name.
        query: the query ("" for ``not-in-catalog``, which holds for every query).
        cause: one of :data:`MISS_CAUSES`.
        rank: the tool's position in this query's full ranking (``rank`` misses), else ``None``.
        gate: the query's gate term (``None`` without tokens).
        detail: the explanation in words (from :meth:`SearchIndex.explain` where it applies).
    """

    task: str
    tool: str
    query: str
    cause: str
    rank: int | None
    gate: str | None
    detail: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the attributes under their own names."""
        return {"task": self.task, "tool": self.tool, "query": self.query, "cause": self.cause,
                "rank": self.rank, "gate": self.gate, "detail": self.detail}


@dataclass(frozen=True)
class TaskResult:
    """One task under one variant.

    Attributes:
        task: the task.
        ranks: best rank per expected tool (aligned with ``task.expected``), ``None`` if never
            admitted.
        matches: the names each query returns at the limit (what the model receives).
        recall_at_1 / recall_at_k / recall_at_limit / reciprocal_rank: ``None`` for abstention
            tasks.
        correct: the abstention sense: empty when it should be, non-empty when it should be.
        misses: the explained misses (expected tools not within the limit).
        query_hits: per query, whether its first k matches hold an expected tool (positive
            tasks) or whether it returned nothing (abstention tasks); ``False`` for a query in
            ``query_stops``.
        query_stops: per query, ``""`` when its search ran to the end, :data:`STOPPED` when its
            regex scan stopped at its time limit, :data:`NOT_RUN` when the run's
            :data:`REGEX_EVAL_BUDGET` was spent before it; ``()`` for tasks searched to the end by
            words. A task with any such query counts as a failure (:attr:`unfinished`).
    """

    task: Task
    ranks: tuple[int | None, ...]
    matches: tuple[tuple[str, ...], ...]
    recall_at_1: float | None
    recall_at_k: float | None
    recall_at_limit: float | None
    reciprocal_rank: float | None
    correct: bool
    misses: tuple[Miss, ...] = ()
    query_hits: tuple[bool, ...] = ()
    query_stops: tuple[str, ...] = ()

    @property
    def unfinished(self) -> str:
        """:data:`STOPPED` when a query's regex scan stopped at its time limit, else :data:`NOT_RUN`
        when a query was not run (the run's regex time budget was spent), else ``""``. Such a task
        counts as a failure: no rank, recall and reciprocal rank 0, neither answered nor left empty."""
        return STOPPED if STOPPED in self.query_stops else NOT_RUN if NOT_RUN in self.query_stops else ""

    @property
    def best_rank(self) -> int | None:
        """The best rank of any expected tool (``None`` when none is admitted or for abstention)."""
        found = [r for r in self.ranks if r is not None]
        return min(found) if found else None

    def to_dict(self, k: int) -> dict[str, Any]:
        """JSON-ready form; the recall at ``k`` (a number of matches) is keyed ``recall_at_<k>``,
        shares are rounded."""
        return {
            "id": self.task.id, "queries": list(self.task.queries), "expected": list(self.task.expected),
            "kind": "abstention" if self.task.abstention else "positive",
            "ranks": dict(zip(self.task.expected, self.ranks)),
            "matches": [list(m) for m in self.matches],
            "recall_at_1": _round(self.recall_at_1), f"recall_at_{k}": _round(self.recall_at_k),
            "recall_at_limit": _round(self.recall_at_limit), "reciprocal_rank": _round(self.reciprocal_rank),
            "correct": self.correct,
            # "stopped" / "not run" / null, and per query ("" for a query searched to the end)
            "time_limit": self.unfinished or None, "query_time_limits": list(self.query_stops),
        }


@dataclass(frozen=True)
class EmptinessFigure:
    """One of the figures about empty results, named once for every surface (``eval`` text and
    JSON, the Search quality page, the HTML report).

    Attributes:
        label: the column name every surface shows.
        key: its ``eval --json`` key (older keys stay beside it: ``abstention_rate``, ``abstention_accuracy``).
        attribute: the :class:`Metrics` attribute that holds it.
        definition: what it counts, in one clause.
    """

    label: str
    key: str
    attribute: str
    definition: str


#: The share of nonsense tasks (``expected: []``) left empty: every query of the task returned nothing.
NONSENSE_TASKS_EMPTY = EmptinessFigure(
    "nonsense tasks empty", "nonsense_tasks_empty", "abstention_rate",
    "nonsense tasks (expected: []) whose every query returned nothing")
#: The same per query: each query of a nonsense task counts alone.
NONSENSE_QUERIES_EMPTY = EmptinessFigure(
    "nonsense queries empty", "nonsense_queries_empty", "nonsense_queries_empty",
    "queries of nonsense tasks that returned nothing, each query alone")
#: The share of all tasks empty exactly when they should be (nonsense tasks empty, the others not).
EMPTY_OR_NOT_ACCURACY = EmptinessFigure(
    "empty-or-not accuracy", "empty_or_not_accuracy", "abstention_accuracy",
    "all tasks empty exactly when they should be (nonsense tasks empty, the others with a match)")
EMPTINESS_FIGURES = (NONSENSE_TASKS_EMPTY, NONSENSE_QUERIES_EMPTY, EMPTY_OR_NOT_ACCURACY)


def emptiness_definitions() -> str:
    """One line defining :data:`EMPTINESS_FIGURES`, as ``eval`` prints it under its table and the
    Search quality page captions it: ``nonsense tasks empty: …; nonsense queries empty: …; …``."""
    return "; ".join(f"{f.label}: {f.definition}" for f in EMPTINESS_FIGURES)


@dataclass(frozen=True)
class TimeLimitCount:
    """The queries of one variant whose regex scan stopped at its time limit or was not run, and
    their tasks (:func:`time_limit_count`): the one count ``eval``'s text, ``--json`` and the Search
    quality page show.

    Attributes:
        stopped_queries: queries whose scan stopped at :data:`~toolsearch.engine.search.REGEX_TIMEOUT`.
        not_run_queries: queries not run: the run's :data:`REGEX_EVAL_BUDGET` was spent.
        stopped_tasks / not_run_tasks: ids of the tasks holding them, in file order (a task with
            both kinds is in both).
    """

    stopped_queries: int = 0
    not_run_queries: int = 0
    stopped_tasks: tuple[str, ...] = ()
    not_run_tasks: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.stopped_queries or self.not_run_queries)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the attributes under their own names."""
        return {"stopped_queries": self.stopped_queries, "stopped_tasks": list(self.stopped_tasks),
                "not_run_queries": self.not_run_queries, "not_run_tasks": list(self.not_run_tasks)}

    def line(self, variant: str) -> str:
        """One sentence for ``variant``, ``""`` when no query stopped and none was left unrun:
        ``"anthropic-regex: 3 queries stopped at the regex scan's time limit (2 s) in 3 tasks (t0,
        t1, t2); each such task counts as a failure: …"``."""
        if not self:
            return ""
        said = []
        if self.stopped_queries:
            said.append(f"{counted(self.stopped_queries, 'query', 'queries')} stopped at the regex scan's time limit "
                        f"({engine_search.REGEX_TIMEOUT:g} s) in {counted(len(self.stopped_tasks), 'task')} "
                        f"({first_names(self.stopped_tasks)})")
        if self.not_run_queries:
            said.append(f"{counted(self.not_run_queries, 'query', 'queries')} not run because the run's regex time "
                        f"budget ({REGEX_EVAL_BUDGET:g} s of scans in all) was spent, in "
                        f"{counted(len(self.not_run_tasks), 'task')} ({first_names(self.not_run_tasks)})")
        return (f"{variant}: " + "; ".join(said) + "; each such task counts as a failure (no rank, recall 0, not "
                "answered, not left empty) and each such query as a miss or as not empty")


def time_limit_count(tasks: Sequence[TaskResult]) -> TimeLimitCount:
    """How many of ``tasks``' queries stopped at the regex time limit or were not run, and which
    tasks hold them (:attr:`TaskResult.query_stops`)."""
    stopped = [t for t in tasks if STOPPED in t.query_stops]
    not_run = [t for t in tasks if NOT_RUN in t.query_stops]
    return TimeLimitCount(sum(t.query_stops.count(STOPPED) for t in stopped),
                          sum(t.query_stops.count(NOT_RUN) for t in not_run),
                          tuple(t.task.id for t in stopped), tuple(t.task.id for t in not_run))


@dataclass(frozen=True)
class Metrics:
    """Overall figures of one variant (see the module docstring for the definitions).

    Attributes:
        tasks / positive / abstention: task counts.
        recall_at_1 / recall_at_k / recall_at_limit / mrr: means over positive tasks
            (``None`` when there are none).
        abstention_accuracy: correct tasks / all tasks.
        abstained: abstention tasks that returned nothing; ``answered``: positive tasks that
            returned something.
        miss_causes: ``{cause: number of (tool, query) misses}``.
        abstention_rate: abstained / abstention tasks (``None`` without abstention tasks).
        query_recall_at_k: share of positive tasks' queries with an expected tool in their
            first k matches (``None`` without positive tasks).
        nonsense_queries_empty: share of abstention tasks' queries that return nothing
            (``None`` without abstention tasks).
        time_limit: the queries whose regex scan stopped at its time limit or was not run
            (:func:`time_limit_count`); they and their tasks count as failures in the figures above.
    """

    tasks: int
    positive: int
    abstention: int
    recall_at_1: float | None
    recall_at_k: float | None
    recall_at_limit: float | None
    mrr: float | None
    abstention_accuracy: float
    abstained: int
    answered: int
    miss_causes: Mapping[str, int] = field(default_factory=dict)
    abstention_rate: float | None = None
    query_recall_at_k: float | None = None
    nonsense_queries_empty: float | None = None
    time_limit: TimeLimitCount = field(default_factory=TimeLimitCount)

    def to_dict(self, k: int) -> dict[str, Any]:
        """JSON-ready form; the figures at ``k`` (a number of matches) are keyed ``..._at_<k>``,
        shares are rounded."""
        return {
            "abstention_rate": _round(self.abstention_rate), f"query_recall_at_{k}": _round(self.query_recall_at_k),
            "nonsense_queries_empty": _round(self.nonsense_queries_empty),
            "tasks": self.tasks, "positive_tasks": self.positive, "abstention_tasks": self.abstention,
            "recall_at_1": _round(self.recall_at_1), f"recall_at_{k}": _round(self.recall_at_k),
            "recall_at_limit": _round(self.recall_at_limit), "mrr": _round(self.mrr),
            "abstention_accuracy": _round(self.abstention_accuracy),
            # the names every surface shows (EMPTINESS_FIGURES); the keys above stay for older readers
            NONSENSE_TASKS_EMPTY.key: _round(self.abstention_rate),
            EMPTY_OR_NOT_ACCURACY.key: _round(self.abstention_accuracy),
            "abstention_tasks_empty": self.abstained, "positive_tasks_answered": self.answered,
            "miss_causes": dict(self.miss_causes),
            "time_limit": self.time_limit.to_dict(),
        }


@dataclass(frozen=True)
class VariantResult:
    """All tasks under one variant.

    Attributes:
        params: tuned parameter values (``{}`` when nothing was tuned); with folds, one mapping
            per fold in ``fold_params``.
    """

    name: str
    options: SearchOptions
    tasks: tuple[TaskResult, ...]
    metrics: Metrics
    params: Mapping[str, Any] = field(default_factory=dict)
    fold_params: tuple[Mapping[str, Any], ...] = ()

    @property
    def misses(self) -> tuple[Miss, ...]:
        """Every miss of every task, in task order."""
        return tuple(m for t in self.tasks for m in t.misses)


@dataclass(frozen=True)
class Evaluation:
    """A query file evaluated on one catalog, variants side by side.

    Attributes:
        query_file: the labeled tasks.
        catalog: the catalog's label (:attr:`Catalog.label`); ``naming``: ``prefixed`` or ``as-is``.
        limit: matches per query (the bridge's clamped limit); ``k``: the k of recall@k.
        variants: one result per variant, in the order asked.
        unknown_expected: expected names that are not deferred tools of this catalog.
        tuning_unknown_expected: the same for the tuning file (tune/test only): its tasks that
            expect them can never be found, so the tuning learned from them only that they fail.
        deferred_count: deferred tools searched.
        protocol: how parameters were chosen: ``"in-sample"`` (registered values, nothing tuned),
            ``"tune/test"`` (tuned on ``tuned_on``, scored on the query file) or ``"K-fold"``.
        tuned_on: the tuning file's name (tune/test) or ``""``.
    """

    query_file: QueryFile
    catalog: str
    naming: str
    limit: int
    k: int
    variants: tuple[VariantResult, ...]
    unknown_expected: tuple[str, ...]
    deferred_count: int
    protocol: str = "in-sample"
    tuned_on: str = ""
    tuning_unknown_expected: tuple[str, ...] = ()

    def protocol_note(self, tuning_hint: str = "toolsearch eval --tune FILE or --folds K") -> str:
        """One line saying how the figures were obtained, for every surface that shows them:
        out of sample (tuned on another file, or K folds) or in sample (registered parameters,
        nothing tuned on held-out data). ``tuning_hint`` names, in the surface's own terms, what
        gives out-of-sample figures (the CLI's flags by default; the Quality page its choices)."""
        if self.protocol == "tune/test":
            return (f"out of sample: parameters tuned on {quoted(self.tuned_on)} only; figures are on "
                    f"{quoted(self.query_file.name)}")
        if self.protocol.endswith("-fold"):
            return f"out of sample: {self.protocol} (each task scored with parameters tuned on the other folds)"
        return f"in sample: registered parameters, nothing tuned ({tuning_hint} gives figures that hold out of sample)"

    def _tuning_rule_pick(self, target: float) -> tuple[list[tuple[str, float, float | None]],
                                                        tuple[str, float, float | None] | None,
                                                        list[tuple[str, float, float | None]],
                                                        tuple[str, float, float | None] | None]:
        """``(scored, top, quiet, best)``: the variants with a query recall@k as ``(name, query
        recall@k, nonsense queries empty)``, the one with the highest recall, those whose empty share
        is at least ``target``, and the best of those by recall (the tuning rule's pick); ``max``
        keeps the first of equals, the table's order. ``None`` where there is none."""
        scored = [(v.name, v.metrics.query_recall_at_k, v.metrics.nonsense_queries_empty) for v in self.variants
                  if v.metrics.query_recall_at_k is not None]
        top = max(scored, key=lambda r: r[1]) if scored else None
        quiet = [r for r in scored if r[2] is not None and r[2] >= target]
        best = max(quiet, key=lambda r: r[1]) if quiet else None
        return scored, top, quiet, best

    def tuning_rule(self, target: float = ABSTAIN_TARGET) -> dict[str, Any]:
        """The tuning rule's verdict for ``eval --json``: ``{"target": 0.95, "best": NAME | None,
        "highest_query_recall": NAME | None, "line": ...}``; ``best`` is the variant the rule picks
        (the highest query recall@k among those with nonsense queries empty at least ``target``),
        ``highest_query_recall`` the variant with the highest query recall@k of all, and ``line`` the
        sentence the text output, the Quality page and the HTML report print (:meth:`trade_off`)."""
        _, top, _, best = self._tuning_rule_pick(target)
        return {"target": target, "best": best[0] if best else None,
                "highest_query_recall": top[0] if top else None, "line": self.trade_off(target)}

    def trade_off(self, target: float = ABSTAIN_TARGET) -> str:
        """Which variant does best on these figures, by the rule tuning uses: the highest query
        recall@k among the variants whose nonsense queries empty is at least ``target``, beside the
        highest query recall@k of all and its empty share (the trade-off the target weighs), led by
        "in sample" or "out of sample" as :meth:`protocol_note` says. Shares and the target read as
        :func:`~toolsearch.analysis.wording.evaluation_share` (``0.950``), the form of the tables on
        every surface. When no task expects a tool (an abstention-only file) query recall is
        undefined, so the line says that no variant can be picked by the rule rather than leaving the
        verdict out. The CLI report, the Quality page and the HTML report all print this line."""
        k = self.k
        share = evaluation_share
        sample = "in sample" if self.protocol_note().startswith("in sample") else "out of sample"
        scored, top, quiet, best = self._tuning_rule_pick(target)
        if not scored:
            return (f"{sample}, no variant can be picked by the tuning rule (the highest query recall@{k} among "
                    f"variants with nonsense queries empty at least {share(target)}): the file has no task with "
                    f"an expected tool, so query recall@{k} is undefined and only abstention is measured")
        if all(r[2] is None for r in scored):
            return (f"{sample}, the highest query recall@{k}: {top[0]}, {share(top[1])} (the file has no nonsense queries, so "
                    "abstention is not measured)")
        if best is not None:
            text = (f"{sample}, best by the tuning rule (the highest query recall@{k} among variants with nonsense "
                    f"queries empty at least {share(target)}): {best[0]}, {share(best[1])} query recall@{k} with "
                    f"{share(best[2])} empty")
        else:
            text = f"{sample}, no variant has nonsense queries empty at least {share(target)}"
        if best is None or top[1] > best[1]:
            text += (f"; the highest query recall@{k} of all: {top[0]}, {share(top[1])}, with {share(top[2])} of "
                     "nonsense queries empty")
        return text

    def tuned_lines(self) -> list[str]:
        """The tuned parameters in words, one line per variant (``--tune``) or per variant and fold
        (``--folds``): ``"tuned evidence, fold 2: min_best_share=0.2, ..."``; ``[]`` when nothing was
        tuned. The CLI report and the Quality page print these lines."""
        lines = []
        for v in self.variants:
            if v.params:
                lines.append(f"tuned {v.name}: " + ", ".join(f"{key}={value}" for key, value in v.params.items()))
            for f, params in enumerate(v.fold_params, 1):
                lines.append(f"tuned {v.name}, fold {f}: " + (", ".join(f"{key}={value}" for key, value in params.items())
                                                              or "nothing (no task landed in this fold)"))
        return lines

    def time_limit_lines(self) -> list[str]:
        """One line per variant with queries whose regex scan stopped at its time limit or was not
        run (:meth:`TimeLimitCount.line`); ``[]`` when there are none. ``eval`` prints them (text
        output and stderr) and the Search quality page shows them."""
        return [line for v in self.variants if (line := v.metrics.time_limit.line(v.name))]

    def variant(self, name: str) -> VariantResult:
        """The result of the variant called ``name``. Raises ``KeyError``."""
        for result in self.variants:
            if result.name == name:
                return result
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """The ``toolsearch eval --json`` object."""
        return {
            "query_file": self.query_file.name, "origin": self.query_file.origin, "catalog": self.catalog,
            "tool_names": self.naming, "deferred_count": self.deferred_count, "limit": self.limit, "k": self.k,
            "tasks": len(self.query_file.tasks), "unknown_expected": list(self.unknown_expected),
            "protocol": self.protocol, "tuned_on": self.tuned_on,
            "in_sample": self.protocol_note().startswith("in sample"), "protocol_note": self.protocol_note(),
            "tuning_rule": self.tuning_rule(),
            "tuning_unknown_expected": list(self.tuning_unknown_expected),
            # each variant's metrics.time_limit counts the queries these stopped or left unrun
            "regex_time_limits": {"scan_seconds": engine_search.REGEX_TIMEOUT, "run_budget_seconds": REGEX_EVAL_BUDGET},
            "time_limit_lines": self.time_limit_lines(),
            "variants": [{
                "name": v.name, "label": variant_label(v.name), "params": _jsonable(v.params), "fold_params": [_jsonable(p) for p in v.fold_params],
                "options": {"gate": v.options.gate, "coverage": v.options.coverage,
                            "tokenizer": v.options.tokenizer,
                            "name_substring_fallback": v.options.name_substring_fallback,
                            "unknown_terms": v.options.unknown_terms, "stop_words": v.options.stop_words,
                            "split_words": v.options.split_words, "field_weights": list(v.options.field_weights),
                            "min_known_share": v.options.min_known_share,
                            "min_idf_share": v.options.min_idf_share, "query_mode": v.options.query_mode,
                            "index_param_descriptions": v.options.index_param_descriptions,
                            "segment_words": v.options.segment_words, "param_weight": v.options.param_weight,
                            "max_results": v.options.max_results, "never_empty": v.options.never_empty,
                            "name_coverage_bonus": v.options.name_coverage_bonus,
                            "min_best_share": v.options.min_best_share,
                            "min_best_terms": v.options.min_best_terms,
                            "min_score_ratio": v.options.min_score_ratio},
                "metrics": v.metrics.to_dict(self.k),
                "tasks": [t.to_dict(self.k) for t in v.tasks],
                "misses": [m.to_dict() for m in v.misses],
            } for v in self.variants],
        }


def _jsonable(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


# --- evaluation -----------------------------------------------------------------------------

def _explain_miss(index: SearchIndex, task: Task, tool: str, query: str, ranking: Sequence[str], limit: int) -> Miss:
    """Why ``tool`` is not within ``limit`` for ``query``: checks that one document only (the
    admission rules are per document), so a miss costs about as much as one search."""
    opts = index.options
    if tool in ranking:
        position = ranking.index(tool) + 1
        return Miss(task.id, tool, query, "rank", position, index._analyse(query)[1] if opts.query_mode == "words"
                    else None, f"admitted at rank {position} of {len(ranking)}; only the first {limit} are returned")
    if opts.query_mode == "regex":
        if len(query) > REGEX_MAX_PATTERN_CHARS:
            return Miss(task.id, tool, query, "pattern", None, None,
                        f"the pattern is longer than {REGEX_MAX_PATTERN_CHARS} characters; the regex mode searches nothing")
        matched = index.regex_matches_tool(query, tool)
        if matched and 0 < opts.max_results <= len(ranking):
            return Miss(task.id, tool, query, "rank", None, None,
                        f"the pattern matches it, but the variant returns at most {len(ranking)} tools")
        detail = ("the pattern matches neither its name, its description nor its parameters" if matched is False
                  else "the pattern matches it, but the scan of the catalog stopped at its time limit before "
                       "reaching it" if matched else "the pattern ran past its time limit on this tool's text")
        if regex_is_literal(query):
            detail += f" ({REGEX_LITERAL_WORDS})"
        return Miss(task.id, tool, query, "pattern", None, None, detail)
    if opts.ranker == "semantic":
        ranked, evidence = index.ranked_evidence(query, 1)
        if not ranking and evidence is not None:
            cosine, margin = evidence[4], evidence[5]
            return Miss(task.id, tool, query, "cosine", None, None,
                        f"the first match ({ranked[0][0]}) has cosine {cosine:.2f} with the query and scores "
                        f"{margin:.2f} above the second; the variant needs {opts.min_cosine:.2f} and "
                        f"{opts.min_cosine_margin:.2f}, so the result is empty")
        return Miss(task.id, tool, query, "rank", None, None,
                    f"ranked below the first {len(ranking)} by cosine with the query")
    stems, gate, answerable, required = index._analyse(query)
    if not stems:
        ignored = index._pairs(query)[2]
        if ignored:
            return Miss(task.id, tool, query, "no-tokens", None, None,
                        "the variant ignores every word of the query (" + ", ".join(t for t, _ in ignored)
                        + "), so the search returns nothing")
        which = "Unicode-aware" if opts.tokenizer == "unicode" else "reference (ASCII-only)"
        return Miss(task.id, tool, query, "no-tokens", None, None,
                    f"the {which} tokenizer finds no word in the query, so the search returns nothing")
    i = index._by_lower[tool.lower()][0]
    freqs = index._bm25.doc_freqs[i]
    matched = [t for t in answerable if t in freqs]
    if not matched:
        terms = ", ".join(dict.fromkeys(stems))
        return Miss(task.id, tool, query, "no-shared-term", None, gate,
                    f"the tool contains none of the query's terms ({terms})")
    rule = index._exclusion(i, stems, gate, answerable, required)
    if rule == "gate":
        df = index.df(gate) if gate is not None else 0
        where = "it occurs in no tool, so nothing is admitted" if df == 0 else f"it occurs in {df} tool{'s' if df != 1 else ''}"
        return Miss(task.id, tool, query, "gate", None, gate, f"lacks the gate term '{gate}' ({where})")
    if rule == "coverage":
        return Miss(task.id, tool, query, "coverage", None, gate,
                    f"covers {len(matched)} of {len(answerable)} answerable terms; needs {required}")
    if rule == "known-share":
        return Miss(task.id, tool, query, "known-share", None, gate,
                    f"the query's words that some tool contains carry {index.known_share(stems):.0%} of its IDF; "
                    f"needs {opts.min_known_share:.0%} (the query is mostly about something no tool knows)")
    if rule == "idf-share":
        return Miss(task.id, tool, query, "idf-share", None, gate,
                    f"holds {index._idf_share(stems, i):.0%} of the answerable terms' IDF; needs "
                    f"{opts.min_idf_share:.0%}")
    if not ranking and (opts.min_best_share > 0 or opts.min_best_terms > 0 or opts.min_score_ratio > 1):
        ranked, evidence = index.ranked_evidence(query, 1)
        if evidence is not None:
            return Miss(task.id, tool, query, "evidence", None, gate,
                        evidence_shortfall(opts, ranked[0][0], *evidence))
    return Miss(task.id, tool, query, "rank", None, gate,
                f"admitted, but the variant returns at most {len(ranking)} tool{'s' if len(ranking) != 1 else ''}")


class _RegexBudget:
    """Seconds of regex-mode searching left to one evaluation run (:data:`REGEX_EVAL_BUDGET`),
    shared by every variant, task and fold of the run."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = REGEX_EVAL_BUDGET if seconds is None else seconds
        self.spent = 0.0

    @property
    def spent_all(self) -> bool:
        return self.spent >= self.seconds


def _regex_rankings(index: SearchIndex, queries: Sequence[str], depth: int,
                    budget: _RegexBudget) -> tuple[list[list[str]], tuple[str, ...]]:
    """Each regex-mode query's ranking and whether it stopped at the time limit (:data:`STOPPED`)
    or was not run because ``budget`` was spent (:data:`NOT_RUN`; its ranking ``[]``)."""
    rankings: list[list[str]] = []
    stops: list[str] = []
    for query in queries:
        if budget.spent_all:
            rankings.append([])
            stops.append(NOT_RUN)
            continue
        started = time.monotonic()
        scan = index.regex_result(query, depth)
        budget.spent += time.monotonic() - started
        rankings.append([name for name, _ in scan.matches])
        stops.append(STOPPED if scan.timed_out else "")
    return rankings, tuple(stops)


def _unfinished_task(task: Task, rankings: Sequence[Sequence[str]], limit: int, k: int, stops: tuple[str, ...],
                     explain: bool) -> TaskResult:
    """A task with a query in ``stops`` (stopped at the time limit or not run), as a failure: no
    rank, recall and reciprocal rank 0, not correct; the stopped and unrun queries count as not
    empty (abstention) or as no hit, the others as they came out; misses name only those queries
    (cause ``time-limit``: the others' explanations would scan the catalog again)."""
    matches = tuple(tuple(r[:limit]) for r in rankings)
    if task.abstention:
        return TaskResult(task, (), matches, None, None, None, None, correct=False,
                          query_hits=tuple(not m and not stop for m, stop in zip(matches, stops)), query_stops=stops)
    misses = []
    for tool in task.expected if explain else ():
        for query, stop in zip(task.queries, stops):
            if stop == STOPPED:
                misses.append(Miss(task.id, tool, query, "time-limit", None, None,
                                   f"the regex scan stopped at its time limit ({engine_search.REGEX_TIMEOUT:g} s); "
                                   "the task counts as a failure"))
            elif stop == NOT_RUN:
                misses.append(Miss(task.id, tool, query, "time-limit", None, None,
                                   f"not run: the run's regex time budget ({REGEX_EVAL_BUDGET:g} s of scans in all) "
                                   "was spent; the task counts as a failure"))
    return TaskResult(task, (None,) * len(task.expected), matches, 0.0, 0.0, 0.0, 0.0, False, tuple(misses),
                      tuple(any(e in r[:k] for e in task.expected) and not stop
                            for r, stop in zip(rankings, stops)), stops)


def _evaluate_task(index: SearchIndex, task: Task, limit: int, k: int, known: set[str], explain: bool = True,
                   budget: _RegexBudget | None = None) -> TaskResult:
    depth = max(len(index), 1)
    stops: tuple[str, ...] = ()
    if index.options.query_mode == "regex":
        budget = budget if budget is not None else _RegexBudget()
        rankings, stops = _regex_rankings(index, task.queries, depth, budget)
        if any(stops):
            return _unfinished_task(task, rankings, limit, k, stops, explain)
    else:
        budget = None  # only regex-mode work is budgeted
        rankings = [[name for name, _ in index.search(q, depth)] for q in task.queries]
    matches = tuple(tuple(r[:limit]) for r in rankings)
    any_match = any(matches)
    if task.abstention:
        return TaskResult(task, (), matches, None, None, None, None, correct=not any_match,
                          query_hits=tuple(not m for m in matches), query_stops=stops)
    started = time.monotonic()  # a regex miss is explained by matching the tool's text: budgeted too
    ranks: list[int | None] = []
    for tool in task.expected:
        positions = [r.index(tool) + 1 for r in rankings if tool in r]
        ranks.append(min(positions) if positions else None)
    n = len(task.expected)

    def recall(cut: int) -> float:
        return sum(1 for r in ranks if r is not None and r <= cut) / n

    found = [r for r in ranks if r is not None]
    best = min(found) if found else None
    misses: list[Miss] = []
    for tool, rank in zip(task.expected, ranks):
        if not explain or (rank is not None and rank <= limit):
            continue
        if tool not in known:
            misses.append(Miss(task.id, tool, "", "not-in-catalog", None, None,
                               "not a deferred tool of this catalog (check the name and the tool naming)"))
            continue
        misses.extend(_explain_miss(index, task, tool, q, r, limit) for q, r in zip(task.queries, rankings))
    if budget is not None:
        budget.spent += time.monotonic() - started
    hits = tuple(any(e in r[:k] for e in task.expected) for r in rankings)
    return TaskResult(task, tuple(ranks), matches, recall(1), recall(k), recall(limit),
                      1 / best if best is not None and best <= limit else 0.0, any_match, tuple(misses), hits, stops)


def _metrics(tasks: Sequence[TaskResult]) -> Metrics:
    positive = [t for t in tasks if not t.task.abstention]
    causes = {cause: 0 for cause in MISS_CAUSES}
    for t in tasks:
        for miss in t.misses:
            causes[miss.cause] += 1
    n_abstain = len(tasks) - len(positive)
    return Metrics(
        tasks=len(tasks), positive=len(positive), abstention=n_abstain,
        recall_at_1=_mean(t.recall_at_1 for t in positive), recall_at_k=_mean(t.recall_at_k for t in positive),
        recall_at_limit=_mean(t.recall_at_limit for t in positive),
        mrr=_mean(t.reciprocal_rank for t in positive),
        abstention_accuracy=sum(1 for t in tasks if t.correct) / len(tasks) if tasks else 0.0,
        abstained=sum(1 for t in tasks if t.task.abstention and t.correct),
        answered=sum(1 for t in positive if t.correct),
        miss_causes={c: n for c, n in causes.items() if n},
        abstention_rate=(sum(1 for t in tasks if t.task.abstention and t.correct) / n_abstain if n_abstain else None),
        query_recall_at_k=_mean(float(h) for t in positive for h in t.query_hits),
        nonsense_queries_empty=_mean(float(h) for t in tasks if t.task.abstention for h in t.query_hits),
        time_limit=time_limit_count(tasks),
    )


def _run_tasks(index: SearchIndex, tasks: Sequence[Task], limit: int, k: int, known: set[str], explain: bool,
               progress: ProgressFn | None, label: str, done: int = 0, total: int | None = None,
               budget: _RegexBudget | None = None) -> list[TaskResult]:
    total = total if total is not None else len(tasks)
    out = []
    step = max(1, total // 20)
    for n, task in enumerate(tasks, 1):
        out.append(_evaluate_task(index, task, limit, k, known, explain, budget))
        if progress is not None and ((done + n) % step == 0 or done + n == total):
            progress(done + n, total, label)
    return out


#: The end of a progress label while tool texts are embedded: its counts are tool texts, not tasks.
EMBEDDING_PROGRESS = "(embedding the tool texts)"


def progress_unit(label: str) -> str:
    """What a progress call's counts count: ``"tool texts"`` for an :data:`EMBEDDING_PROGRESS`
    label, else ``"tasks"``."""
    return "tool texts" if label.endswith(EMBEDDING_PROGRESS) else "tasks"


def embed_catalog(inspector: Inspector, config: ToolSearchConfig, variant: str, progress: ProgressFn | None) -> None:
    """For a variant whose ranker is semantic, embed the catalog's tool texts now, calling
    ``progress(done, total, "<variant> (embedding the tool texts)")`` as they are embedded (the
    minutes a new large catalog takes on a CPU); a no-op for other variants, without
    ``progress``, or when the texts are cached. Later searches find the vectors in the cache.

    Raises:
        SemanticUnavailable: the ``semantic`` extra is not installed.
    """
    opts = variant_options(variant)
    if progress is None or opts.ranker != "semantic":
        return
    index = inspector.bridge(config, opts).index
    if index.docs:
        label = f"{variant} {EMBEDDING_PROGRESS}"
        index.catalog_vectors(lambda done, total: progress(done, total, label))


def evaluate(inspector: Inspector, queries: QueryFile, variants: Sequence[str] = DEFAULT_VARIANTS,
             config: ToolSearchConfig | None = None, limit: int | None = None, *,
             params: Mapping[str, Mapping[str, Any]] | None = None, explain: bool = True,
             progress: ProgressFn | None = None) -> Evaluation:
    """Score every task of ``queries`` on ``inspector``'s catalog under each variant.

    Args:
        inspector: the registered catalog (its naming must match the expected names).
        queries: the labeled tasks.
        variants: variant names (see :func:`variant_options`), evaluated in this order.
        config: the ``tools.tool_search`` settings (defer set, search limits); default settings
            when ``None``.
        limit: matches per query; ``None`` means ``search_default_limit``. Clamped to
            ``[1, max_search_limit]`` as the bridge clamps it (docs/reference.md §6).
        params: ``{variant: {switch: value}}`` set on top of a variant's registered switches
            (tuned values); variants not named keep their registered values.
        explain: explain each miss (one document checked per miss, about the cost of one
            search); ``False`` leaves ``misses`` empty.
        progress: called as ``progress(done, total, variant)`` about 20 times per variant.

    Returns:
        An :class:`Evaluation`; metric definitions are in the module docstring.

    Raises:
        VariantError: an unknown variant name.
    """
    config = config or ToolSearchConfig()
    names = list(dict.fromkeys(variants)) or list(DEFAULT_VARIANTS)
    params = params or {}
    options = [(name, variant_options(name, params.get(name))) for name in names]
    k = C.EVAL_RECALL_K
    results = []
    effective = None
    known: set[str] = set()
    every_query = [q for t in queries.tasks for q in t.queries]
    budget = _RegexBudget()  # one for the run: every regex variant's scans together
    for name, opts in options:
        bridge = inspector.bridge(config, opts)
        if progress is not None and opts.ranker == "semantic" and bridge.index.docs:  # else nothing is embedded
            embed_catalog(inspector, config, name, progress)
            progress(0, len(queries.tasks), f"{name} (embedding the queries)")
        bridge.index.warm(every_query)  # semantic ranker: embed in batches (a no-op otherwise)
        effective = bridge.resolve_limit(limit)
        known = set(bridge.deferred_by_name)
        tasks = tuple(_run_tasks(bridge.index, queries.tasks, effective, k, known, explain, progress, name,
                                 budget=budget))
        results.append(VariantResult(name, opts, tasks, _metrics(tasks), dict(params.get(name, {}))))
    unknown = tuple(dict.fromkeys(e for t in queries.tasks for e in t.expected if e not in known))
    bridge = inspector.bridge(config)
    return Evaluation(queries, inspector.catalog.label, inspector.naming,
                      effective if effective is not None else bridge.resolve_limit(limit), k,
                      tuple(results), unknown, len(bridge.deferred))


# --- tuning out of sample -------------------------------------------------------------------

@dataclass(frozen=True)
class TuningPoint:
    """One parameter combination scored on the tuning tasks: ``query_recall`` (query recall@k of
    positive tasks' queries) and ``empty`` (share of abstention queries that came back empty;
    ``None`` without abstention tasks)."""

    params: Mapping[str, Any]
    query_recall: float
    empty: float | None


def _objective(point: TuningPoint, target: float) -> tuple:
    """Points that reach the abstention target first, by recall; then by recall + empty."""
    empty = 1.0 if point.empty is None else point.empty
    return (empty >= target, point.query_recall if empty >= target else point.query_recall + empty, empty)


#: Thresholds that only decide whether a result is empty: tuning applies them to one search per query.
_POST_THRESHOLDS = ("min_best_share", "min_best_terms", "min_score_ratio", "min_cosine", "min_cosine_margin")


@dataclass(frozen=True)
class _Searched:
    """One search pass of tuning: the values of the parameters that change the ranking (``base``),
    their options, the result limit, and per task (in the order given) per query ``(expected set,
    top names, evidence)``, evidence as :meth:`SearchIndex.ranked_evidence` gives it."""

    base: Mapping[str, Any]
    options: SearchOptions
    cut: int
    outcomes: tuple[tuple[tuple[set[str], list[str], Any], ...], ...]


def _search_grid(inspector: Inspector, tasks: Sequence[Task], variant: str, config: ToolSearchConfig,
                 limit: int | None, progress: ProgressFn | None = None, label: str = "") -> list[_Searched]:
    """One search per query of ``tasks`` for every combination of the ranking parameters of
    ``variant``'s grid (those not in :data:`_POST_THRESHOLDS`). ``progress(done, len(tasks),
    label)`` about 20 times over all the combinations (``done`` the share of the searches run, in
    tasks), since this is most of tuning's time."""
    grid = tunable_grid(variant)
    pre = [key for key in grid if key not in _POST_THRESHOLDS]
    k = C.EVAL_RECALL_K
    passes = []
    combinations = list(itertools.product(*(grid[key] for key in pre)))
    units, step = len(tasks) * len(combinations), max(1, len(tasks) * len(combinations) // 20)
    done = 0
    for pre_values in combinations:
        base = dict(zip(pre, pre_values))
        opts = variant_options(variant, base)
        bridge = inspector.bridge(config, opts)
        cut = bridge.resolve_limit(limit)
        index = bridge.index
        index.warm([q for task in tasks for q in task.queries])
        outcomes = []
        for task in tasks:
            per_query = []
            for query in task.queries:
                ranked, evidence = index.ranked_evidence(query, max(cut, k))
                per_query.append((set(task.expected), [n for n, _ in ranked], evidence))
            outcomes.append(tuple(per_query))
            done += 1
            if progress is not None and done % step == 0 and done < units:
                progress(done * len(tasks) // units, len(tasks), label)
        passes.append(_Searched(base, opts, cut, tuple(outcomes)))
    return passes


def _grid_points(variant: str, passes: Sequence[_Searched], chosen: Sequence[int]) -> list[TuningPoint]:
    """The tuning points of ``variant`` on the tasks at positions ``chosen`` of the searched tasks
    (in that order): every threshold combination applied to each pass's results."""
    grid = tunable_grid(variant)
    post = [key for key in grid if key in _POST_THRESHOLDS]
    k = C.EVAL_RECALL_K
    points: list[TuningPoint] = []
    for searched in passes:
        rows = [row for i in chosen for row in searched.outcomes[i]]
        positive = np.array([bool(expected) for expected, _, _ in rows], dtype=bool)
        found = np.array([any(e in names[:k] for e in expected) for expected, names, _ in rows], dtype=bool)
        empty = np.array([not names[:searched.cut] for _, names, _ in rows], dtype=bool)
        # Rows whose result the thresholds can empty, and their evidence as columns (6 fields: the
        # lexical rows' missing cosine and margin never abstain).
        judged = np.array([bool(names) and evidence is not None for _, names, evidence in rows], dtype=bool)
        columns = np.array([(*evidence, math.inf, math.inf)[:6] if evidence is not None else (1.0, 0, 0) + (math.inf,) * 3
                            for _, _, evidence in rows], dtype=float).reshape(len(rows), 6).T
        positives, absent = int(positive.sum()), int((~positive).sum())
        for post_values in itertools.product(*(grid[key] for key in post)):
            point_opts = replace(searched.options, **dict(zip(post, post_values)))
            emptied = judged & evidence_abstains(point_opts, *columns)
            # Counts of 0/1 over their number: the same floats as averaging the 0.0/1.0 values one by one.
            recall = int((found & ~emptied & positive).sum()) / positives if positives else 0.0
            empties = int(((empty | emptied) & ~positive).sum()) / absent if absent else None
            points.append(TuningPoint({**searched.base, **dict(zip(post, post_values))}, recall, empties))
    return points


def tuning_points(inspector: Inspector, tasks: Sequence[Task], variant: str, config: ToolSearchConfig | None = None,
                  limit: int | None = None, progress: ProgressFn | None = None, label: str = "") -> list[TuningPoint]:
    """Score every combination of :func:`tunable_grid` for ``variant`` on ``tasks`` (only
    those). Thresholds that only decide whether a result is empty (``min_best_share``,
    ``min_best_terms``, ``min_score_ratio``, ``min_cosine``, ``min_cosine_margin``) are applied to
    one search per query, so a large grid stays cheap. ``progress`` and ``label``: as
    :func:`_search_grid` reports them.

    Raises:
        VariantError: an unknown variant name.
    """
    if not tunable_grid(variant):
        return []
    passes = _search_grid(inspector, tasks, variant, config or ToolSearchConfig(), limit, progress, label)
    return _grid_points(variant, passes, range(len(tasks)))


def tune(inspector: Inspector, tasks: Sequence[Task], variant: str, config: ToolSearchConfig | None = None,
         limit: int | None = None, target: float = ABSTAIN_TARGET, progress: ProgressFn | None = None,
         label: str = "") -> dict[str, Any]:
    """The best parameters of ``variant`` on ``tasks`` (only those): the highest query recall@k
    among the points whose abstention queries come back empty at least ``target`` of the time;
    when none does, the highest recall + empty share. Ties keep the grid order. ``{}`` for a
    variant without tunable parameters; ``progress`` and ``label`` as :func:`_search_grid` reports
    them."""
    points = tuning_points(inspector, tasks, variant, config, limit, progress, label)
    return dict(best_point(points, target).params) if points else {}


def best_point(points: Sequence[TuningPoint], target: float = ABSTAIN_TARGET) -> TuningPoint:
    """The tuning rule: among ``points``, the highest query recall of those whose abstention
    queries come back empty at least ``target`` (0–1) of the time (of equal recalls, the emptier);
    when none does, the highest recall + empty share. Full ties keep the order of ``points`` (the
    grid order). A point without abstention queries (``empty`` None) counts as empty.

    Raises:
        ValueError: ``points`` is empty.
    """
    if not points:
        raise ValueError("no tuning point to choose from")
    return max(points, key=lambda p: _objective(p, target))  # max keeps the first of equals


def split_folds(tasks: Sequence[Task], folds: int, seed: int = FOLD_SEED) -> list[tuple[Task, ...]]:
    """Deterministic fold assignment: a task goes to fold ``sha256(seed:group_key) mod folds``,
    so all tasks of one group (:attr:`Task.group_key`) share a fold. File order is kept within
    each fold.

    Raises:
        ValueError: ``folds`` below 2.
    """
    if folds < 2:
        raise ValueError(f"folds must be at least 2, got {folds}")
    out: list[list[Task]] = [[] for _ in range(folds)]
    for task in tasks:
        # a lone surrogate (a JSON file's "\ud800") has no UTF-8 form: its code is hashed as it stands
        digest = hashlib.sha256(f"{seed}:{task.group_key}".encode("utf-8", "surrogatepass")).hexdigest()
        out[int(digest, 16) % folds].append(task)
    return [tuple(f) for f in out]


def evaluate_tuned(inspector: Inspector, tuning: QueryFile, test: QueryFile, variants: Sequence[str] = DEFAULT_VARIANTS,
                   config: ToolSearchConfig | None = None, limit: int | None = None, *,
                   target: float = ABSTAIN_TARGET, explain: bool = True,
                   progress: ProgressFn | None = None) -> Evaluation:
    """Tune each variant's parameters on ``tuning`` only, then score ``test`` with them.

    Raises:
        VariantError: an unknown variant name.
        QueryFileError: the two files share a task id or a group (the test would not be out of
            sample).
    """
    _check_disjoint(tuning, test)
    names = list(dict.fromkeys(variants)) or list(DEFAULT_VARIANTS)
    params = {}
    for name in names:
        tuned = tunable_grid(name)
        embed_catalog(inspector, config or ToolSearchConfig(), name, progress)
        if progress is not None and tuned:  # the tuning file's tasks: before, and once tuned
            progress(0, len(tuning.tasks), f"tuning {name} on")
        params[name] = tune(inspector, tuning.tasks, name, config, limit, target, progress, f"tuning {name} on")
        if progress is not None and tuned:
            progress(len(tuning.tasks), len(tuning.tasks), f"tuning {name} on")
    ev = evaluate(inspector, test, names, config, limit, params=params, explain=explain, progress=progress)
    known = set(inspector.bridge(config or ToolSearchConfig()).deferred_by_name)
    unknown = tuple(dict.fromkeys(e for t in tuning.tasks for e in t.expected if e not in known))
    return replace(ev, protocol="tune/test", tuned_on=tuning.name, tuning_unknown_expected=unknown)


def _check_disjoint(tuning: QueryFile, test: QueryFile) -> None:
    tuned = {t.id: t for t in tuning.tasks}
    shared = next((t for t in test.tasks if t.id in tuned), None)
    if shared is not None:
        other = tuned[shared.id]
        if (other.queries, other.expected, other.group) == (shared.queries, shared.expected, shared.group):
            raise QueryFileError(f"{test.origin}: task {quoted(shared.id)} is also in the tuning file {tuning.origin}; "
                                 "a task is either tuned on or scored, not both")
        # Two files written by hand often both number their tasks from 1: saying "is also in the
        # tuning file" of a task that is not there sends the user looking for a copy.
        raise QueryFileError(f"{test.origin}: the task id {quoted(shared.id)} also names a different task in the tuning file "
                             f"{tuning.origin}; an id names one task in both files (a task is either tuned on or "
                             "scored), so give the tasks of one file other ids")
    # The group keys the folds split by: a task's group, else its expected names, else its id.
    groups = {t.group_key for t in tuning.tasks} & {t.group_key for t in test.tasks}
    if groups:
        key = sorted(groups)[0]
        what = next(t for t in test.tasks if t.group_key == key).group_words()
        raise QueryFileError(f"{test.origin}: {what} is also in the tuning file {tuning.origin}; "
                             "a group must stay on one side")


def naming_mismatch(queries: QueryFile, naming: str) -> str:
    """``""`` when ``queries`` declares no ``tool_names`` or the catalog's own ``naming``, else one
    sentence saying the two differ: its expected names then match no deferred tool. The CLI and the
    Quality page say it for the scored file and for the tuning file, each adding how to switch."""
    if not queries.tool_names or queries.tool_names == naming:
        return ""
    return (f"its expected names use tool naming {quoted(queries.tool_names)}, but the catalog's tools are "
            f"registered {quoted(naming)}")


#: How many names a one-line warning spells out before "and N more".
NAMES_SHOWN = 5


def first_names(names: Sequence[str], shown: int = NAMES_SHOWN) -> str:
    """The first ``shown`` of ``names`` (invisible characters revealed), joined by commas, then
    "and N more" when there are others: a warning that names only some must not read as the list."""
    more = len(names) - shown
    return ", ".join(map(reveal, names[:shown])) + (f" and {more:,} more" if more > 0 else "")


def tuning_unknown_note(names: Sequence[str]) -> str:
    """``""`` for no names, else one sentence on the tuning file's expected ``names`` that are not
    deferred tools of the catalog (:attr:`Evaluation.tuning_unknown_expected`): the tuning tasks
    that expect them can never be found, so they pull the tuned values toward recall that cannot
    be had. Names the first five (:func:`first_names`). Said by ``eval --tune`` and the Quality page."""
    if not names:
        return ""
    return (f"{counted(len(names), 'expected name')} not among the deferred tools of this catalog (the tuning "
            f"tasks that expect them can never be found): {first_names(names)}")


def nothing_deferred(deferred_count: int) -> str:
    """Why an evaluation of a catalog that defers no tools means nothing, in one sentence, or ``""``
    (``deferred_count`` > 0). Said by ``eval`` and the Quality page."""
    if deferred_count > 0:
        return ""
    return ("the catalog defers no tools (no server with tools, or every tool is loaded up front), so every search "
            "returns nothing: recall is 0 and every abstention test passes whatever the variant")


def one_sided_tuning(tasks: Sequence[Task]) -> str:
    """What tuning on ``tasks`` cannot check, in one sentence, or ``""``: with no abstention test
    (``expected: []``) the parameters are tuned for recall alone; with nothing but abstention tests,
    for empty results alone. Said by ``eval --tune``, ``eval --folds`` and the Quality page."""
    if not tasks:
        return ""
    if not any(t.abstention for t in tasks):
        return ("no abstention task (expected: []), so the parameters were tuned for recall alone: nothing "
                "checked that a query for a capability no tool has comes back empty")
    if all(t.abstention for t in tasks):
        return ("every task is an abstention test (expected: []), so the parameters were tuned for empty results "
                "alone: nothing checked that a tool is still found")
    return ""


def one_sided_folds(tasks: Sequence[Task], folds: int, seed: int = FOLD_SEED) -> str:
    """:func:`one_sided_tuning` per fold of a K-fold split (:func:`split_folds`): the folds whose
    tuning tasks (those of the other folds) hold no abstention test, or nothing else, though the
    whole file holds both, in one sentence; ``""`` when there are none, when the whole file is
    one-sided (:func:`one_sided_tuning` says so), or for fewer than 2 folds. A fold that scores no
    task is left out. Said by ``eval --folds`` and the Quality page."""
    if folds < 2 or not tasks or one_sided_tuning(tasks):
        return ""
    parts = split_folds(tasks, folds, seed)
    recall_only: list[int] = []
    empty_only: list[int] = []
    for f, part in enumerate(parts):
        rest = [t for g, other in enumerate(parts) if g != f for t in other]
        if part and not any(t.abstention for t in rest):
            recall_only.append(f + 1)
        elif part and all(t.abstention for t in rest):
            empty_only.append(f + 1)

    def which(numbers: list[int]) -> str:
        one = len(numbers) == 1
        return (f"{'fold' if one else 'folds'} {', '.join(map(str, numbers))} of {folds} {'is' if one else 'are'} "
                f"tuned on the other fold{'s' if folds > 2 else ''}, which hold{'' if folds > 2 else 's'}")

    said = []
    if recall_only:
        said.append(f"{which(recall_only)} no abstention task (expected: []), so "
                    f"{'its' if len(recall_only) == 1 else 'their'} parameters were tuned for recall alone")
    if empty_only:
        said.append(f"{which(empty_only)} nothing but abstention tests (expected: []), so "
                    f"{'its' if len(empty_only) == 1 else 'their'} parameters were tuned for empty results alone")
    return "; ".join(said)


def _query_key(query: str) -> str:
    # Searches ignore case and spacing, so these are one query to a search.
    return " ".join(query.casefold().split())


def _shared_queries(tuning: Iterable[Task], scored: Iterable[Task]) -> list[str]:
    seen = {_query_key(q) for t in tuning for q in t.queries}
    return list(dict.fromkeys(q for t in scored for q in t.queries if _query_key(q) in seen))


def seen_in_tuning(tuning: Sequence[Task], test: Sequence[Task]) -> str:
    """``""`` when no query of ``test`` is also a query of ``tuning`` (compared without case and
    extra spaces), else one sentence naming how many are and the first five (:func:`first_names`):
    tuning saw those queries
    (under other task ids and groups, which :func:`evaluate_tuned` checks), so their figures are not
    out of sample. Said by ``eval --tune``."""
    shared = _shared_queries(tuning, test)
    if not shared:
        return ""
    return (f"{counted(len(shared), 'query', 'queries')} of the scored tasks {'is' if len(shared) == 1 else 'are'} "
            f"also in the tuning file (under another task), so tuning saw {'it' if len(shared) == 1 else 'them'} "
            f"and {'its' if len(shared) == 1 else 'their'} figures are not out of sample: "
            f"{first_names([quoted(q) for q in shared])}")


def repeated_tasks(tasks: Sequence[Task]) -> str:
    """``""`` when no two tasks hold the same queries and expected tools, else one sentence naming
    how many tasks repeat an earlier one and the first pair (ids). Queries compare as a search reads
    them (without case and extra spaces) and in any order; expected tools in any order. Such a task
    is scored again under its own id, so its requests weigh twice in every figure. Said by ``eval``
    and the Quality page (for the scored file and a tuning file)."""
    first: dict[tuple[tuple[str, ...], tuple[str, ...]], str] = {}
    repeats: list[tuple[str, str]] = []
    for task in tasks:
        key = (tuple(sorted({_query_key(q) for q in task.queries})), tuple(sorted(task.expected)))
        if key in first:
            repeats.append((task.id, first[key]))
        else:
            first[key] = task.id
    if not repeats:
        return ""
    one = len(repeats) == 1
    task_id, earlier = repeats[0]
    return (f"{counted(len(repeats), 'task')} {'repeats' if one else 'repeat'} an earlier task's queries and expected "
            f"tools under another id, so {'its' if one else 'their'} requests count twice in the figures "
            f"(first: {quoted(task_id)} repeats {quoted(earlier)}); remove the repeat or change it")


def seen_across_folds(tasks: Sequence[Task], folds: int, seed: int = FOLD_SEED) -> str:
    """:func:`seen_in_tuning` for a K-fold split (:func:`split_folds`): the queries that also occur
    in another fold (under a task of another group), which tunes on them. ``""`` when there are
    none, or for fewer than 2 folds. Said by ``eval --folds`` and the Quality page."""
    if folds < 2:
        return ""
    parts = split_folds(tasks, folds, seed)
    shared: list[str] = []
    for f, part in enumerate(parts):
        shared += _shared_queries((t for g, other in enumerate(parts) if g != f for t in other), part)
    shared = list(dict.fromkeys(shared))
    if not shared:
        return ""
    one = len(shared) == 1
    return (f"{counted(len(shared), 'query', 'queries')} {'is' if one else 'are'} also in another fold (under a "
            f"task of another group), so the parameters that score {'it' if one else 'them'} were tuned on "
            f"{'it' if one else 'them'} and {'its' if one else 'their'} figures are not out of sample: "
            f"{first_names([quoted(q) for q in shared])}")


def evaluate_folds(inspector: Inspector, queries: QueryFile, folds: int, variants: Sequence[str] = DEFAULT_VARIANTS,
                   config: ToolSearchConfig | None = None, limit: int | None = None, *,
                   target: float = ABSTAIN_TARGET, seed: int = FOLD_SEED, explain: bool = True,
                   progress: ProgressFn | None = None) -> Evaluation:
    """K-fold evaluation: for each fold (:func:`split_folds`), tune on the other folds and score
    the fold's tasks; every task is scored exactly once, by parameters that never saw it. The
    result lists the tasks in file order; ``fold_params`` holds each fold's tuned parameters
    (``{}`` for a fold no task landed in: nothing is scored there, so nothing is tuned for it).

    Raises:
        VariantError: an unknown variant name.
        ValueError: ``folds`` below 2.
        QueryFileError: more folds than the file has task groups (:attr:`Task.group_key`), fewer
            than 2 groups, or every task hashed into one fold (that fold would be tuned on nothing).
    """
    config = config or ToolSearchConfig()
    groups = len({t.group_key for t in queries.tasks})
    if groups < 2:
        # "give at most 1 folds" would ask for something --folds refuses (at least 2).
        raise QueryFileError(f"{queries.origin}: {folds:,} folds, but the file has {counted(groups, 'task group')}, and "
                             "folds need at least 2 (tasks of one group stay in one fold): give the tasks more "
                             "groups, or tune on a separate query file")
    if folds > groups:
        raise QueryFileError(f"{queries.origin}: {folds:,} folds, but the file has {counted(groups, 'task group')}; "
                             f"give at most {groups:,} folds (tasks of one group stay in one fold)")
    parts = split_folds(queries.tasks, folds, seed)
    filled = [f for f, part in enumerate(parts, 1) if part]
    if len(filled) < 2:  # every task in one fold: it would be "tuned on the other folds", which hold nothing
        raise QueryFileError(
            f"{queries.origin or queries.name}: {folds} folds: every task lands in fold {filled[0]} of {folds}, so "
            f"its tuning set (the other folds) would be empty (tasks go to folds by a hash of their group, all tasks "
            f"of a group in one fold, and the file has {counted(groups, 'group')}); use another number of folds, or "
            "give the tasks more groups")
    names = list(dict.fromkeys(variants)) or list(DEFAULT_VARIANTS)
    k = C.EVAL_RECALL_K
    order = {t.id: i for i, t in enumerate(queries.tasks)}
    results = []
    effective = None
    known: set[str] = set()
    # Tasks in fold order: each fold tunes on the others, taken in this order (as tune() would get them).
    ordered = [t for part in parts for t in part]
    starts = list(itertools.accumulate([0, *(len(part) for part in parts)]))
    budget = _RegexBudget()  # one for the run: every fold and regex variant together
    for name in names:
        scored: list[TaskResult] = []
        fold_params = []
        done = 0
        tuned = bool(tunable_grid(name))
        passes: list[_Searched] = []
        embed_catalog(inspector, config, name, progress)
        if tuned:  # one search per query and ranking setting, shared by every fold's tuning
            label = f"tuning {name} ({folds} folds) on"
            if progress is not None:  # tuning takes longer than scoring: said, as evaluate_tuned does
                progress(0, len(ordered), label)
            passes = _search_grid(inspector, ordered, name, config, limit, progress, label)
            if progress is not None:
                progress(len(ordered), len(ordered), label)
        for f, part in enumerate(parts):
            if not part:  # a fold no task hashed into: nothing to score, so nothing is tuned for it
                fold_params.append({})
                continue
            if tuned:
                rest = [i for g in range(folds) if g != f for i in range(starts[g], starts[g + 1])]
                params = dict(best_point(_grid_points(name, passes, rest), target).params)
            else:
                params = {}
            fold_params.append(params)
            bridge = inspector.bridge(config, variant_options(name, params))
            bridge.index.warm([q for t in part for q in t.queries])
            effective = bridge.resolve_limit(limit)
            known = set(bridge.deferred_by_name)
            scored += _run_tasks(bridge.index, part, effective, k, known, explain, progress, name, done,
                                 len(queries.tasks), budget)
            done += len(part)
        scored.sort(key=lambda r: order[r.task.id])
        results.append(VariantResult(name, variant_options(name), tuple(scored), _metrics(scored),
                                     {}, tuple(fold_params) if tunable_grid(name) else ()))
    unknown = tuple(dict.fromkeys(e for t in queries.tasks for e in t.expected if e not in known))
    bridge = inspector.bridge(config)
    return Evaluation(queries, inspector.catalog.label, inspector.naming,
                      effective if effective is not None else bridge.resolve_limit(limit), k,
                      tuple(results), unknown, len(bridge.deferred), protocol=f"{folds}-fold")


def task_cell(result: TaskResult, limit: int) -> str:
    """One task's outcome as a short cell for tables: the best rank (``"(7)"`` when below the
    limit, ``"—"`` when no expected tool is admitted); for abstention tasks ``"empty"`` or
    ``"NOT EMPTY"``; ``"stopped"`` or ``"not run"`` for a task whose regex scan stopped at its time
    limit or was not run (:attr:`TaskResult.unfinished`)."""
    if result.unfinished:  # a failure, but neither a miss nor a result that was not empty
        return result.unfinished
    if result.task.abstention:
        return "empty" if result.correct else "NOT EMPTY"
    best = result.best_rank
    if best is None:
        return "—"
    return str(best) if best <= limit else f"({best})"


def evaluation_json(evaluation: Evaluation) -> str:
    """``toolsearch eval --json`` text (indented, non-ASCII kept)."""
    return json.dumps(evaluation.to_dict(), ensure_ascii=False, indent=2)
