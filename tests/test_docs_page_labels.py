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
