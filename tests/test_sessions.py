"""Recorded sessions: reading every format, extraction, replay, listing what-if, labeled queries, CLI.

Real components: session stores are written by Hermes' own ``hermes_state.SessionDB`` (PyPI
package ``hermes-agent``, in its own virtual environment; ``$TOOLSEARCH_HERMES_PYTHON`` or
``.ci/venv-hermes``) through ``scripts/hermes_store_writer.py`` run as a subprocess, and exported
with Hermes' own ``hermes sessions export`` (JSON Lines and the Claude Code ``trace`` format).
Those tests skip with the reason when the environment is missing and ``CI`` is unset; in CI
they must run. The other formats are read from the sample files in ``sample_sessions/``.
"""

from __future__ import annotations

import re

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli
from conftest import inspector_of
from toolsearch.engine import constants as C
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.analysis.evaluation import DEFAULT_VARIANTS, load_queries
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.session_formats import SessionSourceError, detect_format, read_text
from toolsearch.analysis.sessions import (event_to_dict, export_queries, listing_what_if, load_sessions, load_sessions_bytes,
                                 load_sessions_text, mask_secrets, replay, replay_variants, show_invisible, summary)

ROOT = Path(__file__).absolute().parent.parent
SAMPLES = ROOT / "sample_sessions"
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
WRITER = ROOT / "scripts" / "hermes_store_writer.py"
M = C.SECRET_MASK


def hermes_python() -> str:
    """The Python of the hermes-agent environment, or skip (outside CI) / fail (in CI)."""
    value = os.environ.get("TOOLSEARCH_HERMES_PYTHON")
    if value and Path(value).exists():
        return value
    local = ROOT / ".ci" / "venv-hermes" / "bin" / "python"
    if local.exists():
        return str(local)
    message = "hermes-agent is not installed (set TOOLSEARCH_HERMES_PYTHON or run .ci/run)"
    if os.environ.get("CI"):
        pytest.fail(f"CI must have {message}")
    pytest.skip(message)


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return inspector_of([CATALOG])


