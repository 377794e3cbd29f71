"""The What the model sees page, from a checkout: the view is toolsearch/ui/model_view.py."""

from toolsearch.ui import router

router.run_page("model_view")
