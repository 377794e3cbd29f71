"""The ``toolsearch`` command line: argument parsing and printing only.

What belongs here: the console script's parser and commands (``commands``; :func:`main` is the
``toolsearch`` entry point), the per-topic subcommands (``diff``, ``quality``, ``scopes``,
``sessions``, ``strategies``, ``review``: report, costs and check; ``app``: starts the app), the
pieces they share (``common``), the help examples (``examples``) and plain-text formatting
(``textfmt``). Computation lives in the layers below.

May import: ``toolsearch.engine``, ``toolsearch.analysis``, ``toolsearch.live`` and other
``toolsearch.cli`` modules, never ``toolsearch.ui`` (the ``app`` command starts Streamlit on the
view package's main script by its path); nothing imports this package except ``toolsearch.__main__``
(and the app's views may use its argument types, ``textfmt``). Within the package, ``commands`` imports the subcommand modules
and they import only ``common``, ``examples`` and ``textfmt`` (no cycle).
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``toolsearch`` console script (:func:`toolsearch.cli.commands.main`).

    The command modules are imported here, when a command runs, not with the package: the app's
    views import ``textfmt`` from it and need none of them."""
    from .commands import main as run  # noqa: PLC0415

    return run(argv)
