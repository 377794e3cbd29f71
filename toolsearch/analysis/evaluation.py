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
  same); abstention accuracy is the share of *all* tasks that are correct in that sense.
* Abstention rate: the share of abstention tasks (``expected: []``, nonsense for this catalog)
  for which every query returned nothing: the price side of the recall trade-off.
* Per query (agents often send one query, and a task's best query hides its weak ones): query
  recall@k is the share of the queries of positive tasks whose first k matches hold an expected
  tool; nonsense queries empty is the share of the queries of abstention tasks that return
  nothing.
* Misses: for each expected tool not within the limit, and each query of its task, the cause
  from :meth:`toolsearch.engine.search.SearchIndex.explain`: ``gate`` (lacks the gate term),
  ``coverage`` (too few of the answerable terms), ``known-share`` and ``idf-share`` (the
  ``agent`` variant's two thresholds), ``rank`` (admitted, ranked below the limit),
  ``no-shared-term`` (contains none of the query's terms), ``no-tokens`` (the tokenizer sees no
  word in the query, e.g. Japanese under the reference's ASCII tokenizer) or ``not-in-catalog``
  (the name is not a deferred tool here: a labeling error or another naming).

Variants come from the one registry in :mod:`toolsearch.analysis.variants` (``reference`` = the defaults;
``no-gate``, ``no-coverage``, ``plain-bm25``, ``unicode``, ``name-substring``, ``agent``),
combinable with ``+`` (e.g. ``unicode+no-gate``). The Unicode-aware tokenizer is character bigrams
over CJK runs plus Unicode words elsewhere (see :func:`toolsearch.engine.search.unicode_query_tokens`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence


from ..engine import constants as C
from ..engine import readers
from ..engine.bridge import Bridge, clean_string_list
from ..engine.config import ToolSearchConfig
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine.search import SearchOptions
# The registry lives in toolsearch.analysis.variants; these names stay importable from here.
from .variants import DEFAULT_VARIANTS, VARIANT_HELP, VARIANTS, VariantError, variant_options  # noqa: F401


class QueryFileError(ToolsearchError):
    """A query file cannot be read or does not have the expected shape."""


MISS_CAUSES = ("gate", "coverage", "known-share", "idf-share", "rank", "no-shared-term", "no-tokens", "not-in-catalog")


# --- query files ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    """One labeled task.

    Attributes:
        id: unique within the file.
        queries: the queries of one ``tool_search`` call (cleaned as the bridge cleans them).
        expected: wire names a correct search returns; empty for an abstention test.
        note: free text for readers.
    """

    id: str
    queries: tuple[str, ...]
    expected: tuple[str, ...]
    note: str = ""

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


def parse_queries(data: Any, origin: str = "<query file>") -> QueryFile:
    """Validate a loaded query document (see the module docstring for the shape).

    Raises:
        QueryFileError: naming the file, the task and what was expected.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("tasks"), list):
        raise QueryFileError(f"{origin}: expected a mapping with a 'tasks' list")
    tool_names = data.get("tool_names")
    if tool_names is not None and tool_names not in C.TOOL_NAMING:
        raise QueryFileError(f"{origin}: tool_names: expected one of {', '.join(C.TOOL_NAMING)}, got {tool_names!r}")
    tasks: list[Task] = []
    seen: set[str] = set()
    for i, item in enumerate(data["tasks"]):
        where = f"{origin}: tasks[{i}]"
        if not isinstance(item, Mapping):
            raise QueryFileError(f"{where}: expected a mapping with id, queries and expected")
        task_id = item.get("id")
        if not isinstance(task_id, (str, int)) or not str(task_id).strip():
            raise QueryFileError(f"{where}: expected a non-empty 'id'")
        task_id = str(task_id).strip()
        where = f"{origin}: tasks[{i}] ({task_id})"
        if task_id in seen:
            raise QueryFileError(f"{where}: the id {task_id!r} is used twice")
        seen.add(task_id)
        if "queries" in item and "query" in item:
            raise QueryFileError(f"{where}: give either 'queries' or 'query', not both")
        raw = item.get("queries", item.get("query"))
        queries = clean_string_list(_strings(raw, where, "queries"), dedupe=False) if raw is not None else []
        if not queries:
            raise QueryFileError(f"{where}: expected at least one non-blank query")
        if len(queries) > C.MAX_QUERIES_PER_CALL:
            raise QueryFileError(f"{where}: {len(queries)} queries; tool_search accepts at most "
                                 f"{C.MAX_QUERIES_PER_CALL} per call")
        if "expected" not in item:
            raise QueryFileError(f"{where}: expected an 'expected' list (empty for an abstention test)")
        expected = _strings(item["expected"] if item["expected"] is not None else [], where, "expected")
        expected = list(dict.fromkeys(e.strip() for e in expected if e.strip()))
        note = item.get("note")
        tasks.append(Task(task_id, tuple(queries), tuple(expected), str(note) if note is not None else ""))
    if not tasks:
        raise QueryFileError(f"{origin}: the 'tasks' list is empty")
    name = data.get("name")
    catalog = data.get("catalog")
    return QueryFile(name=str(name) if name else Path(origin).stem, tasks=tuple(tasks), origin=origin,
                     catalog=str(catalog) if catalog else None, tool_names=tool_names)


def load_queries_text(text: str, origin: str) -> QueryFile:
    """Parse query-file text (YAML, or JSON which YAML reads too). Raises :class:`QueryFileError`."""
    return parse_queries(readers.load_yaml(text, origin, QueryFileError), origin)


def load_queries(path: str | Path) -> QueryFile:
    """Read and parse a query file. Raises :class:`QueryFileError`."""
    return load_queries_text(readers.read_text(path, QueryFileError, "the query file"), str(path))


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
            tasks) or whether it returned nothing (abstention tasks).
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

    @property
    def best_rank(self) -> int | None:
        """The best rank of any expected tool (``None`` when none is admitted or for abstention)."""
        found = [r for r in self.ranks if r is not None]
        return min(found) if found else None

    def to_dict(self, k: int) -> dict[str, Any]:
        return {
            "id": self.task.id, "queries": list(self.task.queries), "expected": list(self.task.expected),
            "kind": "abstention" if self.task.abstention else "positive",
            "ranks": dict(zip(self.task.expected, self.ranks)),
            "matches": [list(m) for m in self.matches],
            "recall_at_1": _round(self.recall_at_1), f"recall_at_{k}": _round(self.recall_at_k),
            "recall_at_limit": _round(self.recall_at_limit), "reciprocal_rank": _round(self.reciprocal_rank),
            "correct": self.correct,
        }


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

    def to_dict(self, k: int) -> dict[str, Any]:
        return {
            "abstention_rate": _round(self.abstention_rate), f"query_recall_at_{k}": _round(self.query_recall_at_k),
            "nonsense_queries_empty": _round(self.nonsense_queries_empty),
            "tasks": self.tasks, "positive_tasks": self.positive, "abstention_tasks": self.abstention,
            "recall_at_1": _round(self.recall_at_1), f"recall_at_{k}": _round(self.recall_at_k),
            "recall_at_limit": _round(self.recall_at_limit), "mrr": _round(self.mrr),
            "abstention_accuracy": _round(self.abstention_accuracy),
            "abstention_tasks_empty": self.abstained, "positive_tasks_answered": self.answered,
            "miss_causes": dict(self.miss_causes),
        }


@dataclass(frozen=True)
class VariantResult:
    """All tasks under one variant."""

    name: str
    options: SearchOptions
    tasks: tuple[TaskResult, ...]
    metrics: Metrics

    @property
    def misses(self) -> tuple[Miss, ...]:
        return tuple(m for t in self.tasks for m in t.misses)


@dataclass(frozen=True)
class Evaluation:
    """A query file evaluated on one catalog, variants side by side.

    Attributes:
        query_file: the labeled tasks.
        catalog: the catalog's name; ``naming``: ``prefixed`` or ``as-is``.
        limit: matches per query (the bridge's clamped limit); ``k``: the k of recall@k.
        variants: one result per variant, in the order asked.
        unknown_expected: expected names that are not deferred tools of this catalog.
        deferred_count: deferred tools searched.
    """

    query_file: QueryFile
    catalog: str
    naming: str
    limit: int
    k: int
    variants: tuple[VariantResult, ...]
    unknown_expected: tuple[str, ...]
    deferred_count: int

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
            "variants": [{
                "name": v.name,
                "options": {"gate": v.options.gate, "coverage": v.options.coverage,
                            "tokenizer": v.options.tokenizer,
                            "name_substring_fallback": v.options.name_substring_fallback,
                            "unknown_terms": v.options.unknown_terms, "stop_words": v.options.stop_words,
                            "split_words": v.options.split_words, "field_weights": list(v.options.field_weights),
                            "min_known_share": v.options.min_known_share,
                            "min_idf_share": v.options.min_idf_share},
                "metrics": v.metrics.to_dict(self.k),
                "tasks": [t.to_dict(self.k) for t in v.tasks],
                "misses": [m.to_dict() for m in v.misses],
            } for v in self.variants],
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


# --- evaluation -----------------------------------------------------------------------------

def _explain_miss(bridge: Bridge, task: Task, tool: str, query: str, ranking: Sequence[str], limit: int) -> Miss:
    index = bridge.index
    if tool in ranking:
        position = ranking.index(tool) + 1
        ex = index.explain(query, limit, max_candidates=1)
        return Miss(task.id, tool, query, "rank", position, ex.gate,
                    f"admitted at rank {position} of {len(ranking)}; only the first {limit} are returned")
    ex = index.explain(query, limit, max_candidates=len(index))
    if not ex.terms:
        if ex.ignored:
            return Miss(task.id, tool, query, "no-tokens", None, None,
                        "the variant ignores every word of the query (" + ", ".join(t for t, _ in ex.ignored)
                        + "), so the search returns nothing")
        which = "Unicode-aware" if index.options.tokenizer == "unicode" else "reference (ASCII-only)"
        return Miss(task.id, tool, query, "no-tokens", None, None,
                    f"the {which} tokenizer finds no word in the query, so the search returns nothing")
    candidate = next((c for c in ex.candidates if c.name == tool), None)
    if candidate is None:
        terms = ", ".join(t.stem for t in ex.terms)
        return Miss(task.id, tool, query, "no-shared-term", None, ex.gate,
                    f"the tool contains none of the query's terms ({terms})")
    gate_df = next((t.df for t in ex.terms if t.stem == ex.gate), 0)
    if index.options.gate and not candidate.has_gate:
        where = ("it occurs in no tool, so nothing is admitted" if gate_df == 0
                 else f"it occurs in {gate_df} tool{'s' if gate_df != 1 else ''}")
        return Miss(task.id, tool, query, "gate", None, ex.gate, f"{candidate.reason} ({where})")
    cause = candidate.rule if candidate.rule in MISS_CAUSES else "coverage"
    return Miss(task.id, tool, query, cause, None, ex.gate, candidate.reason)


def _evaluate_task(bridge: Bridge, task: Task, limit: int, k: int, known: set[str]) -> TaskResult:
    index = bridge.index
    depth = max(len(index), 1)
    rankings = [[name for name, _ in index.search(q, depth)] for q in task.queries]
    matches = tuple(tuple(r[:limit]) for r in rankings)
    any_match = any(matches)
    if task.abstention:
        return TaskResult(task, (), matches, None, None, None, None, correct=not any_match,
                          query_hits=tuple(not m for m in matches))
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
        if rank is not None and rank <= limit:
            continue
        if tool not in known:
            misses.append(Miss(task.id, tool, "", "not-in-catalog", None, None,
                               "not a deferred tool of this catalog (check the name and the tool naming)"))
            continue
        misses.extend(_explain_miss(bridge, task, tool, q, r, limit) for q, r in zip(task.queries, rankings))
    hits = tuple(any(e in r[:k] for e in task.expected) for r in rankings)
    return TaskResult(task, tuple(ranks), matches, recall(1), recall(k), recall(limit),
                      1 / best if best is not None and best <= limit else 0.0, any_match, tuple(misses), hits)


def evaluate(inspector: Inspector, queries: QueryFile, variants: Sequence[str] = DEFAULT_VARIANTS,
             config: ToolSearchConfig | None = None, limit: int | None = None) -> Evaluation:
    """Score every task of ``queries`` on ``inspector``'s catalog under each variant.

    Args:
        inspector: the registered catalog (its naming must match the expected names).
        queries: the labeled tasks.
        variants: variant names (see :func:`variant_options`), evaluated in this order.
        config: the ``tools.tool_search`` settings (defer set, search limits); default settings
            when ``None``.
        limit: matches per query; ``None`` means ``search_default_limit``. Clamped to
            ``[1, max_search_limit]`` as the bridge clamps it (docs/reference.md §6).

    Returns:
        An :class:`Evaluation`; metric definitions are in the module docstring.

    Raises:
        VariantError: an unknown variant name.
    """
    config = config or ToolSearchConfig()
    names = list(dict.fromkeys(variants)) or list(DEFAULT_VARIANTS)
    options = [(name, variant_options(name)) for name in names]
    k = C.EVAL_RECALL_K
    results = []
    effective = None
    known: set[str] = set()
    for name, opts in options:
        bridge = inspector.bridge(config, opts)
        effective = bridge.resolve_limit(limit)
        known = set(bridge.deferred_by_name)
        tasks = tuple(_evaluate_task(bridge, task, effective, k, known) for task in queries.tasks)
        positive = [t for t in tasks if not t.task.abstention]
        causes = {cause: 0 for cause in MISS_CAUSES}
        for t in tasks:
            for miss in t.misses:
                causes[miss.cause] += 1
        metrics = Metrics(
            tasks=len(tasks), positive=len(positive), abstention=len(tasks) - len(positive),
            recall_at_1=_mean(t.recall_at_1 for t in positive), recall_at_k=_mean(t.recall_at_k for t in positive),
            recall_at_limit=_mean(t.recall_at_limit for t in positive),
            mrr=_mean(t.reciprocal_rank for t in positive),
            abstention_accuracy=sum(1 for t in tasks if t.correct) / len(tasks),
            abstained=sum(1 for t in tasks if t.task.abstention and t.correct),
            answered=sum(1 for t in positive if t.correct),
            miss_causes={c: n for c, n in causes.items() if n},
            abstention_rate=(sum(1 for t in tasks if t.task.abstention and t.correct) / (len(tasks) - len(positive))
                             if len(tasks) > len(positive) else None),
            query_recall_at_k=_mean(float(h) for t in positive for h in t.query_hits),
            nonsense_queries_empty=_mean(float(h) for t in tasks if t.task.abstention for h in t.query_hits),
        )
        results.append(VariantResult(name, opts, tasks, metrics))
    unknown = tuple(dict.fromkeys(e for t in queries.tasks for e in t.expected if e not in known))
    bridge = inspector.bridge(config)
    return Evaluation(queries, inspector.catalog.name, inspector.naming,
                      effective if effective is not None else bridge.resolve_limit(limit), k,
                      tuple(results), unknown, len(bridge.deferred))


def task_cell(result: TaskResult, limit: int) -> str:
    """One task's outcome as a short cell for tables: the best rank (``"(7)"`` when below the
    limit, ``"—"`` when no expected tool is admitted); for abstention tasks ``"empty"`` or
    ``"NOT EMPTY"``."""
    if result.task.abstention:
        return "empty" if result.correct else "NOT EMPTY"
    best = result.best_rank
    if best is None:
        return "—"
    return str(best) if best <= limit else f"({best})"


def evaluation_json(evaluation: Evaluation) -> str:
    """``toolsearch eval --json`` text (indented, non-ASCII kept)."""
    return json.dumps(evaluation.to_dict(), ensure_ascii=False, indent=2)
