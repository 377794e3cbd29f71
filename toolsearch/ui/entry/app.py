"""toolsearch inspector, installed: the script ``toolsearch app`` serves (``streamlit run`` on it).

The same frame and pages as a checkout's ``app.py`` (:mod:`toolsearch.ui.router`).
"""

import streamlit as st

from toolsearch.ui import router

if router.serving():  # `streamlit run` reads this first: serve the app behind the browser guard
    app = st.App(__file__, **router.app_options())
else:  # a browser session runs this script: the frame, the sidebar and the page
    router.run()
