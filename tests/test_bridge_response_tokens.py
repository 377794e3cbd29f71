"""The size of a bridge response (the ``Bridge response`` quantity) is one function,
``toolsearch.analysis.quantities.bridge_response``: the Search page's caption, the Strategies page's
timeline ("response N tokens") and ``toolsearch search`` (its last line; it printed none) count the
exact wire JSON with the display tokenizer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import inspector_of, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis import quantities as Q
from toolsearch.engine.bridge import to_wire
from toolsearch.engine.config import parse_config
from toolsearch.engine.tokens import get_tokenizer

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
QUERIES = ["create issue", "post message channel"]


def _response(limit: int | None = None) -> dict:
    request: dict = {"queries": QUERIES}
    if limit is not None:
        request["limit"] = limit
    return inspector_of([TEAM]).bridge(parse_config({})).tool_search(request)


def test_bridge_response_counts_the_wire_json_with_the_tokenizer() -> None:
    response = _response()
    wire = to_wire(response)
    for tokenizer in ("chars4", "o200k_base"):
        tokens = get_tokenizer(tokenizer).count(wire)
        assert Q.bridge_response(response, tokenizer) == tokens
        assert Q.bridge_response_words(response, tokenizer) == (
            f"{len(wire):,} characters · {tokens:,} tokens ({tokenizer}) in the model's context")
    assert Q.BRIDGE_RESPONSE in Q.QUANTITIES


@pytest.mark.parametrize("tokenizer", ["chars4", "o200k_base"])
def test_search_command_prints_the_response_size_the_search_page_shows(tokenizer) -> None:
    done = run_cli("search", str(TEAM), *(a for q in QUERIES for a in ("-q", q)), "--tokenizer", tokenizer)
    assert done.returncode == 0, done.stderr
    response = json.loads(run_cli("search", str(TEAM), *(a for q in QUERIES for a in ("-q", q)), "--json").stdout)
    assert response == _response()
    line = f"response: {Q.bridge_response_words(response, tokenizer)}"
    assert done.stdout.splitlines()[-1] == line

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["dtok"] = tokenizer
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    assert not at.exception, at.exception
    at.text_area(key="search_queries").set_value("\n".join(QUERIES)).run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert Q.bridge_response_words(response, tokenizer) in captions, captions


def test_strategies_timeline_counts_a_search_response_the_same_way() -> None:
    from toolsearch.analysis.strategies import (
        TIERED,
        Event,
        StrategyModel,
        StrategySettings,
    )
    from toolsearch.analysis.wording import counted

    inspector = inspector_of([TEAM])
    for tokenizer in ("chars4", "o200k_base"):
        model = StrategyModel(inspector, settings=StrategySettings(tokenizer=tokenizer))
        step = model.timeline([Event("search", "create issue"), Event("describe", ("mcp__github__create_issue",))])
        response = inspector.bridge(parse_config({})).tool_search({"queries": ["create issue"]})
        described = inspector.bridge(parse_config({})).tool_describe({"names": ["mcp__github__create_issue"]})
        search, describe = step[1].state(TIERED), step[2].state(TIERED)
        assert search.message.endswith(f"(response {counted(Q.bridge_response(response, tokenizer), 'token')})"), \
            search.message
        assert describe.message.endswith(f"(response {counted(Q.bridge_response(described, tokenizer), 'token')})"), \
            describe.message
        assert search.conversation[-1].tokens == Q.bridge_response(response, tokenizer)


@pytest.mark.parametrize("tokenizer", ["chars4", "o200k_base"])
def test_describe_command_prints_the_response_size_the_describe_tab_shows(tokenizer) -> None:
    """``toolsearch describe`` printed the response and no size, while the Search page's Describe
    tab shows it under the response: its text output now ends with the ``search`` command's
    ``response:`` line, from the same function; ``--json`` stays the response object alone."""
    names = ["mcp__github__create_issue", "no_such_tool"]
    done = run_cli("describe", str(TEAM), *names, "--tokenizer", tokenizer)
    assert done.returncode == 1, done.stderr  # a name not found fails the run, as before
    as_json = run_cli("describe", str(TEAM), *names, "--json")
    response = json.loads(as_json.stdout)
    assert response == inspector_of([TEAM]).bridge(parse_config({})).tool_describe({"names": names})
    *body, last = done.stdout.splitlines()
    assert json.loads("\n".join(body)) == response
    assert last == f"response: {Q.bridge_response_words(response, tokenizer)}"

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["dtok"] = tokenizer
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    assert not at.exception, at.exception
    at.session_state["search_tab"] = "Describe"
    at.run()
    at.multiselect(key="describe_names").set_value(names[:1])
    at.text_input(key="describe_extra").set_value(names[1]).run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert Q.bridge_response_words(response, tokenizer) in captions, captions
