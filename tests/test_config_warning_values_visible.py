"""A config file's warning quotes the value it could not use as every other warning shows
untrusted text: invisible and control characters as the ``⟨U+…⟩`` markers the unknown-key warning
of the same run shows (never Python's ``'\\u200b'`` or ``'\\x1b'``), and other YAML values in YAML's
spelling (``2001-12-14``, ``true``, ``null``), not as Python writes them (``datetime.date(…)``,
``True``, ``b'…'``). A secret of the same file holding such a character is still masked."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli
from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "five-servers.yaml")
# YAML's own escapes in double quotes: \e is ESC, \a is BEL
CONFIG = ('tools:\n  tool_search:\n    listing: "\u200bon\u202e"\n    threshold_pct: "\\e]0;t\\a"\n'
          '    enabled: 2001-12-14\n    max_search_limit: !!binary aGVsbG8=\n    listing_max_tokens: [1, true, null]\n'
          '    search_default_limit: true\n    "bogus\\e": 1\n')


def _warnings(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    done = run_cli("plan", CATALOG, "--config", path)
    assert done.returncode == 0, done.stderr
    prefix = f"toolsearch: warning: {path}: "
    return [line[len(prefix):] for line in done.stderr.splitlines() if line.startswith(prefix)]


def test_config_values_are_quoted_with_markers_and_in_yaml_spelling(tmp_path) -> None:
    assert _warnings(tmp_path, CONFIG) == [
        "line 5: tools.tool_search.enabled: 2001-12-14 is not auto, on or off, so it was read as 'auto'",
        "line 3: tools.tool_search.listing: '⟨U+200B⟩on⟨U+202E⟩' is not auto, on or off, so it was read as 'auto'",
        "line 4: tools.tool_search.threshold_pct: '⟨U+001B⟩]0;t⟨U+0007⟩' is not a number, so the default 5% is used",
        "line 6: tools.tool_search.max_search_limit: !!binary (5 bytes) is not a whole number, so the default 25 is used",
        "line 8: tools.tool_search.search_default_limit: true was read as 1",
        ("line 7: tools.tool_search.listing_max_tokens: [1, true, null] is not a whole number, so the default 4,000 "
         "tokens is used"),
        "line 9: tools.tool_search.bogus⟨U+001B⟩: unknown key, ignored",
    ]


def test_a_secret_with_an_invisible_character_stays_masked(tmp_path) -> None:
    secret = "Heron\u200bsecret-7731-xyz"
    text = ('model:\n  api_key: "Heron\\u200bsecret-7731-xyz"\n'
            'tools:\n  tool_search:\n    threshold_pct: "Heron\\u200bsecret-7731-xyz"\n')
    (warning,) = _warnings(tmp_path, text)
    assert "Heron" not in warning and secret not in warning, warning
    assert warning == f"line 5: tools.tool_search.threshold_pct: '{C.SECRET_MASK}' is not a number, so the default 5% is used"
