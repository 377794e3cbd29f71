"""Search quality of every variant on the third-party sets, out of sample (prints; can write docs).

Usage: ``python -m benchmarks.search_quality [--write-docs] [--no-speed]``. With ``--no-speed`` the
eval-speed run is skipped and the eval-speed paragraph the docs hold is kept as written.

For each set under ``benchmarks/data`` (see its README): every variant's parameters are tuned on
``tune.json`` only and scored on ``test.json`` (out of sample); beside that, the same variant
tuned on ``test.json`` itself and scored there (in sample, an optimistic figure, labeled so).
Variants without parameters get the same figure twice. Where a set has ``no-tool-test.json``
(requests that need no tool by the source's own labels), each variant is also scored there with the
parameters tuned on ``tune.json`` (tuning never reads that file). With ``--write-docs`` the tables go into
``docs/search-quality.md`` between the generated-figures markers, and the out-of-sample summary
per variant into README.md's search-quality block; nothing there is typed by hand.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from toolsearch.analysis.evaluation import NONSENSE_QUERIES_EMPTY, TuningPoint, best_point, evaluate, \
    evaluate_tuned, load_queries, tunable_grid, tuning_points
from toolsearch.analysis.variants import AVAILABLE_VARIANTS, variant_options
from toolsearch.analysis.wording import evaluation_share, mean_reciprocal_rank
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
DOC = ROOT / "docs" / "search-quality.md"
README = ROOT / "README.md"
README_BEGIN, README_END = ("<!-- search-quality: begin (written by python -m benchmarks.search_quality "
                            "--write-docs) -->", "<!-- search-quality: end -->")
SETS = ("metatool", "bfcl-live")
BEGIN, END = "<!-- figures: begin (written by python -m benchmarks.search_quality --write-docs) -->", \
    "<!-- figures: end -->"
TARGET_RECALL, TARGET_EMPTY = 0.70, 0.95
#: Per variant, the parameter values that switch its abstention off ("ranking alone" line).
RANKING_ALONE = {"evidence": {"min_best_share": 0.0, "min_best_terms": 0, "min_score_ratio": 0.0},
                 "semantic": {"min_cosine": -1.0, "min_cosine_margin": 0.0}}


#: Search-quality shares as ``toolsearch eval``, the Quality page and the report print them (0.313).
_f = evaluation_share
#: The share of the absent-capability requests (the sets' ``expected: []`` tasks) that come back
#: empty, under the name ``toolsearch eval`` and the Quality page give it.
EMPTY = NONSENSE_QUERIES_EMPTY.label
#: What :data:`EMPTY` is on these sets, where the target is stated.
EMPTY_MEANING = f"{EMPTY}: the share of absent-capability requests that come back empty"


def _params(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "—"


#: A set's requests that need no tool by the source's own labels (only ``metatool`` has them).
NO_TOOL_TEST = "no-tool-test.json"
NO_TOOL_HEADING = "needs-no-tool requests empty (out of sample; MetaTool's labels)"

Row = tuple[str, float, float, float | None]


def set_figures(name: str, variants: tuple[str, ...] = AVAILABLE_VARIANTS) -> tuple[str, list[Row]]:
    """The markdown section of one set, and ``(variant, query recall@5, empty, needs-no-tool empty)``
    out of sample, for ``variants`` (every available one by default). The last is ``None`` for a set
    without :data:`NO_TOOL_TEST`; where it is there, each variant is scored on it with the
    parameters tuned on ``tune.json`` (which the tuning never sees it beside)."""
    ins = Inspector(load_source(DATA / name / "catalog.json"))
    config = parse_config({})
    tune, test = load_queries(DATA / name / "tune.json"), load_queries(DATA / name / "test.json")
    no_tool = load_queries(DATA / name / NO_TOOL_TEST) if (DATA / name / NO_TOOL_TEST).exists() else None
    # The in-sample run tunes on the test file itself; ids differ by a suffix so the overlap
    # check (which guards the out-of-sample run) lets it through.
    same = test.__class__(name=test.name + " (as tuning)", tasks=tuple(
        t.__class__(t.id + "#tune", t.queries, t.expected, t.note, "") for t in test.tasks), origin=test.origin)
    oos = evaluate_tuned(ins, tune, test, variants, config)
    ins_ev = evaluate_tuned(ins, same, test, variants, config, explain=False)
    # The same tuned parameters on the needs-no-tool requests: scored only, never tuned on.
    no_tool_ev = None if no_tool is None else evaluate(
        ins, no_tool, [v.name for v in oos.variants], config, params={v.name: dict(v.params) for v in oos.variants},
        explain=False)
    positive = sum(1 for t in test.tasks if t.expected)
    lines = [f"### `{name}`: tuned on `tune.json`, scored on `test.json`", "",
             f"{len(test.tasks)} test tasks ({positive} with a gold tool, {len(test.tasks) - positive} absent "
             f"capabilities) over {oos.deferred_count} tools; tuning on {len(tune.tasks)} other tasks "
             "whose tools are all different."
             + ("" if no_tool is None else
                f" Beside them, the {len(no_tool.tasks)} requests of `{NO_TOOL_TEST}`, which need no tool by "
                "MetaTool's own labels, scored with the same tuned parameters."), "",
             f"| variant | query recall@5 (out of sample) | {EMPTY} (out of sample) | "
             + ("" if no_tool is None else f"{NO_TOOL_HEADING} | ")
             + f"MRR (out of sample) | tuned parameters | query recall@5 (in sample) | {EMPTY} (in sample) |",
             "| --- | --- | --- |" + ("" if no_tool is None else " --- |") + " --- | --- | --- | --- |"]
    rows: list[Row] = []
    for i, (v, w) in enumerate(zip(oos.variants, ins_ev.variants)):
        m, n = v.metrics, w.metrics
        tuned = bool(tunable_grid(v.name))
        nt = None if no_tool_ev is None else no_tool_ev.variants[i].metrics.nonsense_queries_empty
        lines.append(f"| {v.name} | {_f(m.query_recall_at_k)} | {_f(m.nonsense_queries_empty)} | "
                     + ("" if no_tool_ev is None else f"{_f(nt)} | ") + f"{mean_reciprocal_rank(m.mrr)} | "
                     f"{_params(v.params) if tuned else 'nothing to tune'} | "
                     f"{_f(n.query_recall_at_k) if tuned else 'same'} | {_f(n.nonsense_queries_empty) if tuned else 'same'} |")
        rows.append((v.name, m.query_recall_at_k or 0.0, m.nonsense_queries_empty or 0.0, nt))
    # The ranking alone: the same tuned parameters with the abstention thresholds off (what the
    # variant would rank first if it never returned an empty result).
    alone = [(v.name, {**v.params, **RANKING_ALONE[v.name]}) for v in oos.variants if v.name in RANKING_ALONE]
    if alone:
        ev = evaluate(ins, test, [n for n, _ in alone], config, params=dict(alone), explain=False)
        lines += ["", "Ranking alone (tuned parameters, abstention thresholds off; out of sample): " + ", ".join(
            f"`{r.name}` query recall@5 {_f(r.metrics.query_recall_at_k)}, {EMPTY} "
            f"{_f(r.metrics.nonsense_queries_empty)}" for r in ev.variants) + "."]
    return "\n".join(lines), rows


def absent_neighbours(name: str) -> str:
    """Why absent requests are hard to leave empty, from the ``semantic`` ranking of the test split:
    per held-out tool, the catalog tool its requests most often match first and their mean first
    cosine; beside that, the present requests' median first cosine, and the ceiling of a cosine
    threshold picked on the test split itself (the best query recall@5 any ``min_cosine`` could give
    with nonsense queries empty at least 0.950: an in-sample bound, not a result). ``""`` when the
    semantic extra is not installed."""
    from toolsearch.engine import embedding  # noqa: PLC0415

    if not embedding.available():
        return ""
    import numpy as np  # noqa: PLC0415

    ins = Inspector(load_source(DATA / name / "catalog.json"))
    test = load_queries(DATA / name / "test.json")
    index = ins.bridge(parse_config({}), variant_options("semantic", {**RANKING_ALONE["semantic"],
                                                                       "lexical_weight": 0.0})).index
    index.warm([q for t in test.tasks for q in t.queries])
    absent: dict[str, list[tuple[str, float]]] = {}
    present: list[tuple[float, bool]] = []
    for task in test.tasks:
        for query in task.queries:
            cos = index.cosines(query)
            order = np.argsort(-cos, kind="stable")
            first = (index.names[order[0]].split("__", 2)[-1], float(cos[order[0]]))
            if task.expected:
                present.append((first[1], bool(set(task.expected) & {index.names[i] for i in order[:5]})))
            else:
                absent.setdefault(task.group or task.id, []).append(first)
    absent_cos = sorted(c for firsts in absent.values() for _, c in firsts)
    # The lowest threshold that leaves TARGET_EMPTY of the absent requests empty: above that share of their cosines.
    need = absent_cos[min(len(absent_cos) - 1, int(np.ceil(TARGET_EMPTY * len(absent_cos))) - 1)]
    ceiling = sum(1 for c, hit in present if hit and c > need) / len(present)
    rows = ["| held-out tool | requests | catalog tool matched first (most often) | mean first cosine |",
            "| --- | --- | --- | --- |"]
    for tool, firsts in sorted(absent.items()):
        names = [n for n, _ in firsts]
        top = max(dict.fromkeys(names), key=names.count)
        rows.append(f"| `{tool}` | {len(firsts)} | `{top}` | {sum(c for _, c in firsts) / len(firsts):.2f} |")
    return "\n".join([
        f"#### `{name}`: what the absent requests match", "",
        f"The test split's present requests match their first tool at a median cosine of "
        f"{float(np.median([c for c, _ in present])):.2f}; its absent requests at "
        f"{float(np.median(absent_cos)):.2f}. Reaching {EMPTY} {_f(TARGET_EMPTY)} takes a "
        f"`min_cosine` above {need:.2f}, which keeps {_f(ceiling)} query recall@5 even with the threshold "
        "picked on the test split itself (an in-sample bound, not a result). Per held-out tool, the "
        "catalog tool its requests match first (`semantic` ranking, cosine alone):", "", *rows])


def registered_and_pooled(variants: tuple[str, ...] = AVAILABLE_VARIANTS) -> str:
    """What each variant with parameters uses untuned, and what tuning on both sets' ``tune.json``
    together (tasks pooled: recall and empty share over all their queries) would choose, with both
    settings scored on each ``test.json``. The registered values are what ``--variant X`` uses without
    ``--tune``/``--folds`` and on the Search page; the pooled choice says where tuning on these sets
    would move them."""
    config = parse_config({})
    sets = {name: (Inspector(load_source(DATA / name / "catalog.json")), load_queries(DATA / name / "tune.json"),
                   load_queries(DATA / name / "test.json")) for name in SETS}
    rows = ["| variant | parameters | chosen | " + " | ".join(f"`{n}` test query recall@5 (out of sample) | "
                                                          f"`{n}` test {EMPTY} (out of sample)"
                                                          for n in SETS) + " |",
            "| --- | --- | --- |" + " --- | --- |" * len(SETS)]
    for variant in variants:
        if not tunable_grid(variant) or variant == "hermes-name-bonus":
            continue
        pooled: dict[tuple, list[float]] = {}
        for ins, tune, _ in sets.values():
            positive = sum(len(t.queries) for t in tune.tasks if t.expected)
            negative = sum(len(t.queries) for t in tune.tasks if not t.expected)
            for point in tuning_points(ins, tune.tasks, variant, config):
                acc = pooled.setdefault(tuple(point.params.items()), [0.0, 0, 0.0, 0])
                acc[0] += point.query_recall * positive
                acc[1] += positive
                acc[2] += (point.empty or 0.0) * negative
                acc[3] += negative
        points = [TuningPoint(dict(key), acc[0] / acc[1], acc[2] / acc[3] if acc[3] else None)
                  for key, acc in pooled.items()]
        best = dict(best_point(points, TARGET_EMPTY).params)
        registered = {key: getattr(variant_options(variant), key) for key in tunable_grid(variant)}
        for label, params in (("registered", registered), ("tuned on both `tune.json` pooled", best)):
            cells = []
            for ins, _, test in sets.values():
                m = evaluate(ins, test, [variant], config, params={variant: params}, explain=False).variants[0].metrics
                cells += [_f(m.query_recall_at_k), _f(m.nonsense_queries_empty)]
            rows.append(f"| {variant} | {_params(params)} | {label} | " + " | ".join(cells) + " |")
    return "\n".join([
        "### Registered values and a pooled tuning", "",
        "Without `--tune` or `--folds` (and on the Search page) a variant uses its registered values: "
        "the `agent` variant's were chosen on the shipped agent-style query files (see search.md), the "
        "others' are starting points; none were chosen by the tuning rule on these sets, so their rows "
        "are a starting point to compare with, not a tuned result. Beside them, the values tuning picks on "
        "both sets' `tune.json` together (their queries pooled, the same rule as above), both scored on "
        "each `test.json`:", "", *rows])


def speed() -> str:
    """Lines on every variant over the eval-speed workload (see benchmarks/eval_speed.py)."""
    from benchmarks.eval_speed import measure, measure_folds  # noqa: PLC0415

    rows, cold, changed = measure(1000, 2500)
    folds = measure_folds(1000, 2500, 5)
    load = os.getloadavg()[1]  # five-minute average: other processes slow every figure below
    lexical = [r for r in rows if r[0] != "semantic"]
    text = (f"`toolsearch eval` with the {len(lexical)} default variants, 1,000 tasks over 2,500 tools, misses "
            f"explained: {sum(r[1] for r in lexical):.1f} s on the machine that wrote this page, with "
            f"{os.cpu_count()} CPUs and a load average of {load:.1f} while it ran "
            f"(`python -m benchmarks.eval_speed` prints it per variant); {folds:.1f} s out of sample "
            "(`--folds 5`: each fold scored with parameters tuned on the other folds).")
    semantic = [r for r in rows if r[0] == "semantic"]
    if semantic and cold is not None:
        text += (f" The `semantic` variant on the same workload: {cold:.1f} s the first time (model loaded, the "
                 f"2,500 tools and every query embedded on the CPU), {changed:.1f} s after 1 % of the tools "
                 f"changed (only they and the queries embedded), {semantic[0][1]:.1f} s once the catalog's "
                 "embeddings are cached (queries embedded again).")
    return text


def readme_table(rows_by_set: dict[str, list[Row]]) -> str:
    """README's search-quality table: per variant and set, query recall@5 and the share of
    absent-capability requests left empty, both out of sample (tuned on ``tune.json``, scored on
    ``test.json``), in the variants' order."""
    names = [r[0] for r in next(iter(rows_by_set.values()))]
    head = "| variant (out of sample: tuned on tune.json, scored on test.json) | " + " | ".join(
        f"`{s}` query recall@5 | `{s}` {EMPTY}" for s in rows_by_set) + " |"
    lines = [head, "| --- |" + " --- | --- |" * len(rows_by_set)]
    for name in names:
        cells = []
        for rows in rows_by_set.values():
            row = next(r for r in rows if r[0] == name)
            cells += [_f(row[1]), _f(row[2])]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _target_line(rows: list[Row], empty: int, what: str) -> str:
    """Whether any row reaches the target, with the share of abstention requests left empty in
    column ``empty`` of ``rows`` (that column called ``what``), and if not, the closest. Shares and
    targets read as the tables print them (:func:`_f`: 0.950)."""
    met = [r for r in rows if r[1] >= TARGET_RECALL and r[empty] >= TARGET_EMPTY]
    best = max(rows, key=lambda r: (r[empty] >= TARGET_EMPTY, r[1]))
    if met:
        return "reached by " + ", ".join(f"`{r[0]}`" for r in met)
    if best[empty] >= TARGET_EMPTY:
        return (f"not reached; among variants with {what} at least {_f(TARGET_EMPTY)} the best query "
                f"recall@5 is {_f(best[1])} (`{best[0]}`)")
    return f"not reached; no variant has {what} at least {_f(TARGET_EMPTY)}"


