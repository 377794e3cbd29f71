"""The catalog sources the sidebar offers, by their labels: the shipped samples (the default
one named here), uploaded files and live servers."""

DEFAULT_SAMPLE = "team-workspace"
UPLOAD = "Upload files…"
LIVE = "Live servers"
