"""Link notices (Streamlit ``AppTest``): a link value that cannot be used is named, with the reason
that applies to it. A bad number or goal is not "a name that is not a shipped sample"."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).absolute().parent.parent


def app(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("query,key", [
    ({"headroom": "nan"}, "headroom"),
    ({"headroom": "-5"}, "headroom"),
    ({"lengths": "abc"}, "lengths"),
    ({"goal": "bogus"}, "goal"),
])
def test_a_bad_value_is_named_without_the_sample_names_reason(query, key):
    notices = [w.value for w in app(query).warning if "ignored" in w.value]
    assert len(notices) == 1, notices
    assert f"value for {key}, " in notices[0]
    assert "shipped sample" not in notices[0], notices[0]
    assert "the default is used" in notices[0]


def test_an_unknown_sample_session_name_is_said_as_left_out():
    at = app({"sessions": "state.db,../../etc/passwd"})
    notices = [w.value for w in at.warning if "sessions" in w.value]
    assert len(notices) == 1, [w.value for w in at.warning]
    assert "not a shipped sample" in notices[0] and "left out" in notices[0], notices[0]
    assert "the default is used" not in notices[0]  # state.db is kept: not the default


def test_two_bad_values_are_named_in_one_plural_sentence():
    """Two values a link cannot use read "values for pct and cap are … the defaults are used", not
    "value for pct, cap is … the default is used"."""
    notices = [w.value.split("\n\n")[0] for w in app({"pct": "abc", "cap": "x"}).warning if "ignored" in w.value]
    assert notices == ["The link's values for pct and cap are not valid here and were ignored; the defaults are used."]
    notices = [w.value.split("\n\n")[0] for w in app({"pct": "abc", "cap": "x", "headroom": "nan"}).warning
               if "ignored" in w.value]
    assert notices == ["The link's values for pct, cap and headroom are not valid here and were ignored; the "
                       "defaults are used."]