def tool_calls(call_id: str, name: str, arguments: dict) -> list[dict]:
    return [{"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]


def search_response(query: str, matches: list[str]) -> str:
    return json.dumps({"queries": [query], "total_available": 178,
                       "results": [{"query": query, "matches": matches}], "tools": {}})


SPEC = {"sessions": [
    {"id": "s-first", "model": "openai/gpt-5-mini", "model_config": {"context_length": 16000, "max_tokens": 4096},
     "title": "On-call", "tokens": {"input_tokens": 1200, "output_tokens": 80, "cache_read_tokens": 900,
                                    "cache_write_tokens": 150},
     "messages": [
         {"role": "user", "content": "Who is on call?"},
         {"role": "assistant", "content": "", "tool_calls": tool_calls("c1", "terminal", {"command": "date"})},
         {"role": "tool", "tool_call_id": "c1", "tool_name": "terminal", "content": "{\"output\": \"Mon\"}"},
         {"compact": [{"role": "user", "content": "Summary: the user wants the on-call engineer."}]},
         {"role": "assistant", "content": "", "tool_calls": tool_calls(
             "c2", "tool_search", {"queries": ["page the on-call engineer", "on-call schedule"], "limit": 3})},
         {"role": "tool", "tool_call_id": "c2", "tool_name": "tool_search", "content": json.dumps(
             {"queries": ["page the on-call engineer", "on-call schedule"], "total_available": 178, "results": [
                 {"query": "page the on-call engineer", "matches": []},
                 {"query": "on-call schedule", "matches": ["mcp__grafana__list_oncall_schedules",
                                                           "mcp__grafana__get_current_oncall_users",
                                                           "mcp__slack__slack_schedule_message"]}], "tools": {}})},
         {"role": "assistant", "content": "", "tool_calls": tool_calls(
             "c3", "tool_describe", {"names": ["mcp__grafana__get_current_oncall_users", "mcp__grafana__whoami"]})},
         {"role": "tool", "tool_call_id": "c3", "tool_name": "tool_describe", "content": json.dumps(
             {"tools": {}, "not_found": ["mcp__grafana__whoami"], "hint": "…"})},
         {"role": "assistant", "content": "", "tool_calls": tool_calls("c4", "tool_call", {
             "name": "mcp__grafana__get_current_oncall_users",
             "arguments": {"schedule_id": "S1", "api_token": "glsa_x9", "url": "https://u:pw@grafana.example/x?key=abcdef"}})},
         {"role": "tool", "tool_call_id": "c4", "tool_name": "tool_call", "content": "{\"error\": \"schedule not found\"}"},
         {"role": "assistant", "content": "", "tool_calls": tool_calls("c5", "tool_call", {
             "calls": [{"name": "mcp__grafana__get_current_oncall_users", "arguments": "{\"schedule_id\": \"S2\"}"}]})},
         {"role": "tool", "tool_call_id": "c5", "tool_name": "tool_call", "content": "{\"users\": [\"mona\"]}"},
         {"role": "assistant", "content": "Mona is on call."}]},
    {"id": "s-second", "model": "anthropic/claude-sonnet-4.5",
     "messages": [
         {"role": "user", "content": "Tell #release 2.4 is out"},
         {"role": "assistant", "content": "", "tool_calls": tool_calls("d1", "tool_search", {"queries": "slack send message"})},
         {"role": "tool", "tool_call_id": "d1", "tool_name": "tool_search",
          "content": search_response("slack send message", ["mcp__slack__slack_send_message"])},
         {"role": "assistant", "content": "", "tool_calls": tool_calls("d2", "tool_call", {
             "name": "mcp__slack__slack_post_message", "arguments": {"channel_id": "C1", "text": "2.4 is out"}})},
         {"role": "tool", "tool_call_id": "d2", "tool_name": "tool_call", "content": "{\"ok\": true}"}]},
]}

EXPECTED_FIRST = [
    {"kind": "compaction", "step": 0, "messages": 3},
    {"kind": "search", "step": 1, "tool": "tool_search", "limit": 3, "error": None, "queries": [
        {"query": "page the on-call engineer", "matches": []},
        {"query": "on-call schedule", "matches": ["mcp__grafana__list_oncall_schedules",
                                                  "mcp__grafana__get_current_oncall_users",
                                                  "mcp__slack__slack_schedule_message"]}]},
    {"kind": "describe", "step": 2, "names": ["mcp__grafana__get_current_oncall_users", "mcp__grafana__whoami"],
     "not_found": ["mcp__grafana__whoami"], "error": None},
    {"kind": "call", "step": 3, "name": "mcp__grafana__get_current_oncall_users", "via": "tool_call",
     "arguments": {"schedule_id": "S1", "api_token": M, "url": f"https://{M}@grafana.example/x?key={M}"},
     "succeeded": False, "error": "schedule not found"},
    {"kind": "call", "step": 4, "name": "mcp__grafana__get_current_oncall_users", "via": "tool_call",
     "arguments": {"schedule_id": "S2"}, "succeeded": True, "error": None},
]


def write_store(tmp_path: Path, spec: dict, name: str = "state.db", export: bool = False) -> Path:
    spec_file = tmp_path / f"{name}.spec.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    db = tmp_path / name
    cmd = [hermes_python(), str(WRITER), str(spec_file), str(db)]
    if export:
        cmd += ["--export", str(tmp_path / f"{name}.export.jsonl")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return db


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- the Hermes store, written by Hermes ---------------------------------------------------------

def test_hermes_store_read_back_read_only(tmp_path):
    db = write_store(tmp_path, SPEC)
    before = digest(db)
    files_before = sorted(p.name for p in tmp_path.iterdir())
    assert detect_format(db) == "hermes-db"
    loaded = load_sessions([db])
    assert loaded.problems == []
    first, second = loaded.sessions
    assert (first.id, first.model, first.context_length, first.title, first.format) == (
        "s-first", "openai/gpt-5-mini", 16000, "On-call", "hermes-db")
    assert dict(first.counters) == {"input_tokens": 1200, "output_tokens": 80, "cache_read_tokens": 900,
                                    "cache_write_tokens": 150}
    # only the active rows: the terminal call before the compaction was archived, not read
    assert [event_to_dict(e) for e in first.events] == EXPECTED_FIRST
    assert first.messages == 10  # summary + 9 messages after it
    assert (second.id, second.context_length, second.counters) == ("s-second", None, {})
    assert [e.kind for e in second.events] == ["search", "call"]
    # read-only: same bytes, no journal files left behind
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files_before


def test_hermes_store_with_a_live_writer(tmp_path):
    """A Hermes process keeps the store open and writes while toolsearch reads it."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"sessions": [SPEC["sessions"][1]]}), encoding="utf-8")
    db = tmp_path / "live.db"
    writer = subprocess.Popen([hermes_python(), str(WRITER), str(spec), str(db), "--keep-open"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "ready"
        assert Path(f"{db}-wal").exists()  # Hermes holds the store open in WAL mode
        first = load_sessions([db]).sessions[0]
        assert first.messages == 5
        for n in range(2):  # the writer is never blocked by the reader
            writer.stdin.write(f"message {n}\n")
            writer.stdin.flush()
            assert writer.stdout.readline().strip() == "wrote"
        assert load_sessions([db]).sessions[0].messages == 7
    finally:
        writer.stdin.close()
        assert writer.wait(timeout=60) == 0


def test_hermes_exports_read_like_the_store(tmp_path):
    """``hermes sessions export`` (JSON Lines) and ``--format trace`` (Claude Code JSONL), run offline."""
    python = hermes_python()
    home = tmp_path / "home"
    home.mkdir()
    write_store(home, SPEC)
    hermes = Path(python).parent / "hermes"
    env = {**os.environ, "HERMES_HOME": str(home)}
    done = subprocess.run([str(hermes), "sessions", "export", str(tmp_path / "all.jsonl")], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    exported = load_sessions([tmp_path / "all.jsonl"])
    assert detect_format(tmp_path / "all.jsonl") == "hermes-export"
    by_id = {s.id: s for s in exported.sessions}
    assert set(by_id) == {"s-first", "s-second"}
    # the export holds the active messages; the compaction itself is only visible in the store
    assert [event_to_dict(e) for e in by_id["s-first"].events] == EXPECTED_FIRST[1:]
    assert (by_id["s-first"].context_length, by_id["s-first"].counters["cache_read_tokens"]) == (16000, 900)
    done = subprocess.run([str(hermes), "sessions", "export", str(tmp_path / "trace.jsonl"), "--format", "trace",
                           "--session-id", "s-first", "--no-redact"], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert detect_format(tmp_path / "trace.jsonl") == "claude-code"
    trace = load_sessions([tmp_path / "trace.jsonl"]).sessions
    assert [(s.id, s.format, s.model) for s in trace] == [("s-first", "claude-code", "openai/gpt-5-mini")]
    assert [event_to_dict(e) for e in trace[0].events] == EXPECTED_FIRST[1:]


def test_sample_store_is_a_hermes_store_and_matches_the_other_samples():
    store = load_sessions([SAMPLES / "state.db"])
    # in the order Hermes started them (started_at)
    assert [s.id for s in store.sessions] == ["20261130_091500_a1", "20261130_101200_b2", "20261130_140300_c3",
                                              "20261128_170000_d4", "20261130_163000_e5", "20261201_080500_f6",
                                              "20261201_093000_g7"]
    searches = {s.id: [(q.query, q.matches) for e in s.searches for q in e.queries] for s in store.sessions}
    for name in ("hermes-export.jsonl", "openai-messages.json", "trajectory.jsonl"):
        other = load_sessions([SAMPLES / name])
        assert other.problems == []
        got = {s.id: [(q.query, q.matches) for e in s.searches for q in e.queries] for s in other.sessions} \
            if name != "trajectory.jsonl" else None
        if got is not None:
            assert got == searches, name
        else:
            assert sorted(searches.values()) == sorted(
                [(q.query, q.matches) for e in s.searches for q in e.queries] for s in other.sessions)


# --- every other format --------------------------------------------------------------------------

@pytest.mark.parametrize("name, fmt, sessions, queries", [
    ("state.db", "hermes-db", 7, 12), ("hermes-export.jsonl", "hermes-export", 7, 12),
    ("trajectory.jsonl", "trajectory", 7, 12), ("claude-code.jsonl", "claude-code", 3, 5),
    ("anthropic-messages.json", "anthropic", 7, 12), ("openai-messages.json", "openai", 7, 12)])
def test_each_sample_format(name, fmt, sessions, queries):
    path = SAMPLES / name
    assert detect_format(path) == fmt
    loaded = load_sessions([path])
    assert loaded.problems == []
    assert len(loaded.sessions) == sessions
    assert sum(len(e.queries) for s in loaded.sessions for e in s.searches) == queries
    assert {s.format for s in loaded.sessions} == {fmt}


def test_uploaded_bytes_store_and_text():
    data = (SAMPLES / "state.db").read_bytes()
    loaded = load_sessions_bytes(data, "my-state.db")
    assert [s.origin for s in loaded.sessions] == ["my-state.db"] * 7
    assert [s.id for s in loaded.sessions] == [s.id for s in load_sessions([SAMPLES / "state.db"]).sessions]
    text = load_sessions_bytes((SAMPLES / "claude-code.jsonl").read_bytes(), "cc.jsonl")
    assert [s.format for s in text.sessions] == ["claude-code"] * 3
    with pytest.raises(SessionSourceError, match=r"^up\.bin: line 1, column 1 \(byte 0\): not UTF-8 text \(byte 0xff; it starts with UTF-16's byte order "
                                                 r"mark: UTF-16 text\); expected UTF-8 text or a SQLite session store"):
        load_sessions_bytes(b"\xff\xfe\x00garbage", "up.bin")


def test_anthropic_server_side_tool_search_blocks():
    text = json.dumps({"model": "claude-sonnet-4-5", "messages": [
        {"role": "user", "content": "weather in Paris"},
        {"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_regex",
             "input": {"query": "weather"}},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1",
             "content": {"type": "tool_search_tool_search_result",
                         "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
            {"type": "server_tool_use", "id": "srvtoolu_2", "name": "tool_search_tool_bm25",
             "input": {"query": "forecast"}},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_2",
             "content": {"type": "tool_search_tool_result_error", "error_code": "unavailable"}},
            {"type": "tool_use", "id": "toolu_3", "name": "get_weather", "input": {"city": "Paris"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_3", "content": "18°C"}]}]})
    loaded = load_sessions_text(text, "conv.json")
    (session,) = loaded.sessions
    assert session.format == "anthropic" and session.model == "claude-sonnet-4-5"
    assert [event_to_dict(e) for e in session.events] == [
        {"kind": "search", "step": 1, "tool": "tool_search_tool_regex", "limit": None, "error": None,
         "queries": [{"query": "weather", "matches": ["get_weather"]}]},
        {"kind": "search", "step": 2, "tool": "tool_search_tool_bm25", "limit": None, "error": "unavailable",
         "queries": [{"query": "forecast", "matches": []}]},
        {"kind": "call", "step": 3, "name": "get_weather", "via": "direct", "arguments": {"city": "Paris"},
         "succeeded": True, "error": None}]
    assert session.bridged_tools == ("get_weather",)


def test_openai_list_of_conversations_and_bad_parts_are_skipped():
    good = [{"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": tool_calls("x1", "tool_search", {"queries": ["read file"]})},
            {"role": "tool", "tool_call_id": "x1", "content": search_response("read file", [])}]
    text = json.dumps([good, {"messages": "nope"}, good])
    loaded = load_sessions_text(text, "chats.json")
    assert [s.id for s in loaded.sessions] == ["chats.json#1", "chats.json#2"]
    assert [str(p) for p in loaded.problems] == [
        "chats.json[1]: expected a list of messages (or an object with 'messages'); conversation skipped"]


def test_call_arguments_that_do_not_parse_are_said():
    """A recorded tool_search whose 'arguments' string is not JSON (cut off, or a number past
    Python's 4,300-digit limit) became a search of no queries without a word."""
    broken = [{"id": "x1", "type": "function", "function": {"name": "tool_search", "arguments": '{"queries": ["read'}},
              {"id": "x2", "type": "function",
               "function": {"name": "tool_search", "arguments": '{"queries": ["a"], "limit": ' + "9" * 5000 + "}"}}]
    text = json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": broken}])
    loaded = load_sessions_text(text, "chat.json")
    assert [str(p) for p in loaded.problems] == [
        f"chat.json: messages[1].tool_calls[{j}]: 'arguments' is not valid JSON; arguments skipped (the call is "
        "kept)" for j in (0, 1)]
    assert len(loaded.sessions[0].events) == 2


@pytest.mark.parametrize("results", [5, True, -1.5, "text", {"query": "read file"}])
def test_a_recorded_search_result_whose_results_is_not_a_list_reads_as_unknown(results):
    """A recorded tool_search response with 'results' a number ended `toolsearch sessions` (and the
    Sessions page) with "TypeError: 'int' object is not iterable"."""
    text = json.dumps([{"role": "user", "content": "hi"},
                       {"role": "assistant", "tool_calls": tool_calls("x1", "tool_search", {"queries": ["read file"]})},
                       {"role": "tool", "tool_call_id": "x1", "content": json.dumps({"results": results})}])
    (session,) = load_sessions_text(text, "chat.json").sessions
    (event,) = session.events
    assert [(q.query, q.matches) for q in event.queries] == [("read file", None)]  # no readable result


def test_jsonl_bad_line_is_reported_with_its_place_and_the_rest_loads(tmp_path):
    lines = (SAMPLES / "hermes-export.jsonl").read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "export.jsonl"
    broken.write_text("\n".join([lines[0], '{"id": "cut', lines[1], '{"id": "x", "messages": 3}']) + "\n",
                      encoding="utf-8")
    loaded = load_sessions([broken])
    assert len(loaded.sessions) == 2
    assert [str(p) for p in loaded.problems] == [
        f"{broken}:2: not valid JSON (Unterminated string starting at); line skipped",
        f"{broken}:4: expected a session object with a 'messages' list; session skipped"]


def test_unreadable_sources_raise_one_clear_error(tmp_path):
    (tmp_path / "notes.txt").write_text("just some notes\n", encoding="utf-8")
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "other.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    with pytest.raises(SessionSourceError, match=r"notes\.txt: not a recognised session format"):
        load_sessions([tmp_path / "notes.txt"])
    # an empty file is what `hermes sessions export` writes for a store with no session: no session
    assert (load_sessions([tmp_path / "empty.jsonl"]).sessions, load_sessions([tmp_path / "empty.jsonl"]).problems) \
        == ([], [])
    with pytest.raises(SessionSourceError, match=r"empty\.jsonl: the file is empty; expected a messages array"):
        load_sessions([tmp_path / "empty.jsonl"], "anthropic")
    with pytest.raises(SessionSourceError, match=r"other\.db: "):
        load_sessions([tmp_path / "other.db"])
    with pytest.raises(SessionSourceError, match=r"missing\.db: no such session file"):
        load_sessions([tmp_path / "missing.db"])
    with pytest.raises(SessionSourceError, match=r": a folder; expected a session file"):
        load_sessions([tmp_path])
    os.mkfifo(tmp_path / "pipe.jsonl")  # nothing writes to it: refused at once, named for what it is
    with pytest.raises(SessionSourceError, match=r"pipe\.jsonl: not a regular file \(a pipe, a device or a socket\)"):
        load_sessions([tmp_path / "pipe.jsonl"])
    with pytest.raises(SessionSourceError, match="a Hermes session store is a SQLite file"):
        read_text("[]", "x.json", "hermes-db")


def test_trajectory_tool_calls_and_responses():
    entry = {"conversations": [
        {"from": "human", "value": "open an issue"},
        {"from": "gpt", "value": "<think>\n</think>\n<tool_call>\n{\"name\": \"tool_search\", \"arguments\": "
                                 "{\"queries\": [\"create a github issue\"]}}\n</tool_call>"},
        {"from": "tool", "value": "<tool_response>\n" + json.dumps(
            {"tool_call_id": "a", "name": "tool_search",
             "content": json.loads(search_response("create a github issue", ["mcp__github__create_issue"]))})
         + "\n</tool_response>"},
        {"from": "gpt", "value": "<tool_call>\n{\"name\": \"tool_call\", \"arguments\": {\"name\": "
                                 "\"mcp__github__create_issue\", \"arguments\": {\"title\": \"x\"}}}\n</tool_call>"},
        {"from": "tool", "value": "<tool_response>\n{\"name\": \"tool_call\", \"content\": {\"error\": \"missing owner\"}}"
                                  "\n</tool_response>"}], "model": "m", "completed": True}
    (session,) = load_sessions_text(json.dumps(entry) + "\n", "t.jsonl").sessions
    assert session.format == "trajectory"
    assert [event_to_dict(e) for e in session.events] == [
        {"kind": "search", "step": 1, "tool": "tool_search", "limit": None, "error": None,
         "queries": [{"query": "create a github issue", "matches": ["mcp__github__create_issue"]}]},
        {"kind": "call", "step": 2, "name": "mcp__github__create_issue", "via": "tool_call",
         "arguments": {"title": "x"}, "succeeded": False, "error": "missing owner"}]


def test_show_invisible_and_cli_text_is_literal(tmp_path):
    assert show_invisible("plain text") == "plain text"
    assert show_invisible("a\u200bb\u202e\x1b[31m\nx é") == "a⟨U+200B⟩b⟨U+202E⟩⟨U+001B⟩[31m⟨U+000A⟩x é"
    text = json.dumps([[{"role": "assistant", "tool_calls": tool_calls("q", "tool_search", {
        "queries": ["find\u200b \x1b[2Jissues"]})}]])
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    done = run_cli("sessions", path, "--catalog", CATALOG)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\u200b" not in done.stdout
    assert "#1 search 'find⟨U+200B⟩ ⟨U+001B⟩[2Jissues': recorded (not recorded)" in done.stdout


def test_mask_secrets():
    value = {"token": "abc123", "password": "", "query": "deploy", "n": 3, "author": "mona", "max_tokens": "512",
             "X-Api-Key": "k-1", "accessToken": "t-2",
             "headers": {"Authorization": "Bearer sk-abcdefghijklmnop"},
             "note": "use ghp_abcdefghijklmnopqrstuvwx1234 or Bearer zzzzzzzzzz9 please",
             "blob": "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7",
             "list": ["https://user:pw@h.example/p?sig=xyz&debug", "plain words here"]}
    assert mask_secrets(value) == {
        "token": M, "password": "", "query": "deploy", "n": 3, "author": "mona", "max_tokens": "512",
        "X-Api-Key": M, "accessToken": M, "headers": {"Authorization": M},
        "note": f"use {M} or Bearer {M} please", "blob": M,
        "list": [f"https://{M}@h.example/p?sig={M}&debug", "plain words here"]}


# --- replay, what-if, labeled queries --------------------------------------------------------------

def test_replay_outcomes_and_drift(inspector):
    sessions = load_sessions_text(json.dumps([{"id": x["id"], "model": x["model"], "messages": [
        m for m in x["messages"] if "compact" not in m]} for x in SPEC["sessions"]]), "spec.json", "openai").sessions
    rep = replay(sessions, inspector, ToolSearchConfig(), ["no-gate"])
    assert rep.variants == ("reference", "no-gate")
    rows = [(q.session, q.query, q.limit, q.recorded_empty, q.recorded_found_called,
             q.replayed["reference"].empty, q.replayed["reference"].found_called, q.replayed["reference"].drift)
            for q in rep.queries]
    assert rows == [
        ("s-first", "page the on-call engineer", 3, True, False, True, False, False),
        ("s-first", "on-call schedule", 3, False, True, False, True, False),
        ("s-second", "slack send message", 5, False, False, False, False, True)]
    first = rep.queries[0].replayed["reference"]
    assert (first.gate, first.gate_word, first.why) == ("engin", "engineer", "the gate term 'engineer → engin' occurs in no tool")
    assert rep.queries[2].replayed["reference"].matches == ("mcp__slack__slack_update_message",
                                                           "mcp__grafana__update_dashboard")
    assert summary(sessions, rep) == {
        "sessions": 2, "searches": 3, "recorded": {"empty": 1, "found_called": 1, "with_result": 3},
        "replay": {"reference": {"empty": 1, "found_called": 1, "drift": 1},
                   "no-gate": {"empty": 0, "found_called": 3, "drift": 2}}}


def test_replay_variants_follow_the_engine():
    assert replay_variants(None) == tuple(dict.fromkeys(["reference", *DEFAULT_VARIANTS]))
    assert replay_variants(["unicode+no-gate"]) == ("reference", "unicode+no-gate")


def test_listing_what_if_smallest_settings_really_list_the_tool(inspector):
    (session,) = load_sessions_text(json.dumps({"id": "w", "model": "m", "context_length": 16000, "messages": [
        {"role": "assistant", "tool_calls": tool_calls("a", "tool_search", {"queries": ["search grafana dashboards"]})},
        {"role": "tool", "tool_call_id": "a", "content": search_response("search grafana dashboards", [])},
        {"role": "assistant", "tool_calls": tool_calls("b", "tool_call", {
            "name": "mcp__grafana__search_dashboards", "arguments": {}})},
        {"role": "tool", "tool_call_id": "b", "content": "{}"},
        {"role": "assistant", "tool_calls": tool_calls("c", "tool_call", {
            "name": "mcp__slack__slack_post_message", "arguments": {}})},
        {"role": "tool", "tool_call_id": "c", "content": "{}"}]}), "w.json").sessions
    config = ToolSearchConfig()
    grafana, slack = listing_what_if([session], inspector, config)
    assert (grafana.tool, grafana.context_length, grafana.budget, grafana.listed, grafana.searches_before) == (
        "mcp__grafana__search_dashboards", 16000, 800, False, 1)
    assert (slack.listed, slack.smallest_budget) == (True, 443)
    # int(16000 * 7.4%) = 1184 >= 1173 > 1168 = int(16000 * 7.3%): 7.4 is the smallest 0.1% step
    assert (grafana.smallest_budget, grafana.threshold_pct, grafana.listing_max_tokens) == (1173, 7.4, 1173)
    states = {s.name: s.state for s in inspector.plan(config.with_overrides(threshold_pct=7.4), 16000).servers}
    assert states["grafana"] in ("full", "names")
    states = {s.name: s.state for s in inspector.plan(config.with_overrides(threshold_pct=7.3), 16000).servers}
    assert states["grafana"] == "summary"


def test_export_queries_caps_and_labels(inspector, tmp_path):
    queries = [f"query number {i}" for i in range(9)]
    (session,) = load_sessions_text(json.dumps([
        {"role": "assistant", "tool_calls": tool_calls("a", "tool_search", {"queries": queries})},
        {"role": "assistant", "tool_calls": tool_calls("n", "tool_search", {"queries": ["nothing follows"]})},
        {"role": "assistant", "tool_calls": tool_calls("b", "tool_call", {
            "name": "mcp__github__create_issue", "arguments": {}})},
        {"role": "assistant", "tool_calls": tool_calls("c", "terminal", {"command": "ls"})},
        {"role": "assistant", "tool_calls": tool_calls("z", "tool_search", {"queries": ["too late"]})}]),
        "x.json").sessions
    data = export_queries([session, session], inspector)
    assert data["tasks"] == [
        {"id": "x.json-1-1", "queries": queries[:7], "expected": ["mcp__github__create_issue"],
         "note": "session x.json#1, search at step 1"},
        {"id": "x.json-1-2", "queries": ["nothing follows"], "expected": ["mcp__github__create_issue"],
         "note": "session x.json#1, search at step 2"}]


# --- the command line ------------------------------------------------------------------------------

def test_cli_json_contract_on_the_sample_store(tmp_path):
    out = tmp_path / "labeled.yaml"
    done = run_cli("sessions", SAMPLES / "state.db", "--catalog", CATALOG, "--json", "--export-queries", out)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {k: data[k] for k in ("sessions", "searches", "recorded")} == {
        "sessions": 7, "searches": 12, "recorded": {"empty": 3, "found_called": 7, "with_result": 12}}
    assert list(data["replay"]) == list(dict.fromkeys(["reference", *DEFAULT_VARIANTS]))
    # recorded on the catalog they are replayed on: the reference finds what was recorded, no drift
    assert data["replay"]["reference"] == {"empty": 3, "found_called": 7, "drift": 0}
    assert data["catalog_drift"]["drifted"] is False and data["catalog_drift"]["missing_tools"] == []
    assert data["replay"]["no-gate"]["empty"] == 0
    assert len(data["per_session"]) == 7
    # The sample store shows both flags: a search repeated after a compaction, a tool called unsearched.
    flags = {s["id"]: s["flags"] for s in data["per_session"]
             if s["flags"]["deferred_never_searched"] or s["flags"]["repeated_after_compaction"]}
    assert flags == {
        "20261130_140300_c3": {"session": "20261130_140300_c3", "deferred_never_searched": False, "compactions": 1, "repeated_after_compaction": [
            {"step": 1, "query": "get logs of failed CI job", "earlier": "get logs of failed CI job", "exact": True}]},
        "20261201_093000_g7": {"session": "20261201_093000_g7", "deferred_never_searched": True, "repeated_after_compaction": [], "compactions": 0}}
    b2 = next(s for s in data["per_session"] if s["id"] == "20261130_101200_b2")
    call = next(e for e in b2["events"] if e["kind"] == "call")
    assert call["arguments"] == {"schedule_id": "SCHED42", "api_token": M}
    assert "glsa_9fQk2mZ81xR7pLw0TvBn4cYd" not in done.stdout
    assert [f["query"] for f in data["aggregates"]["top_failed"]] == [
        "grafana dashboard latency", "page the on-call engineer", "rotate kubernetes secret"]
    assert data["aggregates"]["per_model"]["openai/gpt-5-mini"]["sessions"] == 3
    assert f"wrote {out}: 9 labeled tasks" in done.stderr
    qf = load_queries(out)
    assert (len(qf.tasks), qf.tool_names) == (9, "prefixed")
    ev = run_cli("eval", CATALOG, out, "--json", "--variant", "reference")
    assert ev.returncode == 0, ev.stderr
    assert json.loads(ev.stdout)["tasks"] == 9


def test_cli_variant_and_text_report():
    done = run_cli("sessions", SAMPLES / "openai-messages.json", "--catalog", CATALOG, "--variant", "no-gate")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "reference  3      7             0" in text
    assert "no-gate    0      10            7" in text
    # the per-model shares as the Sessions page gives them (one decimal), under the page's column names
    assert "searches empty (recorded, %)  searches empty (reference, %)" in text
    assert re.search(r"openai/gpt-5-mini +3 +7 +2\.33 +28\.6% +28\.6%", text), text
    assert "page the on-call engineer  1      engineer → engin  the gate term 'engineer → engin' occurs in no tool" in text
    assert "unicode" not in text.split("per model:")[0]
    assert "catalog drift" not in text  # the samples were recorded on this catalog


def test_cli_text_report_marks_a_drifted_search():
    """A search recorded before its server renamed the tool (tests/data/renamed-tool-sessions.json:
    slack_send_message, now slack_post_message) is marked as drift, and the catalog drift said."""
    done = run_cli("sessions", ROOT / "tests" / "data" / "renamed-tool-sessions.json", "--catalog", CATALOG)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "#1 search 'slack send message': recorded mcp__slack__slack_send_message; reference now " \
           "mcp__slack__slack_update_message, mcp__grafana__update_dashboard [drift]" in text
    assert re.search(r"^reference +0 +0 +1$", text, re.MULTILINE), text
    assert ("warning: catalog drift: 1 tool the sessions used is not in Team workspace "
            "(mcp__slack__slack_send_message); 1 session affected") in text


def test_cli_errors_are_one_line(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n", encoding="utf-8")
    done = run_cli("sessions", notes, "--catalog", CATALOG)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"toolsearch: error: {notes}: not a recognised session format; expected one of hermes-db, hermes-export, "
        "trajectory, claude-code, anthropic, openai (use --format to say which)"]
    done = run_cli("sessions", SAMPLES / "state.db", "--catalog", CATALOG, "--variant", "fuzzy")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "unknown variant 'fuzzy'" in done.stderr
    done = run_cli("sessions", tmp_path / "nope.db", "--catalog", CATALOG)
    assert (done.returncode, done.stderr.strip()) == (2, f"toolsearch: error: {tmp_path / 'nope.db'}: no such session file")


def test_cli_skips_bad_lines_and_reports_them(tmp_path):
    lines = (SAMPLES / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "traj.jsonl"
    path.write_text(lines[0] + "\n{broken\n" + lines[1] + "\n", encoding="utf-8")
    done = run_cli("sessions", path, "--catalog", CATALOG, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sessions"] == 2
    assert f"toolsearch: skipped: {path}:2: not valid JSON" in done.stderr


def test_hermes_store_with_tool_calls_of_the_wrong_type_skips_them_with_a_word(tmp_path):
    """A store whose 'tool_calls' column holds a number or a BLOB (a corrupt or foreign row) ended
    `toolsearch sessions` with "TypeError: 'int' object is not iterable"."""
    import sqlite3

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, model TEXT)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, "
                 "tool_calls TEXT)")
    conn.execute("INSERT INTO sessions VALUES ('s1', 'm')")
    good = json.dumps(tool_calls("c1", "tool_search", {"queries": ["read file"]}))
    conn.executemany("INSERT INTO messages (session_id, role, content, tool_calls) VALUES (?, ?, ?, ?)", [
        ("s1", "assistant", None, 12345), ("s1", "assistant", None, b"\xff\xfe\x00"),
        ("s1", "assistant", None, good)])
    conn.commit()
    conn.close()
    loaded = load_sessions([path])
    assert [str(p) for p in loaded.problems] == [
        f"{path}: session 's1': messages[0]: expected 'tool_calls' as a JSON list of calls, got a whole number; calls skipped",
        f"{path}: session 's1': messages[1]: expected 'tool_calls' as a JSON list of calls, got binary data; calls skipped"]
    assert [type(event).__name__ for event in loaded.sessions[0].events] == ["SearchEvent"]


def test_hermes_store_with_infinite_numbers_reads_them_as_unknown(tmp_path):
    """A recorded context length of 1e999 (JSON reads it as infinity) or an infinite token counter
    ended `toolsearch sessions` with "OverflowError: cannot convert float infinity to integer"."""
    import sqlite3

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, model_config TEXT, input_tokens INTEGER, "
                 "output_tokens INTEGER)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)")
    conn.execute("INSERT INTO sessions VALUES ('s1', '{\"context_length\": 1e999}', ?, 7)", (float("inf"),))
    conn.execute("INSERT INTO sessions VALUES ('s2', '{\"context_length\": NaN}', 3, 4)")
    conn.commit()
    conn.close()
    loaded = load_sessions([path])
    assert [(s.context_length, dict(s.counters)) for s in loaded.sessions] == [
        (None, {"output_tokens": 7}), (None, {"input_tokens": 3, "output_tokens": 4})]


def test_hermes_store_with_a_title_or_model_that_is_not_text_is_read(tmp_path):
    """A title stored as a BLOB ended `toolsearch sessions` with "TypeError: cannot use a string
    pattern on a bytes-like object" (SQLite keeps whatever type a row was given)."""
    import sqlite3

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, model TEXT, title TEXT)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)")
    conn.execute("INSERT INTO sessions VALUES ('s1', ?, ?)", (b"gpt\xff", b"ti\xfftle"))
    conn.execute("INSERT INTO sessions VALUES ('s2', 5, 77)")
    conn.commit()
    conn.close()
    loaded = load_sessions([path])
    assert [(s.model, s.title) for s in loaded.sessions] == [("gpt\ufffd", "ti\ufffdtle"), ("5", "77")]


def test_an_uploaded_store_that_is_not_readable_is_named_by_its_upload_name():
    """A corrupt store uploaded on the Sessions page was reported under the server's temporary
    copy ('/tmp/toolsearch-session-2f45b5a2.db: not a readable SQLite database'), not the file
    the user chose."""
    with pytest.raises(SessionSourceError) as info:
        load_sessions_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20, "corrupt.db")
    assert str(info.value) == "corrupt.db: not a readable SQLite database (file is not a database)"


