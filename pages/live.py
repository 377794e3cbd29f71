"""The Live servers page, from a checkout: the view is toolsearch/ui/live.py."""

from toolsearch.ui import router

router.run_page("live")
