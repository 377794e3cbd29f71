"""The Report page, from a checkout: the view is toolsearch/ui/report.py."""

from toolsearch.ui import router

router.run_page("report")
