"""``check`` wrote its context lengths in full (``32,000``, ``1,000,000 tokens``) where ``recommend``
writes ``32K`` and ``1M``: one length, two spellings in one CI job. Its text, Markdown and GitHub
output now write each length as ``recommend`` does (:func:`toolsearch.analysis.quantities.length_label`;
a length that is not a round thousand keeps its count and unit), and ``--format json`` keeps the
number. ``collapse`` and ``diff`` said ``context 70``: now ``context length 70 tokens``."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"
ARGS = ("check", FIVE, "--context-lengths", "4k,12345,1m", "--goal", "full")


def test_check_text_writes_lengths_as_recommend_does():
    done = run_cli(*ARGS)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    # the verdict names where it fails; the goal line, every length checked
    assert lines[0] == ("toolsearch check failed at 4K and 12,345 tokens: goal missed · checked every tool with its "
                        "short description (form full) at 4K, 12,345 tokens, 1M")
    assert [line.split("  ")[0] for line in lines[4:7]] == ["4K", "12,345 tokens", "1M"]
    assert any(line.startswith("at 4K and 12,345 tokens: the listing is mixed at 4K (tier 1; 3 of 5 servers named; "
                               "a budget of 200 tokens) and names at 12,345 tokens (") for line in lines), lines
    assert "32,000" not in done.stdout and "1,000,000" not in done.stdout
    recommend = run_cli("recommend", FIVE, "--context-lengths", "4k,12345,1m", "--goal", "full")
    assert [line.split("  ")[0] for line in recommend.stdout.splitlines() if line.startswith(("4K ", "12,345", "1M "))] \
        == ["4K", "12,345 tokens", "1M"]


def test_check_markdown_and_github_write_the_same_labels_and_json_the_numbers():
    markdown = run_cli(*ARGS, "--format", "markdown").stdout
    assert markdown.startswith("### toolsearch check failed at 4K and 12,345 tokens: goal missed · checked every tool "
                               "with its short ")
    assert "Context lengths 4K, 12,345 tokens, 1M · threshold_pct 5%, listing_max_tokens 4,000," in markdown
    assert "\n| 4K | 200 | 1 | mixed |" in markdown and "\n| 1M | 4,000 | 1 | full |" in markdown
    assert "\n- at 4K and 12,345 tokens: the listing is" in markdown
    github = run_cli(*ARGS, "--format", "github").stdout.splitlines()
    assert github[0].startswith("::error title=toolsearch check%3A goal missed,") and "::at 4K and 12,345 tokens: " in github[0]
    assert github[-1].startswith("toolsearch check failed (1 condition missed): goal missed · checked every tool with "
                                 "its short description (form full) at 4K, 12,345 tokens, 1M; threshold_pct 5%, "
                                 "listing_max_tokens 4,000,")
    data = json.loads(run_cli(*ARGS, "--format", "json").stdout)
    assert [c["context_length"] for c in data["contexts"]] == [4_000, 12_345, 1_000_000]


def test_collapse_and_diff_name_the_context_length():
    collapse = run_cli("collapse", FIVE, "--context-length", "70", "--threshold-pct", "100")
    assert "(5 servers) · context length 70 tokens · threshold_pct 100%, listing_max_tokens 4,000 →" in collapse.stdout
    assert json.loads(run_cli("collapse", FIVE, "--context-length", "70", "--json").stdout)["context_length"] == 70
    diff = run_cli("diff", FIVE, FIVE, "--context-length", "1m")
    assert "· context length 1M · threshold_pct 5%, listing_max_tokens 4,000 ·" in diff.stdout
