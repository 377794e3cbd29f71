"""``toolsearch app``: serve the inspector from an installed package, from any directory.

The app is the Streamlit views of ``toolsearch.ui``; this module starts ``streamlit run`` on the
view package's main script by its path, through the views' launcher (``python -m
toolsearch.ui.launch``, which checks the Streamlit options first): the command line never imports
the views or Streamlit. That script's
folder carries the app's Streamlit settings (``.streamlit/config.toml``: loopback only, no usage
statistics, the header's running indicator kept, no full garbage collection after every run), the
same file as a checkout's, so the installed app and ``streamlit run app.py`` behave alike.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from ..engine.invisible import quoted

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


#: The module that checks the Streamlit options and runs ``streamlit run`` on the app
#: (``toolsearch/ui/launch.py``: only the views import Streamlit).
LAUNCHER = "toolsearch.ui.launch"


def streamlit_command(options: list[str]) -> list[str]:
    """The command line that serves the app: ``python -m toolsearch.ui.launch <main script>
    [options]`` in this interpreter, so the app imports the same installed ``toolsearch``; the
    launcher refuses an option ``streamlit run`` does not take in one line, else runs
    ``streamlit run <main script> [options]``."""
    return [sys.executable, "-m", LAUNCHER, str(APP_SCRIPT), *options]


def _option(options: list[str], name: str) -> str | None:
    """The last value given to the Streamlit option ``name`` (``--name V`` or ``--name=V``) in
    ``options``, else the environment's ``STREAMLIT_...`` setting for it, else None."""
    value = os.environ.get("STREAMLIT_" + name.removeprefix("--").replace(".", "_").upper())
    for i, item in enumerate(options):
        if item == name and i + 1 < len(options):
            value = options[i + 1]
        elif item.startswith(name + "="):
            value = item[len(name) + 1:]
    return value


#: Short options people give a web server, and the Streamlit option each one means.
SHORTHANDS = {"--port": "--server.port", "-p": "--server.port", "--host": "--server.address",
              "--address": "--server.address", "--headless": "--server.headless"}


def shorthand_problem(options: list[str]) -> str | None:
    """One line for a server option Streamlit spells otherwise (``--port 8650`` for ``--server.port
    8650``), or None: Streamlit's own refusal is a usage text of ``streamlit run``, several lines
    long, that a ``toolsearch app`` user did not type."""
    for index, item in enumerate(options):
        name, sep, value = item.partition("=")
        if name in SHORTHANDS:
            meant = SHORTHANDS[name]
            following = options[index + 1:index + 2]
            if not sep and following and not following[0].startswith("-"):
                value = following[0]  # --port 8650
            return (f"app: {name} is not an option of the app; the app takes Streamlit's options, and "
                    f"this one is {meant} (toolsearch app {meant}{sep or ' '}{_shown(value)})")
    return None


def _shown(value: str) -> str:
    """An option's value as the hint writes it: as typed when it is a plain word or number
    (``8650``, ``0.0.0.0``), else quoted; ``VALUE`` for none."""
    if not value:
        return "VALUE"
    return value if re.fullmatch(r"[\w.:-]+", value, re.ASCII) else quoted(value)


def port_problem(options: list[str]) -> str | None:
    """Why the port asked for with ``--server.port`` (or ``STREAMLIT_SERVER_PORT``) cannot serve
    the app, as one line, or None when none was asked for or it is free.

    Streamlit moves to the next free port only when none was asked for; with an explicit port it
    stops with a traceback-like message and exit status 1. The port is tried on the address the app
    will listen on (``--server.address``, else loopback), with the same reuse rule as the server.
    """
    port_text = _option(options, "--server.port")
    if port_text is None:
        return None
    try:
        port = int(port_text)
    except ValueError:
        port = -1
    if not 0 < port < 65536:
        return f"--server.port: expected a port number from 1 to 65535, got {quoted(port_text)}"
    address = _option(options, "--server.address") or "127.0.0.1"
    try:
        infos = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        return f"--server.address: {quoted(str(address))} is not an address of this machine ({exc})"
    for family, _, _, _, sockaddr in infos:  # e.g. localhost: 127.0.0.1 and ::1, as the server binds them
        try:
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(sockaddr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (f"port {port} on {address} is in use by another program; "
                        "pick another with --server.port, or leave it out to take the next free one")
            # anything else (an address family this machine lacks): Streamlit decides and says why
    return None


def run(args: argparse.Namespace) -> int:
    """Start Streamlit on the app (it replaces this process where the system allows, so Ctrl-C and
    signals reach Streamlit directly). Returns Streamlit's exit status otherwise, or 2 with one
    line on stderr when the port asked for cannot be used (:func:`port_problem`)."""
    problem = shorthand_problem(list(args.streamlit_options)) or port_problem(list(args.streamlit_options))
    if problem is not None:
        print(f"toolsearch: {problem}", file=sys.stderr)
        return 2
    command = streamlit_command(list(args.streamlit_options))
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(command[0], command)  # does not return
    return subprocess.call(command)  # pragma: no cover - not POSIX
