"""The app frame: per-page sidebar controls, values kept across pages, link fallbacks, uploads
kept for the session with their problems at the top, palettes and their contrast, offline assets.

Driven with Streamlit's AppTest through app.py's router, as a user clicks through the app.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables
from toolsearch.analysis import palette
from toolsearch.ui import common
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"


@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    """Run every AppTest run through app.py's st.navigation router (see test_app_search_costs)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    return at


def sidebar_keys(at: AppTest) -> set[str]:
    keys = set()
    for kind in ("selectbox", "slider", "number_input", "radio"):
        keys |= {w.key for w in getattr(at.sidebar, kind) if w.key}
    return keys


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


BUDGET = {"ctx_choice", "threshold_pct", "listing_max_tokens", "threshold_pct_exact", "listing_max_tokens_exact"}
SCOPE = {"scope_choice"}
SWITCHES = {"enabled", "listing"}
SEARCH = {"search_default_limit", "max_search_limit"}
COUNTING = {"tokenizer", "display_tokenizer", "naming"}


@pytest.mark.parametrize("page,expected", [
    ("toolsearch/ui/overview.py", SCOPE | BUDGET | SWITCHES | COUNTING),
    ("toolsearch/ui/costs.py", SCOPE | BUDGET | SWITCHES | COUNTING),
    ("toolsearch/ui/search.py", SCOPE | BUDGET | SWITCHES | SEARCH | COUNTING),
    ("toolsearch/ui/quality.py", SCOPE | SEARCH | COUNTING),
    ("toolsearch/ui/live.py", set()),
])
def test_each_page_shows_only_the_controls_it_uses(page, expected):
    at = app()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    assert sidebar_keys(at) == {"catalog"} | expected


def test_hidden_controls_keep_their_values_across_pages():
    at = app()
    at.sidebar.slider(key="threshold_pct").set_value(1.0).run()
    at.sidebar.selectbox(key="ctx_choice").set_value("32K").run()
    at.switch_page("toolsearch/ui/live.py").run()  # no budget controls here
    assert "threshold_pct" not in sidebar_keys(at)
    at.switch_page("toolsearch/ui/overview.py").run()
    assert at.sidebar.slider(key="threshold_pct").value == 1.0
    assert at.sidebar.selectbox(key="ctx_choice").value == "32K"
    plan = inspector_of([SAMPLES / "team-workspace.yaml"]).plan(parse_config({"threshold_pct": 1.0}), 32_000)
    assert f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens" in markdown(at)


def test_search_limits_are_full_width_with_whole_labels():
    at = app()
    at.switch_page("toolsearch/ui/search.py").run()
    for key in ("search_default_limit", "max_search_limit"):
        widget = at.sidebar.number_input(key=key)
        assert widget.label == key
    # Not in side-by-side columns (where the label broke as "search_default_li / mit").
    columns_keys = {w.key for col in at.sidebar.columns for w in col.number_input}
    assert not columns_keys & SEARCH
    # The collapsed group names its values, so a non-default setting is visible without opening it.
    at.sidebar.number_input(key="max_search_limit").set_value(7).run()
    assert any(e.label == "Search limits · default 5 · max 7" for e in at.sidebar.expander)


@pytest.mark.parametrize("query,words", [
    ({"catalog": "../../etc/passwd"}, "not a shipped sample"),
    ({"catalog": "upload"}, "uploaded files"),
    ({"catalog": "live"}, "live servers"),
])
def test_a_link_that_falls_back_to_the_default_catalog_says_so(query, words):
    at = app(query)
    assert at.sidebar.selectbox(key="catalog").value == common.DEFAULT_SAMPLE
    notices = [w.value for w in at.warning if words in w.value]
    assert len(notices) == 1 and common.DEFAULT_SAMPLE in notices[0]
    at.sidebar.selectbox(key="catalog").set_value("five-servers").run()  # the user moved on
    assert not [w for w in at.warning if words in w.value]


