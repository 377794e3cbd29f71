"""The catalog sources the sidebar offers, by their labels: the shipped samples (the default
one named here), uploaded files and live servers."""

DEFAULT_SAMPLE = "team-workspace"
UPLOAD = "Upload files…"
LIVE = "Live servers"
#: Label of the sidebar's multiselect of samples combined with the catalog source, and its URL key
#: (comma-separated sample names).
COMBINE = "Combine with samples"
COMBINE_PARAM = "with"
