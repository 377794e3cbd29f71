"""Catalog files uploaded again: Streamlit's uploader keeps a file uploaded a second time beside the
first copy, and the sidebar merged the catalog with itself ("Five servers + Issue tracker + Five
servers + Issue tracker + …", every server of the copies repaired as a duplicate). The same content
is read once now, and the sidebar says which file was left out and why."""

from __future__ import annotations

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
    assert common.unique_uploads([a, b, a]) == ([a, b], ["a.yaml is already loaded; read once."])
