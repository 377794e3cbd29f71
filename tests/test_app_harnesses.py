"""AppTest for the Harnesses page: the tables show the library's rows for the sidebar's catalog,
settings typed on the page change them, and pins show their cost and the round trips they save."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables
from toolsearch.analysis import harnesses as H
from toolsearch.analysis.sessions import load_sessions
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
SESSIONS = ROOT / "sample_sessions" / "claude-code.jsonl"


def open_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"catalog": CATALOG.name})
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/harnesses.py").run()
    assert not at.exception, at.exception
    return at


def engine_rows(lengths, settings=None):
    inspector = inspector_of([CATALOG])
    return inspector, H.harness_rows(inspector, lengths, parse_config({}), "chars4", settings)


def test_tables_show_the_librarys_rows():
    at = open_page()
    assert at.title[0].value == "Harnesses"
    tables = literal_tables(at)
    _, rows = engine_rows([200_000, 1_000_000])
    for length in (200_000, 1_000_000):
        table = tables[f"harness_rows_{length}"]
        expected = [r for r in rows if r.context_length == length]
        assert list(table["setting"]) == [r.setting for r in expected]
        assert list(table["up front (tokens)"]) == [f"{r.upfront_tokens:,}" for r in expected]
        assert list(table["active"]) == ["yes" if r.active else "no" for r in expected]
        assert H.FLIP_COLUMN == "flips at (context length, tokens)"  # a number's unit is in its heading
        assert list(table[H.FLIP_COLUMN]) == ["\u2014" if r.flip_at is None else f"{r.flip_at:,}" for r in expected]
        assert list(table["kind"])[0] == "exact" and set(list(table["kind"])[1:]) == {"model"}
    assert "https://kiro.dev/docs/cli/mcp/tool-search/" in list(tables["harness_sources"]["source"])
    # named as the Strategies page names the same kind of figure ("up front (tokens, chars4)"), not "upfront"
    assert not [c.value for c in at.caption if "pfront" in c.value]


def test_typed_settings_change_the_rows():
    at = open_page()
    at.text_input(key="harness_claude").input("auto:1, false").run()
    assert not at.exception, at.exception
    table = literal_tables(at)["harness_rows_200000"]
    claude = table[table["harness"] == "Claude Code"]
    assert list(claude["setting"]) == ["auto:1", "false"]
    _, rows = engine_rows([200_000], {"claude-code": ("auto:1", "false")})
    assert list(claude["active"]) == ["yes" if r.active else "no" for r in rows if r.harness == "claude-code"]
    at.text_input(key="harness_qwen").input("250").run()
    assert any("qwen-code threshold" in e.value for e in at.error)


def test_sessions_suggest_pins_and_count_round_trips():
    at = open_page()
    at.selectbox(key="harness_sessions").set_value(SESSIONS.name).run()
    assert not at.exception, at.exception
    inspector = inspector_of([CATALOG])
    sessions = load_sessions([SESSIONS]).sessions
    suggested = [name for name, _ in H.most_called_tools(sessions, inspector)]
    assert suggested
    assert at.multiselect(key=f"harness_pin_tools_{SESSIONS.name}").value == suggested
    table = literal_tables(at)["harness_pins"]
    pins = H.resolve_pins(inspector, tools=suggested)
    expected = H.pin_what_if(inspector, "hermes", pins, 200_000, sessions, parse_config({}), "chars4")
    row = table[(table["harness"] == "Hermes Agent (not released)") & (table["context length"] == "200K")]
    # every number's unit is in its heading
    # "up front (tokens)", the name of the same figure in the tables above (not "upfront before")
    assert {"up front without pins (tokens)", "up front with the pins (tokens)"} <= set(table.columns)
    assert not any("upfront" in column for column in table.columns)
    assert list(row["up front without pins (tokens)"]) == [f"{expected.before.upfront_tokens:,}"]
    assert list(row["up front with the pins (tokens)"]) == [f"{expected.after.upfront_tokens:,}"]
    assert list(row["cost per request (tokens)"]) == [f"{expected.cost_tokens:+,}"]
    assert list(row["round trips saved"]) == [f"{expected.round_trips_saved:,}"]
    assert any("not in released Hermes" in w.value for w in at.warning)


def test_each_rows_notes_are_said_under_its_length():
    """A row's notes (what the model assumes or leaves out) are on the page: Claude Code cuts a
    description over 2,048 characters, which is why its 'full schemas' up front at 1M are fewer tokens
    than Qwen Code's for the same catalog."""
    at = open_page()
    _, rows = engine_rows([1_000_000])
    claude = next(r for r in rows if r.harness == H.CLAUDE_CODE and not r.active)
    qwen = next(r for r in rows if r.harness == H.QWEN_CODE)
    assert claude.visible == qwen.visible == "full schemas" and claude.upfront_tokens < qwen.upfront_tokens
    cut = "1 description over 2,048 characters cut by Claude Code"
    assert claude.notes == (cut,)
    expected = ("Notes: Claude Code (unset): " + cut + "; Claude Code (auto): " + cut + "; Qwen Code (threshold 10%): "
                "decided at session start; a server added later changes nothing until the next one.")
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert captions.count(expected) == 2, captions  # under the 200K tables and under the 1M tables
