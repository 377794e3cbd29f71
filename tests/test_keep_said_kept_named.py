"""A server given with ``--keep`` (the Tuning page's "Must stay named") under a goal that already
names every server is said to be kept named, in every place the goal is written: ``recommend``'s
goal line, its Markdown heading and YAML block, ``check``'s verdict and JSON, and the block the
Tuning page exports. "slack included" left the reader to guess included in what."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
ARGS = ("--context-lengths", "32k,200k", "--goal", "names", "--keep", "slack")
WORDS = "every server at names or better; kept named at every length: slack"


def test_recommend_and_check_say_kept_named_in_every_format() -> None:
    text = run_cli("recommend", TEAM, *ARGS)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[1].startswith(f"goal: {WORDS} · ")
    markdown = run_cli("recommend", TEAM, *ARGS, "--format", "markdown")
    assert markdown.stdout.startswith(f"### toolsearch recommend: {WORDS}, ")
    block = run_cli("recommend", TEAM, *ARGS, "--yaml").stdout
    assert f"# goal: {WORDS}" in block.splitlines()
    checked = run_cli("check", TEAM, *ARGS, "--threshold-pct", "100", "--listing-max-tokens", "60000")
    assert checked.stdout.splitlines()[0] == f"toolsearch check passed: {WORDS}; at 32K, 200K"
    data = json.loads(run_cli("check", TEAM, *ARGS, "--format", "json").stdout)
    assert data["goal_words"] == WORDS
    assert " included" not in text.stdout + markdown.stdout + block + checked.stdout


def test_the_tuning_page_exports_the_same_goal_words() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k", "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    at.multiselect(key="tuning_keep").set_value(["slack"]).run()
    assert not at.exception, at.exception
    block = next(c.value for c in at.code if c.value.startswith("# toolsearch"))
    assert f"# goal: {WORDS}" in block.splitlines()


def test_kept_servers_read_the_same_with_per_length_goals_and_one_length() -> None:
    """Per-length goals in check and recommend say the kept servers as one goal does; one listed length
    is named, not "every length"."""
    both = ("--keep", "github", "--keep", "cloudflare")
    cloudflare = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
    checked = run_cli("check", TEAM, cloudflare, "--context-lengths", "32k,200k", "--goal", "names,32k=listed", *both)
    assert checked.stdout.splitlines()[0].endswith(
        "checked tool names listed (tier 1) at 32K; every server at names or better at 200K; "
        "kept named at every length: github, cloudflare"), checked.stdout
    said = run_cli("recommend", TEAM, cloudflare, "--context-lengths", "32k,200k", "--goal", "names,32k=listed", *both)
    assert ("goal: tool names listed (tier 1) at 32K; every server at names or better at 200K; kept named at every "
            "length: github, cloudflare · ") in said.stdout, said.stdout
    one = run_cli("recommend", TEAM, "--context-lengths", "200k", "--goal", "listed", "--keep", "github")
    assert one.stdout.splitlines()[1].startswith("goal: tool names listed (tier 1); kept named at 200K: github · ")
