"""The Sessions page, from a checkout: the view is toolsearch/ui/sessions.py."""

from toolsearch.ui import router

router.run_page("sessions")
