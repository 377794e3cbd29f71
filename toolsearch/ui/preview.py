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
passed as the component's data (:func:`frame_data`), so the document is never parsed in the app's page. A ``data:`` URL
would not do: Chromium refuses URLs over 2 MB, and the report is larger.
"""

from __future__ import annotations

import json

import streamlit as st

#: The frame's ``sandbox`` tokens: scripts, and downloads (a chart's "Download plot as a png"
#: button); no ``allow-same-origin`` (so the origin is opaque), no ``allow-top-navigation`` and no
#: ``allow-popups`` (a link cannot leave the frame), no forms or modal dialogs.
SANDBOX = "allow-scripts allow-downloads"

_JS = """
export default function (component) {
    // data: the settings as one line of JSON, a newline, then the document (UTF-8 bytes)
    const bytes = component.data, parentElement = component.parentElement;
    const cut = bytes.indexOf(10);
    const decoder = new TextDecoder("utf-8");
    const settings = JSON.parse(decoder.decode(bytes.subarray(0, cut)));
    const html = decoder.decode(bytes.subarray(cut + 1));
    let frame = parentElement.querySelector("iframe");
    if (!frame) {
        frame = document.createElement("iframe");
        // before the frame gets its document: a sandbox set later applies only to the next one
        frame.setAttribute("sandbox", settings.sandbox);
        frame.setAttribute("referrerpolicy", "no-referrer");
        parentElement.appendChild(frame);
    }
    frame.title = settings.title;
    frame.style.height = settings.height + "px";
    if (frame.shownDocument !== html) {  // each rerun sends the document again: the same one keeps its scroll place
        frame.shownDocument = html;
        frame.srcdoc = html;
    }
}
"""

# As st.iframe draws its frame: the full width, no border, the document's own colors.
_CSS = "iframe { display: block; width: 100%; border: none; margin: 0; padding: 0; color-scheme: normal; }"

_frame = st.components.v2.component("toolsearch_sandboxed_html", js=_JS, css=_CSS)


def frame_data(document: str, *, height: int, title: str) -> bytes:
    """The component's data for ``document``: one line of JSON with the frame's settings
    (``sandbox``: :data:`SANDBOX`; ``height`` in CSS pixels; ``title``), a newline, then the
    document as UTF-8.

    Bytes, not JSON: a report of several MB is sent again on every rerun of its page, and
    JSON-encoding it (twice: Streamlit also hashes the JSON for the element's identity) costs
    several times more than encoding and hashing the bytes.
    """
    settings = json.dumps({"sandbox": SANDBOX, "height": int(height), "title": title})  # ASCII, one line
    return settings.encode("ascii") + b"\n" + document.encode("utf-8")


def sandboxed_html(document: str, *, height: int, title: str) -> None:
    """Show ``document`` (a whole HTML document, UTF-8 text) in a frame of ``height`` CSS pixels
    and the full width, sandboxed with :data:`SANDBOX`; the document scrolls inside the frame.

    Args:
        document: the HTML to show; its scripts run in an opaque origin.
        height: the frame's height in CSS pixels.
        title: the frame's accessible name (read by screen readers).
    """
    _frame(data=frame_data(document, height=height, title=title))
