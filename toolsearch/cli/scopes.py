"""Command-line scopes: ``--scope`` and ``--scope-file`` (parsing and printing only).

``--scope NAME=SERVER,SERVER[;include=P,P][;exclude=P,P]`` defines a scope (repeatable);
``--scope NAME`` (no ``=``) picks a scope of ``--scope-file FILE``; a scope file with no
``--scope NAME`` puts all of its scopes in use. Commands that answer for one session (``search``,
``describe``, ``explain``, ``call``, ``recommend``, ``strategies``, ``report``) take at most one scope; ``plan`` and
``sweep`` answer for each scope in use.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence

from ..engine.inspector import Inspector
from ..engine.scopes import Scope, ScopeError, load_scope_file, parse_scope_arg, scope_notes, select_scopes
from .textfmt import one_line


def add_scope_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--scope`` and ``--scope-file`` to a subcommand parser."""
    parser.add_argument("--scope", action="append", default=[], metavar="NAME=SERVER,...",
                        help="a session scope: only these servers' tools are in the session (repeatable; "
                             "'NAME=*' = every server; append ';include=PATTERN,...' or ';exclude=PATTERN,...' "
                             "for tools). A bare NAME picks a scope of --scope-file")
    parser.add_argument("--scope-file", metavar="FILE",
                        help="YAML with a 'scopes' mapping ({name: {servers, include, exclude}}), or a Hermes "
                             "config.yaml whose platform_toolsets become one scope per platform")


def scopes_from_args(args: argparse.Namespace, inspector: Inspector) -> list[Scope]:
    """The scopes in use, in order; notes about them go to stderr.

    Raises:
        ScopeError: a bad ``--scope`` value, an unreadable scope file, an unknown scope name.
    """
    defined: list[Scope] = []
    selected: list[str] = []
    for value in getattr(args, "scope", None) or []:
        if "=" in value:
            defined.append(parse_scope_arg(value))
        else:
            selected.append(value.strip())
    from_file: list[Scope] = []
    path = getattr(args, "scope_file", None)
    if path:
        from_file, problems = load_scope_file(path)
        if not from_file:  # the error says why, on its one line
            why = f" ({problems[0].where.removeprefix(f'{path}: ')}: {problems[0].message}" + (
                f"; {len(problems) - 1} more like it" if len(problems) > 1 else "") + ")" if problems else ""
            raise ScopeError(f"{path}: no usable scope in the file{why}")
        for problem in problems:
            print(one_line(f"toolsearch: scope file {problem.severity}: {problem.where}: {problem.message}"),
                  file=sys.stderr)
    elif selected:
        raise ScopeError(f"--scope {selected[0]}: expected NAME=SERVER,SERVER (or give --scope-file FILE to pick "
                         "a scope from it by name)")
    scopes = select_scopes(defined, from_file, selected)
    for scope in scopes:
        for note in scope_notes(scope, inspector.full_registration):
            print(one_line(f"toolsearch: warning: {note}"), file=sys.stderr)
    return scopes


def one_scope(command: str, scopes: Sequence[Scope]) -> Scope | None:
    """The single scope of a command that answers for one session.

    Raises:
        ScopeError: more than one scope in use.
    """
    if len(scopes) > 1:
        names = ", ".join(s.name for s in scopes)
        raise ScopeError(f"{command} answers for one session: pick one scope with --scope NAME "
                         f"(scopes in use: {names})")
    return scopes[0] if scopes else None


def scope_summary(inspector: Inspector) -> dict[str, Any]:
    """The ``scope`` object of JSON output: the scope's definition plus what it reaches."""
    assert inspector.scope is not None
    data = inspector.scope.to_dict()
    data["reachable_servers"] = sorted(inspector.registration.server_kinds)
    data["session_tools"] = len(inspector.registration.tools)
    data["catalog_tools"] = len(inspector.full_registration.tools)
    return data


def scope_line(inspector: Inspector) -> str:
    """``scope support: servers linear, slack (reaches linear, slack); 4 of 9 tools in the session``:
    one line, whatever the scope's name, servers and patterns hold (a newline is written ``⟨U+000A⟩``)."""
    assert inspector.scope is not None
    reach = ", ".join(sorted(inspector.registration.server_kinds)) or "no server"
    return one_line(f"scope {inspector.scope.describe()} (reaches {reach}); "
                    f"{len(inspector.registration.tools)} of {len(inspector.full_registration.tools)} tools in the session")
