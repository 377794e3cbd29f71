"""Analyses built on the engine: ours to change.

What belongs here: everything that asks questions of the reference behavior without being part of
it: the context-length sweep and recommendations (``sweep``, ``recommend``), cache and collapse
comparisons (``cachediff``, ``collapse``), lint and invisible-character checks (``lint``,
``invisible``; the rule table alone in ``lint_rules``), search variants and retrieval evaluation (``variants``, ``evaluation``), other
harnesses' strategies and skills (``strategies``, ``skills``), synthetic catalogs
(``synthetic``), recorded sessions (``session_formats``, ``sessions``), scope comparison
(``scope_compare``), the HTML report (``report``) and the whole design review built for it
(``review``), its plotly figures and colors (``charts``, ``palette``; shared with the app), per-tool
costs (``costs``), the build gate (``check``) and where the shipped samples are (``samples``).

May import: ``toolsearch.engine`` and the package root (``__version__``) (``sessions`` masks
secrets in session text with ``engine.secrets.scrub_text``); never ``toolsearch.live``,
``toolsearch.cli`` nor ``toolsearch.ui``.
Nothing here starts a process or talks to a server.
"""
