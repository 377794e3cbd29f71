"""A JSON Lines session file whose first line is damaged (cut off, not JSON, not an entry of any
format) was refused whole as "not a recognised session format", every session lost for one line,
though the same file read with ``--format`` skipped that line with a word. Its format is now told
by the next lines, and the bad line is skipped and named. A Claude Code summary or snapshot entry,
which names no session, no longer makes an empty session of its own named after the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli
from toolsearch.analysis.sessions import load_sessions, load_sessions_bytes

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_sessions"
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"


@pytest.mark.parametrize("sample, fmt, problem", [
    ("claude-code.jsonl", "claude-code", "not valid JSON (Unterminated string starting at); line skipped"),
    ("hermes-export.jsonl", "hermes-export", "not valid JSON (Unterminated string starting at); line skipped"),
    ("trajectory.jsonl", "trajectory", "not valid JSON (Unterminated string starting at); line skipped"),
])
def test_a_cut_first_line_skips_only_itself(tmp_path, sample, fmt, problem):
    data = b'{"sessionId": "cut' + b"\n" + (SAMPLES / sample).read_bytes()
    path = tmp_path / sample
    path.write_bytes(data)
    # a trajectory's sessions are named by their line, one further down here: compared by what they hold
    expected = [(s.model, len(s.events)) for s in load_sessions([SAMPLES / sample]).sessions]
    for loaded in (load_sessions([path]), load_sessions_bytes(data, str(path))):
        assert {s.format for s in loaded.sessions} == {fmt}
        assert [(s.model, len(s.events)) for s in loaded.sessions] == expected
        assert [str(p) for p in loaded.problems] == [f"{path}:1: {problem}"]


def test_a_first_line_that_is_no_entry_is_named_on_the_command_line(tmp_path):
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(b"5\n" + (SAMPLES / "claude-code.jsonl").read_bytes())
    result = run_cli("sessions", path, "--catalog", CATALOG, "--variant", "reference")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == f"toolsearch: skipped: {path}:1: expected a transcript entry object; line skipped"
    assert result.stdout.startswith("sessions: 3 (claude-code);")


def test_a_file_of_no_format_is_still_refused(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text('{"a": 1}\n{"b": 2}\n5\n', encoding="utf-8")
    result = run_cli("sessions", path, "--catalog", CATALOG)
    assert result.returncode == 2
    assert result.stderr.startswith(f"toolsearch: error: {path}: not a recognised session format;")


@pytest.mark.parametrize("entry", [
    '{"type": "summary", "summary": "Flaky checkout test", "leafUuid": "20261130_091500_a1-004"}',
    '{"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}, "isSnapshotUpdate": false}',
])
def test_an_entry_that_names_no_session_makes_none(tmp_path, entry):
    """Claude Code writes these entries without a sessionId; read from a file not named after the
    session (a copy, an upload), each made one more session, empty, named after the file."""
    data = entry.encode() + b"\n" + (SAMPLES / "claude-code.jsonl").read_bytes()
    path = tmp_path / "copy.jsonl"
    path.write_bytes(data)
    expected = [s.id for s in load_sessions([SAMPLES / "claude-code.jsonl"]).sessions]
    for loaded in (load_sessions([path]), load_sessions_bytes(data, str(path))):
        assert [s.id for s in loaded.sessions] == expected
        assert loaded.problems == []


@pytest.mark.parametrize("line, problems", [
    ("[]", [(":4", "an empty list holds no transcript entry; skipped")]),
    ("[1, 2]", [(":4: item 1", "expected a transcript entry object; item skipped"),
                (":4: item 2", "expected a transcript entry object; item skipped")]),
    ("5", [(":4", "expected a transcript entry object; line skipped")]),
])
def test_a_line_with_no_entry_is_named_once_per_thing_skipped(tmp_path, line, problems):
    """A line holding an empty list was passed over without a word, and each item of a list that
    is no entry was reported under the same place with the same words (two identical lines)."""
    lines = (SAMPLES / "claude-code.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "t.jsonl"
    path.write_text("".join(lines[:3]) + line + "\n" + "".join(lines[3:]), encoding="utf-8")
    loaded = load_sessions([path])
    assert [(p.where, p.message) for p in loaded.problems] == [(f"{path}{w}", m) for w, m in problems]
    assert [s.id for s in loaded.sessions] == [s.id for s in load_sessions([SAMPLES / "claude-code.jsonl"]).sessions]
    done = run_cli("sessions", str(path), "--catalog", str(CATALOG))
    assert done.returncode == 0, done.stderr
    for where, message in problems:
        assert f"{path}{where}: {message}" in done.stderr
