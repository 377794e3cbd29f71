"""Hermes session stores at the edges of what the reader knows: a store written by Hermes' own
``hermes_state.SessionDB`` (``$TOOLSEARCH_HERMES_PYTHON``, see tests/test_sessions.py), then
changed the way a newer or a foreign writer would leave it."""

from __future__ import annotations

import json
import sqlite3

from tests.conftest import run_cli
from tests.test_sessions import CATALOG, ROOT, tool_calls, write_store
from toolsearch.analysis.session_formats import HERMES_SCHEMA_VERSION_KNOWN
from toolsearch.analysis.sessions import event_to_dict, load_sessions

SPEC = {"sessions": [{"id": "s1", "model": "m", "messages": [
    {"role": "user", "content": "Tell #release 2.4 is out"},
    {"role": "assistant", "content": "", "tool_calls": tool_calls("c1", "tool_search", {"queries": ["slack send message"]})},
    {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_search", "content": "{\"results\": []}"}]}]}


def _set_version(db, *values) -> None:
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM schema_version")
    conn.executemany("INSERT INTO schema_version (version) VALUES (?)", [(v,) for v in values])
    conn.commit()
    conn.close()


def test_a_store_of_a_newer_schema_is_read_and_said_so(tmp_path):
    db = write_store(tmp_path, SPEC)
    (version,), = sqlite3.connect(db).execute("SELECT version FROM schema_version").fetchall()
    assert version == HERMES_SCHEMA_VERSION_KNOWN  # the real writer's own version is known: no word
    docs = (ROOT / "docs" / "sessions.md").read_text(encoding="utf-8")
    assert f"({HERMES_SCHEMA_VERSION_KNOWN}, what `hermes-agent` 0.19.0 writes)" in " ".join(docs.split())
    assert load_sessions([db]).problems == []
    _set_version(db, 999)
    loaded = load_sessions([db])
    assert [s.id for s in loaded.sessions] == ["s1"]
    assert [str(p) for p in loaded.problems] == [
        f"{db}: table 'schema_version': version 999, newer than the Hermes store schema this reader knows (up to "
        f"{HERMES_SCHEMA_VERSION_KNOWN}); read by the columns it knows, so what a newer Hermes records elsewhere is not read"]
    done = run_cli("sessions", str(db), "--catalog", str(CATALOG), "--variant", "reference")
    assert done.returncode == 0
    assert f"toolsearch: skipped: {db}: table 'schema_version': version 999, newer" in done.stderr
    assert done.stdout.startswith("sessions: 1 (hermes-db)")


def test_a_schema_version_that_is_no_number_is_named_literally(tmp_path):
    db = write_store(tmp_path, SPEC)
    tail = f"; the store is read by the columns of the schema this reader knows (up to {HERMES_SCHEMA_VERSION_KNOWN})"
    for values, got in [(("23\u202e",), "'23⟨U+202E⟩'"), ((), "no row"),
                        ((22, 23), "more than one row"), ((2.5,), "the number 2.5")]:
        _set_version(db, *values)
        loaded = load_sessions([db])
        assert [s.id for s in loaded.sessions] == ["s1"]
        assert [str(p) for p in loaded.problems] == [
            f"{db}: table 'schema_version': expected one version number, got {got}{tail}"], values


def test_a_symbolic_link_that_loops_or_leads_nowhere_is_named_as_such(tmp_path):
    """A link that loops was answered "no such session file" (``Path.exists`` says False for it),
    which sends the user looking for a typo in a path that is there."""
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    (tmp_path / "state.db").symlink_to("state.db")
    (tmp_path / "gone.db").symlink_to(tmp_path / "moved" / "state.db")
    loops = "a symbolic link that loops (it leads back to itself, directly or through other links); expected a session file"
    for path, message in [(tmp_path / "a", loops), (tmp_path / "state.db", loops), (tmp_path / "a" / "state.db", loops),
                          (tmp_path / "gone.db", f"a symbolic link to '{tmp_path / 'moved' / 'state.db'}', which does "
                                                 "not exist; expected a session file"),
                          (tmp_path / "missing.db", "no such session file")]:
        for command in (["sessions", str(path), "--catalog", str(CATALOG)],
                        ["recommend", str(CATALOG), "--context-lengths", "32k", "--goal", "names", "--sessions", str(path)]):
            done = run_cli(*command)
            assert (done.returncode, done.stderr.strip()) == (2, f"toolsearch: error: {path}: {message}"), command


def test_long_texts_of_a_store_are_not_held_in_memory(tmp_path):
    """Every session of a store is held in memory until it is replayed, and with it every tool
    result a session recorded: terminal output and file reads, often megabytes each, so reading a
    store took as much memory as its text (a 50 MB message pasted by the user: 570 MB). What the
    user and the model wrote is not read at all now, and a long tool result is kept only in the
    parts that say what the session searched, found and whether a call failed."""
    import tracemalloc

    from toolsearch.analysis.session_formats import RESULT_KEPT_CHARS, ToolResult, read_sessions

    log = "build step ok\n" * (2 * 1024 * 1024 // 14)  # 2 MiB of terminal output
    schemas = {f"mcp__github__tool_{i}": {"description": "d" * 2000, "parameters": {}} for i in range(100)}
    found = {"queries": ["create issue"], "results": [{"query": "create issue", "matches": ["mcp__github__create_issue"]}],
             "tools": schemas}
    failed = {"success": False, "output": "x" * 100_000}
    spec = {"sessions": [{"id": "s1", "model": "m", "messages": [
        {"role": "user", "content": "see this log:\n" + "y" * (12 * 1024 * 1024)},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("c1", "terminal", {"command": "make"})},
        {"role": "tool", "tool_call_id": "c1", "tool_name": "terminal", "content": log},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("c2", "terminal", {"command": "cat out.json"})},
        {"role": "tool", "tool_call_id": "c2", "tool_name": "terminal", "content": json.dumps({"output": log, "exit_code": 0})},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("c3", "tool_search", {"queries": ["create issue"]})},
        {"role": "tool", "tool_call_id": "c3", "tool_name": "tool_search", "content": json.dumps(found)},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("c4", "tool_call", {
            "name": "mcp__github__create_issue", "arguments": {"title": "t"}})},
        {"role": "tool", "tool_call_id": "c4", "tool_name": "tool_call", "content": json.dumps(failed)},
        {"role": "assistant", "content": "Done."}]}]}
    db = write_store(tmp_path, spec)
    tracemalloc.start()
    try:
        read = read_sessions([db])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes held while reading"
    security = " ".join((ROOT / "docs" / "security.md").read_text(encoding="utf-8").split())
    assert f"a tool result over {RESULT_KEPT_CHARS:,} characters is kept only in the parts" in security
    contents = [step.content for step in read.sessions[0].steps if isinstance(step, ToolResult)]
    assert contents[:3] == ["", {}, {"results": found["results"]}]
    assert contents[3] == failed  # a failure is kept whole: its text is the error shown
    assert all(len(json.dumps(c)) <= RESULT_KEPT_CHARS or c == failed for c in contents)
    # what the sessions say is what the whole texts said
    events = [event_to_dict(e) for e in load_sessions([db]).sessions[0].events]
    assert [(e["kind"], e.get("succeeded")) for e in events] == [("call", True), ("call", True), ("search", None),
                                                                 ("call", False)]
    assert events[2]["queries"] == [{"query": "create issue", "matches": ["mcp__github__create_issue"]}]
    assert events[3]["error"] == ('{"success": false, "output": "' + "x" * 269 + "…")


