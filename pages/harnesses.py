"""The Harnesses page, from a checkout: the view is toolsearch/ui/harnesses.py."""

from toolsearch.ui import router

router.run_page("harnesses")