def test_a_valid_link_shows_no_notice():
    at = app({"catalog": "five-servers", "ctx": "32K"})
    # (a warning about the plan itself, e.g. schemas that would not fit 32K, is not a link notice)
    assert not [w for w in at.warning if "link" in w.value or "ignored" in w.value]
    at2 = app({"catalog": "five-servers", "ctx": "33K"})  # not a choice: ignored, and said so
    assert any("ctx" in w.value and "ignored" in w.value for w in at2.warning)


BROKEN = {"name": "Uploaded", "servers": [{"name": "docs", "tools": [
    {"name": "search_docs", "description": "Search the docs.", "inputSchema": {"type": "object"}},
    {"description": "A tool without a name."},
]}]}


def upload(at: AppTest, files: list[tuple[str, bytes]]) -> None:
    """What the file uploader's on_change stores, as a user's upload does."""
    at.session_state["_upload_store"] = files


def test_uploads_stay_for_the_session_and_problems_show_at_the_top():
    at = app()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    upload(at, [("mine.yaml", yaml.safe_dump(BROKEN).encode())])
    at.run()
    assert not at.exception, at.exception
    assert "Uploaded" in at.text[0].value  # the Overview names the uploaded catalog
    # The skipped tool is reported at the top of the page, before the headline numbers.
    errors = [e.value for e in at.error]
    assert errors and errors[0].startswith("The catalog loaded with problems: 1 item skipped")
    order = [type(e).__name__ for e in at.main]
    assert order.index("Error") < order.index("Metric")  # the page still shows the rest, below
    # Other pages, and the Live page where the uploader is not drawn, keep the upload.
    at.switch_page("toolsearch/ui/live.py").run()
    at.switch_page("toolsearch/ui/costs.py").run()
    assert at.sidebar.selectbox(key="catalog").value == common.UPLOAD
    assert any("Kept for this session: mine.yaml" in c.value.replace("\\", "") for c in at.sidebar.caption)
    assert at.get("plotly_chart")  # the uploaded catalog's charts
    at.sidebar.button(key="uploads_clear").click().run()
    assert any("No catalog loaded" in i.value for i in at.info)


def test_palettes_one_per_meaning_and_aa_contrast():
    seen: dict[str, str] = {}
    for meaning, colors in palette.PALETTES.items():
        for name, color in colors.items():
            # AA for normal text on every fill, with the text color the app uses there.
            assert palette.contrast_ratio(palette.text_on(color), color) >= 4.5, (meaning, name, color)
            assert seen.setdefault(color.lower(), meaning) == meaning, f"{color} serves {seen[color.lower()]} and {meaning}"
    assert palette.cell_style("#0072B2") == "color: #ffffff; background-color: #0072B2"
    assert palette.cell_style("#E69F00") == "color: #000000; background-color: #E69F00"
    # The state cells of a table use it.
    import pandas as pd

    styled = common.style_states(pd.DataFrame([{"server": "a", "state": "summary", "tokens": 29700}]))
    html = styled.to_html()
    assert ">29,700</td>" in html and "color: #000000;\n  background-color: #E69F00;" in html
    # WCAG reference values.
    assert round(palette.contrast_ratio("#000000", "#ffffff"), 1) == 21.0
    assert round(palette.contrast_ratio("#777777", "#ffffff"), 2) == 4.48


def test_offline_assets_and_running_indicator():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    # "viewer" keeps the header's running indicator ("minimal" hides it) and hides the Deploy
    # button; tests/test_browser.py sees the indicator during a run.
    assert config["client"]["toolbarMode"] == "viewer"
    assert config["browser"]["gatherUsageStats"] is False
    from toolsearch.ui import router

    source = (ROOT / "toolsearch" / "ui" / "router.py").read_text()
    assert "page_icon=str(FAVICON)" in source
    assert router.FAVICON == ROOT / "toolsearch" / "ui" / "favicon.png"
    assert router.FAVICON.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


MARKDOWN_NAME = "**bold** ![img](http://example.invalid/x.png)"
MARKDOWN_SERVER = {"name": "Markdown names", "servers": [{"name": MARKDOWN_NAME, "tools": [
    {"name": f"tool_{i}", "description": f"Tool number {i} of a server whose name is Markdown.",
     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}} for i in range(3)]}]}


