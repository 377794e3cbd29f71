"""``describe --sent`` names a property key YAML read as another type the way the file wrote it.

An unquoted ``null`` key was named ``None`` in the ``renamed:`` line (and ``true`` as ``True``), a
spelling the file never had; the line now says ``null``, ``true`` or ``the number 5``, with the
advice the other messages give for an unquoted date.
"""

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


def test_the_renamed_lines_name_keys_as_written(tmp_path):
    catalog = tmp_path / "c.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    done = run_cli("describe", "--sent", catalog, "mcp__s__t")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("renamed:")] == [
        "renamed: null (put it in quotes to keep it as text) is 'None' for the model (calls are mapped back)",
        "renamed: the number 5 (put it in quotes to keep it as text) is '5' for the model (calls are mapped back)",
        "renamed: true (put it in quotes to keep it as text) is 'True' for the model (calls are mapped back)",
    ]


def test_quoted_key_words():
    assert quoted_key("a b") == "'a b'"
    assert quoted_key(False) == "false (put it in quotes to keep it as text)"
    assert quoted_key(1.5) == "the number 1.5 (put it in quotes to keep it as text)"
    assert quoted_key(float("-inf")) == "the number -.inf (put it in quotes to keep it as text)"
