"""The catalog sources the sidebar offers, by their labels: the shipped samples (the default
one named here), uploaded files and live servers."""

from toolsearch.engine.readers import MAX_INPUT_BYTES

DEFAULT_SAMPLE = "team-workspace"
UPLOAD = "Upload files…"
LIVE = "Live servers"
#: Where the Live servers page keeps the servers it connected ({server name: ServerSpec}): the calls
#: go to them, and sessions read against the live catalog are scrubbed of their config's secrets.
LIVE_SPECS = "live_specs"
#: Label of the sidebar's multiselect of samples combined with the catalog source, and its URL key
#: (comma-separated sample names).
COMBINE = "Combine with samples"
COMBINE_PARAM = "with"

#: The upload limit of every text uploader (catalogs, configs, query files, profiles, scopes,
#: skills, events), in Streamlit's megabytes (MiB): the readers' own limit, so the box says the
#: size that is actually read (Streamlit's default box says 200 MB). Session uploaders keep the
#: app's limit: a Hermes store is SQLite, not text, and the readers do not cap it.
TEXT_UPLOAD_MB = MAX_INPUT_BYTES // (1024 * 1024)