def test_anthropic_content_block_that_is_not_an_object_is_reported():
    """A content block that is a number or null was dropped without a word (the rest of the
    message still read)."""
    text = json.dumps({"messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [None, 7, {"type": "tool_use", "id": "t1", "name": "get_weather",
                                                    "input": {"city": "Paris"}}]}]})
    loaded = load_sessions_text(text, "conv.json")
    assert [str(p) for p in loaded.problems] == [
        "conv.json: messages[1].content[0]: expected a content block object, got null; block skipped",
        "conv.json: messages[1].content[1]: expected a content block object, got a whole number; block skipped"]
    assert [e.name for e in loaded.sessions[0].events] == ["get_weather"]


def test_claude_code_entries_whose_message_or_counters_are_wrong_are_reported(tmp_path):
    """A user or assistant entry whose ``message`` is not an object was skipped without a word, and
    a negative token counter was added to the session's counters; both are now named with their
    place (the rest of the transcript is read), by the library and by ``toolsearch sessions``."""
    good = {"sessionId": "s1", "type": "assistant", "message": {
        "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 120, "output_tokens": -7},
        "content": [{"type": "tool_use", "id": "x1", "name": "get_weather", "input": {"city": "Paris"}}]}}
    lines = [good, {"sessionId": "s1", "type": "user", "message": "hello"},
             {"sessionId": "s1", "type": "summary", "summary": "no message here, and none expected"}]
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    loaded = load_sessions_text(text, "cc.jsonl", "claude-code")
    problems = [str(p) for p in loaded.problems]
    assert len(problems) == 2, problems
    assert problems[0].endswith(".message.usage.output_tokens: expected a count of tokens, got -7; not counted")
    assert problems[1].endswith("a user entry whose 'message' is not an object (got a string); entry skipped")
    session = loaded.sessions[0]
    assert session.counters == {"input_tokens": 120} and [e.name for e in session.events] == ["get_weather"]
    path = tmp_path / "cc.jsonl"
    path.write_text(text, encoding="utf-8")
    done = run_cli("sessions", path, "--format", "claude-code", "--catalog", ROOT / "sample_catalogs" / "team-workspace.yaml")
    assert "entry skipped" in done.stdout + done.stderr and "not counted" in done.stdout + done.stderr, done


