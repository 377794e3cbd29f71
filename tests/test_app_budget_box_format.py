"""The threshold_pct boxes (the sidebar's, and side B's on the Compare page) showed ``5.0`` where
every other surface writes ``5%``: they are shown with ``%g`` (``5``, ``4.7``), which a box accepts
(its format must print a plain number) and which never shows more than the one decimal the app keeps.
The listing_max_tokens boxes keep ``%d`` (``4000``): ``4,000`` is not a plain number, so a box's
format cannot give it; the slider above the box shows ``4,000``. The threshold_pct slider uses the
box's ``%g`` too (it showed ``5.0`` above a box showing ``5``). Values and link parameters are
unchanged (Streamlit ``AppTest``; the browser's rendering is checked in tests/test_browser.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.errors import StreamlitAPIException
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent


def _open(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    return at


def _box(at: AppTest, key: str = "threshold_pct_exact") -> str:
    """What the box shows: its printf-style format applied to its value (the browser's sprintf.js
    gives the same text for %g and %d on these values)."""
    box = at.number_input(key=key)
    return box.proto.format % box.value


def test_the_sidebar_box_writes_threshold_pct_as_every_surface_does():
    at = _open()
    assert (_box(at), _box(at, "listing_max_tokens_exact")) == ("5", "4000")
    assert at.sidebar.slider(key="listing_max_tokens").proto.format == "%,d"  # the slider above gives 4,000
    # the threshold_pct slider above the box writes it the same way (5, not 5.0)
    assert at.sidebar.slider(key="threshold_pct").proto.format == at.number_input(key="threshold_pct_exact").proto.format
    for typed, shown in ((4.7, "4.7"), (0.1, "0.1"), (12.0, "12"), (100.0, "100"), (3.14159, "3.1")):
        at.number_input(key="threshold_pct_exact").set_value(typed).run()
        assert not at.exception, at.exception
        assert _box(at) == shown == f"{at.session_state['threshold_pct']:g}"
        # the link keeps the value: opened again, the box shows the same
        link = at.query_params["pct"]
        assert _box(_open({"pct": link[0] if isinstance(link, list) else link})) == shown


def test_compare_side_b_box_too():
    at = _open({"pct": "4.7"})
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert not at.exception, at.exception
    assert _box(at, "cmp_b_pct") == "4.7"
    at.number_input(key="cmp_b_pct").set_value(5.0).run()
    assert _box(at, "cmp_b_pct") == "5"


def test_a_box_refuses_a_format_with_a_separator():
    """Why listing_max_tokens keeps %d: Streamlit refuses a format that does not print a plain number."""
    import streamlit as st

    with pytest.raises(StreamlitAPIException):
        st.number_input("listing_max_tokens", value=4000, format="%,d")
