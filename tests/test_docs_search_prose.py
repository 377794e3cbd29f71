"""The prose under docs/search.md's table of variants on the agent-style files says what the table
says: where the agent variant leaves fewer nonsense tasks empty than the reference, the prose does
not call it as silent, and names that file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "search.md"


def _nonsense_tasks_empty() -> dict[tuple[str, str], int]:
    """``{(file, variant): nonsense tasks empty}`` from the generated table."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- figures:search-variants -->", 1)[1].split("<!-- /figures -->", 1)[0]
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and " · " in cells[0] and re.fullmatch(r"\d+/\d+", cells[-1]):
            file, variant = cells[0].split(" · ", 1)
            rows[(file, variant.split(" ", 1)[0])] = int(cells[-1].split("/")[0])
    return rows


def _reading_it() -> str:
    text = DOC.read_text(encoding="utf-8")
    return " ".join(text.split("\nReading it:", 1)[1].split("\n\n", 1)[0].split())


def test_the_agent_variant_is_called_as_silent_only_where_the_table_says_so():
    rows = _nonsense_tasks_empty()
    files = sorted({file for file, _ in rows})
    assert files == ["team-workspace-agent", "unreal-editor-agent"]
    fewer = [f for f in files if rows[(f, "agent")] < rows[(f, "reference")]]
    prose = _reading_it()
    if fewer:
        assert "agent variant stays as silent on nonsense" not in prose
        for file in fewer:
            assert file in prose, (file, prose)


def test_quality_doc_names_the_variants_eval_leaves_out_by_default():
    # eval's default is every registered variant except those that need an optional extra; the
    # manual's option list says which, so a reader does not expect them in a default run.
    from toolsearch.analysis.variants import DEFAULT_VARIANTS, VARIANTS
    doc = " ".join((DOC.parent / "quality.md").read_text(encoding="utf-8").split())
    left_out = [name for name in VARIANTS if name not in DEFAULT_VARIANTS]
    assert left_out
    sentence = doc[doc.index("`--variant V` (repeatable; default:"):]
    sentence = sentence[:sentence.index(")")]
    assert all(f"`{name}`" in sentence for name in left_out), sentence


@pytest.mark.parametrize("doc, marker", [("search.md", "search-variants"), ("quality.md", "shipped-eval")])
def test_variant_table_headings_are_the_ones_eval_prints(doc, marker):
    # One figure, one name: each column of a generated table is headed as toolsearch eval heads
    # the same figure (task recall@5 is eval's recall@5, nonsense tasks left empty its "abstained").
    from conftest import run_cli
    block = (DOC.parent / doc).read_text(encoding="utf-8").split(f"<!-- figures:{marker} -->", 1)[1]
    headings = [c.strip() for c in block.strip().splitlines()[0].strip().strip("|").split("|")][1:]
    out = run_cli("eval", "sample_catalogs/team-workspace.yaml",
                  "sample_catalogs/queries/team-workspace-agent.yaml", "--variant", "reference").stdout
    eval_headings = re.split(r"\s{2,}", out.splitlines()[2].strip())
    assert eval_headings[0] == "variant"
    assert [h for h in headings if h not in eval_headings] == []
