"""Search quality of every variant on the third-party sets, out of sample (prints; can write docs).

Usage: ``python -m benchmarks.search_quality [--write-docs] [--no-speed]``.

For each set under ``benchmarks/data`` (see its README): every variant's parameters are tuned on
``tune.json`` only and scored on ``test.json`` (out of sample); beside that, the same variant
tuned on ``test.json`` itself and scored there (in sample, an optimistic figure, labeled so).
Variants without parameters get the same figure twice. With ``--write-docs`` the tables go into
``docs/search-quality.md`` between the generated-figures markers, and the out-of-sample summary
per variant into README.md's search-quality block; nothing there is typed by hand.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from pathlib import Path

from toolsearch.analysis.evaluation import evaluate, evaluate_tuned, load_queries, tunable_grid
from toolsearch.analysis.variants import AVAILABLE_VARIANTS
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


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def _params(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "—"


def set_figures(name: str) -> tuple[str, list[tuple[str, float, float]]]:
    """The markdown section of one set, and ``(variant, query recall@5, empty)`` out of sample."""
    ins = Inspector(load_source(DATA / name / "catalog.json"))
    config = parse_config({})
    tune, test = load_queries(DATA / name / "tune.json"), load_queries(DATA / name / "test.json")
    # The in-sample run tunes on the test file itself; ids differ by a suffix so the overlap
    # check (which guards the out-of-sample run) lets it through.
    same = test.__class__(name=test.name + " (as tuning)", tasks=tuple(
        t.__class__(t.id + "#tune", t.queries, t.expected, t.note, "") for t in test.tasks), origin=test.origin)
    oos = evaluate_tuned(ins, tune, test, AVAILABLE_VARIANTS, config)
    ins_ev = evaluate_tuned(ins, same, test, AVAILABLE_VARIANTS, config, explain=False)
    positive = sum(1 for t in test.tasks if t.expected)
    lines = [f"### `{name}`: tuned on `tune.json`, scored on `test.json`", "",
             f"{len(test.tasks)} test tasks ({positive} with a gold tool, {len(test.tasks) - positive} absent "
             f"capabilities) over {oos.deferred_count} tools; tuning on {len(tune.tasks)} other tasks "
             "whose tools are all different.", "",
             "| variant | query recall@5 (out of sample) | absent requests empty (out of sample) | MRR (out of sample) "
             "| tuned parameters | query recall@5 (in sample) | absent empty (in sample) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    rows = []
    for v, w in zip(oos.variants, ins_ev.variants):
        m, n = v.metrics, w.metrics
        tuned = bool(tunable_grid(v.name))
        lines.append(f"| {v.name} | {_f(m.query_recall_at_k)} | {_f(m.nonsense_queries_empty)} | {_f(m.mrr)} | "
                     f"{_params(v.params) if tuned else 'nothing to tune'} | "
                     f"{_f(n.query_recall_at_k) if tuned else 'same'} | {_f(n.nonsense_queries_empty) if tuned else 'same'} |")
        rows.append((v.name, m.query_recall_at_k or 0.0, m.nonsense_queries_empty or 0.0))
    # The ranking alone: the same tuned parameters with the abstention thresholds off (what the
    # variant would rank first if it never returned an empty result).
    alone = [(v.name, {**v.params, **RANKING_ALONE[v.name]}) for v in oos.variants if v.name in RANKING_ALONE]
    if alone:
        ev = evaluate(ins, test, [n for n, _ in alone], config, params=dict(alone), explain=False)
        lines += ["", "Ranking alone (tuned parameters, abstention thresholds off; out of sample): " + ", ".join(
            f"`{r.name}` query recall@5 {_f(r.metrics.query_recall_at_k)}, absent requests empty "
            f"{_f(r.metrics.nonsense_queries_empty)}" for r in ev.variants) + "."]
    return "\n".join(lines), rows


def speed() -> str:
    """Lines on every variant over the eval-speed workload (see benchmarks/eval_speed.py)."""
    from benchmarks.eval_speed import measure  # noqa: PLC0415

    rows, cold = measure(1000, 2500)
    load = os.getloadavg()[1]  # five-minute average: other processes slow every figure below
    lexical = [r for r in rows if r[0] != "semantic"]
    text = (f"`toolsearch eval` with the {len(lexical)} default variants, 1,000 tasks over 2,500 tools, misses "
            f"explained: {sum(r[1] for r in lexical):.1f} s on the machine that wrote this page, with "
            f"{os.cpu_count()} CPUs and a load average of {load:.1f} while it ran "
            "(`python -m benchmarks.eval_speed` prints it per variant).")
    semantic = [r for r in rows if r[0] == "semantic"]
    if semantic and cold is not None:
        text += (f" The `semantic` variant on the same workload: {cold:.1f} s the first time (model loaded, the "
                 f"2,500 tools and every query embedded on the CPU), {semantic[0][1]:.1f} s once the catalog's "
                 "embeddings are cached (queries embedded again).")
    return text


def readme_table(rows_by_set: dict[str, list[tuple[str, float, float]]]) -> str:
    """README's search-quality table: per variant and set, query recall@5 and the share of
    absent-capability requests left empty, both out of sample (tuned on ``tune.json``, scored on
    ``test.json``), in the variants' order."""
    names = [r[0] for r in next(iter(rows_by_set.values()))]
    head = "| variant | " + " | ".join(f"`{s}` recall@5 | `{s}` absent empty" for s in rows_by_set) + " |"
    lines = [head, "| --- |" + " --- | --- |" * len(rows_by_set)]
    for name in names:
        cells = []
        for rows in rows_by_set.values():
            row = next(r for r in rows if r[0] == name)
            cells += [f"{row[1]:.3f}", f"{row[2]:.3f}"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def figures(with_speed: bool = True, rows_by_set: dict | None = None) -> str:
    """The generated part of docs/search-quality.md; ``rows_by_set`` (when given) receives each
    set's out-of-sample rows, for :func:`readme_table`."""
    parts, summary = [], []
    for name in SETS:
        text, rows = set_figures(name)
        if rows_by_set is not None:
            rows_by_set[name] = rows
        parts.append(text)
        met = [r for r in rows if r[1] >= TARGET_RECALL and r[2] >= TARGET_EMPTY]
        best = max(rows, key=lambda r: (r[2] >= TARGET_EMPTY, r[1]))
        summary.append(f"* `{name}` (test split): " + (
            "reached by " + ", ".join(f"`{r[0]}`" for r in met) if met else
            f"not reached; among variants with at least {TARGET_EMPTY:.0%} of absent requests empty the best query "
            f"recall@5 is {best[1]:.3f} (`{best[0]}`)" if best[2] >= TARGET_EMPTY else
            "not reached; no variant leaves 95 % of absent requests empty"))
    if rows_by_set is not None:
        rows_by_set["summary"] = summary
    out = ["## Figures", "",
           f"Target: query recall@5 at least {TARGET_RECALL:.2f} while at least {TARGET_EMPTY:.0%} of "
           "absent-capability requests come back empty, on held-out data.", "", *summary, "", "\n\n".join(parts)]
    if with_speed:
        speed_text = speed()
        out += ["", "### Eval speed", "", speed_text]
        if rows_by_set is not None:
            rows_by_set["speed"] = speed_text
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-docs", action="store_true", help="write the figures into docs/search-quality.md")
    parser.add_argument("--no-speed", action="store_true", help="skip the eval-speed run")
    args = parser.parse_args(argv)
    rows_by_set: dict = {}
    text = figures(not args.no_speed, rows_by_set)
    speed_text = rows_by_set.pop("speed", None)
    summary = rows_by_set.pop("summary")
    table = (f"Target: query recall@5 at least {TARGET_RECALL:.2f} while at least {TARGET_EMPTY:.0%} of absent-"
             "capability requests come back empty, out of sample:\n\n" + "\n".join(summary) + "\n\n"
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
