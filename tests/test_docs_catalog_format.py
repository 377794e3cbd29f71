"""docs/catalog-format.md: its example files are shipped and read as the page says, and its quoted
lint run is exactly what the command prints."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "catalog-format.md"


def test_quoted_lint_run_is_what_the_command_prints() -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```\n\$ (toolsearch lint [^\n]*)\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1
    line, quoted = blocks[0]
    result = run_cli(*shlex.split(line)[1:], cwd=ROOT)
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout == quoted
    for rule in ("schema-root-dropped", "schema-ref-unresolved", "schema-ref-unsupported"):
        assert f": {rule}: records/" in quoted and f"`{rule}`" in text


def test_flat_tools_example_is_two_mcp_servers() -> None:
    data = json.loads(run_cli("plan", "docs/examples/flat-tools.json", "--json", cwd=ROOT).stdout)
    assert [(s["name"], s["kind"], s["tool_count"]) for s in data["servers"]] == [("github", "mcp", 2),
                                                                                 ("slack", "mcp", 1)]
    assert "mcp__github__create_issue" in DOC.read_text(encoding="utf-8")
    assert "- mcp__github__create_issue: Open an issue in a repository." in data["listing"]
