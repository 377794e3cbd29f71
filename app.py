"""toolsearch inspector: entry point and router.

Run with ``streamlit run app.py``: Streamlit imports this file, finds ``app`` (an ``st.App``) and
serves it; each browser session then runs this file as the page script. The sidebar (shared by every page) picks the catalog and the
settings; each page in ``pages/`` renders one view of what the engine computes.
"""

from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

if get_script_run_ctx(suppress_warning=True) is None:
    # Imported by `streamlit run app.py`, which then serves this st.App: Streamlit's server with a
    # guard in front that refuses framing and websockets from other sites (toolsearch/live/webguard.py).
    from toolsearch.live.webguard import app_options

    app = st.App(__file__, **app_options())
else:
    from pages import common
    from toolsearch.live.guard import launch_token

    launch_token()  # made once per process and printed in this terminal (needed by browsers on other machines)

    # The favicon is a local file: a Material icon name would make the browser fetch it from a font host.
    st.set_page_config(page_title="toolsearch inspector", page_icon=str(Path(__file__).parent / "pages" / "favicon.png"),
                       layout="wide")

    # url_path = the file stem: Streamlit runs the first request of a fresh server in its legacy
    # pages/ mode, which knows pages by file stem, so deep links resolve in both modes.
    PAGES = [
        st.Page("pages/overview.py", title="Overview", icon=":material/dashboard:", default=True),
        st.Page("pages/model_view.py", title="What the model sees", icon=":material/visibility:", url_path="model_view"),
        st.Page("pages/search.py", title="Search", icon=":material/search:", url_path="search"),
        st.Page("pages/costs.py", title="Costs", icon=":material/payments:", url_path="costs"),
        st.Page("pages/tuning.py", title="Tuning", icon=":material/tune:", url_path="tuning"),
        st.Page("pages/live.py", title="Live servers", icon=":material/cable:", url_path="live"),
        st.Page("pages/cache_diff.py", title="Cache & collapse", icon=":material/difference:", url_path="cache_diff"),
        st.Page("pages/quality.py", title="Search quality & lint", icon=":material/fact_check:", url_path="quality"),
        st.Page("pages/strategies.py", title="Strategies", icon=":material/compare_arrows:", url_path="strategies"),
        st.Page("pages/scopes.py", title="Scopes", icon=":material/group_work:", url_path="scopes"),
        st.Page("pages/sessions.py", title="Sessions", icon=":material/history:", url_path="sessions"),
        st.Page("pages/report.py", title="Report", icon=":material/description:", url_path="report"),
    ]

    # A thin moving bar along the top while a script run lasts longer than a quarter second.
    # Streamlit's own running indicator waits about half a second and can miss runs whose drawing
    # keeps the browser busy; this one is CSS only (the page's run state is an attribute of the app's
    # root), and its animation runs on the compositor, so it shows even while the page is drawing.
    st.html(common.BUSY_BAR_HTML)
    # Rows of metrics that wrap at narrow widths keep their lines close together.
    st.html(common.METRIC_ROWS_CSS)

    navigation = st.navigation(PAGES)
    st.session_state["_view"] = common.sidebar(navigation.url_path)
    common.link_notices()
    try:
        navigation.run()
    finally:
        # The view belongs to this run only; a page run on its own renders the sidebar itself.
        st.session_state.pop("_view", None)
