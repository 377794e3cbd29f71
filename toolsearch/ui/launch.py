"""Start ``streamlit run`` on the app for ``toolsearch app``: ``python -m toolsearch.ui.launch SCRIPT
[STREAMLIT OPTIONS]``, in the process ``toolsearch app`` becomes.

The options are Streamlit's, checked here against the ``streamlit run`` command itself before it
starts: a misspelt one (``--server.prot``) is refused on one line in toolsearch's words, naming the
nearest Streamlit option, where Streamlit would print the usage of ``streamlit run``, a command the
user did not type. Options Streamlit takes run exactly as ``python -m streamlit run SCRIPT
[OPTIONS]`` would.
"""

from __future__ import annotations

import difflib
import re
import sys
from typing import Sequence

import click
from streamlit.web import cli as streamlit_cli


def streamlit_options() -> list[str]:
    """Every option ``streamlit run`` takes (``--server.port``, ``--theme.base``...), as
    the installed Streamlit declares them."""
    command = streamlit_cli.main.commands["run"]
    return sorted({name for param in command.params if isinstance(param, click.Option)
                   for name in (*param.opts, *param.secondary_opts)})


def option_problem(script: str, options: Sequence[str]) -> str | None:
    """Why ``streamlit run SCRIPT OPTIONS`` would stop with its usage text, as one line (an unknown
    option with the nearest Streamlit option, a value it refuses), or ``None`` when it takes them."""
    command = streamlit_cli.main.commands["run"]
    try:
        command.make_context("streamlit run", [script, *options])
    except click.NoSuchOption as exc:
        near = difflib.get_close_matches(exc.option_name, streamlit_options(), n=1, cutoff=0.6)
        hint = (f"did you mean {near[0]}?" if near
                else "the app takes Streamlit's options ('streamlit run --help' lists them)")
        return f"app: {exc.option_name} is not an option of the app or of Streamlit; {hint}"
    except click.UsageError as exc:  # a value Streamlit refuses, an option without its value
        # click names the option's environment variable too: not what was typed
        return "app: " + " ".join(re.sub(r" \(env var: '[^']*'\)", "", exc.format_message()).split())
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Check the options (:func:`option_problem`: one line on stderr and status 2), then run
    Streamlit as ``python -m streamlit run SCRIPT OPTIONS`` does (it does not return)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("toolsearch: app: expected the app's main script", file=sys.stderr)
        return 2
    problem = option_problem(args[0], args[1:])
    if problem is not None:
        print(f"toolsearch: {problem}", file=sys.stderr)
        return 2
    sys.argv = ["streamlit", "run", *args]
    streamlit_cli.main(prog_name="streamlit")  # as streamlit's own __main__ runs it
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
