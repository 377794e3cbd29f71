"""``toolsearch check --format github`` annotates the warnings stderr gives on reading the settings
and the catalog: a misspelt config key is marked at its file and line (an ``::error`` under
``--strict``, which refuses to gate on it), not only counted by the refusal's annotation; a
catalog problem is annotated with the catalog file; the settings' warnings are said once, also
with ``--baseline``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"
COMMAND = re.compile(r"^::(error|warning|notice)(?: ([^:]*))?::(.*)$")
TYPO_MESSAGE = "tools.tool_search.threshold_pc: unknown key, ignored; did you mean threshold_pct?"


def _commands(stdout: str) -> list[tuple[str, dict[str, str], str]]:
    """The workflow commands of ``stdout`` (name, decoded properties, decoded message)."""
    out = []
    for line in stdout.splitlines():
        match = COMMAND.match(line)
        if not match:
            continue
        props = {}
        for item in (match.group(2) or "").split(","):
            key, _, value = item.partition("=")
            props[key] = value.replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
        out.append((match.group(1), props, match.group(3).replace("%25", "%")))
    return out


def _typo(tmp_path: Path) -> Path:
    path = tmp_path / "typo.yaml"
    path.write_text("tools:\n  tool_search:\n    threshold_pc: 5\n", encoding="utf-8")
    return path


def test_strict_marks_the_misspelt_key_at_its_line(tmp_path: Path) -> None:
    typo = _typo(tmp_path)
    done = run_cli("check", FIVE, "--config", typo, "--strict", "--context-lengths", "32k", "--goal", "names",
                   "--format", "github")
    assert done.returncode == 2, done.stderr
    assert _commands(done.stdout) == [
        ("error", {"title": "toolsearch check: config warning", "file": str(typo), "line": "3"}, TYPO_MESSAGE),
        ("error", {"title": "toolsearch check: bad input"},
         "check --strict: the config has 1 warning (above); fix it, or drop --strict to check the settings as read")]
    # stderr as before
    assert f"toolsearch: warning: {typo}: line 3: {TYPO_MESSAGE}\n" in done.stderr


def test_without_strict_a_warning_and_a_flag_warning_names_no_file(tmp_path: Path) -> None:
    typo = _typo(tmp_path)
    done = run_cli("check", FIVE, "--config", typo, "--listing-max-tokens", "100", "--context-lengths", "200k",
                   "--goal", "any", "--format", "github")
    assert done.returncode == 0, done.stderr
    assert _commands(done.stdout)[:2] == [
        ("warning", {"title": "toolsearch check: config warning", "file": str(typo), "line": "3"}, TYPO_MESSAGE),
        ("warning", {"title": "toolsearch check: config warning"},
         "--listing-max-tokens 100 is outside 200..60,000, so it was clamped to 200 tokens")]


def test_no_tool_search_block_names_the_file_without_a_line(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("model: x\n", encoding="utf-8")
    done = run_cli("check", FIVE, "--config", config, "--context-lengths", "200k", "--goal", "any",
                   "--format", "github")
    assert done.returncode == 0, done.stderr
    assert _commands(done.stdout)[0] == (
        "warning", {"title": "toolsearch check: config warning", "file": str(config)},
        "no tools key, so the tools.tool_search defaults apply (threshold_pct 5%, listing_max_tokens 4,000)")


def test_catalog_problem_and_baseline_said_once(tmp_path: Path) -> None:
    typo = _typo(tmp_path)
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"servers": [{"name": "s", "tools": [
        {"name": "a", "description": 5, "inputSchema": {"type": "object"}}]}]}), encoding="utf-8")
    done = run_cli("check", catalog, "--baseline", catalog, "--config", typo, "--context-lengths", "200k",
                   "--goal", "any", "--format", "github")
    assert done.returncode == 0, done.stderr
    problem = f"{catalog}: servers[0].tools[0].description: expected a string, got a whole number; treated as missing"
    assert _commands(done.stdout)[:3] == [
        ("warning", {"title": "toolsearch check: config warning", "file": str(typo), "line": "3"}, TYPO_MESSAGE),
        ("warning", {"title": "toolsearch check: catalog warning", "file": str(catalog)}, problem),
        ("warning", {"title": "toolsearch check: baseline catalog warning", "file": str(catalog)}, problem)]
    # the settings are read once: their warning is said once, not again for the baseline
    assert done.stderr.count(TYPO_MESSAGE) == 1, done.stderr