@pytest.mark.parametrize("page", ["app.py", "toolsearch/ui/costs.py", "toolsearch/ui/model_view.py"])
def test_a_server_name_with_markdown_is_shown_literally_in_every_table(page):
    """Server names are catalog text: a table must show them as written, never render them (an
    image in Markdown would make the browser fetch from another host)."""
    at = app()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    upload(at, [("md.yaml", yaml.safe_dump(MARKDOWN_SERVER).encode())])
    at.run()
    if page != "app.py":
        at.switch_page(page).run()
        if page == "toolsearch/ui/model_view.py":
            at.run()
    assert not at.exception, at.exception
    assert not at.table  # st.table renders its cells as Markdown
    shown = [cell for table in literal_tables(at).values() if "server" in table.columns for cell in table["server"]]
    if page != "toolsearch/ui/model_view.py" or shown:
        assert MARKDOWN_NAME in shown
    rendered = "\n".join(m.value for m in [*at.markdown, *at.caption])
    # Escaped wherever Markdown is used (a word holding a URL is a code span, shown as written).
    assert "![img](http://example.invalid" not in re.sub(r"`[^`]*`", "", rendered)


def test_tier_change_notice_names_its_cause():
    """A tier or form change is announced as caused by the catalog when the catalog changed, and
    by the last setting when a setting did."""
    config = parse_config({})
    before = inspector_of([SAMPLES / "team-workspace.yaml"], "prefixed").plan(config, 200_000)
    after = inspector_of([SAMPLES / "cloudflare-flat.yaml"], "prefixed").plan(config, 200_000)
    assert (before.tier, before.listing_form) != (after.tier, after.listing_form)
    at = app()
    assert "Changed with" not in markdown(at)
    at.sidebar.selectbox(key="catalog").set_value("cloudflare-flat").run()
    assert not at.exception, at.exception
    text = markdown(at)
    assert "Changed with the catalog: " in text and "Changed with the last setting" not in text
    assert f"form {before.listing_form} → {after.listing_form}" in text or f"tier {before.tier} → {after.tier}" in text
    at.sidebar.slider(key="threshold_pct").set_value(0.0).run()
    assert not at.exception, at.exception
    zero = inspector_of([SAMPLES / "cloudflare-flat.yaml"], "prefixed").plan(
        parse_config({"threshold_pct": 0.0}), 200_000)
    assert (zero.tier, zero.listing_form) != (after.tier, after.listing_form)  # a budget of 0: nothing listed
    assert f"Changed with the last setting: form {after.listing_form} → {zero.listing_form}" in markdown(at)
    # said once: the notice under the tier bar, not also as a toast with the same words
    assert [t.value for t in at.toast] == []
    assert sum("Changed with the last setting" in m.value for m in at.markdown) == 1


def test_samples_combine_in_the_sidebar_and_in_the_link():
    at = app({"catalog": "team-workspace", "with": "cloudflare-flat"})
    assert at.sidebar.multiselect(key="catalog_more").value == ["cloudflare-flat"]
    team = inspector_of([SAMPLES / "team-workspace.yaml"]).catalog
    cloudflare = inspector_of([SAMPLES / "cloudflare-flat.yaml"]).catalog
    servers = len(team.servers) + len(cloudflare.servers)
    assert {s.name for s in team.servers}.isdisjoint(s.name for s in cloudflare.servers)
    line = at.text[0].value
    assert f"· {servers} servers · source: team-workspace + cloudflare-flat" in line, line
    assert next(m.value for m in at.metric if m.label == "Servers") == f"{servers:,}"
    # the choice is in the URL, so the link reproduces it; leaving it out drops the extra servers
    assert at.query_params["with"] == ["cloudflare-flat"] or at.query_params["with"] == "cloudflare-flat"
    at.sidebar.multiselect(key="catalog_more").set_value(["cloudflare-flat", "five-servers"]).run()
    assert not at.exception, at.exception
    assert at.query_params["with"] in (["cloudflare-flat,five-servers"], "cloudflare-flat,five-servers")
    at.sidebar.multiselect(key="catalog_more").set_value([]).run()
    assert "with" not in at.query_params
    assert f"· {len(team.servers)} servers ·" in at.text[0].value
    # the choice is kept across pages
    at.sidebar.multiselect(key="catalog_more").set_value(["five-servers"]).run()
    at.switch_page("toolsearch/ui/costs.py").run()
    at.switch_page("toolsearch/ui/overview.py").run()
    assert at.sidebar.multiselect(key="catalog_more").value == ["five-servers"]


