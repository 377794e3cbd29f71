"""A Hermes ``platform_toolsets`` (or ``agent.disabled_toolsets``) entry that is not a toolset name (null,
true/false, a date, a mapping, an empty name) is left out with a warning naming the entry and its kind;
before, it was dropped without a word (``[null]`` made a platform that reaches every server), and true
was read as the toolset 'True'."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli
from toolsearch.engine.scopes import scopes_from_hermes_config

TEAM = str(Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml")


def test_each_entry_that_is_not_a_name_is_said() -> None:
    data = {"platform_toolsets": {"cli": [None, True, "github", "", {"no_mcp": 1}, 7]},
            "agent": {"disabled_toolsets": [False, "slack"]}}
    scopes, problems = scopes_from_hermes_config(data, "hermes.yaml")
    assert scopes[0].platform.entries == ("github", "7")
    assert scopes[0].platform.disabled == ("slack",)
    said = [(p.where, p.message) for p in problems]
    assert said == [("hermes.yaml: agent.disabled_toolsets[0]", "expected a toolset name, got true/false; entry ignored"),
                    ("hermes.yaml: platform_toolsets.cli[0]", "expected a toolset name, got null; entry ignored"),
                    ("hermes.yaml: platform_toolsets.cli[1]", "expected a toolset name, got true/false; entry ignored"),
                    ("hermes.yaml: platform_toolsets.cli[3]", "an empty toolset name; entry ignored"),
                    ("hermes.yaml: platform_toolsets.cli[4]", "expected a toolset name, got a mapping; entry ignored")]


def test_the_command_line_says_it(tmp_path: Path) -> None:
    path = tmp_path / "hermes.yaml"
    path.write_text("platform_toolsets:\n  cli: [null, 2024-01-01, true]\n")
    done = run_cli("plan", TEAM, "--scope-file", str(path), "--scope", "cli", "--context-length", "32000")
    lines = done.stderr.splitlines()
    for index, kind in ((0, "null"), (1, "a date"), (2, "true/false")):
        assert (f"toolsearch: scope file warning: {path}: platform_toolsets.cli[{index}]: expected a toolset name, "
                f"got {kind}; entry ignored") in lines, done.stderr
    assert "True" not in done.stdout
