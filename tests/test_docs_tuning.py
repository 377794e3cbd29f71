"""docs/tuning.md: every command shown with its output is run on the shipped sample files and
its output compared with the page, so no figure in the page is typed by hand."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
DOC = ROOT / "docs" / "tuning.md"
BLOCK = re.compile(r"^```\n\$ toolsearch (?P<args>[^\n]+)\n(?P<out>.*?)^```", re.MULTILINE | re.DOTALL)


def examples() -> list[tuple[str, str]]:
    return [(m["args"], m["out"]) for m in BLOCK.finditer(DOC.read_text(encoding="utf-8"))]


def test_the_page_has_the_three_commands_and_the_sessions_example() -> None:
    commands = [args.split()[0] for args, _ in examples()]
    assert commands == ["sweep", "recommend", "recommend", "recommend", "recommend", "recommend"]
    assert "--yaml" in examples()[2][0] and "1m=full" in examples()[3][0] and "--sessions" in examples()[4][0]
    assert "--keep-called" in examples()[5][0]


@pytest.mark.parametrize("args, shown", examples(), ids=lambda value: value[:60] if isinstance(value, str) else "")
def test_each_example_is_the_real_output(args: str, shown: str) -> None:
    result = run_cli(*shlex.split(args), cwd=ROOT)
    assert result.returncode in (0, 1), result.stderr
    assert result.stdout == shown


def test_the_exported_block_checks_back(tmp_path) -> None:
    """The block of step 3, given back as a harness config, gives the listing its comment promises."""
    args, shown = examples()[2]
    config = tmp_path / "config.yaml"
    config.write_text(shown, encoding="utf-8")
    block = yaml.safe_load(shown)["tools"]["tool_search"]
    sources = [a for a in shlex.split(args)[1:] if a.endswith((".yaml", ".json"))]
    for length, words in (("32k", "32K"), ("1m", "1M")):
        plan = run_cli("plan", *sources, "--config", config, "--context-length", length, cwd=ROOT)
        assert plan.returncode == 0, plan.stderr
        line = next(x for x in plan.stdout.splitlines() if x.startswith("tier "))
        promised = next(x for x in shown.splitlines() if x.startswith(f"# at {words}: "))
        outcome = promised.split(": ", 1)[1].split(";")[0]
        assert line.startswith(f"tier 1, listing form {outcome};"), (line, promised)
        assert f"budget: {block['listing_max_tokens']:,} tokens" in plan.stdout