def test_arguments_nested_too_deeply_are_said_to_be(tmp_path):
    """JSON nested past the reader's depth limit in a call's ``arguments`` was reported as "not
    valid JSON", which it is; the line now says what is wrong with it."""
    deep_list = "[" * 100_000 + "]" * 100_000  # deeper than Python's own parser goes
    deep_object: dict = {}
    inner = deep_object
    for _ in range(300):
        inner["a"] = {}
        inner = inner["a"]
    spec = {"sessions": [{"id": "s1", "model": "m", "messages": [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "tool_call", "arguments": '{"name": "mcp__github__create_issue", "arguments": ' + deep_list + "}"}}]},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("c2", "tool_call", {
            "name": "mcp__github__get_me", "arguments": deep_object})},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c3", "type": "function", "function": {
            "name": "tool_search", "arguments": '{"queries": ["create issue"'}}]},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("c4", "tool_search", {"queries": ["create issue"]})}]}]}
    db = write_store(tmp_path, spec)
    loaded = load_sessions([db])
    deep = "'arguments' is nested more than 256 levels deep (limit); arguments skipped (the call is kept)"
    assert [str(p) for p in loaded.problems if "tool_calls[0]" in p.where] == [
        f"{db}: session 's1': messages[0].tool_calls[0]: {deep}",
        f"{db}: session 's1': messages[1].tool_calls[0]: {deep}",
        f"{db}: session 's1': messages[2].tool_calls[0]: 'arguments' is not valid JSON; arguments skipped (the call is kept)"]
    assert [e.kind for e in loaded.sessions[0].events] == ["search", "search"]
    done = run_cli("sessions", str(db), "--catalog", str(CATALOG), "--variant", "reference")
    assert done.returncode == 0 and f"messages[1].tool_calls[0]: {deep}" in done.stderr


