"""``describe --sent`` and a property key YAML read as another type: the catalog reads it as the
text JSON writes for it (``null``, ``5``, ``true``), so nothing is renamed for the model (it was
renamed ``None`` and ``True``, spellings the file never had). ``quoted_key`` still names such a key
the way the file wrote it."""

from __future__ import annotations

from conftest import run_cli
from toolsearch.engine.invisible import quoted_key

CATALOG = """\
servers:
  - name: s
    tools:
      - name: t
        description: Do t.
        inputSchema:
          type: object
          properties:
            null: {type: string}
            5: {type: string}
            true: {type: string}
            fine: {type: string}
"""


def test_keys_that_are_not_text_are_not_renamed(tmp_path):
    catalog = tmp_path / "c.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    done = run_cli("describe", "--sent", catalog, "mcp__s__t")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("renamed:")] == []
    assert '"None"' not in done.stdout and '"True"' not in done.stdout
    assert "put keys in quotes to keep them as written" in done.stderr, done.stderr


def test_quoted_key_words():
    assert quoted_key("a b") == "'a b'"
    assert quoted_key(False) == "false (put it in quotes to keep it as text)"
    assert quoted_key(1.5) == "the number 1.5 (put it in quotes to keep it as text)"
    assert quoted_key(float("-inf")) == "the number -.inf (put it in quotes to keep it as text)"
