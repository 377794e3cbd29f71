"""toolsearch inspector, installed: the script ``toolsearch app`` serves (``streamlit run`` on it).

The same frame and pages as a checkout's ``app.py`` (:func:`toolsearch.ui.router.run`).
"""

from toolsearch.ui import router

router.run()
