"""A --keep / --except name that differs from a catalog server's only in Unicode normalisation
(``café`` as ``e`` and U+0301, against ``é`` as one character) prints like it: the refusal says
how they differ instead of suggesting what looks like the same name."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import yaml
from conftest import run_cli

from toolsearch.engine.invisible import normalisation_note

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")


def test_the_refusal_says_the_names_differ_only_in_normalisation(tmp_path: Path) -> None:
    catalog = tmp_path / "c.yaml"
    catalog.write_text(yaml.safe_dump({"servers": [{"name": NFC, "tools": [
        {"name": "t", "description": "d", "inputSchema": {"type": "object"}}]}]}, allow_unicode=True), encoding="utf-8")
    for option in ("--keep", "--except"):
        done = run_cli("check", catalog, "--context-lengths", "32k", "--goal", "names", option, NFD)
        assert done.returncode == 2, done.stdout
        assert done.stderr.strip().endswith(
            f"did you mean '{NFC}'? '{NFD}' differs from '{NFC}' only in Unicode normalisation (the first "
            "decomposed, NFD; the second composed, NFC)"), done.stderr


def test_no_note_for_names_that_differ_otherwise() -> None:
    assert normalisation_note("cafe", NFC) == "" and normalisation_note(NFC, NFC) == ""
