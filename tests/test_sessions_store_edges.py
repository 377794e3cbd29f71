"""Hermes session stores at the edges of what the reader knows: a store written by Hermes' own
``hermes_state.SessionDB`` (``$TOOLSEARCH_HERMES_PYTHON``, see tests/test_sessions.py), then
changed the way a newer or a foreign writer would leave it."""

from __future__ import annotations

import sqlite3

from tests.conftest import run_cli
from tests.test_sessions import CATALOG, ROOT, tool_calls, write_store
from toolsearch.analysis.session_formats import HERMES_SCHEMA_VERSION_KNOWN
from toolsearch.analysis.sessions import load_sessions

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
