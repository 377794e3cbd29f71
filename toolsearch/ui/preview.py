"""A whole HTML document shown in a sandboxed frame with an opaque origin.

``st.iframe`` shows an HTML string in a frame that Streamlit sandboxes with ``allow-same-origin
allow-scripts`` (and popups, forms, modals): a script in the document runs with the app's origin,
so it could read the app's page (``window.parent.document``), its cookies and storage, or talk to
the app's websocket. :func:`sandboxed_html` shows the document instead in a frame whose ``sandbox``
is :data:`SANDBOX`: its scripts run (the report's plotly charts need them) but in an opaque origin
(``window.origin`` is ``"null"``; reaching the parent's document, cookies or storage throws, and a
websocket it opens carries ``Origin: null``, which the app's server refuses), and it can neither
navigate the app's window nor open a new one.

The frame is made by a small ``st.components.v2`` component: its JavaScript (this module's own,
run in the app's page) creates the ``<iframe sandbox>`` and sets its ``srcdoc`` from the document
passed as the component's data, so the document is never parsed in the app's page. A ``data:`` URL
would not do: Chromium refuses URLs over 2 MB, and the report is larger.
"""

from __future__ import annotations

import streamlit as st

#: The frame's ``sandbox`` tokens: scripts, and downloads (a chart's "Download plot as a png"
#: button); no ``allow-same-origin`` (so the origin is opaque), no ``allow-top-navigation`` and no
#: ``allow-popups`` (a link cannot leave the frame), no forms or modal dialogs.
SANDBOX = "allow-scripts allow-downloads"

_JS = """
export default function (component) {
    const { data, parentElement } = component;
    let frame = parentElement.querySelector("iframe");
    if (!frame) {
        frame = document.createElement("iframe");
        // before the frame gets its document: a sandbox set later applies only to the next one
        frame.setAttribute("sandbox", data.sandbox);
        frame.setAttribute("referrerpolicy", "no-referrer");
        parentElement.appendChild(frame);
    }
    frame.title = data.title;
    frame.style.height = data.height + "px";
    if (frame.shownDocument !== data.html) {  // the same document again keeps its scroll place
        frame.shownDocument = data.html;
        frame.srcdoc = data.html;
    }
}
"""

# As st.iframe draws its frame: the full width, no border, the document's own colors.
_CSS = "iframe { display: block; width: 100%; border: none; margin: 0; padding: 0; color-scheme: normal; }"

_frame = st.components.v2.component("toolsearch_sandboxed_html", js=_JS, css=_CSS)


def sandboxed_html(document: str, *, height: int, title: str) -> None:
    """Show ``document`` (a whole HTML document, UTF-8 text) in a frame of ``height`` CSS pixels
    and the full width, sandboxed with :data:`SANDBOX`; the document scrolls inside the frame.

    Args:
        document: the HTML to show; its scripts run in an opaque origin.
        height: the frame's height in CSS pixels.
        title: the frame's accessible name (read by screen readers).
    """
    _frame(data={"html": document, "height": int(height), "title": title, "sandbox": SANDBOX})
