"""The Scopes page, from a checkout: the view is toolsearch/ui/scopes.py."""

from toolsearch.ui import router

router.run_page("scopes")
