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
    return [p for p in paths if p.suffix in (".py", ".md", ".yaml", ".toml") and p.is_file()]


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


def test_the_figures_of_the_budget_and_clamping_sections_hold():
    """The worked numbers of §1.4 and §4, computed with the engine."""
    from toolsearch.engine.config import parse_config
    from toolsearch.engine.plan import listing_budget

    section_4 = REFERENCE[REFERENCE.index("## 4. "):REFERENCE.index("## 5. ")]
    assert "100,000 tokens at 29 % gives 28,999" in section_4
    assert listing_budget(100_000, 29, 4000 * 15)[0] == 28_999
    assert "a\n200,000-token context gets 4,000" in section_4 and listing_budget(200_000, 5, 4000)[0] == 4000
    assert "a 40,000-token one 2,000" in section_4 and listing_budget(40_000, 5, 4000)[0] == 2000
    assert listing_budget(None, 5, 60_000)[0] == 10_000  # the fixed fallback
    section_14 = REFERENCE[REFERENCE.index("### 1.4"):REFERENCE.index("### 1.5")]
    assert "`threshold_pct` 150 gives 100 and −5 gives 0" in section_14
    assert parse_config({"threshold_pct": 150}).threshold_pct == 100 and parse_config({"threshold_pct": -5}).threshold_pct == 0
    assert parse_config({"max_search_limit": 999, "search_default_limit": 999}).search_default_limit == 50
    assert parse_config({"max_search_limit": 3}).search_default_limit == 3
    assert parse_config({"listing_max_tokens": 100}).listing_max_tokens == 200


def test_every_linked_section_citation_names_an_existing_section():
    """A section cited next to a link to a page (``[reference.md](reference.md) §3``,
    ``[reference.md §12](reference.md)``, ``[sessions.md](sessions.md) §7``) is a numbered
    section of that page."""
    link = re.compile(r"\[[^\]]*?(?:§([\d.]*\d))?\]\(([\w./-]+\.md)\)(?: §([\d.]*\d))?")
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing, seen = [], 0
    for path in docs:
        for inside, target, after in link.findall(path.read_text(encoding="utf-8")):
            for number in filter(None, (inside, after)):
                seen += 1
                page = (path.parent / target).resolve().read_text(encoding="utf-8")
                if number not in set(re.findall(r"^#{2,3} (\d+(?:\.\d+)*)\.? ", page, re.MULTILINE)):
                    missing.append(f"{path.relative_to(ROOT)}: {target} §{number}")
    assert seen >= 5 and missing == []