def test_uploads_combine_with_samples_and_a_bad_link_name_is_said():
    at = app({"with": "cloudflare-flat,../../etc/passwd"})
    assert at.sidebar.multiselect(key="catalog_more").value == ["cloudflare-flat"]
    assert any("not a shipped sample; it was left out" in w.value for w in at.warning)
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    upload(at, [("mine.yaml", yaml.safe_dump(BROKEN).encode())])
    at.run()
    assert not at.exception, at.exception
    cloudflare = inspector_of([SAMPLES / "cloudflare-flat.yaml"]).catalog
    assert f"· {len(cloudflare.servers) + 1} servers · source: Uploaded + cloudflare-flat" in at.text[0].value
    assert at.query_params["catalog"] in (["upload"], "upload")


def test_state_words_are_summary_never_groups_on_a_large_catalog():
    # at 200K the Cloudflare sample's listing is all summary lines: every table says "summary"
    at = app({"catalog": "cloudflare-flat"})
    steps = literal_tables(at)["steps_table"]
    assert "summary" in list(steps["form"]) and "groups" not in list(steps["form"])
    shown = " ".join(str(x) for t in literal_tables(at).values() for x in t.to_numpy().ravel())
    assert not re.search(r"\bgroups\b", shown)


def test_budget_widgets_default_to_the_current_setting_not_the_range_minimum():
    """The browser shows (and, on a rerun it sends before applying the session's value, reports) a
    widget's default. The budget sliders and number inputs are drawn with the setting's current value
    as that default, so a tab click right after a page opens cannot set threshold_pct and
    listing_max_tokens to the range minimum (0 and 200)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"pct": "2.5", "cap": "3000"})
    at.run()
    assert not at.exception, at.exception

    def defaults():
        return [list(at.sidebar.slider(key="threshold_pct").proto.default),
                list(at.sidebar.slider(key="listing_max_tokens").proto.default),
                at.sidebar.number_input(key="threshold_pct_exact").proto.default,
                at.sidebar.number_input(key="listing_max_tokens_exact").proto.default]

    assert defaults() == [[2.5], [3000], 2.5, 3000]
    at.sidebar.slider(key="listing_max_tokens").set_value(1234).run()
    at.sidebar.number_input(key="threshold_pct_exact").set_value(0.7).run()
    assert not at.exception, at.exception
    assert defaults() == [[0.7], [1234], 0.7, 1234]
    # Streamlit would log a warning for a widget with both a default and a session value.
    for path in (ROOT / ".streamlit" / "config.toml", ROOT / "toolsearch" / "ui" / "entry" / ".streamlit" / "config.toml"):
        assert tomllib.loads(path.read_text())["global"]["disableWidgetStateDuplicationWarning"] is True


def test_the_sidebar_says_where_the_cited_docs_pages_are_outside_the_checkout(tmp_path, monkeypatch):
    """Captions cite ``docs/reference.md §…``; run from a folder without those pages (as an
    installed copy is), the sidebar says where they are; from the checkout it says nothing."""
    def captions() -> list[str]:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.run()
        assert not at.exception, at.exception
        return [c.value for c in at.sidebar.caption if "cite pages of the manual" in c.value]

    monkeypatch.chdir(ROOT)
    assert captions() == []
    monkeypatch.chdir(tmp_path)
    shown = captions()
    assert len(shown) == 1 and common.md_escape(str(ROOT / "docs")) in shown[0], shown
    assert shown[0].startswith("Captions cite pages of the manual as docs/… (docs/reference.md §7 and so on); "
                               "this copy keeps them in "), shown
