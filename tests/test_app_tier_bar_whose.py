"""The tier bar at the top of the Tuning and Report pages is for the sidebar's settings, not for the
recommendation those pages give: a first-time reader took the green "Tier 1 · Form: full" for the
answer while the recommendation lists names. On those two pages the bar opens with whose settings it
shows and their figures, and the Tuning page says what the recommended settings give at the sidebar's
context length, beside the recommendation (Streamlit ``AppTest``)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).absolute().parent.parent
QUERY = {"ctx": "200K", "lengths": "32k,200k,1m", "goal": "names"}


def _page(page: str | None, query: dict[str, str] = QUERY) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params.update(query)
    at.run()
    if page:
        at.switch_page(f"toolsearch/ui/{page}.py").run()
    assert not at.exception, at.exception
    return at


def _bar(at: AppTest) -> str:
    return next(m.value for m in at.markdown if 'data-testid="tier-bar"' in m.value)


def test_tuning_and_report_bars_say_they_show_the_sidebar_settings():
    for page in ("tuning", "report"):
        bar = _bar(_page(page))
        assert ('margin:.2rem 0 .6rem 0">Sidebar settings (5%, 4,000 tokens) at 200K: <b>Tier 1 · listing embedded</b>'
                in bar), (page, bar)
    # the other pages show only the sidebar's settings: their bar stays as it was
    assert "Sidebar settings" not in _bar(_page(None))


def test_tuning_gives_the_recommendation_its_own_outcome():
    at = _page("tuning")
    assert "<b>Form: full · 9 of 9 servers named (178 tools)</b>" in _bar(at)  # the sidebar's 5%, 4,000 tokens
    said = [str(c.value) for c in at.caption if str(c.value).startswith(("At the sidebar's", "The sidebar holds"))]
    assert said == ["At the sidebar's context length (200K) the recommended settings give tier 1 · form names · "
                    "9 of 9 servers named (178 tools); the bar at the top is the sidebar's own settings."]
    at.button(key="tuning_apply_multi").click().run()
    assert not at.exception, at.exception
    assert "Sidebar settings (4.7%, 1,473 tokens) at 200K: <b>Tier 1" in _bar(at)
    said = [str(c.value) for c in at.caption if str(c.value).startswith(("At the sidebar's", "The sidebar holds"))]
    assert said == ["The sidebar holds the recommended settings: the bar at the top is their outcome at 200K."]
