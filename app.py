"""toolsearch inspector, from a checkout: ``streamlit run app.py``.

The frame, router and pages are :mod:`toolsearch.ui` (:func:`toolsearch.ui.router.run`); an
installed package serves the same app with ``toolsearch app``.
"""

from toolsearch.ui import router

router.run()
