"""docs/ci.md: the commands of "Try it with the shipped samples" exit as the page says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
COMMANDS = re.findall(r"^\$ toolsearch (.+?)\s+# exit (\d)$", DOC, re.MULTILINE)


def test_the_page_lists_commands_for_every_exit_status():
    assert {status for _, status in COMMANDS} == {"0", "1", "2"}


@pytest.mark.parametrize("command, status", COMMANDS, ids=[c[:60] for c, _ in COMMANDS])
def test_documented_command_exits_as_documented(command, status):
    done = run_cli(*shlex.split(command), cwd=ROOT)
    assert done.returncode == int(status), done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_the_failing_example_fails_where_the_page_says():
    command = next(c for c, status in COMMANDS if status == "1")
    done = run_cli(*shlex.split(command), cwd=ROOT)
    assert re.search(r"at 32,000 tokens: the listing is names · \d+ of \d+ servers named \([\d,]+ tools\) \(tier 1\)",
                     done.stdout)  # "drops to names only there", with its counts
    assert "settings that reach it at every length: threshold_pct" in done.stdout
