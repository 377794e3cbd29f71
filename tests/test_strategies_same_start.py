"""The Strategies page and ``toolsearch strategies`` start from different inputs (the page preloads
the sample skills and, on team-workspace, the sample task; the command line starts with none): both
say so in the same words, the page names the command that gives its figures, and that command gives
the very figures the page shows."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.analysis.review import STRATEGIES_START_WORDS, strategies_command
from toolsearch.ui.text import md_escape

ROOT = Path(__file__).absolute().parent.parent
TEAM = "sample_catalogs/team-workspace.yaml"


def _page(monkeypatch, query: dict[str, str] | None = None) -> AppTest:
    original = PagesManager.__init__

    def init(self, *args, **kwargs):  # through app.py's st.navigation router, as the app runs
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    return at


def _figures(results) -> list[tuple]:
    return [(r["strategy"], r["upfront_tokens"], r["task_tokens"], r["round_trips"], r["cache_breaks"],
             r["tools_upfront"], r["callable_upfront"]) for r in results]


def test_the_page_names_the_command_that_gives_its_figures(monkeypatch):
    at = _page(monkeypatch)
    command = strategies_command([TEAM], "team-workspace", 200_000, "chars4")
    assert command == ("toolsearch strategies sample_catalogs/team-workspace.yaml --skills sample_skills "
                       "--events sample_skills/events.yaml --context-length 200k")
    captions = [c.value for c in at.caption]
    # the command's name stays as typed, in code: a capitalized "Toolsearch strategies" names no command
    name = "toolsearch strategies"
    assert STRATEGIES_START_WORDS.startswith(name + " ")
    said = f"`{name}`" + md_escape(STRATEGIES_START_WORDS[len(name):] + ". Here: ") + f"`{command}`"
    assert said in captions, captions
    assert not any("Toolsearch" in c for c in captions), captions
    shown = [r.to_dict() for r in at.session_state["_strategies_for_report"]["results"]]
    done = run_cli(*shlex.split(command)[1:], "--json", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert _figures(json.loads(done.stdout)) == _figures(shown)
    # the page's figures are not the command line's without those options: that is why it says so
    bare = run_cli("strategies", TEAM, "--context-length", "200k", "--json", cwd=ROOT)
    assert _figures(json.loads(bare.stdout)) != _figures(shown)


def test_another_context_length_and_tokenizer_are_in_the_command(monkeypatch):
    at = _page(monkeypatch, {"ctx": "32K", "tok": "o200k_base", "dtok": "o200k_base"})
    command = strategies_command([TEAM], "team-workspace", 32_000, "o200k_base")
    assert command.endswith("--context-length 32k --tokenizer o200k_base")
    captions = " ".join(c.value for c in at.caption)
    assert f"`{command}`" in captions, captions
    shown = [r.to_dict() for r in at.session_state["_strategies_for_report"]["results"]]
    done = run_cli(*shlex.split(command)[1:], "--json", cwd=ROOT)
    assert _figures(json.loads(done.stdout)) == _figures(shown)


def test_the_command_line_says_where_it_starts():
    done = run_cli("strategies", TEAM, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"note: {STRATEGIES_START_WORDS}"
    given = run_cli("strategies", TEAM, "--skills", "sample_skills", cwd=ROOT)
    assert STRATEGIES_START_WORDS not in given.stdout  # inputs given: nothing to say


def test_settings_the_command_cannot_take_are_named(monkeypatch):
    at = _page(monkeypatch, {"pct": "2.0", "dtok": "o200k_base"})
    command = strategies_command([TEAM], "team-workspace", 200_000, "chars4")
    caption = next(c.value for c in at.caption if f"`{command}`" in c.value)
    assert caption.endswith(md_escape(" (the sidebar's tools.tool_search settings go in a --config file; the command "
                                      "counts and plans with one tokenizer, here chars4 plans and o200k_base "
                                      "counts).")), caption


def test_the_docs_name_the_pages_command():
    text = (ROOT / "docs" / "strategies.md").read_text(encoding="utf-8")
    block = text.split("**Where each starts.**", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    assert " ".join(block.replace("\\\n", " ").split()) == strategies_command([TEAM], "team-workspace", 200_000,
                                                                              "chars4")
