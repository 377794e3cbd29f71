"""Tuning page, "Apply to the sidebar": when the applied recommendation changes the sidebar's form
(team workspace at 200K: full → names), the change is said once, under the tier bar, not also as a
toast with the same words."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).absolute().parent.parent


def test_apply_says_the_form_change_once():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    at.button(key="tuning_apply_multi").click().run()
    assert not at.exception, at.exception
    said = [m.value for m in at.markdown if "Changed with the last setting" in m.value]
    assert len(said) == 1 and "form full → names" in said[0], said
    assert [t.value for t in at.toast] == []
