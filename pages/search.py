"""The Search page, from a checkout: the view is toolsearch/ui/search.py."""

from toolsearch.ui import router

router.run_page("search")
