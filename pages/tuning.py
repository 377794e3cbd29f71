"""The Tuning page, from a checkout: the view is toolsearch/ui/tuning.py."""

from toolsearch.ui import router

router.run_page("tuning")