def test_recorded_nan_and_infinity_are_kept_as_text_so_json_output_stays_valid():
    """Python writes NaN and Infinity into JSON unless told not to, so a recorded session can hold
    them; `sessions --json` printed them back as bare NaN, which no JSON reader takes."""
    line = {"sessionId": "s9", "type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "x1", "name": "get_weather", "input": {"city": "Paris", "days": 0}}]}}
    text = json.dumps(line).replace('"days": 0', '"days": NaN, "max": Infinity, "min": -1e999')
    loaded = load_sessions_text(text + "\n" + text + "\n", "cc.jsonl", "claude-code")
    events = [event_to_dict(e) for e in loaded.sessions[0].events]
    assert len(events) == 2 and events[0]["arguments"] == {
        "city": "Paris", "days": "NaN", "max": "Infinity", "min": "-1e999"}
    json.dumps(events, allow_nan=False)  # raises on a float NaN or infinity
    whole = load_sessions_text(text, "one.json", "claude-code")  # one line: read as a whole document
    assert event_to_dict(whole.sessions[0].events[0])["arguments"]["days"] == "NaN"


def test_a_content_block_whose_type_is_not_text_is_read():
    """A block with "type": {} ended format detection with "TypeError: unhashable type: 'dict'"."""
    text = json.dumps([{"messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": {}, "name": "x"},
                                          {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}}]}]}])
    loaded = load_sessions_text(text, "conv.json")
    assert loaded.sessions[0].format == "anthropic"
    assert [e.name for e in loaded.sessions[0].events] == ["get_weather"]


def _store_with_sessions(tmp_path: Path, sessions_sql: str) -> Path:
    """A SQLite store whose 'sessions' is made by ``sessions_sql``, beside an empty 'messages' table."""
    import sqlite3

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute(sessions_sql)
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)")
    conn.commit()
    conn.close()
    return path


def test_a_store_whose_tables_are_views_is_refused(tmp_path):
    """A store whose 'sessions' is a view can hold any query: a recursive one never ends, and
    `toolsearch sessions` (or the app's upload) ran for ever, deaf to Ctrl-C and SIGTERM while
    SQLite worked. A Hermes store has tables; anything else is refused before a row is read."""
    path = _store_with_sessions(tmp_path, "CREATE VIEW sessions AS SELECT 's1' AS id")
    with pytest.raises(SessionSourceError) as info:
        load_sessions([path])
    assert str(info.value) == (f"{path}: not a Hermes session store: 'sessions' is a view; expected tables "
                               "'sessions' and 'messages'")


def test_a_signal_stops_a_long_sqlite_statement_at_once(tmp_path, monkeypatch):
    """SQLite runs one statement (the sort of a large store, say) without returning to Python:
    Ctrl-C and SIGTERM used to wait until it ended. The reader's progress hook lets the signal's
    exception in; the statement ends "interrupted", raised again as the interrupt it was, from the
    reader (not after the statement ran to its end, in the statement's own frame)."""
    import signal
    import threading

    from toolsearch.analysis import session_formats

    def long_statement(conn, *args):  # stands in for a sort that takes minutes
        conn.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) "
                     "SELECT count(*) FROM c").fetchall()

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    path = _store_with_sessions(tmp_path, "CREATE TABLE sessions (id TEXT)")
    monkeypatch.setattr(session_formats, "_read_store", long_statement)
    try:
        previous = signal.signal(signal.SIGUSR1, on_signal)
    except ValueError:
        pytest.skip("signals can be handled only in the main thread")
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGUSR1))
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt) as info:
            load_sessions([path])
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)
    assert info.traceback[-1].name == "_read_db", [entry.name for entry in info.traceback]


