"""toolsearch inspector, from a checkout: ``streamlit run app.py``.

The frame, router and pages are :mod:`toolsearch.ui` (:mod:`toolsearch.ui.router`); an installed
package serves the same app with ``toolsearch app``.
"""

import streamlit as st

from toolsearch.ui import router

if router.serving():  # `streamlit run` reads this first: serve the app behind the browser guard
    app = st.App(__file__, **router.app_options())
else:  # a browser session runs this script: the frame, the sidebar and the page
    router.run()
