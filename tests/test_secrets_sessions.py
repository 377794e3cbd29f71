"""Recorded sessions: credentials a model typed into a ``tool_search`` query, or that a server put
into an error text (glued to the word before them), never show in ``toolsearch sessions`` (text
and ``--json``) nor on the Sessions page; ordinary words that look a little like them stay.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import literal_tables, run_cli_process as run_cli
from toolsearch.engine import constants as C
from toolsearch.engine.secrets import mask_token_shapes

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
MASK = C.SECRET_MASK

GHP = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
GHP_GLUED = "ghp_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"
ANT = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-abcDEF_12345"
OPENAI = "sk-proj-Mn4Bv5Cx6Zl7Kj8Hg9Fd0Sa1Qw2Er3Ty4"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJtb25hIiwiaWF0IjoxNzAwMDAwMDAwfQ"
       ".c2lnbmF0dXJlLXBhcnQtZm9yLXRlc3Rz")
URL_PASSWORD = "hunter2pass"
#: Pieces of the secrets above; none may be shown.
PIECES = ("A1b2C3d4", "Zz9Yy8Xx", "Zx9Yw8Vu", "Mn4Bv5Cx", "eyJhbGci", "c2lnbmF0", URL_PASSWORD, "mona:")

SECRET_QUERIES = [f"issues visible to token {GHP}", f"configure the client with key {ANT}",
                  f"openai{OPENAI} completion", f"send Authorization: Bearer {JWT}",
                  f"clone https://mona:{URL_PASSWORD}@git.example.com/repo.git"]
#: Clean controls: ordinary words near the shapes above, and an exact tool name.
CONTROL_QUERIES = ["risk-assessment-framework-for-teams", "token authentication setup", "bearer of bad news",
                   "mcp__github__create_pull_request", "github pull requests"]


def _sessions_file(tmp_path: Path) -> Path:
    """An OpenAI-style message array: one session searching with the queries above, then a call
    whose error text carries a token glued to the word before it."""
    queries = [*SECRET_QUERIES, *CONTROL_QUERIES]
    messages = [
        {"role": "user", "content": "Open an issue about the flaky test."},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "tool_search", "arguments": json.dumps({"queries": queries})}}]},
        {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_search", "content": json.dumps({
            "queries": queries, "results": [{"query": q, "matches": ["mcp__github__create_issue"]} for q in queries]})},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c2", "type": "function", "function": {
            "name": "tool_call", "arguments": json.dumps({"name": "mcp__github__create_issue",
                                                           "arguments": {"title": "flaky"}})}}]},
        {"role": "tool", "tool_call_id": "c2", "tool_name": "tool_call", "content": json.dumps({
            "error": f"401 Bad credentials for user{GHP_GLUED} (risk-assessment-framework-for-teams)"})},
    ]
    path = tmp_path / "leaky-session.json"
    path.write_text(json.dumps([{"id": "leaky", "model": "test/model", "messages": messages}]), encoding="utf-8")
    return path


def _clean(text: str) -> None:
    for piece in PIECES:
        assert piece not in text, (piece, text[max(0, text.find(piece) - 120): text.find(piece) + 40])


@pytest.mark.parametrize("text, shown", [
    (f"find {GHP} now", f"find {MASK} now"),
    (f"Bad credentials for user{GHP_GLUED}", f"Bad credentials for user{MASK}"),
    (f"key={ANT}", f"key={MASK}"),
    (f"x{ANT}", f"x{MASK}"),
    (f"openai{OPENAI} completion", f"openai{MASK} completion"),
    (f"Bearer {JWT}", f"Bearer {MASK}"),
    (f"header:{JWT}", f"header:{MASK}"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", MASK),
    ("slack xoxb-123456789012-abcdefABCDEF ok", f"slack {MASK} ok"),
    ("aws AKIAIOSFODNN7EXAMPLE1 key", f"aws {MASK}1 key"),
    ("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", MASK),
    (f"https://mona:{URL_PASSWORD}@git.example.com/r", f"https://{MASK}@git.example.com/r"),
    ("token 9f8e7d6c5b4a39281706", f"token {MASK}"),
])
def test_known_shapes_are_masked_even_glued_to_a_word(text, shown) -> None:
    assert mask_token_shapes(text) == shown


@pytest.mark.parametrize("text", [
    "risk-assessment-framework-for-teams", "token authentication setup", "bearer of bad news", "Basic usage",
    "task-scheduler-for-kubernetes", "mcp__github__create_pull_request", "highs_and_lows_of_the_quarter",
    "desk-booking-sk-system", "tokens per request", "https://docs.example.com/guide?debug",
])
def test_ordinary_text_stays(text) -> None:
    assert mask_token_shapes(text) == text


def test_the_sessions_command_masks_queries_and_errors_in_text_and_json(tmp_path) -> None:
    path = _sessions_file(tmp_path)
    text = run_cli("sessions", path, "--catalog", CATALOG)
    assert text.returncode == 0, text.stderr
    _clean(text.stdout + text.stderr)
    assert f"'issues visible to token {MASK}'" in text.stdout
    assert f"user{MASK}" in text.stdout  # the error text, glued key masked
    for control in CONTROL_QUERIES:
        assert f"'{control}'" in text.stdout
    data = run_cli("sessions", path, "--catalog", CATALOG, "--json")
    assert data.returncode == 0, data.stderr
    _clean(data.stdout + data.stderr)
    session = json.loads(data.stdout)["per_session"][0]
    recorded = [q["query"] for e in session["events"] if e.get("kind") == "search" for q in e["queries"]]
    assert recorded == [f"issues visible to token {MASK}", f"configure the client with key {MASK}",
                        f"openai{MASK} completion", f"send Authorization: Bearer {MASK}",
                        f"clone https://{MASK}@git.example.com/repo.git", *CONTROL_QUERIES]
    replayed = [q["query"] for q in session["queries"]]
    assert replayed == recorded
    exported = tmp_path / "queries.yaml"
    run_cli("sessions", path, "--catalog", CATALOG, "--export-queries", exported)
    if exported.exists():
        _clean(exported.read_text(encoding="utf-8"))


def test_the_sessions_page_masks_queries_and_errors(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    at.radio(key="sessions_source").set_value("Upload a session file").run()
    at.file_uploader(key="sessions_upload").set_value(
        ("leaky-session.json", _sessions_file(tmp_path).read_bytes(), "application/json")).run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    timeline = tables["sessions_timeline"]
    details = list(timeline["detail"])
    assert f"issues visible to token {MASK}" in details and "risk-assessment-framework-for-teams" in details
    shown = "\n".join([*(str(t.to_dict()) for t in tables.values()), *(t.value for t in at.text),
                       *(m.value for m in at.markdown), *(c.value for c in at.caption), *(c.value for c in at.code),
                       *(str(x.value) for x in [*at.warning, *at.error, *at.info])])
    _clean(shown)
    assert f"user{MASK}" in shown


def test_secrets_assigned_in_a_command_of_a_hermes_store_are_masked(tmp_path) -> None:
    """A Hermes store (Hermes' own writer) where the model ran a shell command holding keys as
    ``export NAME=…`` and a ``curl -H 'X-Api-Key: …'`` header, and wrote a ``.env`` file: the values
    of names that name a secret are masked in text and JSON, the other words stay."""
    from tests.test_sessions import tool_calls, write_store

    hex_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    command = (f"export SERVICE_API_TOKEN=plainpass1 && curl -H 'X-Api-Key: {hex_key}' "
               "-H 'Authorization: Bearer abcdefghij12345' https://api.example.com/v1/items")
    env_file = "DB_PASSWORD=hunter2pass\nPLAIN=hello\nmax_tokens: 4096\n"
    spec = {"sessions": [{"id": "s-shell", "model": "openai/gpt-5-mini", "messages": [
        {"role": "user", "content": "List the items"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("t1", "terminal", {"command": command})},
        {"role": "tool", "tool_call_id": "t1", "tool_name": "terminal", "content": "{\"output\": \"[]\"}"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("t2", "write_file",
                                                                      {"path": ".env", "content": env_file})},
        {"role": "tool", "tool_call_id": "t2", "tool_name": "write_file", "content": "{\"ok\": true}"}]}]}
    db = write_store(tmp_path, spec)
    data = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--json")
    assert data.returncode == 0, data.stderr
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference")
    for shown in (data.stdout, text.stdout):
        for secret in ("plainpass1", hex_key, "abcdefghij12345", "hunter2pass"):
            assert secret not in shown
    calls = [e for e in json.loads(data.stdout)["per_session"][0]["events"] if e["kind"] == "call"]
    assert calls[0]["arguments"]["command"] == (
        f"export SERVICE_API_TOKEN={MASK} && curl -H 'X-Api-Key: {MASK}' "
        f"-H 'Authorization: Bearer {MASK}' https://api.example.com/v1/items")
    assert calls[1]["arguments"]["content"] == f"DB_PASSWORD={MASK}\nPLAIN=hello\nmax_tokens: 4096\n"


def test_a_secret_assigned_in_a_query_is_masked(tmp_path) -> None:
    """A model typed ``X-Api-Key: <key>`` into a tool_search query (Hermes store, Hermes' writer):
    the key is masked in the text report, ``--json`` and the exported labeled queries."""
    from tests.test_sessions import search_response, tool_calls, write_store

    key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    query = f"send request with X-Api-Key: {key}"
    spec = {"sessions": [{"id": "s-query", "model": "openai/gpt-5-mini", "messages": [
        {"role": "user", "content": "call the API"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("q1", "tool_search", {"queries": [query]})},
        {"role": "tool", "tool_call_id": "q1", "tool_name": "tool_search",
         "content": search_response(query, ["mcp__github__create_issue"])},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("q2", "tool_call", {
            "name": "mcp__github__create_issue", "arguments": {"title": "t"}})},
        {"role": "tool", "tool_call_id": "q2", "tool_name": "tool_call", "content": "{\"ok\": true}"}]}]}
    db = write_store(tmp_path, spec)
    exported = tmp_path / "labeled.yaml"
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--export-queries", exported)
    data = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--json")
    for shown in (text.stdout, data.stdout, exported.read_text(encoding="utf-8")):
        assert key not in shown
    assert f"'send request with X-Api-Key: {MASK}'" in text.stdout


def test_a_recorded_model_name_is_masked_like_a_title(tmp_path) -> None:
    # A custom provider's model can be recorded as the endpoint it was reached at, credentials and all.
    model = f"https://mona:{URL_PASSWORD}@llm.example.com/v1/{ANT}"
    path = tmp_path / "model.json"
    path.write_text(json.dumps([{"id": "s1", "model": model, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "tool_search", "arguments": json.dumps({"queries": ["github issue"]})}}]}]}]), encoding="utf-8")
    data = run_cli("sessions", path, "--catalog", CATALOG, "--json")
    assert data.returncode == 0, data.stderr
    _clean(data.stdout + data.stderr)
    assert json.loads(data.stdout)["per_session"][0]["model"] == f"https://{MASK}@llm.example.com/v1/{MASK}"
