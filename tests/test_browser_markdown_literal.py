"""Real-browser check: server and catalog text passed through ``md_escape`` reads as written.

Streamlit's Markdown does more than CommonMark: it turns ``:material/NAME:`` into an icon before
the escapes are read, and in the text after the escapes are resolved it draws ``:streamlit:`` as
its logo and replaces a standing ``->``, ``<-``, ``<->``, ``--``, ``>=``, ``<=`` and ``~=`` with
→ ← ↔ — ≥ ≤ ≈. A server's error ``:material/check_circle: done`` showed a green tick. A small
Streamlit script shows each text in an alert, a caption and an expander label, in Debian's
Chromium.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import free_port

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
TEXTS = [
    ":material/check_circle: all checks passed",
    "a:material/home:b and :material/Home:",
    "made with :streamlit: and x:streamlit:y",
    "a -> b <- c <-> d -- e >= 5 <= 6 ~= 7",
    "plain a/b, x >=y, --flag and -> at the end ->",
]
SCRIPT = """
import json, os, sys
sys.path.insert(0, os.environ["TOOLSEARCH_ROOT"])
import streamlit as st
from toolsearch.ui.common import md_escape
for number, text in enumerate(json.loads(os.environ["TEXTS"])):
    st.error(md_escape(text))
    st.caption(md_escape(text))
    with st.expander(md_escape(text)):
        st.write(number)
"""


def test_escaped_text_is_shown_as_written(tmp_path: Path, chromium_browser) -> None:
    script = tmp_path / "show.py"
    script.write_text(SCRIPT)
    port = free_port()
    env = {**os.environ, "TOOLSEARCH_ROOT": str(ROOT), "TEXTS": json.dumps(TEXTS)}
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
                             "--server.address", "127.0.0.1", "--server.port", str(port),
                             "--browser.gatherUsageStats", "false"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                assert time.time() < deadline and proc.poll() is None, "streamlit did not start"
                time.sleep(0.3)
        context = chromium_browser.new_context(viewport={"width": 1400, "height": 2000})
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=60000)
            page.wait_for_function(f"document.querySelectorAll('[data-testid=stExpander]').length >= {len(TEXTS)}",
                                   timeout=30000)
            shown = page.evaluate("""() => [...document.querySelectorAll(
                    '[data-testid=stAlert] [data-testid=stMarkdownContainer], '
                    + '[data-testid=stCaptionContainer], [data-testid=stExpander] summary [data-testid=stMarkdownContainer]')]
                .map(el => [el.innerText.trim(),
                            el.querySelectorAll('img, [role=img], [data-testid=stIconMaterial]').length])""")
        finally:
            context.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert len(shown) == 3 * len(TEXTS)
    for number, text in enumerate(TEXTS):
        for where, (inner, images) in zip(("alert", "caption", "expander label"), shown[3 * number:3 * number + 3]):
            assert (inner.replace("\n", " "), images) == (text, 0), (where, text)
