"""A link cannot make the Tuning page plan thousands of context lengths (Streamlit ``AppTest``).

Each listed length is a plan and a row or column of every table on the page; a link naming a few
thousand of them kept the page busy for half a minute and drew a page of megabytes. Over
:data:`toolsearch.ui.common.MAX_CONTEXT_LENGTHS` distinct lengths, the link's value is ignored
with the usual notice and the default lengths are shown.
"""

from __future__ import annotations

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.ui.common import (
    MAX_CONTEXT_LENGTHS,
    TUNING_CONTEXTS_DEFAULT,
    parse_context_lengths,
)

ROOT = Path(__file__).absolute().parent.parent


def test_a_list_longer_than_the_limit_is_refused_and_a_list_at_it_is_kept() -> None:
    at_limit = ", ".join(str(1000 + i) for i in range(MAX_CONTEXT_LENGTHS))
    assert len(parse_context_lengths(at_limit)[0]) == MAX_CONTEXT_LENGTHS
    assert parse_context_lengths(", ".join(["32k"] * 5000))[0] == [32_000]  # repeats count once
    lengths, error = parse_context_lengths(at_limit + ", 5000000")
    assert lengths == [] and error == (f"Context lengths: at most {MAX_CONTEXT_LENGTHS} lengths, this list has "
                                       f"{MAX_CONTEXT_LENGTHS + 1}; keep the lengths of the models you run.")


def test_a_link_with_thousands_of_context_lengths_keeps_the_default() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["lengths"] = ",".join(str(1000 + i) for i in range(3000))
    started = time.monotonic()
    at.run()
    notices = [str(x.value) for x in at.warning]  # shown on the first page the link opens
    assert any("The link's value for lengths is not valid here and was ignored" in n for n in notices), notices
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    assert time.monotonic() - started < 60
    assert at.session_state["tuning_contexts"] == TUNING_CONTEXTS_DEFAULT