def target_sentence(where: str) -> str:
    """The target, in the tables' form: ``Target: query recall@5 at least 0.700 with nonsense
    queries empty at least 0.950, WHERE``."""
    return f"Target: query recall@5 at least {_f(TARGET_RECALL)} with {EMPTY} at least {_f(TARGET_EMPTY)}, {where}"


def written_speed() -> str | None:
    """The eval-speed paragraph docs/search-quality.md holds now (``None`` when it has none): what
    ``--no-speed`` keeps, since a speed figure is measured, not derived from the data."""
    match = re.search(r"### Eval speed\n\n(.*?)\n" + re.escape(END), DOC.read_text(encoding="utf-8"), flags=re.S)
    return match.group(1) if match else None


def figures(with_speed: bool = True, rows_by_set: dict | None = None, kept_speed: str | None = None) -> str:
    """The generated part of docs/search-quality.md; ``rows_by_set`` (when given) receives each
    set's out-of-sample rows, for :func:`readme_table`. Without ``with_speed``, ``kept_speed`` (the
    eval-speed paragraph written before, if any) stands where the measured one would."""
    parts, summary = [], []
    for name in SETS:
        text, rows = set_figures(name)
        if rows_by_set is not None:
            rows_by_set[name] = rows
        parts.append(text)
        neighbours = absent_neighbours(name)
        if neighbours:
            parts.append(neighbours)
        summary.append(f"* `{name}` (test split): " + _target_line(rows, 2, EMPTY))
        if any(r[3] is not None for r in rows):
            summary.append(f"  * with `{NO_TOOL_TEST}` (requests that need no tool, by MetaTool's labels) as the "
                           "absent requests, the same tuned parameters: "
                           + _target_line([r for r in rows if r[3] is not None], 3, "needs-no-tool requests empty"))
    if rows_by_set is not None:
        rows_by_set["summary"] = summary
    out = ["## Figures", "",
           target_sentence(f"on held-out data ({EMPTY_MEANING})."), "", *summary, "", "\n\n".join(parts),
           "", registered_and_pooled()]
    speed_text = speed() if with_speed else kept_speed
    if speed_text:
        out += ["", "### Eval speed", "", speed_text]
        if rows_by_set is not None:
            rows_by_set["speed"] = speed_text
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-docs", action="store_true", help="write the figures into docs/search-quality.md")
    parser.add_argument("--no-speed", action="store_true",
                        help="skip the eval-speed run (the eval-speed paragraph written before is kept)")
    args = parser.parse_args(argv)
    rows_by_set: dict = {}
    text = figures(not args.no_speed, rows_by_set, written_speed() if args.no_speed else None)
    speed_text = rows_by_set.pop("speed", None)
    summary = rows_by_set.pop("summary")
    table = (target_sentence(f"out of sample ({EMPTY_MEANING}):") + "\n\n" + "\n".join(summary) + "\n\n"
             + readme_table(rows_by_set) + (f"\n\n{speed_text}" if speed_text else ""))
    print(text + "\n\n" + table)
    if args.write_docs:
        for path, begin, end, body in ((DOC, BEGIN, END, text), (README, README_BEGIN, README_END, table)):
            doc = path.read_text(encoding="utf-8")
            new = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: f"{begin}\n{body}\n{end}", doc,
                         flags=re.S)
            path.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
