"""toolsearch inspector, from a checkout: ``streamlit run app.py``.

The frame, router and pages are :mod:`toolsearch.ui` (:func:`toolsearch.ui.router.run`); an
installed package serves the same app with ``toolsearch app``. ``streamlit run`` first imports this
file and serves ``app``, an ``st.App`` with the guard of :mod:`toolsearch.live.webguard` in front;
each browser session then runs this file as its page script.
"""

import streamlit as st

from toolsearch.ui import router

if router.imported_by_server():  # `streamlit run` serves this st.App (no framing, no foreign websockets)
    app = st.App(__file__, **router.app_options())
else:  # a browser session's run
    router.run()
