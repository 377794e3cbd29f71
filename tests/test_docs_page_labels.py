"""The docs name the app's controls by their labels ("the Tuning page's *Keep called servers
named*"): every such label is one the app's views actually show, so a user who follows the docs
finds the control."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).absolute().parent.parent
NAMED = re.compile(r"\b(\w+) page's \*([^*]+)\*")


def _ui_texts() -> list[str]:
    texts = []
    for path in (ROOT / "toolsearch" / "ui").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.append(" ".join(node.value.split()))
    return texts


def test_every_control_the_docs_name_is_a_label_of_the_app() -> None:
    texts = _ui_texts()
    named = [(doc.name, page, " ".join(label.split()))
             for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             for page, label in NAMED.findall(doc.read_text(encoding="utf-8"))]
    assert any(label == "Keep called servers named" for _, _, label in named)
    missing = [(doc, page, label) for doc, page, label in named
               if not any(text == label or text.startswith(label + " (") for text in texts)]
    assert missing == []


#: A page title with an ampersand, as the docs write one ("Compare & collapse"); line breaks inside it
#: are read as spaces.
AMPERSAND_TITLE = re.compile(r"\b([A-Z][a-z]+(?: [a-z]+)* & [a-z]+)\b")


def test_every_ampersand_page_title_the_docs_name_is_a_page_of_the_app() -> None:
    """The docs name pages by the menu's titles: "the collapse what-if on Cache & collapse" named a
    page the menu calls *Compare & collapse*, so a reader looked for a page that is not there."""
    from toolsearch.ui.router import PAGES

    titles = {title for _, title, _ in PAGES}
    named = [(doc.name, title)
             for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             for title in AMPERSAND_TITLE.findall(" ".join(doc.read_text(encoding="utf-8").split()))]
    assert ("app.md", "Compare & collapse") in named
    assert [(doc, title) for doc, title in named if title not in titles] == []
