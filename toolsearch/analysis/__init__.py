"""Analyses built on the engine: ours to change.

What belongs here: everything that asks questions of the reference behavior without being part of
it: the context-length sweep and recommendations (``sweep``, ``recommend``), cache and collapse
comparisons (``cachediff``, ``collapse``), lint and invisible-character checks (``lint``,
``invisible``), search variants and retrieval evaluation (``variants``, ``evaluation``), other
harnesses' strategies and skills (``strategies``, ``skills``), synthetic catalogs
(``synthetic``), recorded sessions (``session_formats``, ``sessions``), scope comparison
(``scope_compare``) and the HTML report (``report``).

May import: ``toolsearch.engine`` and the package root (``__version__``) (``sessions`` masks
secrets in session text with ``engine.secrets.scrub_text``); never ``toolsearch.live``,
``toolsearch.cli`` nor ``toolsearch.ui``.
Nothing here starts a process or talks to a server.
"""
