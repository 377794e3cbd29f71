"""The Cache & collapse page, from a checkout: the view is toolsearch/ui/cache_diff.py."""

from toolsearch.ui import router

router.run_page("cache_diff")