def test_a_store_cell_over_the_size_limit_is_never_loaded_and_the_rest_is_read(tmp_path):
    """A hostile store can hold one message of a gigabyte (SQLite allows that): it was loaded
    whole into memory. A cell over the limit is now sized by SQLite and never reaches Python; the
    session's earlier messages and every other session are read, and the skip is reported."""
    import sqlite3

    from toolsearch.analysis.session_formats import MAX_SESSION_BYTES

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, "
                 "tool_calls TEXT)")
    conn.execute("INSERT INTO sessions VALUES ('s1', 'fine'), ('s2', 'fine too')")
    conn.execute("INSERT INTO sessions SELECT 's3', printf('%.*c', ?, 't')", (MAX_SESSION_BYTES + 1,))
    search = json.dumps(tool_calls("c1", "tool_search", {"queries": ["read file"]}))
    conn.executemany("INSERT INTO messages (session_id, role, content, tool_calls) VALUES (?, ?, ?, ?)", [
        ("s1", "user", "find a file reader", None), ("s1", "assistant", None, search)])
    conn.execute("INSERT INTO messages (session_id, role, content) SELECT 's1', 'tool', printf('%.*c', ?, 'x')",
                 (MAX_SESSION_BYTES + 1,))
    conn.executemany("INSERT INTO messages (session_id, role, content, tool_calls) VALUES (?, ?, ?, ?)", [
        ("s1", "assistant", None, search), ("s2", "assistant", None, search)])
    conn.commit()
    conn.close()
    loaded = load_sessions([path])
    assert [str(p) for p in loaded.problems] == [
        f"{path}: session 's3': its title is 67,108,865 bytes, over the 64 MiB limit; left out",
        f"{path}: session 's1': messages[2]: the session's messages pass 64 MiB here (limit); this message and "
        "the rest of the session skipped"]
    s1, s2, s3 = loaded.sessions
    assert [type(e).__name__ for e in s1.events] == ["SearchEvent"]  # the one before the huge message
    assert [type(e).__name__ for e in s2.events] == ["SearchEvent"]
    assert (s1.title, s3.title) == ("fine", None)


def test_the_text_report_says_what_each_session_cost(tmp_path):
    """The token and cache counters Hermes recorded per session are in the text report too (they
    were only in ``--json`` and on the page's Timeline), under the session's header line."""
    db = write_store(tmp_path, SPEC)
    done = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("session s-first "))
    assert lines[header + 1] == ("  input tokens: 1,200 · output tokens: 80 · cache read tokens: 900 · "
                                 "cache write tokens: 150")
    second = next(i for i, line in enumerate(lines) if line.startswith("session s-second "))
    assert "tokens" not in lines[second + 1]  # nothing recorded, nothing said


def test_the_text_report_writes_counts_with_thousands_separators(tmp_path):
    """A store of 1,000 sessions (Hermes' own writer): the head of the text report writes its counts
    as the tables under it and the page do ("1,000", not "1000")."""
    search = {"role": "assistant", "content": "", "tool_calls": tool_calls("a", "tool_search",
                                                                          {"queries": ["rotate kubernetes secret"]})}
    answer = {"role": "tool", "tool_call_id": "a", "tool_name": "tool_search",
              "content": search_response("rotate kubernetes secret", [])}
    spec = {"sessions": [{"id": f"s{n:04d}", "model": "openai/gpt-5-mini", "messages": [search, answer]}
                         for n in range(1000)]}
    db = write_store(tmp_path, spec)
    done = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("sessions: 1,000 (hermes-db); ")
    assert lines[1] == ("searches: 1,000 (one per query); recorded: 1,000 empty, 0 found a tool the session called "
                        "later (1,000 with a recorded result)")
    assert "flagged sessions: 0 of 1,000" in lines


def test_an_unreadable_model_config_is_named_and_the_session_still_read(tmp_path):
    """A Hermes store (Hermes' own writer) whose session row's model_config was damaged afterwards:
    the session is read, and the context length it lost is said with the session's place (it read
    as "context unknown" without a word)."""
    import sqlite3

    db = write_store(tmp_path, SPEC)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sessions SET model_config = '{\"context_length\": 16000' WHERE id = 's-first'")
    conn.close()
    loaded = load_sessions([db])
    assert [s.id for s in loaded.sessions] == ["s-first", "s-second"]
    assert loaded.sessions[0].context_length is None and len(loaded.sessions[0].events) == 5
    assert [str(p) for p in loaded.problems] == [
        f"{db}: session 's-first': its model_config is not a JSON object; context length not read "
        "(the rest of the session is)"]
    done = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference")
    assert done.returncode == 0
    assert f"toolsearch: skipped: {db}: session 's-first': its model_config is not a JSON object" in done.stderr


def test_a_session_read_twice_is_counted_once(tmp_path):
    """A Hermes store and Hermes' own export of it given together (the same sessions twice): each
    session counts once, and each repeat is named with both places; the same for recommend."""
    db = write_store(tmp_path, SPEC, export=True)
    export = tmp_path / "state.db.export.jsonl"
    done = run_cli("sessions", db, export, "--catalog", CATALOG, "--variant", "reference", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    alone = json.loads(run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--json").stdout)
    assert (data["sessions"], data["searches"], data["recorded"]) == (2, alone["searches"], alone["recorded"])
    assert data["called_listed"] == alone["called_listed"]
    assert done.stderr.splitlines() == [
        f"toolsearch: skipped: {export}:{n}: session {sid!r}: the same session id was read from {db}; counted once"
        for n, sid in ((2, "s-first"), (1, "s-second"))]  # Hermes exports newest first; read oldest first
    rec = run_cli("recommend", CATALOG, "--context-lengths", "16k", "--goal", "names", "--sessions", db, export)
    assert rec.returncode == 0, rec.stderr
    assert "sessions: 2 sessions read" in rec.stdout


def test_searches_that_found_the_wrong_tools_are_listed(tmp_path):
    """s-second searched "slack send message", got slack_send_message and then called
    slack_post_message: a search that found only tools the session did not call. It is listed in
    ``--json`` (``aggregates.top_missed``), in the text report and on the page's Failed searches
    tab; an empty search is a failed one, not a missed one."""
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables
    from toolsearch.live.guard import launch_token

    db = write_store(tmp_path, SPEC)
    done = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["aggregates"]["top_missed"] == [
        {"query": "slack send message", "count": 1, "sessions": 1, "called": ["mcp__slack__slack_post_message"],
         "replay_found_called": False}]
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference").stdout.splitlines()
    head = text.index("searches that found only tools the session did not call (it called other tools afterwards):")
    assert text[head + 3].split() == ["slack", "send", "message", "1", "mcp__slack__slack_post_message", "no"]

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(db)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    rows = literal_tables(at)["sessions_missed"].to_dict("records")
    assert [(r["query"], r["times"], r["called afterwards"], r["reference finds one now"]) for r in rows] == [
        ("slack send message", "1", "mcp__slack__slack_post_message", "no")]


def test_a_view_whose_name_differs_only_in_case_is_refused_too(tmp_path):
    """SQLite table names are case-insensitive: a view named "SESSIONS" is what "FROM sessions"
    reads, yet the check for views compared names case-sensitively and let it through. A
    recursive view then ran for ever (the sort of an endless query). It is refused like any view
    (a plain one here, so the test ends either way)."""
    path = _store_with_sessions(tmp_path, "CREATE VIEW SESSIONS AS SELECT 's1' AS id")
    with pytest.raises(SessionSourceError) as info:
        load_sessions([path])
    assert str(info.value) == (f"{path}: not a Hermes session store: 'SESSIONS' is a view; expected tables "
                               "'sessions' and 'messages'")


def _with_separators(line: str) -> str:
    """A JSON Lines line rewritten as ``json.dumps(..., ensure_ascii=False)`` writes it, with a
    pasted line separator (U+2028) and a NEL (U+0085) in every message text."""
    entry = json.loads(line)
    for message in entry.get("messages", []) + entry.get("conversations", []):
        for key in ("content", "value"):
            if isinstance(message.get(key), str):
                message[key] += " pasted\u2028text\u0085here"
    return json.dumps(entry, ensure_ascii=False)


@pytest.mark.parametrize("sample", ["hermes-export.jsonl", "trajectory.jsonl"])
def test_a_line_separator_inside_a_json_lines_string_does_not_break_the_line(tmp_path, sample):
    """JSON allows U+2028, U+2029 and U+0085 unescaped inside a string (Python's json.dumps with
    ensure_ascii=False writes them so), but the reader split JSON Lines with str.splitlines, which
    breaks at them too: every line holding one was cut in pieces and reported as bad JSON, and the
    file's sessions were lost. Lines end at \\n, \\r\\n or \\r only."""
    lines = [ln for ln in (SAMPLES / sample).read_text(encoding="utf-8").split("\n") if ln.strip()]
    path = tmp_path / sample
    path.write_text("\n".join(_with_separators(ln) for ln in lines) + "\n", encoding="utf-8")
    expected = load_sessions([SAMPLES / sample])
    loaded = load_sessions([path])
    assert loaded.problems == []
    assert [s.id.replace(str(path), "F") for s in loaded.sessions] == [
        s.id.replace(str(SAMPLES / sample), "F") for s in expected.sessions]
    assert [len(s.events) for s in loaded.sessions] == [len(s.events) for s in expected.sessions]


def test_one_json_lines_line_that_is_not_utf8_is_skipped_and_the_rest_is_read(tmp_path):
    """One bad byte in one line of a JSON Lines export refused the whole file (every session
    lost for one damaged line). The line is now reported with its place and skipped; a file and
    an upload read the same."""
    lines = (SAMPLES / "hermes-export.jsonl").read_bytes().split(b"\n")
    lines[3] = lines[3][:100] + b"\xe9" + lines[3][100:]
    data = b"\n".join(lines)
    path = tmp_path / "export.jsonl"
    path.write_bytes(data)
    expected = [s.id for s in load_sessions([SAMPLES / "hermes-export.jsonl"]).sessions]
    for loaded in (load_sessions([path]), load_sessions_bytes(data, str(path))):
        assert [str(p) for p in loaded.problems] == [
            f"{path}:4: column 101: not UTF-8 text (byte 0xe9); line skipped"]
        assert [s.id for s in loaded.sessions] == expected[:3] + expected[4:]


def test_a_session_file_whose_first_line_is_not_utf8_names_the_byte(tmp_path):
    """Bad bytes in the part of the file that tells its format gave "not a recognised session
    format", which sends the user looking at the wrong thing; the error names the bad byte."""
    data = (SAMPLES / "hermes-export.jsonl").read_bytes()
    start = data.index(b'"input_tokens": ') + len(b'"input_tokens": ')
    path = tmp_path / "export.jsonl"
    path.write_bytes(data[:start] + b"\xff" + data[start:])
    with pytest.raises(SessionSourceError) as info:
        load_sessions([path])
    assert str(info.value) == (f"{path}: line 1, column {start + 1} (byte {start}): not UTF-8 text (byte 0xff); "
                               "save the file as UTF-8")


def test_a_recorded_context_length_that_is_not_a_number_of_tokens_is_reported(tmp_path):
    """A session whose model_config said context_length -5, 0, "200k" or 1e30 was read with the
    context length unknown without a word (and 1e30 was taken as it is, far past any model): the
    listing what-if then asked about another length than the user thinks. Each is now reported
    with the session's place; the rest of the session is read."""
    import sqlite3

    values = {"a": -5, "b": 0, "c": "200k", "d": 10 ** 30, "e": 200_000}
    lines = [json.dumps({"id": sid, "source": "cli", "model_config": json.dumps({"context_length": value}),
                         "messages": [{"role": "user", "content": "hi"}]}) for sid, value in values.items()]
    loaded = load_sessions_text("\n".join(lines) + "\n", "export.jsonl", "hermes-export")
    assert [s.context_length for s in loaded.sessions] == [None, None, None, None, 200_000]
    assert [str(p) for p in loaded.problems] == [
        f"export.jsonl:{n}: its context_length {shown} is not a number of tokens from 1 to 10,000,000,000; "
        "context length not read (the rest of the session is)"
        for n, shown in ((1, "-5"), (2, "0"), (3, "'200k'"), (4, repr(10 ** 30)))]

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT, model_config TEXT)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)")
    conn.executemany("INSERT INTO sessions VALUES (?, ?)", [("s1", '{"context_window": -1}'),
                                                            ("s2", '{"context_window": 32000}')])
    conn.commit()
    conn.close()
    stored = load_sessions([path])
    assert [s.context_length for s in stored.sessions] == [None, 32000]
    assert [str(p) for p in stored.problems] == [
        f"{path}: session 's1': its context_window -1 is not a number of tokens from 1 to 10,000,000,000; "
        "context length not read (the rest of the session is)"]


