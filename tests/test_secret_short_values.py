"""Short secret values that are words or numbers (4 or 5 characters: ``info``, ``true``, ``debug``,
``8080``) are masked in live failure text only where they stand as a whole token; they were masked
wherever they occurred, so "information" read "••••rmation". Values of 6 characters and more (and
every encoded form that long), and short ones that look generated (``ab12``, ``#a1b``), are masked
wherever they occur, glued to other text or not (tests/test_secrets_short_glued.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolsearch.engine import constants as C
from toolsearch.engine.secrets import (SECRET_ANYWHERE_MIN_CHARS, SECRET_MIN_CHARS, mask_leading_suffix,
                                       mask_trailing_prefix, scrub_text, secret_list)

ROOT = Path(__file__).resolve().parent.parent
M = C.SECRET_MASK


def test_the_threshold_is_between_the_free_text_minimum_and_a_credential() -> None:
    assert (SECRET_MIN_CHARS, SECRET_ANYWHERE_MIN_CHARS) == (4, 6)


@pytest.mark.parametrize(("text", "shown"), [
    ("information", "information"),                      # inside a word: an ordinary word
    ("see the info.", f"see the {M}."),                  # a word of its own
    ("LOG_LEVEL=info", f"LOG_LEVEL={M}"),                 # after =
    ("level: info", f"level: {M}"),                      # after :
    ('{"level":"info"}', f'{{"level":"{M}"}}'),          # in quotes
    ("info", M),                                         # the whole text
    ("infos info_x xinfo info2", "infos info_x xinfo info2"),  # glued to a letter, _ or digit
    ("debugger debug", f"debugger {M}"),                 # 5 characters: the same rule
    ("untrue, true; trueness", f"untrue, {M}; trueness"),
])
def test_a_short_value_is_masked_only_as_a_whole_token(text: str, shown: str) -> None:
    assert scrub_text(text, secret_list(["info", "debug", "true"])) == shown


def test_a_value_of_six_characters_or_more_is_masked_wherever_it_occurs() -> None:
    secrets = secret_list(["abc123", "k3y-ABCDEFG"])
    assert scrub_text("xabc123y zk3y-ABCDEFGz", secrets) == f"x{M}y z{M}z"
    # one character shorter: a word only as a token, a generated-looking value anywhere
    assert scrub_text("xhelloy hello", secret_list(["hello"])) == f"xhelloy {M}"
    assert scrub_text("xabc12y abc12", secret_list(["abc12"])) == f"x{M}y {M}"


def test_encoded_forms_follow_the_same_rule_by_their_own_length() -> None:
    secrets = secret_list(["info"])
    # hex (8 characters) and base64 (6 or 8) of a short value are long enough to mask anywhere
    assert scrub_text("x696e666fx aW5mbw==z", secrets) == f"x{M}x {M}z"


def test_a_short_value_edged_with_symbols_is_masked_glued_too() -> None:
    secrets = secret_list(["#a1b"])
    assert scrub_text("x#a1b #a1b. #a1bc", secrets) == f"x{M} {M}. {M}c"


def test_a_short_value_split_over_lines_is_masked_only_as_a_token() -> None:
    secrets = secret_list(["info"])
    assert scrub_text("level in\nfo here", secrets) == f"level {M}\n here"
    assert scrub_text("sign in\nformation", secrets) == "sign in\nformation"
    long = secret_list(["hunter2pass"])
    assert scrub_text("xhunter\n2passx", long) == f"x{M}\nx"  # a long one: glued too, as before


def test_a_cut_start_or_end_of_a_short_value_is_masked_only_at_a_token_edge() -> None:
    secrets = secret_list(["debug"])
    assert mask_trailing_prefix("log level debu", secrets) == f"log level {M}"
    assert mask_trailing_prefix("log xdebu", secrets) == "log xdebu"
    assert mask_leading_suffix("ebug rest", secrets) == f"{M} rest"
    assert mask_leading_suffix("ebugger rest", secrets) == "ebugger rest"
    # a long secret's start is masked glued to a word too, as before
    assert mask_trailing_prefix("log xhunt", secret_list(["hunter2pass"])) == f"log x{M}"


def test_a_failure_reason_keeps_ordinary_words_and_masks_every_secret(tmp_path) -> None:
    """End to end: a stdio server prints its settings to stderr and exits; `toolsearch plan` on
    its config shows the failure reason with the short values masked where they are values and
    the long secret masked even glued to a letter, and ordinary words intact."""
    code = ("import os, sys; e = os.environ; print('information: level ' + e['LOG_LEVEL'] + ', untrue=' + e['FLAG'] "
            "+ '; key ' + e['API_KEY'] + 'x', file=sys.stderr); sys.exit(3)")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"s": {"command": sys.executable, "args": ["-c", code], "env": {
        "LOG_LEVEL": "info", "FLAG": "true", "API_KEY": "k3y-ABCDEFG"}}}}), encoding="utf-8")
    # A process of this checkout's code (python -m from the checkout).
    done = subprocess.run([sys.executable, "-m", "toolsearch", "plan", str(config)], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, timeout=120)
    assert f"(stderr: information: level {M}, untrue={M}; key {M}x)" in done.stderr, done.stderr
    assert "k3y-ABCDEFG" not in done.stderr + done.stdout
