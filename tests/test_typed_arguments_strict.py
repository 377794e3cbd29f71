"""Arguments a user types for a tool call (``toolsearch call -a JSON``, the Search page's call box,
the Live servers page's raw JSON and the form's JSON fields) are read as strict JSON: ``NaN``,
``Infinity``, a number too large for a float (``1e999``) and a key given twice are refused with a
message saying which. They were read as recorded data is, so ``{"days": NaN}`` was dispatched as
the string ``"NaN"``, ``1e999`` as the string ``"1e999"``, and ``{"a": 1, "a": 2}`` as
``{"a": 2}``, without a word: a live tool got values the user never wrote."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "five-servers.yaml"
TOOL = "mcp__github__get_me"

REFUSED = [
    ('{"days": NaN}', "NaN is not a JSON number"),
    ('{"days": -Infinity}', "-Infinity is not a JSON number"),
    ('{"days": 1e999}', "the number 1e999 is too large for a JSON number"),
    ('{"a": 1, "a": 2}', "the key 'a' is given twice in one object"),
    ('{"outer": {"b": 1, "b": [2]}}', "the key 'b' is given twice in one object"),
]


@pytest.mark.parametrize(("typed", "said"), REFUSED)
def test_call_refuses_what_json_does_not_have(typed: str, said: str) -> None:
    done = run_cli("call", CATALOG, TOOL, "--arguments", typed)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(f"toolsearch: error: --arguments: not valid JSON ({said}"), done.stderr
    assert "Traceback" not in done.stderr


def test_call_still_sends_ordinary_numbers() -> None:
    done = run_cli("call", CATALOG, TOOL, "--arguments", '{"days": 1.5, "big": 1e308, "n": -3}')
    assert done.returncode == 0, done.stderr
    assert '"days": 1.5' in done.stdout and '"big": 1e+308' in done.stdout and '"n": -3' in done.stdout


def test_search_page_call_box_refuses_nan_and_sends_nothing() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "five-servers"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.session_state["search_tab"] = "Call validation"
    at.run()
    assert not at.exception, at.exception
    at.selectbox(key="call_tool").set_value(TOOL).run()
    for typed, said in REFUSED:
        at.text_area(key=f"call_args:{TOOL}").set_value(typed).run()
        assert not at.exception, at.exception
        assert [e.value for e in at.error] and "not valid JSON" in at.error[0].value, typed
        word = "given twice" if "twice" in said else "too large" if "large" in said else said.split()[0]
        assert word in at.error[0].value.replace("\\", ""), (typed, at.error[0].value)
        assert not any('"dispatch"' in c.value for c in at.code), typed