def test_a_tool_call_entry_without_a_tool_name_is_reported_not_dropped():
    """A recorded tool_call whose entries name no tool ({"name": 5}, null, "text", calls that is
    not a list) was left out of the session without a word: its calls were never counted, and
    nothing said why. Each such entry is now a problem with the session and step; the named
    calls of the same envelope are still read."""
    calls = json.dumps({"calls": [{"name": 5}, None, "text", {"name": "mcp__github__create_issue", "arguments": {}}]})
    conversation = {"id": "c1", "messages": [
        {"role": "assistant", "tool_calls": [{"id": "a", "type": "function",
                                              "function": {"name": "tool_call", "arguments": calls}}]},
        {"role": "assistant", "tool_calls": [{"id": "b", "type": "function",
                                              "function": {"name": "tool_call", "arguments": '{"calls": 7}'}}]}]}
    loaded = load_sessions_bytes(json.dumps([conversation]).encode(), "conv.json", "openai")
    assert [e.name for e in loaded.sessions[0].events] == ["mcp__github__create_issue"]
    where = "conv.json[0]: session 'c1'"
    assert [str(p) for p in loaded.problems] == [
        f"{where}: step 1 (tool_call): calls[0]: expected an object with a tool 'name', got a whole number as the name; "
        "not counted as a call",
        f"{where}: step 1 (tool_call): calls[1]: expected an object with a tool 'name', got null; not counted as a call",
        f"{where}: step 1 (tool_call): calls[2]: expected an object with a tool 'name', got a string; "
        "not counted as a call",
        f"{where}: step 2 (tool_call): expected 'calls' to be a list of calls, got a whole number; not counted as a call"]


def test_an_uploaded_store_with_a_session_id_twice_names_the_upload_not_a_temporary_file(tmp_path):
    """An uploaded store is read through a private temporary copy. A session id given twice in it
    was reported as "the same session id was read from /tmp/toolsearch-session-….db": a file
    the user never saw. Every part of the problem names the upload."""
    import sqlite3

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)")
    conn.executemany("INSERT INTO sessions VALUES (?)", [("s1",), ("s1",)])
    conn.commit()
    conn.close()
    loaded = load_sessions_bytes(path.read_bytes(), "my-state.db")
    assert [str(p) for p in loaded.problems] == [
        "my-state.db: session 's1': the same session id was read from my-state.db; counted once"]


def test_a_write_ahead_log_given_for_its_store_is_named_as_such(tmp_path):
    """Picking state.db-wal instead of state.db (they sit side by side) gave "not a recognised
    session format" for a file, and "not UTF-8 text" for an upload: neither says that the store
    itself is the file to give."""
    import sqlite3

    store = tmp_path / "state.db"
    conn = sqlite3.connect(store)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE sessions (id TEXT)")
    conn.execute("INSERT INTO sessions VALUES ('s1')")
    conn.commit()
    wal = tmp_path / "copy.db-wal"
    wal.write_bytes((tmp_path / "state.db-wal").read_bytes())
    conn.close()
    with pytest.raises(SessionSourceError) as info:
        load_sessions([wal])
    assert str(info.value) == (f"{wal}: a SQLite write-ahead log (the -wal file beside a store), not a session store; "
                               "give the store itself (state.db): its -wal file is read with it")
    with pytest.raises(SessionSourceError) as info:
        load_sessions_bytes(wal.read_bytes(), "state.db-wal")
    assert str(info.value) == ("state.db-wal: a SQLite write-ahead log (the -wal file beside a store), not a session "
                               "store; upload the store itself (state.db)")


def test_exported_queries_are_a_file_eval_reads_even_with_a_long_recorded_query(tmp_path):
    """`sessions --export-queries` promises a `toolsearch eval` query file, but copied a recorded
    query of any length into it: one query over eval's 2,000 characters made eval refuse the whole
    file. Such a query is left out of the export, with a warning naming the session and step."""
    def conversation(cid: str, query: str) -> dict:
        return {"id": cid, "messages": [
            {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {
                "name": "tool_search", "arguments": json.dumps({"queries": [query]})}}]},
            {"role": "assistant", "tool_calls": [{"id": "b", "type": "function", "function": {
                "name": "tool_call", "arguments": json.dumps({"calls": [
                    {"name": "mcp__slack__slack_post_message", "arguments": {}}]})}}]}]}

    sessions = tmp_path / "conv.json"
    sessions.write_text(json.dumps([conversation("c1", "slack post message"), conversation("c2", "send " * 600)]),
                        encoding="utf-8")
    out = tmp_path / "labeled.yaml"
    result = run_cli("sessions", sessions, "--catalog", CATALOG, "--export-queries", out)
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {out}: session 'c2', search at step 1: a query over 2,000 characters left out "
            "(toolsearch eval reads shorter ones)") in result.stderr.splitlines()
    assert [t.id for t in load_queries(out).tasks] == ["c1-1"]
    assert run_cli("eval", CATALOG, out, "--variant", "reference").returncode == 0


def test_a_store_session_id_kept_as_a_blob_reads_as_text(tmp_path):
    """SQLite keeps whatever type a row was given: a session id stored as a BLOB was shown as
    Python's b'blobid' in every report and problem. It reads as its text, and its messages still
    belong to it."""
    import sqlite3

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id, model TEXT)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT, content TEXT)")
    conn.execute("INSERT INTO sessions VALUES (?, 'm')", (b"blobid",))
    conn.execute("INSERT INTO messages (session_id, role, content) VALUES (?, 'user', 'hi')", (b"blobid",))
    conn.commit()
    conn.close()
    loaded = load_sessions([path])
    assert [(s.id, s.messages) for s in loaded.sessions] == [("blobid", 1)]
    assert loaded.problems == []


def test_a_store_read_with_a_text_format_says_it_is_a_store():
    """`--format openai` (or any text format) for a state.db said "not UTF-8 text ...; save the
    file as UTF-8", which no one can act on for a SQLite file. It says what the file is and how
    to read it."""
    store = SAMPLES / "state.db"
    with pytest.raises(SessionSourceError) as info:
        load_sessions([store], "openai")
    assert str(info.value) == (f"{store}: a SQLite session store, not a file in the openai format; read it as "
                               "hermes-db (leave out --format, or give --format hermes-db)")


def test_a_store_with_more_sessions_than_the_limit_reads_the_newest_and_says_so(tmp_path, monkeypatch):
    """Every session of a store was read and held at once: 200,000 sessions took 2.6 GB. Past
    MAX_STORE_SESSIONS the newest are read, in the usual order, with the messages and compactions of
    those only; a problem says how many older ones were not read and from when; a message of no
    session is still reported."""
    import sqlite3

    from toolsearch.analysis import session_formats

    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, "
                 "tool_calls TEXT, active INTEGER DEFAULT 1, compacted INTEGER DEFAULT 0)")
    day = 86_400.0
    conn.executemany("INSERT INTO sessions VALUES (?, ?)", [(f"s{k:02d}", 1_767_225_600 + k * day) for k in range(12)])
    for k in range(12):
        search = json.dumps(tool_calls(f"c{k}", "tool_search", {"queries": [f"query {k}"]}))
        conn.executemany("INSERT INTO messages (session_id, role, content, tool_calls, active, compacted) "
                         "VALUES (?, ?, ?, ?, ?, ?)", [
                             (f"s{k:02d}", "assistant", None, search, 0, 1),
                             (f"s{k:02d}", "user", "look it up", None, 1, 0),
                             (f"s{k:02d}", "assistant", None, search, 1, 0)])
    conn.execute("INSERT INTO messages (session_id, role, content) VALUES ('gone', 'user', 'hello')")
    conn.commit()
    conn.close()
    monkeypatch.setattr(session_formats, "MAX_STORE_SESSIONS", 5, raising=False)
    loaded = load_sessions([path])
    assert [s.id for s in loaded.sessions] == ["s07", "s08", "s09", "s10", "s11"]
    assert all([e.kind for e in s.events] == ["compaction", "search"] for s in loaded.sessions)
    assert [q.query for q in loaded.sessions[0].events[1].queries] == ["query 7"]
    assert [(p.where, p.message) for p in loaded.problems] == [
        (str(path), "12 sessions, over the limit of 5 per store: the newest 5 read, the 7 older ones "
                    "(started before 2026-01-08 00:00 UTC) not read"),
        (f"{path}: messages of session 'gone'", "no such row in 'sessions'; messages skipped")]


