"""Deterministic figures quoted in docs/, computed from the library and written into the docs.

Usage: ``python -m benchmarks.docs_figures --write`` rewrites every marked block
(``<!-- figures:NAME -->`` … ``<!-- /figures -->``) this script knows in ``docs/*.md``; without
``--write`` it prints the blocks. ``tests/test_docs_figures.py`` fails while a doc's block
differs from what this script computes, so a change in the engine cannot leave a stale figure.
"""

from __future__ import annotations

import argparse
import functools
import re
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SAMPLES = ROOT / "sample_catalogs"


def _share(x: float | None) -> str:
    """A search-quality share as ``toolsearch eval``, the Quality page and the report print it (0.938)."""
    from toolsearch.analysis.wording import evaluation_share  # noqa: PLC0415

    return evaluation_share(x, "–")


def _mrr(x: float | None) -> str:
    """MRR as ``toolsearch eval``, the Quality page and the report print it (0.711)."""
    from toolsearch.analysis.wording import mean_reciprocal_rank  # noqa: PLC0415

    return mean_reciprocal_rank(x, "–")


def search_variants() -> str:
    """The agent-style query files under every search variant, as a markdown table.

    Returns: the table's lines (str, ending with a newline): per file and variant, query
    recall@5, share of nonsense queries returning nothing, recall@5 (of tasks), MRR and nonsense
    tasks answered with nothing (``n/N``, "abstained"), named as ``toolsearch eval`` names them, all in sample (registered parameters; the agent variant's were
    chosen on these files).
    """
    from toolsearch.analysis.evaluation import evaluate, load_queries  # noqa: PLC0415
    from toolsearch.engine.catalog import load_source  # noqa: PLC0415
    from toolsearch.engine.inspector import Inspector  # noqa: PLC0415

    lines = [("| file · variant (in sample: registered parameters, scored on the whole file) | query recall@5 "
              "| nonsense queries empty | recall@5 | MRR | abstained |"),
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name in ("team-workspace", "unreal-editor"):
        ev = evaluate(Inspector(load_source(SAMPLES / f"{name}.yaml")),
                      load_queries(SAMPLES / "queries" / f"{name}-agent.yaml"))
        for result in ev.variants:
            m = result.metrics
            # Not a result: the agent variant's thresholds were chosen on these very files.
            label = f"{result.name} (thresholds chosen on this file)" if result.name == "agent" else result.name
            lines.append(f"| {name}-agent · {label} | {_share(m.query_recall_at_k)} | {_share(m.nonsense_queries_empty)} "
                         f"| {_share(m.recall_at_k)} | {_mrr(m.mrr)} | {m.abstained}/{m.abstention} |")
    return "\n".join(lines) + "\n"


#: The variants of the in-sample table of docs/quality.md: the reference and its one-switch what-ifs.
SHIPPED_EVAL_VARIANTS = ("reference", "no-gate", "no-coverage", "unicode", "name-substring")


@functools.cache
def shipped_evaluations() -> dict[str, object]:
    """``{catalog name: Evaluation}`` of each shipped labeled query file on its catalog, with the
    variants of :data:`SHIPPED_EVAL_VARIANTS` (registered parameters, limit 5: in sample).
    Computed once per process: the table and the test of the prose around it read the same run."""
    from toolsearch.analysis.evaluation import evaluate, load_queries  # noqa: PLC0415
    from toolsearch.engine.catalog import load_source  # noqa: PLC0415
    from toolsearch.engine.inspector import Inspector  # noqa: PLC0415

    return {name: evaluate(Inspector(load_source(SAMPLES / f"{name}.yaml")),
                           load_queries(SAMPLES / "queries" / f"{name}.yaml"), SHIPPED_EVAL_VARIANTS)
            for name in ("cloudflare-flat", "japanese", "team-workspace")}


def shipped_eval() -> str:
    """The shipped labeled query files under the reference and its one-switch what-ifs, as a
    markdown table: recall@1, recall@5, MRR, empty-or-not accuracy and nonsense tasks answered with
    nothing (``n/N``), in sample. Variants whose figures equal the reference's share one row.

    Returns: the table's lines (str, ending with a newline).
    """
    from toolsearch.analysis.evaluation import EMPTY_OR_NOT_ACCURACY  # the name eval and the app show

    lines = [f"| catalog · variant (in sample) | recall@1 | recall@5 | MRR | {EMPTY_OR_NOT_ACCURACY.label} | abstained |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, ev in shipped_evaluations().items():
        def cells(m) -> tuple[str, ...]:
            return (_share(m.recall_at_1), _share(m.recall_at_k), _mrr(m.mrr), _share(m.abstention_accuracy),
                    f"{m.abstained}/{m.abstention}")

        reference = cells(ev.variants[0].metrics)
        same = []
        for result in ev.variants:
            shown = cells(result.metrics)
            if result.name != "reference" and shown == reference:
                same.append(result.name)
                continue
            lines.append(f"| {name} · {result.name} | " + " | ".join(shown) + " |")
        if same:
            lines.append(f"| {name} · {', '.join(same)} | same as reference | | | | |")
    return "\n".join(lines) + "\n"


def variant_registry() -> str:
    """Every registered search variant as a markdown table: name, the ``SearchOptions`` switches it
    sets (the reference's defaults left out) and its one-sentence summary, in the registry's order.

    Returns: the table's lines (str, ending with a newline).
    """
    from toolsearch.analysis.variants import VARIANTS  # noqa: PLC0415

    lines = ["| variant | switches | what changes |", "| --- | --- | --- |"]
    for name, variant in VARIANTS.items():
        switches = ", ".join(f"{key}={value!r}" for key, value in variant.switches.items()) or "—"
        summary = variant.summary.replace("|", "\\|")
        lines.append(f"| `{name}` | `{switches}` | {summary} |" if variant.switches else f"| `{name}` | — | {summary} |")
    return "\n".join(lines) + "\n"


#: block name → (doc file, function computing the block's text)
BLOCKS: dict[str, tuple[str, Callable[[], str]]] = {
    "search-variants": ("search.md", search_variants),
    "variant-registry": ("quality.md", variant_registry),
    "shipped-eval": ("quality.md", shipped_eval),
}


def block_pattern(name: str) -> re.Pattern[str]:
    """The regular expression of one marked block; group 1 is its text."""
    return re.compile(rf"<!-- figures:{re.escape(name)} -->\n(.*?)<!-- /figures -->", re.S)


def write_block(path: Path, name: str, text: str) -> None:
    """Replace the text of block ``name`` in ``path``.

    Raises:
        ValueError: the file has no such block.
    """
    doc = path.read_text(encoding="utf-8")
    new, count = block_pattern(name).subn(lambda _m: f"<!-- figures:{name} -->\n{text}<!-- /figures -->", doc)
    if count != 1:
        raise ValueError(f"{path}: expected one '<!-- figures:{name} -->' block, found {count}")
    path.write_text(new, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.docs_figures", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the blocks in docs/ instead of printing them")
    options = parser.parse_args()
    for name, (doc, compute) in BLOCKS.items():
        text = compute()
        if options.write:
            write_block(DOCS / doc, name, text)
            print(f"wrote {name} into docs/{doc}")
        else:
            print(f"<!-- figures:{name} -->\n{text}<!-- /figures -->")


if __name__ == "__main__":
    main()
