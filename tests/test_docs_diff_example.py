"""The `toolsearch diff` example in docs/cache-and-collapse.md runs on shipped files and its
quoted output is exactly what the command prints."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

from conftest import inspector_of, run_cli

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "cache-and-collapse.md"


def _quoted_run(command: str) -> tuple[list[str], str]:
    """``(arguments after 'toolsearch', quoted output)`` of the doc's fenced block that starts
    with ``$ toolsearch COMMAND``."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```\n\$ (toolsearch " + command + r" [^\n]*)\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"expected one quoted `toolsearch {command}` run in {DOC.name}"
    line, output = blocks[0]
    return shlex.split(line)[1:], output


def test_the_diff_example_uses_shipped_files_and_prints_the_quoted_output() -> None:
    args, quoted = _quoted_run("diff")
    assert args[:3] == ["diff", "docs/examples/diff-monday.yaml", "docs/examples/diff-tuesday.yaml"]
    assert all((ROOT / path).is_file() for path in args[1:3])
    if (ROOT / ".git").exists():  # shipped with the repository, not made by a test
        tracked = subprocess.run(["git", "ls-files", "--error-unmatch", *args[1:3]], cwd=ROOT,
                                 capture_output=True, text=True)
        assert tracked.returncode == 0, tracked.stderr
    result = run_cli(*args, cwd=ROOT)
    assert result.returncode == 1 and result.stderr == ""  # the arrays differ, like diff(1)
    assert result.stdout == quoted
    # The figures the text around the example relies on.
    assert "8 deferred, 2 visible" in quoted and "9 deferred, 2 visible" in quoted
    assert "reusable prefix: 495 characters (495 bytes) = 123 tokens (chars4) of B's 1,073 (11.5%)" in quoted
    assert "mcp__slack__slack_schedule_message" in quoted


def test_the_collapse_example_is_the_head_of_what_the_command_prints() -> None:
    """The quoted collapse run is the command's output up to its first table, then "..." for the
    per-server table: no line left out or changed above the cut."""
    args, quoted = _quoted_run("collapse")
    assert quoted.endswith("\n...\n") and quoted.count("...\n") == 1
    result = run_cli(*args, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    head = quoted[: -len("...\n")]
    assert result.stdout.startswith(head) and result.stdout[len(head):].startswith("\nserver ")


def test_the_collapse_prose_on_the_team_workspace_sample() -> None:
    """"at 8K context the reference and the what-if both collapse six of nine servers, but the
    what-if keeps a different set and shows 35 tool names instead of 25": recomputed."""
    from toolsearch.analysis.collapse import compare_collapse
    from toolsearch.engine.config import parse_config

    inspector = inspector_of([ROOT / "sample_catalogs" / "team-workspace.yaml"], "prefixed")
    cmp = compare_collapse(inspector.planner, parse_config({}), 8_000)
    words = {6: "six", 9: "nine"}
    servers = len(inspector.catalog.servers)
    assert len(cmp.reference.collapsed) == len(cmp.best.collapsed)
    assert set(cmp.reference.collapsed) != set(cmp.best.collapsed)
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert (f"`team-workspace` sample at 8K context the reference and the what-if both collapse "
            f"{words[len(cmp.best.collapsed)]} of {words[servers]} servers, but the what-if keeps a different set "
            f"and shows {cmp.best.names_shown} tool names instead of {cmp.reference.names_shown}") in text


def test_the_json_keys_the_page_lists_are_the_keys_printed() -> None:
    """"`--json` prints `identical`, … and `rug_pulls`": the top-level keys of ``diff --json``, in
    order; and the keys of each choice of ``collapse --json``."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    listed = text.split("`--json` prints `identical`", 1)[1].split(". ", 1)[0]
    listed = "`identical`" + listed
    while re.search(r"\([^()]*\)", listed):  # words in parentheses are about a key, not keys
        listed = re.sub(r"\([^()]*\)", "", listed)
    listed = re.findall(r"`([a-z_]+)`", listed)
    args = ["diff", "docs/examples/diff-monday.yaml", "docs/examples/diff-tuesday.yaml", "--json"]
    assert listed == list(json.loads(run_cli(*args, cwd=ROOT).stdout))
    args, _ = _quoted_run("collapse")
    data = json.loads(run_cli(*args, "--json", cwd=ROOT).stdout)
    choices = re.search(r"both choices \(([^)]*)\)", text).group(1)
    assert re.findall(r"`([a-z_]+)`", choices) == list(data["best"]) == list(data["reference"])
    for key in ("verdict", "summary", "method", "exact"):
        assert f"`{key}`" in text.split("both choices", 1)[0].rsplit("`--json` prints the", 1)[1] and key in data