def test_exported_task_ids_stay_unique_when_session_ids_clean_up_alike(tmp_path):
    """Task ids are the session id and step with other characters turned into dashes, and a
    repeat took ``-2``: sessions ``a b`` and ``a/b`` (both ``a-b-1``) then made ``a-b-1-2``, the
    same id as session ``a-b-1``'s search at step 2, so eval refused the exported file. Every
    exported id is unique and the file is one eval reads."""
    def conversation(cid: str, opening: list[dict]) -> dict:
        return {"id": cid, "messages": opening + [
            {"role": "assistant", "tool_calls": [{"id": "s", "type": "function", "function": {
                "name": "tool_search", "arguments": json.dumps({"queries": [f"slack post message {cid}"]})}}]},
            {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {
                "name": "tool_call", "arguments": json.dumps({"calls": [
                    {"name": "mcp__slack__slack_post_message", "arguments": {}}]})}}]}]}

    sessions = tmp_path / "conv.json"
    sessions.write_text(json.dumps([conversation("a b", []), conversation("a/b", []),
                                    conversation("a-b-1", [{"role": "assistant", "tool_calls": [
                                        {"id": "d", "type": "function", "function": {
                                            "name": "tool_describe", "arguments": json.dumps(
                                                {"name": "mcp__slack__slack_post_message"})}}]}])]),
                        encoding="utf-8")
    out = tmp_path / "labeled.yaml"
    result = run_cli("sessions", sessions, "--catalog", CATALOG, "--export-queries", out)
    assert result.returncode == 0, result.stderr
    ids = [t.id for t in load_queries(out).tasks]
    assert len(ids) == 3 and len(set(ids)) == 3, ids
    assert run_cli("eval", CATALOG, out, "--variant", "reference").returncode == 0


def test_one_bad_message_skips_only_itself_in_every_format(tmp_path):
    """A message that is not an object, a 'tool_calls' that is not JSON, a call or a tool_use block
    without a name, a trajectory turn without a value: each made the whole session vanish ("message
    skipped …; session skipped") from an export, a chat file or a trajectory, while the same
    session read from a Hermes store kept its other messages. Now the part is skipped with its
    place and the session's good search is kept, in every format."""
    search = tool_calls("g1", "tool_search", {"queries": ["create a github issue"]})
    good = [{"role": "user", "content": "open an issue"}, {"role": "assistant", "content": "", "tool_calls": search},
            {"role": "tool", "tool_call_id": "g1", "content": search_response("create a github issue", [])}]
    export = tmp_path / "export.jsonl"
    export.write_text(json.dumps({"id": "e1", "source": "cli", "model": "m", "messages": [
        7, {"role": "assistant", "tool_calls": "[not json"}, {"role": "assistant", "tool_calls": [{"id": "x"}]},
        *good]}) + "\n", encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([None, *good]), encoding="utf-8")
    anthropic = tmp_path / "anthropic.json"
    anthropic.write_text(json.dumps({"messages": [
        "hi", {"role": "assistant", "content": [{"type": "tool_use", "id": "n"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "tool_search",
                                           "input": {"queries": ["create a github issue"]}}]}]}), encoding="utf-8")
    trajectory = tmp_path / "trajectory.jsonl"
    trajectory.write_text(json.dumps({"conversations": [
        {"from": "human"},
        {"from": "gpt", "value": "<tool_call>\n{\"name\": \n</tool_call><tool_call>\n{\"name\": \"tool_search\", "
                                 "\"arguments\": {\"queries\": [\"create a github issue\"]}}\n</tool_call>"},
        {"from": "tool", "value": "<tool_response>\n{\"content\": \"cut\"}\n</tool_response><tool_response>\n"
                                  + json.dumps({"name": "tool_search", "content": json.loads(
                                      search_response("create a github issue", []))}) + "\n</tool_response>"}]})
                          + "\n", encoding="utf-8")
    expected = {
        export: [f"{export}: messages[0]: expected an object with a 'role'; message skipped",
                 f"{export}: messages[1]: 'tool_calls' is not valid JSON; calls skipped",
                 f"{export}: messages[2].tool_calls[0]: expected {{id, function: {{name, arguments}}}}; call skipped"],
        chat: [f"{chat}: messages[0]: expected an object with a 'role'; message skipped"],
        anthropic: [f"{anthropic}: messages[0]: expected {{role, content}}; message skipped",
                    f"{anthropic}: messages[1].content[0]: a tool_use block without a 'name'; block skipped"],
        trajectory: [f"{trajectory}: conversations[0]: expected {{from, value}}; turn skipped",
                     f"{trajectory}: conversations[1]: <tool_call> 1 is not valid JSON; call skipped"],
    }
    for path, problems in expected.items():
        loaded = load_sessions([path])
        assert [str(p) for p in loaded.problems] == problems, path
        (session,) = loaded.sessions
        searches = [event_to_dict(e) for e in session.events if event_to_dict(e)["kind"] == "search"]
        assert [q["query"] for e in searches for q in e["queries"]] == ["create a github issue"], path
        if path != anthropic:  # the recorded result still pairs with its call
            assert searches[0]["queries"][0]["matches"] == [], path
    done = run_cli("sessions", export, "--catalog", ROOT / "sample_catalogs" / "github-full.yaml")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "session skipped" not in done.stderr and "sessions: 1 (hermes-export)" in done.stdout, done


def _continuations_walked_from_each_part(parent_of: dict[str, str], ids: set[str]) -> dict[str, str]:
    """The root of each compression part as the reader found it before: walked from every part."""
    out = {}
    for child in parent_of:
        root, seen = parent_of[child], {child}
        while root in parent_of and root not in seen:
            seen.add(root)
            root = parent_of[root]
        if child in ids and root in ids and root != child:
            out[child] = root
    return out


def test_compression_chains_join_as_before_and_a_long_chain_reads_at_once(tmp_path):
    """A store whose sessions continue each other after compression is read as one session per
    chain. Each part walked the chain to its root, so a chain of 30,000 parts (a hostile store of
    a few MB) took a minute; each part is walked once now, with the same roots, cycles included."""
    import random  # noqa: PLC0415
    import sqlite3  # noqa: PLC0415
    import time  # noqa: PLC0415

    from toolsearch.analysis.session_formats import _compression_continuations  # noqa: PLC0415

    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 12)
        parents = {f"s{i}": (f"s{rng.randrange(n + 2)}" if rng.random() < 0.8 else None) for i in range(n)}
        conn = sqlite3.connect(":memory:")
        conn.execute("CREATE TABLE sessions (id TEXT, parent_session_id TEXT, end_reason TEXT)")
        conn.executemany("INSERT INTO sessions VALUES (?, ?, 'compression')", list(parents.items()))
        ids = set(parents) - {f"s{rng.randrange(n)}"}  # one row not read (past the store limit, say)
        parent_of = {c: p for c, p in parents.items() if p in parents}
        assert _compression_continuations(conn, {"parent_session_id", "end_reason"}, dict.fromkeys(ids)) == \
            _continuations_walked_from_each_part(parent_of, ids), parents
    db = tmp_path / "chain.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, model TEXT, started_at REAL, "
                 "parent_session_id TEXT, end_reason TEXT)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, "
                 "tool_calls TEXT)")
    parts = 30_000
    conn.executemany("INSERT INTO sessions VALUES (?, 'm', ?, ?, 'compression')",
                     [(f"p{i}", i, f"p{i - 1}" if i else None) for i in range(parts)])
    conn.executemany("INSERT INTO messages (session_id, role, content) VALUES (?, 'user', 'hi')",
                     [(f"p{i}",) for i in range(parts)])
    conn.commit()
    conn.close()
    started = time.process_time()
    loaded = load_sessions([db])
    took = time.process_time() - started
    (session,) = loaded.sessions
    assert session.id == "p0" and session.messages == parts
    assert took < 20, f"{took:.1f} s of CPU for one chain of {parts:,} parts"  # 55 s when walked from each part


def test_a_flood_of_bad_lines_is_named_a_hundred_times_and_counted(tmp_path):
    """A session file of a million lines that are not JSON (or not sessions) printed a million
    lines, held a gigabyte and took over a minute; a store or an upload the same. The first 100
    problems of a file are named, one more line counts the rest, and the good session is read.
    (30,000 bad lines here, three hundred times the cap: the same lines as a million would give.)"""
    from toolsearch.analysis.session_formats import MAX_NAMED_PROBLEMS  # noqa: PLC0415

    good = (ROOT / "sample_sessions" / "hermes-export.jsonl").read_text(encoding="utf-8").splitlines()[0]
    FLOOD = 30_000  # noqa: N806
    for name, junk, skipped in (("text.jsonl", "x", "not valid JSON (Expecting value); line skipped"),
                                ("numbers.jsonl", "42", "expected a session object with a 'messages' list; "
                                                        "session skipped")):
        path = tmp_path / name
        path.write_text(good + "\n" + f"{junk}\n" * FLOOD, encoding="utf-8")
        more = (f"{path}: {FLOOD - MAX_NAMED_PROBLEMS:,} more parts skipped (lines, sessions, messages or calls "
                f"that cannot be read); only the first {MAX_NAMED_PROBLEMS} are named")
        other = tmp_path / "other.jsonl"  # another file's problems are named apart
        other.write_text(json.dumps(dict(json.loads(good), id="other")) + "\n" + "x\n" * 150, encoding="utf-8")
        loaded = load_sessions([path, other])
        assert [str(p) for p in loaded.problems] == [
            *(f"{path}:{n}: {skipped}" for n in range(2, MAX_NAMED_PROBLEMS + 2)), more,
            *(f"{other}:{n}: not valid JSON (Expecting value); line skipped" for n in range(2, MAX_NAMED_PROBLEMS + 2)),
            f"{other}: 50 more parts skipped (lines, sessions, messages or calls that cannot be read); only the "
            f"first {MAX_NAMED_PROBLEMS} are named"]
        assert len(loaded.sessions) == 2
        upload = load_sessions_bytes(path.read_bytes(), name)
        assert [str(p) for p in upload.problems][-1] == more.replace(str(path), name)
        assert len(upload.problems) == MAX_NAMED_PROBLEMS + 1 and len(upload.sessions) == 1
    done = run_cli("sessions", tmp_path / "text.jsonl", "--catalog", ROOT / "sample_catalogs" / "github-full.yaml")
    assert done.returncode == 0 and len(done.stderr.splitlines()) == MAX_NAMED_PROBLEMS + 1, done.stderr[-500:]
    sessions_doc = " ".join((ROOT / "docs" / "sessions.md").read_text(encoding="utf-8").split())
    assert f"The first {MAX_NAMED_PROBLEMS} such problems of one file are named" in sessions_doc


