"""The Strategies page, from a checkout: the view is toolsearch/ui/strategies.py."""

from toolsearch.ui import router

router.run_page("strategies")
