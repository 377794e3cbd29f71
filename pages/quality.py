"""The Search quality & lint page, from a checkout: the view is toolsearch/ui/quality.py."""

from toolsearch.ui import router

router.run_page("quality")
