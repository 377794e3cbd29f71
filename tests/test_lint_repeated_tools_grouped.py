"""Two catalog files that share servers: the loader merges each shared server and says so once per
server, but ``lint`` listed one ``duplicate-in-server`` finding per repeated tool (50 lines for two
sample files sharing four servers). Several repeated tools of one server are one finding now, in the loader's words (how
many, a few names, which file's definitions are kept); ``--json`` keeps every name under ``tools``.
One repeated tool stays a finding about that tool."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from conftest import run_cli

FIX_MERGED = ("Define the server once (in one catalog file), or leave the repeated tools out of all its definitions "
              "but one.")


def _shared(tmp_path: Path) -> tuple[Path, Path]:
    """Two small files sharing server ``docs`` (five tools repeat) and ``ci`` (two repeat)."""
    def tools(*names: str) -> list[dict]:
        return [{"name": n, "description": f"Do {n} in the service.", "inputSchema": {"type": "object", "properties": {}}}
                for n in names]
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(yaml.safe_dump({"servers": [{"name": "docs", "tools": tools("read", "write", "list", "move", "drop")},
                                             {"name": "ci", "tools": tools("run", "stop")}]}), encoding="utf-8")
    b.write_text(yaml.safe_dump({"servers": [{"name": "docs", "tools": tools("read", "write", "list", "move", "drop", "copy")},
                                             {"name": "ci", "tools": tools("run", "stop")}]}), encoding="utf-8")
    return a, b


def test_json_keeps_every_name(tmp_path):
    a, b = _shared(tmp_path)
    data = json.loads(run_cli("lint", b, a, "--json").stdout)  # the files' order does not decide which is kept
    found = [f for f in data["findings"] if f["rule"] == "duplicate-in-server"]
    assert [(f["server"], f["tool"], f["name"], f["tools"], f["fix"]) for f in found] == [
        ("ci", "", "", ["run", "stop"], FIX_MERGED),
        ("docs", "", "", ["read", "write", "list", "move", "drop"], FIX_MERGED)]
    assert data["rules"]["duplicate-in-server"] == 2
    assert found[1]["message"] == ("5 tools are listed more than once ('read', 'write', 'list' and 2 more); the first "
                                   f"definition of each is kept, from {a}, and the other 5 are dropped")
    assert found[0]["message"] == ("2 tools are listed more than once ('run', 'stop'); the first definition of each is "
                                   f"kept, from {a}, and the other 2 are dropped")


def test_text_gives_one_finding_per_shared_server(tmp_path):
    a, b = _shared(tmp_path)
    lines = run_cli("lint", a, b).stdout.splitlines()
    found = [(line, lines[i + 1]) for i, line in enumerate(lines) if line.startswith("warning: duplicate-in-server: ")]
    assert found == [
        (f"warning: duplicate-in-server: ci: 2 tools are listed more than once ('run', 'stop'); the first definition of "
         f"each is kept, from {a}, and the other 2 are dropped", f"    fix: {FIX_MERGED}"),
        (f"warning: duplicate-in-server: docs: 5 tools are listed more than once ('read', 'write', 'list' and 2 more); "
         f"the first definition of each is kept, from {a}, and the other 5 are dropped", f"    fix: {FIX_MERGED}")]


def test_one_repeated_tool_stays_a_finding_about_it(tmp_path):
    schema = {"type": "object", "properties": {}}
    one = {"servers": [{"name": "docs", "tools": [{"name": "ping", "description": "Ping the docs service.", "inputSchema": schema},
                                                  {"name": "ping", "description": "Ping the docs service.", "inputSchema": schema}]}]}
    path = tmp_path / "one.yaml"
    path.write_text(yaml.safe_dump(one), encoding="utf-8")
    found = [f for f in json.loads(run_cli("lint", path, "--json").stdout)["findings"] if f["rule"] == "duplicate-in-server"]
    assert [(f["tool"], f["message"], f["fix"]) for f in found] == [
        ("ping", "listed 2 times; the harness keeps the first and drops the rest",
         "List each tool once in the server's tools/list.")]
    assert "tools" not in found[0]
    # the same tool in two files: which file's definition is kept
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for p in (a, b):
        p.write_text(yaml.safe_dump({"servers": [{"name": "docs", "tools": [one["servers"][0]["tools"][0]]}]}), encoding="utf-8")
    found = [f for f in json.loads(run_cli("lint", b, a, "--json").stdout)["findings"] if f["rule"] == "duplicate-in-server"]
    assert [(f["tool"], f["message"], f["fix"]) for f in found] == [
        ("ping", f"listed 2 times; the harness keeps the first (from {a}) and drops the rest", FIX_MERGED)]
