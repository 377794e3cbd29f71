"""The app frame and router: page setup, the shared sidebar, the navigation and the chosen page.

Both ways in run :func:`run`: ``streamlit run app.py`` in a checkout and ``toolsearch app`` from
an installed wheel (``toolsearch/ui/entry/app.py``). Either way the pages are this package's view
scripts, one per page.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import streamlit as st

from toolsearch.live.guard import is_loopback_host, launch_token
from toolsearch.live.webguard import BrowserGuard
from toolsearch.ui import common, stopping

#: This package's folder: the view scripts (one per page) and the favicon.
UI_DIR = Path(__file__).resolve().parent
#: The favicon is a local file: a Material icon name would make the browser fetch it from a font host.
FAVICON = UI_DIR / "favicon.png"

#: The pages in menu order, as (view script stem, title, icon); the first is the default page.
#: Each page's url_path is its script stem: Streamlit runs the first request of a fresh server in
#: its legacy pages/ mode when a ``pages/`` folder sits next to the main script, which knows pages
#: by file stem, so deep links resolve in both modes.
PAGES = (
    ("overview", "Overview", ":material/dashboard:"),
    ("model_view", "What the model sees", ":material/visibility:"),
    ("tuning", "Tuning", ":material/tune:"),
    ("report", "Report", ":material/description:"),
    ("search", "Search", ":material/search:"),
    ("quality", "Search quality & lint", ":material/fact_check:"),
    ("costs", "Costs", ":material/payments:"),
    ("cache_diff", "Compare & collapse", ":material/difference:"),
    ("scopes", "Scopes", ":material/group_work:"),
    ("live", "Live servers", ":material/cable:"),
    ("sessions", "Sessions", ":material/history:"),
    ("strategies", "Strategies", ":material/compare_arrows:"),
    ("harnesses", "Harnesses", ":material/swap_horiz:"),
)

#: The menu's sections, as (heading, view script stems); every page of :data:`PAGES` once, in its order.
SECTIONS = (
    ("Settings to ship", ("overview", "model_view", "tuning", "report")),
    ("Search", ("search", "quality")),
    ("Inspect", ("costs", "cache_diff", "scopes", "live")),
    ("Evidence and other designs", ("sessions", "strategies", "harnesses")),
)


def app_options() -> dict[str, Any]:
    """Keyword arguments for ``st.App`` (:func:`entry`): :class:`BrowserGuard` as the outermost
    middleware, and a lifespan that puts the stop deadline in place (:mod:`toolsearch.ui.stopping`)
    and opens a browser tab at start unless ``server.headless`` is on (``streamlit run`` serves an
    ``st.App`` without opening one; a plain script run opens one).

    Returns:
        ``{"middleware": [...], "lifespan": ...}``. Imports Streamlit and Starlette.
    """
    from contextlib import asynccontextmanager  # noqa: PLC0415

    from starlette.middleware import Middleware  # noqa: PLC0415
    from streamlit import cli_util, config  # noqa: PLC0415
    from streamlit.web.server import server_util  # noqa: PLC0415

    @asynccontextmanager
    async def open_browser(_app: Any):
        stopping.install()  # a stop signal ends the app within seconds, browser tabs open or not
        notice = exposure_notice(config.get_option("server.address"), config.get_option("server.port"))
        if notice:  # said at start, before any browser opens a page (which prints the token too late)
            print(notice, file=sys.stderr, flush=True)
            launch_token()
        if not config.get_option("server.headless"):
            cli_util.open_browser(server_util.get_url(config.get_option("browser.serverAddress")))
        yield

    return {"middleware": [Middleware(BrowserGuard)], "lifespan": open_browser}


def exposure_notice(address: Any, port: Any) -> str | None:
    """The line the app prints at start when it listens on more than loopback, or ``None``.

    Streamlit's own start-up text then still reads ``URL: http://localhost:PORT`` (the
    ``browser.serverAddress`` setting), which does not say that other machines can reach the app.
    An empty address (``--server.address=``) makes Streamlit listen on every address, as
    ``0.0.0.0`` does.
    """
    text = str(address or "").strip()
    if text and is_loopback_host(text if ":" not in text or text.startswith("[") else f"[{text}]"):
        return None
    where = f"{text}:{port}" if text and ":" not in text else f"[{text}]:{port}" if text else f"port {port}"
    scope = " (every address of this machine)" if text in ("", "0.0.0.0", "::") else ""
    return (f"toolsearch: the app listens on {where}{scope}, not on loopback only "
            "(--server.address, STREAMLIT_SERVER_ADDRESS or a .streamlit/config.toml says so): "
            "other machines that reach it can open every page; starting servers from the Live servers "
            "page needs the launch token printed below. To keep it on this machine, leave out "
            "--server.address and STREAMLIT_SERVER_ADDRESS.")


def serving() -> bool:
    """Whether the main script is being imported by ``streamlit run`` to find what to serve
    (outside any browser session), rather than run for a browser session.

    The main scripts (a checkout's ``app.py`` and the installed one) then assign
    ``app = st.App(__file__, **app_options())``: Streamlit finds that assignment by reading the
    script's source, so it must be written out in each script."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: PLC0415

    return get_script_run_ctx(suppress_warning=True) is None


def run() -> None:
    """Render the frame and run the page the URL names (this package's ``<stem>.py`` for each
    entry of :data:`PAGES`)."""
    launch_token()  # made once per process and printed in this terminal (needed by browsers on other machines)
    st.set_page_config(page_title="toolsearch inspector", page_icon=str(FAVICON), layout="wide")
    pages = [st.Page(UI_DIR / f"{stem}.py", title=title, icon=icon,
                     **({"default": True} if i == 0 else {"url_path": stem}))
             for i, (stem, title, icon) in enumerate(PAGES)]

    # A thin moving bar along the top while a script run lasts longer than a quarter second.
    # Streamlit's own running indicator waits about half a second and can miss runs whose drawing
    # keeps the browser busy; this one is CSS only (the page's run state is an attribute of the app's
    # root), and its animation runs on the compositor, so it shows even while the page is drawing.
    st.html(common.BUSY_BAR_HTML)
    # Rows of metrics that wrap at narrow widths keep their lines close together.
    st.html(common.METRIC_ROWS_CSS)
    # Streamlit's grids offer a CSV download that does not guard formula cells: hidden.
    st.html(common.NO_GRID_CSV_CSS)
    # A slider's value reads on either theme (the primary color does not on the dark one).
    st.html(common.SLIDER_VALUE_CSS)
    # The search-variant pickers show every chosen variant, not five lines and a scroll; the Search
    # page's "Why:" lines are captions under their card's title (one element: no extra gap on any page).
    st.html(common.WHOLE_TAGS_CSS + common.WHY_LINE_CSS)

    by_stem = {stem: page for (stem, _title, _icon), page in zip(PAGES, pages)}
    # Every page in view, in sections (Streamlit folds pages past the tenth under "View more").
    navigation = st.navigation({section: [by_stem[stem] for stem in stems] for section, stems in SECTIONS},
                               expanded=True)
    st.session_state["_view"] = common.sidebar(navigation.url_path)
    common.link_notices()
    try:
        navigation.run()
    finally:
        # The view belongs to this run only; a page run on its own renders the sidebar itself.
        st.session_state.pop("_view", None)



def run_page(stem: str) -> None:
    """Run the view script ``<stem>.py`` of this package as a page script, in a fresh ``__main__``
    namespace as Streamlit runs a page file: what each checkout ``pages/<stem>.py`` does.

    Streamlit runs such a file itself only for the first request of a fresh server (its legacy
    pages/ mode, which finds pages by file stem, e.g. for a deep link to ``/search``); the view
    then renders the frame around itself (:func:`toolsearch.ui.common.view`)."""
    path = UI_DIR / f"{stem}.py"
    code = compile(path.read_bytes(), str(path), "exec")
    module = types.ModuleType("__main__")
    module.__dict__["__file__"] = str(path)
    exec(code, module.__dict__)  # noqa: S102 - our own view script, run as Streamlit runs a page
