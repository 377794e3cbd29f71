"""Catalog files uploaded again: Streamlit's uploader keeps a file uploaded a second time beside the
first copy, and the sidebar merged the catalog with itself ("Five servers + Issue tracker + Five
servers + Issue tracker + …", every server of the copies repaired as a duplicate). The same content
is read once now, and the sidebar says which file was left out and why."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from toolsearch.engine.catalog import combine, load_text
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"


def _files() -> tuple[tuple[str, bytes], tuple[str, bytes], tuple[str, bytes]]:
    a = ("a.yaml", (SAMPLES / "five-servers.yaml").read_bytes())
    issue = yaml.safe_load((SAMPLES / "issue-tracker.yaml").read_text(encoding="utf-8"))
    b = ("b.json", json.dumps(issue).encode())
    c = ("c.yaml", (SAMPLES / "cloudflare-flat.yaml").read_bytes())
    return a, b, c


def _page(files: list[tuple[str, bytes]]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = files
    at.run()
    assert not at.exception, at.exception
    return at


def _seen(at: AppTest) -> tuple[str, list[str]]:
    """The Overview's server count and the titles of its folds (the catalog notes give their count)."""
    return next(m.value for m in at.metric if m.label == "Servers"), [e.label for e in at.main.expander]


def test_files_uploaded_again_are_read_once_and_said_so() -> None:
    a, b, c = _files()
    once = combine([load_text(data.decode(), name) for name, data in (a, b, c)])
    assert len(once.servers) == 7
    alone = _seen(_page([a, b, c]))
    assert alone[0] == "7"
    at = _page([a, b, a, b, c])
    # the same catalog as the three files alone: no server of a copy renamed as a duplicate, no more notes
    assert _seen(at) == alone
    captions = [c.value for c in at.sidebar.caption]
    assert captions.count(common.md_escape("a.yaml is already loaded; read once.")) == 1, captions
    assert captions.count(common.md_escape("b.json is already loaded; read once.")) == 1, captions
    # the same content under another name: read once too, and named
    at = _page([a, ("copy of a.yaml", a[1]), b])
    assert common.md_escape("copy of a.yaml has the same content as a.yaml, which is already loaded; read once.") in [
        c.value for c in at.sidebar.caption]
    assert _seen(at)[0] == "6"


def test_unique_uploads() -> None:
    a, b, _ = _files()
    assert common.unique_uploads([]) == ([], [])
    assert common.unique_uploads([a, b, a]) == ([common.Upload(a[0], a[0], a[1]), common.Upload(b[0], b[0], b[1])],
                                                ["a.yaml is already loaded; read once."])


def _catalog(name: str, tool: str) -> bytes:
    return yaml.safe_dump({"name": name, "servers": [{"name": "github", "tools": [
        {"name": tool, "description": "A tool.", "inputSchema": {"type": "object"}}]}]}).encode()


def test_files_of_one_name_with_different_content_are_told_apart_in_every_note() -> None:
    """Two files called catalog.json with different content are both read, but every note named them
    ``catalog.json``: which one merged a server, which one was the repeat, which one was not a catalog,
    which config.yaml set what. Each is named by its place among the files of that name now, in the
    repeats, the files kept, the merged servers, the errors and the harness config notes alike."""
    one, two = _catalog("One", "a"), _catalog("Two", "b")
    harness = yaml.safe_dump({"tools": {"tool_search": {"threshold_pct": 250}}}).encode()
    at = _page([("catalog.json", one), ("catalog.json", two), ("catalog.json", b'{"foo": 1}'),
                ("catalog.json", two), ("config.yaml", harness), ("config.yaml", harness + b"# another\n")])
    first, second, third = (common.md_escape(f"catalog.json ({n} upload)") for n in ("1st", "2nd", "3rd"))
    captions = [c.value for c in at.sidebar.caption]
    assert common.md_escape("catalog.json (4th upload) has the same content as catalog.json (2nd upload), which is "
                            "already loaded; read once.") in captions, captions
    assert (f"Kept for this session: {first}, {second}, {third}, " + common.md_escape("config.yaml (1st upload)")
            + ", " + common.md_escape("config.yaml (2nd upload)")) in captions, captions
    warnings = [w.value for w in at.sidebar.warning]
    assert common.md_escape(common.visible(
        "Server 'github': defined 2 times (catalog.json (1st upload), catalog.json (2nd upload)); a harness keys "
        "servers by name, so their tools are merged into one server.")) in warnings, warnings
    for n in ("1st", "2nd"):
        assert common.md_escape(f"config.yaml ({n} upload): line 3: tools.tool_search.threshold_pct: 250 is outside "
                                "0..100, so it was clamped to 100%") in warnings, warnings
        assert any(i.value.startswith(common.md_escape(f"config.yaml ({n} upload)") + " is a harness config")
                   for i in at.sidebar.info)
    errors = [e.value for e in at.error]
    assert any(e.replace("\\", "").startswith("catalog.json (3rd upload): ") for e in errors), errors
    # the names the files lend are their own: the catalogs keep their names, no server is renamed
    assert _seen(at)[0] == "1"


def test_upload_labels() -> None:
    a, b = ("a.json", b"1"), ("a.json", b"2")
    assert common.upload_labels([]) == []
    assert common.upload_labels([a, ("b.json", b"2"), a]) == ["a.json", "b.json", "a.json"]  # one content each
    assert common.upload_labels([a, b, a]) == ["a.json (1st upload)", "a.json (2nd upload)", "a.json (3rd upload)"]
    # a file uploaded under another's label still names one content per label
    digests = [hashlib.sha256(d).hexdigest()[:8] for d in (b"2", b"3")]
    assert common.upload_labels([a, b, ("a.json (2nd upload)", b"3")]) == [
        "a.json (1st upload)", f"a.json (2nd upload, sha256 {digests[0]})", f"a.json (2nd upload) (sha256 {digests[1]})"]
    assert [common._ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_session_uploads_of_one_name_are_told_apart_on_the_tuning_page() -> None:
    from toolsearch.ui import session_sources
    from toolsearch.ui.recommendation import SESSION_UPLOADS

    good = (ROOT / "sample_sessions" / "claude-code.jsonl").read_bytes()
    bad = b"this is not a session file\n"
    files = [("sessions.jsonl", bad), ("sessions.jsonl", good)]
    loaded, errors = session_sources.load_uploads(files)
    # each file is named by its place among the files of that name: its sessions and its error
    assert [label for label, _ in loaded] == ["sessions.jsonl (2nd upload)"]
    assert len(errors) == 1 and errors[0].startswith("sessions.jsonl (1st upload)"), errors
    assert all("(2nd upload)" in s.origin for _, got in loaded for s in got.sessions)
    # the same files given on the Tuning page: the error names the first, and the second is read
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.session_state[SESSION_UPLOADS] = files
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    shown = [e.value for e in at.error]
    assert any(e.startswith(common.md_escape("sessions.jsonl (1st upload)")) for e in shown), shown
    assert not any(common.md_escape("sessions.jsonl (2nd upload)") in e for e in shown), shown
