"""docs/ci.md: the commands of "Try it with the shipped samples" exit as the page says, and the
JSON keys it lists are the keys check and costs print."""

from __future__ import annotations

import json
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
    assert re.search(r"at 32K: the listing is names · \d+ of \d+ servers named \([\d,]+ tools\), tier 1,",
                     done.stdout)  # "drops to names only there", with its counts
    assert "settings that reach it at every length: threshold_pct" in done.stdout
    # the suggestion is the tight one unless check was given a headroom: it says so, and how to get room
    assert "; tight, with no room to grow: toolsearch recommend --headroom PCT leaves some" in done.stdout
    roomy = run_cli(*shlex.split(command), "--headroom", "10", cwd=ROOT)
    assert roomy.returncode == 1 and ", with 10% headroom" in roomy.stdout and "tight, with" not in roomy.stdout


def _documented_keys(label: str) -> list[str]:
    """The backquoted keys of the bullet ``* LABEL...: keys`` of "JSON for scripts", in order
    (up to the end of that sentence; words in parentheses are left out)."""
    section = DOC.split("## JSON for scripts", 1)[1].split("\n## ", 1)[0]
    bullet = next(b for b in re.split(r"\n(?=\* )|\n\n", section) if b.startswith(f"* {label}"))
    body = bullet[len(f"* {label}"):].split(":", 1)[1]
    while re.search(r"\([^()]*\)", body):
        body = re.sub(r"\([^()]*\)", "", body)
    body = re.split(r"[.:]\s", body)[0]  # the list ends with its sentence
    return re.findall(r"`([a-z_]+)`", body)


def test_the_json_keys_the_page_lists_are_the_keys_printed():
    team = "sample_catalogs/team-workspace.yaml"
    done = run_cli("check", team, "--baseline", "sample_catalogs/five-servers.yaml", "--context-lengths", "32k,200k",
                   "--goal", "full", "--format", "json", cwd=ROOT)
    assert done.returncode == 1
    check = json.loads(done.stdout)
    assert check["passed"] is False and check["suggestion"] is not None
    context = check["contexts"][0]
    assert list(check) == _documented_keys("top level")
    assert list(context) == _documented_keys("each `contexts[i]`")
    assert list(context["baseline"]) == _documented_keys("`contexts[i].baseline`")
    assert list(context["baseline"]["before"]) == list(context)[:10]
    assert list(check["suggestion"]) == _documented_keys("`suggestion`")
    recommend = json.loads(run_cli("recommend", team, "--context-lengths", "32k,200k", "--goal", "full", "--json",
                                   cwd=ROOT).stdout)
    assert set(recommend) - set(check["suggestion"]) == {"current", "lower_than_current", "headroom_listing_as_much",
                                                              "request_costs", "higher_than_current", "more_than_goal",
                                                              "gate", "keeping_goal"}
    with_config = json.loads(run_cli("recommend", team, "--context-lengths", "32k,200k", "--goal", "full", "--json",
                                     "--config", "sample_catalogs/five-servers.yaml", cwd=ROOT).stdout)
    assert set(with_config) - set(recommend) == {"config_agreement"}
    costs = json.loads(run_cli("costs", team, "--json", cwd=ROOT).stdout)
    costs_doc = DOC.split("`costs --json` prints one object:", 1)[1]
    top = re.findall(r"`([a-z_]+)`", re.sub(r"\([^()]*\)", "", costs_doc.split("\n* each", 1)[0]))
    assert list(costs) == top
    assert list(costs["tools"][0]) == _documented_keys("each `tools[i]`")
    assert list(costs["servers"][0]) == _documented_keys("each `servers[i]`")