def test_problems_found_after_reading_are_capped_per_file_too(tmp_path):
    """Problems found while analysing sessions (a tool_call that names no tool, a session id read
    twice) were not capped: a file of 300 conversations, each with such a call, gave 300 lines,
    and giving it twice 300 more. Each file's are named a hundred times and counted after."""
    from toolsearch.analysis.session_formats import MAX_NAMED_PROBLEMS  # noqa: PLC0415

    def conversation(i: int) -> dict:
        return {"id": f"c{i}", "messages": [{"role": "assistant", "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "tool_call", "arguments": '{"calls": 7}'}}]}]}

    path = tmp_path / "many.json"
    path.write_text(json.dumps([conversation(i) for i in range(300)]), encoding="utf-8")
    more = (f"{path}: {300 - MAX_NAMED_PROBLEMS:,} more parts skipped (lines, sessions, messages or calls that "
            f"cannot be read); only the first {MAX_NAMED_PROBLEMS} are named")
    once = [str(p) for p in load_sessions([path], "openai").problems]
    assert once[:2] == [f"{path}[{i}]: session 'c{i}': step 1 (tool_call): expected 'calls' to be a list of calls, "
                        "got a whole number; not counted as a call" for i in range(2)]
    assert len(once) == MAX_NAMED_PROBLEMS + 1 and once[-1] == more
    twice = load_sessions([path, path], "openai")
    assert len(twice.sessions) == 300
    shown = [str(p) for p in twice.problems]  # the file's 600 calls, then its 300 repeated sessions
    assert len(shown) == 2 * (MAX_NAMED_PROBLEMS + 1), shown[-1]
    assert shown[MAX_NAMED_PROBLEMS] == more.replace(f"{300 - MAX_NAMED_PROBLEMS:,} more", "500 more")
    assert shown[MAX_NAMED_PROBLEMS + 1] == (f"{path}[0]: session 'c0': the same session id was read from "
                                             f"{path}[0]; counted once")
    assert shown[-1] == more
    upload = load_sessions_bytes(path.read_bytes(), "many.json", "openai")
    assert [str(p) for p in upload.problems][-1] == more.replace(str(path), "many.json")
    assert len(upload.problems) == MAX_NAMED_PROBLEMS + 1


def test_a_store_row_with_no_session_id_is_skipped_with_a_word(tmp_path):
    """A 'sessions' row whose id is NULL was read as a session named 'None', and the messages
    whose session_id is NULL joined it as its messages: NULL matched NULL. Both are skipped and
    counted; the other sessions are read."""
    import sqlite3  # noqa: PLC0415

    db = tmp_path / "state.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE sessions (id TEXT, model TEXT, started_at REAL)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, "
                 "tool_calls TEXT)")
    conn.executemany("INSERT INTO sessions VALUES (?, 'm', ?)", [("s1", 1), (None, 2), (None, 3)])
    calls = json.dumps(tool_calls("a", "tool_search", {"queries": ["create a github issue"]}))
    conn.executemany("INSERT INTO messages (session_id, role, content, tool_calls) VALUES (?, ?, ?, ?)",
                     [("s1", "user", "hi", None), (None, "assistant", "", calls), (None, "user", "x", None)])
    conn.commit()
    conn.close()
    loaded = load_sessions([db])
    assert [s.id for s in loaded.sessions] == ["s1"]
    assert [str(p) for p in loaded.problems] == [f"{db}: 2 rows of 'sessions' with no id; skipped",
                                                 f"{db}: 2 messages with no session_id; skipped"]


def test_claude_code_token_counters_that_are_not_counts_are_reported():
    """A counter written as text ('x'), a fraction, a huge float or true was left out of the
    session's counters without a word (only a negative count was named). Each is named with its
    place; a whole number written as a float (910.0) is the count."""
    usage = {"input_tokens": "x", "output_tokens": 1e308, "cache_read_input_tokens": 12.5,
             "cache_creation_input_tokens": True}
    lines = [{"sessionId": "s1", "type": "assistant", "timestamp": "2026-11-30T09:15:00.000Z",
              "message": {"role": "assistant", "usage": usage, "content": []}},
             {"sessionId": "s1", "type": "assistant", "timestamp": "2026-11-30T09:15:01.000Z",
              "message": {"role": "assistant", "content": [], "usage": {"input_tokens": 910.0}}}]
    loaded = load_sessions_text("\n".join(json.dumps(line) for line in lines) + "\n", "cc.jsonl", "claude-code")
    assert [str(p) for p in loaded.problems] == [
        "cc.jsonl:1.message.usage.input_tokens: expected a count of tokens, got 'x'; not counted",
        "cc.jsonl:1.message.usage.output_tokens: expected a count of tokens, got the number 1e+308; not counted",
        "cc.jsonl:1.message.usage.cache_read_input_tokens: expected a count of tokens, got the number 12.5; not counted",
        "cc.jsonl:1.message.usage.cache_creation_input_tokens: expected a count of tokens, got true; not counted"]
    assert loaded.sessions[0].counters == {"input_tokens": 910}


def test_export_and_store_token_counters_that_are_not_counts_are_reported(tmp_path):
    """In a Hermes export or store, a negative counter was shown as the session's count
    ('input tokens: -5') and one written as text or past a float ('lots', 1e400) was left out
    without a word. Each is named with its session and not counted, as in a transcript."""
    import sqlite3  # noqa: PLC0415

    line = json.dumps({"id": "e1", "source": "cli", "messages": [{"role": "user", "content": "hi"}],
                       "input_tokens": -5, "output_tokens": "lots", "cache_read_tokens": 40.0})
    export = tmp_path / "export.jsonl"
    export.write_text(line.replace('"lots"', '"lots", "cache_write_tokens": 1e400') + "\n", encoding="utf-8")
    loaded = load_sessions([export])
    assert [str(p) for p in loaded.problems] == [
        f"{export}: session 'e1': input_tokens: expected a count of tokens, got -5; not counted",
        f"{export}: session 'e1': output_tokens: expected a count of tokens, got 'lots'; not counted",
        f"{export}: session 'e1': cache_write_tokens: expected a count of tokens, got '1e400'; not counted"]
    assert loaded.sessions[0].counters == {"cache_read_tokens": 40}
    db = tmp_path / "state.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE sessions (id TEXT, input_tokens, output_tokens)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)")
    conn.execute("INSERT INTO sessions VALUES ('s1', -5, 'many')")
    conn.execute("INSERT INTO messages (session_id, role, content) VALUES ('s1', 'user', 'hi')")
    conn.commit()
    conn.close()
    loaded = load_sessions([db])
    assert [str(p) for p in loaded.problems] == [
        f"{db}: session 's1': input_tokens: expected a count of tokens, got -5; not counted",
        f"{db}: session 's1': output_tokens: expected a count of tokens, got 'many'; not counted"]
    assert loaded.sessions[0].counters == {}


def test_a_claude_code_session_id_that_is_not_text_is_reported():
    """A transcript entry whose sessionId was a list or an object made a session named by Python's
    spelling of it ("['a']"). The entry is skipped with its place; the others are read."""
    entry = {"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "x1", "name": "get_weather", "input": {"city": "Paris"}}]}}
    lines = [dict(entry, sessionId=sid, timestamp=f"2026-11-30T09:15:0{i}.000Z")
             for i, sid in enumerate(["s1", ["a"], {"x": 1}, True, 7])]
    loaded = load_sessions_text("\n".join(json.dumps(line) for line in lines) + "\n", "cc.jsonl", "claude-code")
    assert [str(p) for p in loaded.problems] == [
        "cc.jsonl:2: expected the sessionId as text, got a list; line skipped",
        "cc.jsonl:3: expected the sessionId as text, got an object; line skipped",
        "cc.jsonl:4: expected the sessionId as text, got true; line skipped"]
    assert [s.id for s in loaded.sessions] == ["s1", "7"]


def test_export_queries_refuses_to_write_over_a_file_the_command_reads(tmp_path):
    """``--export-queries`` naming a session file, the catalog or the config is refused (exit 2,
    one line, the file untouched): ``--export-queries state.db`` replaced the Hermes session store
    itself with the labeled queries' YAML."""
    from tests.conftest import write_yaml

    root = Path(__file__).resolve().parent.parent
    store = tmp_path / "state.db"
    store.write_bytes((root / "sample_sessions" / "state.db").read_bytes())
    catalog = tmp_path / "catalog.yaml"
    catalog.write_bytes((root / "sample_catalogs" / "team-workspace.yaml").read_bytes())
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {"threshold_pct": 5}}})
    for target, what in ((store, "a session file"), (catalog, "the catalog"), (config, "--config")):
        before = target.read_bytes()
        done = run_cli("sessions", store, "--catalog", catalog, "--config", config, "--export-queries", target)
        assert (done.returncode, done.stdout) == (2, "") and target.read_bytes() == before, done.stderr
        assert done.stderr == (f"toolsearch: error: {target}: --export-queries: that file is an input of this "
                               f"command ({what}); write the queries to another file (e.g. --export-queries "
                               "queries.yaml)\n")
    out = tmp_path / "queries.yaml"
    out.write_text("old", encoding="utf-8")
    assert run_cli("sessions", store, "--catalog", catalog, "--export-queries", out).returncode == 0
    assert out.read_text(encoding="utf-8").startswith("# Labeled search tasks")


def test_every_sample_file_matches_the_default_catalog():
    """The shipped sample sessions were recorded on the app's default catalog (team-workspace): a
    first-time user sees no catalog drift, on the command line or on the Sessions page."""
    files = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".db", ".json", ".jsonl"))
    assert len(files) == 6
    for path in files:
        done = run_cli("sessions", path, "--catalog", CATALOG, "--json")
        assert done.returncode == 0, done.stderr
        assert "catalog drift" not in done.stderr, (path.name, done.stderr)
        data = json.loads(done.stdout)
        assert data["catalog_drift"]["drifted"] is False, (path.name, data["catalog_drift"])
        assert data["problems"] == [], (path.name, data["problems"])
        text = run_cli("sessions", path, "--catalog", CATALOG).stdout
        assert "catalog drift" not in text, path.name


def test_a_file_named_like_a_store_that_is_not_one_is_told_it_lacks_the_sqlite_header(tmp_path):
    """Random bytes named state.db were told to be saved as UTF-8: the user meant a SQLite store.
    The error says it is neither text nor a store; a .jsonl file keeps the UTF-8 advice."""
    junk = bytes(range(128, 256)) * 40
    for name in ("state.db", "copy.sqlite3"):
        (tmp_path / name).write_bytes(junk)
        done = run_cli("sessions", tmp_path / name, "--catalog", CATALOG)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip().endswith(
            "not UTF-8 text (byte 0x80); not a SQLite session store either (it does not start with SQLite's header): "
            "give a Hermes state.db, or a session export saved as UTF-8"), done.stderr
    (tmp_path / "export.jsonl").write_bytes(junk)
    with pytest.raises(SessionSourceError, match="not UTF-8 text .byte 0x80.; save the file as UTF-8$"):
        load_sessions([tmp_path / "export.jsonl"])
