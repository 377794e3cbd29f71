"""Every format character (Unicode category ``Cf``) is shown as a marker, as docs/security.md
promises, not only the ones a list written by hand once named: the Arabic pound and piastre marks
above (U+0890, U+0891) and the disputed end of ayah (U+08E2), the Kaithi number sign above
(U+110CD) and the Egyptian hieroglyph format controls (U+13430…) went through to the text output,
the app and the report as they are, while ``--json`` escaped them."""

from __future__ import annotations

import unicodedata

import yaml

from conftest import run_cli
from toolsearch.engine.invisible import find_hidden, marker, reveal


def test_every_format_character_is_found_and_shown():
    format_chars = [chr(code) for code in range(0x110000) if unicodedata.category(chr(code)) == "Cf"]
    assert len(format_chars) > 150
    # emoji tag characters spell flags only after U+1F3F4; alone each is a TAG marker
    missed = [f"U+{ord(c):04X}" for c in format_chars if not find_hidden(f"a{c}b") or reveal(f"a{c}b") == f"a{c}b"]
    assert missed == []


def test_the_listing_plan_prints_shows_them_as_markers(tmp_path):
    hidden = "\u0890\u08e2\U000110cd\U00013430"
    catalog = tmp_path / "c.yaml"
    catalog.write_text(yaml.safe_dump({"servers": [{"name": "docs", "tools": [
        {"name": "read", "description": f"Read{hidden} a page.", "inputSchema": {"type": "object"}}]}]},
        allow_unicode=True), encoding="utf-8")
    done = run_cli("plan", catalog)
    assert done.returncode == 0, done.stderr
    assert f"Read{''.join(marker(c) for c in hidden)} a page." in done.stdout, done.stdout
    assert not any(c in done.stdout for c in hidden)
