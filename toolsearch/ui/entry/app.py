"""toolsearch inspector, installed: the script ``toolsearch app`` serves (``streamlit run`` on it).

The same frame and pages as a checkout's ``app.py`` (:func:`toolsearch.ui.router.run`), served the
same way: ``streamlit run`` imports this file and serves ``app``, an ``st.App`` with the guard of
:mod:`toolsearch.live.webguard` in front; each browser session runs this file as its page script.
"""

import streamlit as st

from toolsearch.ui import router

if router.imported_by_server():  # `streamlit run` serves this st.App (no framing, no foreign websockets)
    app = st.App(__file__, **router.app_options())
else:  # a browser session's run
    router.run()
