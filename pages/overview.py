"""The Overview page, from a checkout: the view is toolsearch/ui/overview.py."""

from toolsearch.ui import router

router.run_page("overview")