def test_a_hermes_export_whose_first_session_is_long_is_recognised(tmp_path):
    """``hermes sessions export`` writes one session per line, newest first; a newest session
    holding a long tool result (a build log, a file read) made a first line longer than the head
    read to tell the format, and the file was refused as "not a recognised session format"."""
    from toolsearch.analysis.session_formats import SNIFF_BYTES, detect_format

    spec = {"sessions": [
        {"id": "older", "model": "m", "messages": [
            {"role": "assistant", "content": "", "tool_calls": tool_calls("c1", "tool_search", {"queries": ["post slack message"]})}]},
        {"id": "newest", "model": "m", "messages": [
            {"role": "assistant", "content": "", "tool_calls": tool_calls("c2", "terminal", {"command": "make"})},
            {"role": "tool", "tool_call_id": "c2", "tool_name": "terminal", "content": "compiled ok\n" * 20_000},
            {"role": "assistant", "content": "", "tool_calls": tool_calls("c3", "tool_search", {"queries": ["create issue"]})}]}]}
    write_store(tmp_path, spec, export=True)
    export = tmp_path / "state.db.export.jsonl"
    lines = export.read_bytes().split(b"\n")
    assert len(lines[0]) > SNIFF_BYTES and b'"id": "newest"' in lines[0][:200]
    assert detect_format(export) == "hermes-export"
    assert [s.id for s in load_sessions([export]).sessions] == ["older", "newest"]  # listed oldest first
    done = run_cli("sessions", str(export), "--catalog", str(CATALOG), "--variant", "reference")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sessions: 2 (hermes-export)")


