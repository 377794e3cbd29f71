"""docs/reference.md is what the code, the app and the other docs cite: every citation names a
section the page has, and nothing cites a document outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
SECTIONS = set(re.findall(r"^#{2,3} (\d+(?:\.\d+)*)\.? ", REFERENCE, re.MULTILINE))
CITATION = re.compile(r"docs/reference\.md (§[\d.]*\d(?:\s*(?:,|–|-|and|/)\s*§[\d.]*\d)*)")
OUTSIDE = re.compile(r"\b(?:RB|REG) §|spec/(?:reference-behavior|registration-and-configs|wording-lengths)\.md")


def _files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    paths = [ROOT / f for f in listed] if listed else list(ROOT.rglob("*"))
    return [p for p in paths if p.suffix in (".py", ".md", ".yaml", ".toml") and p.is_file()
            and p.name != "README.md" or p.parent.name == "sample_catalogs" and p.name == "README.md"]


def test_sections_are_numbered_both_ranges():
    assert {"1", "4", "5.4", "7.4", "13"} <= SECTIONS  # tool search
    assert {"20", "21.3", "23.2", "29.2", "30"} <= SECTIONS  # registration


def test_every_citation_names_an_existing_section():
    missing = []
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for run in CITATION.findall(text):
            for number in re.findall(r"§([\d.]*\d)", run):
                if number not in SECTIONS:
                    missing.append(f"{path.relative_to(ROOT)}: §{number}")
    assert missing == []


def test_nothing_cites_documents_outside_the_repository():
    found = [f"{p.relative_to(ROOT)}: {m.group()}" for p in _files() if p.name != "test_reference_doc.py"
             for m in OUTSIDE.finditer(p.read_text(encoding="utf-8", errors="replace"))]
    assert found == []
