"""docs/quality.md, ``lint --json``: the keys the page lists are the keys lint prints, and
``--severity`` filters the findings only (the counts and the exit status stay whole)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "quality.md").read_text(encoding="utf-8")
SECTION = DOC.split("**`lint --json`**", 1)[1].split("\n## ", 1)[0]


def _documented_keys(label: str) -> list[str]:
    """The backquoted keys of the bullet ``* LABEL: keys``, in order, words in parentheses left out."""
    bullet = next(b for b in re.split(r"\n(?=\* )|\n\n", SECTION) if b.startswith(f"* {label}:"))
    body = bullet[len(f"* {label}:"):]
    while re.search(r"\([^()]*\)", body):
        body = re.sub(r"\([^()]*\)", "", body)
    return re.findall(r"`([a-z_]+)`", body)


def test_the_lint_json_keys_the_page_lists_are_the_keys_printed():
    done = run_cli("lint", "sample_catalogs/hard-cases.yaml", "--json", cwd=ROOT)
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert list(data) == _documented_keys("top level")
    assert list(data["thresholds"]) == _documented_keys("`thresholds`")
    keys = _documented_keys("each `findings[i]`")
    at_a_place = [f for f in data["findings"] if "offset" in f]
    assert at_a_place and all(list(f) == [k for k in keys if k != "tools"] for f in at_a_place)
    assert all(list(f) == [k for k in keys if k in f] and set(keys) - set(f) <= {"field", "offset", "tools"}
               for f in data["findings"])


def test_severity_filters_the_findings_but_not_the_counts_nor_the_status():
    everything = json.loads(run_cli("lint", "sample_catalogs/hard-cases.yaml", "--json", cwd=ROOT).stdout)
    done = run_cli("lint", "sample_catalogs/hard-cases.yaml", "--json", "--severity", "error", cwd=ROOT)
    assert done.returncode == 1
    errors = json.loads(done.stdout)
    assert {f["severity"] for f in errors["findings"]} == {"error"}
    assert len(errors["findings"]) == everything["counts"]["error"]
    assert (errors["counts"], errors["rules"]) == (everything["counts"], everything["rules"])