def test_an_error_keeps_its_invisible_characters_as_markers(tmp_path):
    """An error is shown on one line; its spaces and line breaks become one space. Other characters
    Python splits text at (U+2028, U+0085, U+001F, U+000B) vanished into that space too, so a
    hidden character in a recorded error was not shown; they stay, and show as markers."""
    error = "denied\u2028by\x1fthe\x85policy\x0bnow\n\n  (retry later)\t"
    spec = {"sessions": [{"id": "s1", "model": "m", "messages": [
        {"role": "assistant", "content": "", "tool_calls": tool_calls("c1", "tool_call", {
            "name": "mcp__github__create_issue", "arguments": {"title": "t"}})},
        {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_call", "content": json.dumps({"error": error})}]}]}
    db = write_store(tmp_path, spec)
    events = [event_to_dict(e) for e in load_sessions([db]).sessions[0].events]
    assert events[0]["error"] == "denied\u2028by\x1fthe\x85policy\x0bnow (retry later)"
    done = run_cli("sessions", str(db), "--catalog", str(CATALOG), "--variant", "reference")
    assert "     error: denied⟨U+2028⟩by⟨U+001F⟩the⟨U+0085⟩policy⟨U+000B⟩now (retry later)\n" in done.stdout


def test_a_store_that_computes_its_values_when_read_is_refused(tmp_path):
    """A column generated ``VIRTUAL`` is worked out by SQLite on every read: a 16 KB store whose
    'title' was ``hex(zeroblob(200000000))`` took 2 s and 400 MB per session, so a few thousand rows
    held the command (or the app, for an upload) for hours. A virtual table computes its rows the
    same way. Hermes' tables store their values; such a store is refused before a row is read."""
    db = write_store(tmp_path, SPEC)
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE sessions ADD COLUMN shown TEXT GENERATED ALWAYS AS (upper(id)) VIRTUAL")
    conn.commit()
    conn.close()
    done = run_cli("sessions", db, "--catalog", CATALOG)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolsearch: error: {db}: not a Hermes session store: 'sessions' computes column "
                           "'shown' when read (a generated column); expected tables 'sessions' and 'messages' "
                           "that store their values\n")
    fts = tmp_path / "fts.db"
    conn = sqlite3.connect(fts)
    conn.executescript("CREATE TABLE sessions (id TEXT PRIMARY KEY, model TEXT);"
                       "CREATE VIRTUAL TABLE messages USING fts5(session_id, role, content);"
                       "INSERT INTO sessions VALUES ('s1', 'm'); INSERT INTO messages VALUES ('s1', 'user', 'hi');")
    conn.commit()
    conn.close()
    done = run_cli("sessions", fts, "--catalog", CATALOG)
    assert (done.returncode, done.stderr) == (2, f"toolsearch: error: {fts}: not a Hermes session store: 'messages' "
                                                 "is a virtual table; expected tables 'sessions' and 'messages' "
                                                 "that store their values\n")
    # A table the reader does not read may compute what it likes: the store is read.
    db2 = write_store(tmp_path, SPEC, name="other.db")
    conn = sqlite3.connect(db2)
    conn.execute("CREATE TABLE extra (a TEXT, b TEXT GENERATED ALWAYS AS (upper(a)) VIRTUAL)")  # not read
    conn.commit()
    conn.close()
    assert [s.id for s in load_sessions([db2]).sessions] == ["s1"]


def test_the_sessions_page_refuses_a_store_that_computes_its_values_in_one_line(tmp_path):
    from streamlit.testing.v1 import AppTest

    db = write_store(tmp_path, SPEC)
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE messages ADD COLUMN shown TEXT GENERATED ALWAYS AS (upper(role)) VIRTUAL")
    conn.commit()
    conn.close()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value("Upload a session file").run()
    at.file_uploader(key="sessions_upload").set_value(("state.db", db.read_bytes(), "application/octet-stream")).run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert errors == ["state\\.db\\: not a Hermes session store\\: 'messages' computes column 'shown' when read "
                      "\\(a generated column\\); expected tables 'sessions' and 'messages' that store their values"]


def test_a_store_and_its_export_list_the_sessions_oldest_first(tmp_path):
    """Hermes exports newest first; the store is read oldest first. Both list oldest first (by start
    time, not by id: the ids here sort the other way), and the text report says the order."""
    ids = ["zeta", "mid", "alpha"]  # written in this order, so started in this order
    spec = {"sessions": [dict(SPEC["sessions"][0], id=sid) for sid in ids]}
    db = write_store(tmp_path, spec, export=True)
    export = tmp_path / "state.db.export.jsonl"
    exported = [json.loads(line)["id"] for line in export.read_text(encoding="utf-8").splitlines()]
    assert exported == ids[::-1]  # what Hermes writes: newest first
    for source in (db, export):
        assert [s.id for s in load_sessions([source]).sessions] == ids, source
    result = run_cli("sessions", str(export), "--catalog", CATALOG)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = lines.index("per session: oldest first in each source, by recorded start time (formats that record none "
                        "keep the file's order), sources in the order given:")
    assert [line.split()[1] for line in lines[start + 1:] if line.startswith("session ")] == ids


def test_session_ids_that_are_not_utf8_stay_apart_and_show_their_bytes(tmp_path):
    """Two sessions whose ids differ only in bytes that are not UTF-8 were both read as 's�' and
    merged into one session. Each stays a session of its own, its bad bytes shown as ⟨\\xNN⟩, with a
    problem naming the store and the row."""
    first = dict(SPEC["sessions"][0], id="one")
    second = {"id": "two", "model": "m2", "messages": [
        {"role": "assistant", "content": "", "tool_calls": tool_calls("d1", "tool_search", {"queries": ["create issue"]})},
        {"role": "tool", "tool_call_id": "d1", "tool_name": "tool_search", "content": "{\"results\": []}"}]}
    db = write_store(tmp_path, {"sessions": [first, second]})
    conn = sqlite3.connect(db)
    for old, new in (("one", b"s\xff"), ("two", b"s\xfe")):  # what a damaged or foreign writer leaves
        conn.execute("UPDATE sessions SET id = CAST(? AS TEXT) WHERE id = ?", (new, old))
        conn.execute("UPDATE messages SET session_id = CAST(? AS TEXT) WHERE session_id = ?", (new, old))
    conn.commit()
    rows = dict(conn.execute("SELECT CAST(id AS BLOB), rowid FROM sessions"))
    conn.close()
    loaded = load_sessions([db])
    assert [s.id for s in loaded.sessions] == ["s\udcff", "s\udcfe"]
    assert [(s.model, [q.query for e in s.searches for q in e.queries]) for s in loaded.sessions] == [
        ("m", ["slack send message"]), ("m2", ["create issue"])]
    assert [str(p) for p in loaded.problems] == [
        f"{db}: row {rows[b's' + bytes([b])]} of 'sessions': its id is not UTF-8 text (byte 0x{b:02x}): read as session "
        f"'s⟨\\x{b:02X}⟩', each such byte shown as ⟨\\xNN⟩, apart from any other id" for b in (0xFF, 0xFE)]

    done = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sessions: 2 (hermes-db)")
    headers = [line.split(" (")[0] for line in done.stdout.splitlines() if line.startswith("session s")]
    assert headers == ["session s⟨\\xFF⟩", "session s⟨\\xFE⟩"]
    assert f"toolsearch: skipped: {db}: row {rows[b's' + bytes([0xFF])]} of 'sessions': its id is not UTF-8" \
        in done.stderr
    as_json = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert [s["id"] for s in json.loads(as_json.stdout)["per_session"]] == ["s\udcff", "s\udcfe"]

    from tests.test_app_sessions import open_page
    from toolsearch.live.guard import launch_token

    at = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(db)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    picker = at.selectbox(key="sessions_pick")
    assert picker.options == ["s⟨\\xFF⟩", "s⟨\\xFE⟩"]
    picker.set_value("s\udcfe").run()
    assert not at.exception, at.exception
