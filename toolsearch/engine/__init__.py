"""The engine: the reference behavior, reproduced exactly.

What belongs here: every module whose output the differential checks compare with the reference
harness, and the helpers they need: configuration (``config``, docs/reference.md §1), catalog loading
(``catalog``), registration and schema normalization (``registration``, ``schema``; docs/reference.md §21-§25),
the wording profile and its shipped data (``profile``, ``profiles/``), token counting
(``tokens``, docs/reference.md §3), the listing and its degradation (``listing``, docs/reference.md §5), tiers and budgets
(``plan``, docs/reference.md §2, §4-§6), search (``search``, docs/reference.md §7), the bridge tools (``bridge``, docs/reference.md §6-§9,
§11), session scopes (``scopes``, docs/reference.md §2 "the session's own tool list"), the
:class:`Inspector` that ties them together, the shared ``constants`` and ``errors``, ``secrets`` (masking secrets in any text we
keep or show, for the live and analysis layers), ``gcpause`` (the garbage collector
paused while a large catalog is built), and ``wording`` (counts in words: ``1 tool``, ``2 tools``).

Change the reference modules only to follow the reference more closely: they must stay byte-faithful.

May import: the standard library, third-party libraries and other ``toolsearch.engine`` modules;
never ``toolsearch.analysis``, ``toolsearch.live``, ``toolsearch.cli`` nor ``toolsearch.ui``
(tests/test_layering.py checks it).
"""
