"""The Costs page, from a checkout: the view is toolsearch/ui/costs.py."""

from toolsearch.ui import router

router.run_page("costs")
