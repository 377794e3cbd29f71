"""YAML the CLI writes (``snapshot`` to standard output, a saved catalog) has no line a CI runner
reads as a log command: a value holding ``::error::…`` could start a folded line or be a key at a
line's start, and ``##[`` / ``##vso[`` count anywhere in a line. Such a string is written
double-quoted with the bracket or colon escaped, and reads back as the same text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml
from conftest import run_cli_process, write_json

from toolsearch.engine.readers import dump_yaml, load_yaml

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "mcp_test_server.py"


def _runner_lines(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if line.lstrip().startswith("::") or "##[" in line or "##vso[" in line]


def test_dumped_yaml_has_no_runner_command_and_reads_back_the_same() -> None:
    data = {"::error::key": 1,
            "long": "word " * 40 + "::warning::folded ##[error]x ##vso[task.setvariable variable=X]1",
            "list": ["::notice::a", "b ::x::", "\n::error::after a break"],
            "plain": "a: b", "only": "::", "hashes": "## [not one] #[x]"}
    text = dump_yaml(data)
    assert _runner_lines(text) == [], text
    assert load_yaml(text, "x.yaml") == data and yaml.safe_load(text) == data
    assert "plain: 'a: b'" in text and "hashes: '## [not one] #[x]'" in text  # other strings as before


@pytest.mark.live
def test_a_snapshot_on_standard_output_forges_no_runner_command(tmp_path) -> None:
    ok, bad = "ok ##vso[task.setvariable variable=X]1", "bad ##[error]x"
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        ok: {"command": sys.executable, "args": [str(SERVER), "--name", "::error::forged by the server"]},
        bad: {"command": sys.executable, "args": ["-c", "import sys; sys.stderr.write('::warning::died\\n'); sys.exit(3)"]},
    }})
    result = run_cli_process("snapshot", str(config), "--timeout", "60")
    assert result.returncode == 1, result.stderr
    assert _runner_lines(result.stdout) == [], result.stdout
    catalog = yaml.safe_load(result.stdout)
    assert [server["name"] for server in catalog["servers"]] == [ok]
    assert "::error::forged by the server" in result.stdout.replace("\\x3A", ":")
    assert bad in catalog["snapshot"]["failed"]
