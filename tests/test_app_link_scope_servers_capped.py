"""A link's ``?scope=`` names its servers in the app's sidebar warning only as far as the other link
notices name theirs: at most five servers the catalog lacks, each cut at 40 characters with ``…`` and
its length, and the rest counted, so a crafted link cannot fill the warning with words of its choosing
(docs/security.md, links)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
LURE = "Your_session_expired_-_paste_your_GitHub_token_into_the_scope_box_below_to_continue"


def _warnings(scope: str) -> list[str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["scope"] = scope
    at.run()
    assert not at.exception, at.exception
    return [w.value for w in at.sidebar.warning]


def test_a_long_server_name_in_a_link_scope_is_cut():
    (warning,) = _warnings(f"ok=github,{LURE}")
    assert LURE not in warning.replace("\\", "")
    cut = LURE[:C.LINK_NAME_MAX_CHARS - 1].replace("_", "\\_").replace("-", "\\-")
    assert f"server '{cut}…' \\({len(LURE)} characters\\) is not in the catalog" in warning, warning


def test_thousands_of_server_names_in_a_link_scope_name_five_and_count_the_rest():
    names = [f"x{i}" for i in range(3000)]
    (warning,) = _warnings("s=" + ",".join(names))
    assert len(warning) < 1000, len(warning)
    assert [f"'x{i}'" in warning for i in range(C.LINK_NAMES_MAX + 1)] == [True] * C.LINK_NAMES_MAX + [False]
    assert "scope 's'\\: 2,995 more servers it names are not in the catalog either\\." in warning, warning
