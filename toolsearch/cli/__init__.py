"""The ``toolsearch`` command line: argument parsing and printing only.

What belongs here: the console script's parser and commands (``commands``; :func:`main` is the
``toolsearch`` entry point), the per-topic subcommands (``diff``, ``quality``, ``scopes``,
``sessions``, ``strategies``), the pieces they share (``common``) and plain-text formatting
(``textfmt``). Computation lives in the layers below.

May import: ``toolsearch.engine``, ``toolsearch.analysis``, ``toolsearch.live`` and other
``toolsearch.cli`` modules; nothing imports this package except ``toolsearch.__main__`` (and the
app may use its argument types). Within the package, ``commands`` imports the subcommand modules
and they import only ``common`` and ``textfmt`` (no cycle).
"""

from .commands import main

__all__ = ["main"]
