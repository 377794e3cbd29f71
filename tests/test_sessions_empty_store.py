"""A session store that holds no session (a fresh Hermes home, the store of another profile) given
as evidence: every surface says no session was read, rather than that the sessions called no tool
of the catalog, and ``recommend`` / ``check`` warn that ``--sessions`` adds nothing. The store is
written by Hermes' own ``hermes_state.SessionDB``."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from test_sessions import write_store
from toolsearch.live.guard import launch_token

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
KEPT_NONE = "kept named because the sessions called them: none (no session was read: the session sources hold none)"


def test_an_empty_hermes_store_is_said_to_hold_no_session(tmp_path):
    db = write_store(tmp_path, {"sessions": []})
    common = ["--context-lengths", "32k,200k", "--goal", "listed", "--sessions", str(db), "--keep-called"]
    warning = f"toolsearch: warning: no session in {db}: --sessions adds no evidence"

    rec = run_cli("recommend", CATALOG, *common)
    assert rec.returncode == 0, rec.stderr
    assert warning in rec.stderr.splitlines()
    assert KEPT_NONE in rec.stdout.splitlines()
    assert rec.stdout.splitlines()[-1].startswith("gate: toolsearch check ")  # the gate line closes the text
    assert rec.stdout.splitlines()[-2] == (
        "sessions: 0 sessions read; called_listed: of the deferred tools the sessions called, how many the listing "
        "names at that length; searches_saved: tool_search calls made just before calling a named tool; no session "
        "was read (the session sources hold none), so there is nothing for the listing to name")
    block = run_cli("recommend", CATALOG, *common, "--yaml")
    assert f"# {KEPT_NONE}" in block.stdout.splitlines()

    check = run_cli("check", CATALOG, *common)
    assert check.returncode == 0, check.stderr
    assert warning in check.stderr.splitlines() and KEPT_NONE in check.stdout.splitlines()

    sessions = run_cli("sessions", str(db), "--catalog", CATALOG)
    assert sessions.returncode == 0, sessions.stderr
    lines = sessions.stdout.splitlines()
    assert lines[0].startswith("sessions: 0 (no session in the sources given); catalog Team workspace")
    assert ("note: no session was read (the session sources hold none), so there is nothing for the listing "
            "to name") in lines

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k", "goal": "listed"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_sessions_token").set_value(launch_token()).run()  # AppTest counts as another machine
    at.text_input(key="tuning_sessions_path").set_value(str(db)).run()
    at.button(key="tuning_sessions_read").click().run()
    assert not at.exception, at.exception
    at.checkbox(key="tuning_keep_called").check().run()
    assert not at.exception, at.exception
    infos = [i.value.replace("\\", "") for i in at.info]
    assert "Kept named because the sessions called them: none (no session was read: the session sources hold none)." \
        in infos


def test_the_export_of_an_empty_store_is_read_as_no_session_like_the_store(tmp_path):
    """``hermes sessions export`` of a store with no session writes a file of 0 bytes; it is read as
    the store is (no session, the same warning), not refused as a broken file. A 0-byte file given
    as a JSON format (``--format openai``) holds no messages array and is still refused."""
    import os
    import subprocess

    from test_sessions import hermes_python
    from toolsearch.analysis.session_formats import detect_format
    from toolsearch.analysis.sessions import load_sessions

    home = tmp_path / "home"
    home.mkdir()
    db = write_store(home, {"sessions": []})
    export = tmp_path / "export.jsonl"
    hermes = Path(hermes_python()).parent / "hermes"
    done = subprocess.run([str(hermes), "sessions", "export", str(export)], env={**os.environ, "HERMES_HOME": str(home)},
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert export.read_bytes() == b""  # what Hermes writes for an empty store
    assert detect_format(export) == "hermes-export"
    for source in (db, export):
        loaded = load_sessions([source])
        assert (loaded.sessions, loaded.problems) == ([], [])

    common = ["--context-lengths", "32k,200k", "--goal", "listed", "--sessions", str(export), "--keep-called"]
    for command in ("recommend", "check"):
        result = run_cli(command, CATALOG, *common)
        assert result.returncode == 0, result.stderr
        assert f"toolsearch: warning: no session in {export}: --sessions adds no evidence" in result.stderr.splitlines()
        assert KEPT_NONE in result.stdout.splitlines()
    sessions = run_cli("sessions", str(export), "--catalog", CATALOG)
    assert sessions.returncode == 0, sessions.stderr
    assert sessions.stdout.splitlines()[0].startswith("sessions: 0 (no session in the sources given); catalog Team")
    as_openai = run_cli("sessions", str(export), "--format", "openai", "--catalog", CATALOG)
    assert as_openai.returncode == 2 and as_openai.stdout == ""
    assert as_openai.stderr == (f"toolsearch: error: {export}: the file is empty; expected a messages array (JSON) for "
                                "the openai format\n")
