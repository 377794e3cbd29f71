"""``toolsearch app``: serve the inspector from an installed package, from any directory.

The app is the Streamlit views of ``toolsearch.ui``; this module starts ``streamlit run`` on the
view package's main script by its path (the command line never imports the views). That script's
folder carries the app's Streamlit settings (``.streamlit/config.toml``: loopback only, no usage
statistics, the header's running indicator kept, no full garbage collection after every run), the
same file as a checkout's, so the installed app and ``streamlit run app.py`` behave alike.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

COMMANDS = ("app",)

#: The installed app's main script (``toolsearch/ui/entry/app.py``), found by path.
APP_SCRIPT = Path(__file__).resolve().parent.parent / "ui" / "entry" / "app.py"


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``app`` subcommand to ``sub``."""
    p = sub.add_parser(
        "app", help="start the inspector app in the browser (Streamlit; loopback only unless told otherwise)",
        usage="toolsearch app [STREAMLIT OPTIONS]",
        description="Serve the toolsearch inspector (every page: Overview, Search, Costs, Tuning, Live servers, "
                    "Report, ...) on http://localhost:8501 by default. The app listens on loopback only; "
                    "to reach it from another machine pass --server.address with an address of this machine "
                    "(starting live servers from there then needs the launch token the app prints here). "
                    "Any further option is passed to 'streamlit run'.")
    p.set_defaults(streamlit_options=[])


def streamlit_command(options: list[str]) -> list[str]:
    """The command line that serves the app: ``python -m streamlit run <main script> [options]``
    in this interpreter, so the app imports the same installed ``toolsearch``."""
    return [sys.executable, "-m", "streamlit", "run", str(APP_SCRIPT), *options]


def run(args: argparse.Namespace) -> int:
    """Start Streamlit on the app (it replaces this process where the system allows, so Ctrl-C and
    signals reach Streamlit directly). Returns Streamlit's exit status otherwise."""
    command = streamlit_command(list(args.streamlit_options))
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(command[0], command)  # does not return
    return subprocess.call(command)  # pragma: no cover - not POSIX
