"""Claude Code transcripts are ordered by their entries' recorded ``timestamp``, oldest first, as
the other session formats are by their start times: a session's steps, and the sessions of a file
(by their oldest entry). An entry whose timestamp is missing or unreadable keeps the file's order
for its session, and the reader says so (a problem on stderr and on the Sessions page)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

from toolsearch.analysis.sessions import load_sessions, load_sessions_text

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"


def _entry(session: str, n: int, kind: str, content, timestamp: str | None = None, **extra) -> dict:
    """A transcript entry as Claude Code writes one (the shape of sample_sessions/claude-code.jsonl)."""
    entry = {"parentUuid": f"{session}-{n - 1:03d}" if n else None, "isSidechain": False, "userType": "external",
             "cwd": "/home/dev/payments-api", "sessionId": session, "version": "2.0.0", "uuid": f"{session}-{n:03d}",
             "type": kind, "message": {"role": kind, "content": content}, **extra}
    if timestamp is not None:
        entry["timestamp"] = timestamp
    if kind == "assistant":
        entry["message"]["model"] = "claude-sonnet-4.5"
        entry["message"]["usage"] = {"input_tokens": 900, "output_tokens": 40}
    return entry


def _search(session: str, n: int, query: str, timestamp: str | None) -> dict:
    return _entry(session, n, "assistant", [{"type": "tool_use", "id": f"toolu_{session}_{n}", "name": "ToolSearch",
                                             "input": {"query": query, "max_results": 5}}], timestamp)


def _call(session: str, n: int, tool: str, timestamp: str | None) -> dict:
    return _entry(session, n, "assistant", [{"type": "tool_use", "id": f"toolu_{session}_{n}", "name": tool,
                                             "input": {"channel": "#payments"}}], timestamp)


def _text(entries: list[dict]) -> str:
    return "".join(json.dumps(e) + "\n" for e in entries)


def _steps(session) -> list[str]:
    """Each event as its query (a search) or its tool's name (a call)."""
    return [e.queries[0].query if hasattr(e, "queries") else getattr(e, "name", type(e).__name__)
            for e in session.events]


#: Two sessions, the later one first in the file, and in each the later entry first (a transcript
#: whose lines were appended out of order, or two transcripts concatenated newest first).
OUT_OF_ORDER = [
    _entry("late", 0, "user", "Post the release note.", "2026-12-01T10:00:00.000Z"),
    _call("late", 2, "mcp__slack__slack_post_message", "2026-12-01T10:00:09.000Z"),
    _search("late", 1, "post slack message", "2026-12-01T10:00:04.500Z"),
    _search("early", 1, "create a github issue", "2026-11-30T09:15:01.000Z"),
    _entry("early", 0, "user", "Open an issue.", "2026-11-30T09:15:00.000Z"),
]


def test_entries_and_sessions_are_ordered_by_their_timestamps():
    loaded = load_sessions_text(_text(OUT_OF_ORDER), "cc.jsonl", "claude-code")
    assert [str(p) for p in loaded.problems] == []
    assert [s.id for s in loaded.sessions] == ["early", "late"]
    late = loaded.sessions[1]
    assert _steps(late) == ["post slack message", "mcp__slack__slack_post_message"]
    assert late.started_at == 1796119200.0  # 2026-12-01T10:00:00Z, its oldest entry
    assert loaded.sessions[0].started_at == 1796030100.0  # 2026-11-30T09:15:00Z


def test_cli_lists_the_steps_in_timestamp_order(tmp_path: Path):
    path = tmp_path / "cc.jsonl"
    path.write_text(_text(OUT_OF_ORDER), encoding="utf-8")
    done = run_cli("sessions", path, "--catalog", CATALOG, "--json")
    assert done.returncode == 0, done.stderr
    per_session = json.loads(done.stdout)["per_session"]
    assert [s["id"] for s in per_session] == ["early", "late"]
    assert "ordering by time" not in done.stderr


def test_a_missing_or_unreadable_timestamp_keeps_the_file_order_and_says_so(tmp_path: Path):
    entries = [dict(e) for e in OUT_OF_ORDER]
    entries[2] = _search("late", 1, "post slack message", "yesterday")  # unreadable
    del entries[3]["timestamp"]  # missing: the early session's search
    loaded = load_sessions_text(_text(entries), "cc.jsonl", "claude-code")
    late = next(s for s in loaded.sessions if s.id == "late")
    assert _steps(late) == ["mcp__slack__slack_post_message", "post slack message"]  # the file's order
    problems = [str(p) for p in loaded.problems]
    kept = "the entries are taken in the file's order"
    assert problems == [
        f"cc.jsonl: session 'late': ordering by time: 1 of 3 entries has no readable timestamp (first at cc.jsonl:3); {kept}",
        f"cc.jsonl: session 'early': ordering by time: 1 of 2 entries has no readable timestamp (first at cc.jsonl:4); {kept}",
        ("cc.jsonl: ordering sessions by time: 2 sessions ('late' …) have no readable timestamp; the sessions are "
         "listed in the file's order")]
    assert [s.id for s in loaded.sessions] == ["late", "early"]  # the file's order
    path = tmp_path / "cc.jsonl"
    path.write_text(_text(entries), encoding="utf-8")
    done = run_cli("sessions", path, "--catalog", CATALOG)
    assert done.returncode == 0, done.stderr
    assert ("toolsearch: skipped: cc.jsonl: session 'late': ordering by time: 1 of 3 entries has no readable "
            "timestamp") in done.stderr.replace(str(path), "cc.jsonl")


def test_one_session_without_times_keeps_its_order_and_the_others_are_still_read():
    entries = [_search("plain", 1, "first query", None), _search("plain", 2, "second query", None)]
    loaded = load_sessions_text(_text(entries), "cc.jsonl", "claude-code")
    assert _steps(loaded.sessions[0]) == ["first query", "second query"]
    assert loaded.sessions[0].started_at is None
    assert len(loaded.problems) == 1 and "2 of 2 entries have no readable timestamp" in str(loaded.problems[0])


def test_the_sample_transcript_has_times_and_reads_without_a_problem():
    loaded = load_sessions([ROOT / "sample_sessions" / "claude-code.jsonl"])
    assert [str(p) for p in loaded.problems] == []
    assert [s.id for s in loaded.sessions] == ["20261130_091500_a1", "20261130_101200_b2", "20261130_140300_c3"]
    assert all(s.started_at is not None for s in loaded.sessions)


def test_the_sessions_page_says_when_it_keeps_the_file_order(tmp_path: Path):
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    entries = [dict(e) for e in OUT_OF_ORDER]
    entries[2] = _search("late", 1, "post slack message", "yesterday")
    path = tmp_path / "cc.jsonl"
    path.write_text(_text(entries), encoding="utf-8")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()  # AppTest counts as another machine
    at.text_input(key="sessions_path").set_value(str(path)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning]  # Markdown escapes taken out
    assert any("ordering by time: 1 of 3 entries has no readable timestamp" in w
               and "the entries are taken in the file" in w for w in warnings), warnings
