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


def test_the_defaults_and_limits_the_page_gives_are_the_engines():
    """§1.1's table of keys, §5.1's short-description length, §6's per-call caps and §7.3–§7.4's
    search constants are the values in toolsearch/engine/constants.py."""
    from toolsearch.engine import constants as C

    rows = {m[0]: (m[1].strip(), m[2].strip())
            for m in re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|", REFERENCE, re.MULTILINE)}
    assert rows["threshold_pct"] == (f"{C.THRESHOLD_PCT_DEFAULT:.1f}",
                                     f"{C.THRESHOLD_PCT_MIN:g} to {C.THRESHOLD_PCT_MAX:g} (%)")
    assert rows["search_default_limit"][0] == f"{C.SEARCH_DEFAULT_LIMIT_DEFAULT}"
    assert rows["max_search_limit"] == (f"{C.MAX_SEARCH_LIMIT_DEFAULT}",
                                        f"{C.MAX_SEARCH_LIMIT_MIN} to {C.MAX_SEARCH_LIMIT_MAX}")
    assert rows["listing_max_tokens"] == (f"{C.LISTING_MAX_TOKENS_DEFAULT}",
                                          f"{C.LISTING_MAX_TOKENS_MIN} to {C.LISTING_MAX_TOKENS_MAX:,}")
    assert rows["enabled"][0] == f"`{C.ENABLED_DEFAULT}`" and rows["listing"][0] == f"`{C.LISTING_DEFAULT}`"
    text = " ".join(REFERENCE.split())
    assert f"the first sentence of the description, at most {C.SHORT_DESCRIPTION_MAX_CHARS} characters" in text
    assert f"at most {C.MAX_QUERIES_PER_CALL} queries per call" in text
    assert f"at most {C.MAX_DESCRIBE_NAMES_PER_CALL} names per call" in text
    assert f"with k1 = {C.BM25_K1:g}, b = {C.BM25_B:g}" in text
    assert (f"with fewer than {C.MIN_ANSWERABLE_TERMS_FOR_COVERAGE} query words that occur in the catalog, 1 is "
            "required, otherwise half of them rounded up") in text and C.MIN_QUERY_TERM_COVERAGE == 0.5


def _section_bodies() -> dict[str, str]:
    """``{number: text under that heading, up to the next heading}`` of docs/reference.md."""
    parts = re.split(r"^(#{2,3} (\d+(?:\.\d+)*)\.? .*)$", REFERENCE, flags=re.MULTILINE)
    return {parts[i + 1]: parts[i + 2] for i in range(1, len(parts) - 2, 3)}


def _plain(text: str) -> str:
    return " ".join(text.replace("`", "").replace("*", "").split()).lower()


def test_every_cited_step_or_quoted_phrase_is_in_that_section():
    """A citation that points inside a section (``docs/reference.md §5.4 step 3``,
    ``docs/reference.md §7.4 "gate term"``) points at something the section has: a step of its
    numbered list, or its own words (backticks, bold and line breaks aside). The page has no
    other sub-parts, so a step number or a label from elsewhere sends the reader nowhere."""
    bodies = _section_bodies()
    inside = re.compile(r"docs/reference\.md\s+§([\d.]*\d)\s+(?:steps?\s+(\d+)(?:\s*[–-]\s*(\d+))?|\"([^\"]+)\")")
    missing, seen = [], 0
    for path in _files():
        if path.name == "test_reference_doc.py":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, first, last, phrase in inside.findall(text):
            seen += 1
            body = bodies.get(number, "")
            if phrase:
                if _plain(phrase) not in _plain(body):
                    missing.append(f"{path.relative_to(ROOT)}: §{number} \"{phrase}\"")
                continue
            steps = set(re.findall(r"^(\d+)\. ", body, re.MULTILINE))
            for step in filter(None, (first, last)):
                if step not in steps:
                    missing.append(f"{path.relative_to(ROOT)}: §{number} step {step}")
    assert seen >= 15 and missing == []
