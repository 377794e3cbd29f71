"""A link cannot give the Tuning page thousands of per-length goals (Streamlit ``AppTest``).

A goal is for a length of the context lengths, which hold at most
:data:`toolsearch.ui.common.MAX_CONTEXT_LENGTHS`; a link's ``goals`` with thousands of items was
kept, and the page refused it only afterwards with one error naming every length. Over the limit,
the list is refused at once with one short message that names the limit: a link's is ignored (the
default stays), a typed one is the field's error.
"""

from __future__ import annotations

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.ui.common import MAX_CONTEXT_LENGTHS, parse_length_goals

ROOT = Path(__file__).absolute().parent.parent
TOO_MANY = ",".join(f"{1000 + i}=full" for i in range(3000))


def test_a_goal_list_longer_than_the_limit_is_refused_and_one_at_it_is_read() -> None:
    at_limit = ", ".join(f"{1000 + i}=full" for i in range(MAX_CONTEXT_LENGTHS))
    goals, error = parse_length_goals(at_limit)
    assert (len(goals), error) == (MAX_CONTEXT_LENGTHS, None)
    assert parse_length_goals(at_limit + ", 5000000=names") == (
        {}, f"Other goals: at most {MAX_CONTEXT_LENGTHS} lengths, this list has {MAX_CONTEXT_LENGTHS + 1}; "
            "give a goal only to lengths of the context lengths.")


def test_a_link_with_thousands_of_goals_keeps_the_default_and_says_the_limit() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["goals"] = TOO_MANY
    started = time.monotonic()
    at.run()
    notices = [str(x.value) for x in at.warning]  # shown on the first page the link opens
    assert (f"The link's value for goals is not valid here and was ignored: it has 3,000 items, and a list holds at "
            f"most {MAX_CONTEXT_LENGTHS} lengths; the default is used.") in notices, notices
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    assert time.monotonic() - started < 60
    assert at.session_state["tuning_length_goals"] == ""
    assert [str(e.value) for e in at.error] == []


def test_a_typed_list_over_the_limit_is_one_short_error() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_length_goals").input(TOO_MANY).run()
    assert not at.exception, at.exception
    assert [str(e.value).replace("\\", "") for e in at.error] == [  # markdown escapes aside
        f"Other goals: at most {MAX_CONTEXT_LENGTHS} lengths, this list has 3,000; give a goal only to lengths of "
        "the context lengths."]
