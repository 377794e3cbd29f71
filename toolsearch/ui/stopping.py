"""The app's stop deadline: a stop signal ends the app within seconds, open connections or not.

Streamlit serves the app with uvicorn, which on SIGTERM or Ctrl-C stops accepting connections and
then waits, with no time limit, for every open connection and request to finish. A browser tab
whose last script run is still busy (a live server that does not answer, say) can so hold the app
open for ever, and with it the stdio servers it started. :func:`install` wraps uvicorn's handlers
for those signals (from the app's lifespan, in the main thread): the first stop signal stops every
live server this process started at once (:func:`toolsearch.live.reaper.stop_all`), and if the
app is still running :data:`DEADLINE` seconds later, it tells uvicorn to stop waiting
(``force_exit``, what a second Ctrl-C does) and says so on stderr; :data:`LAST_RESORT` seconds
after that the process ends without further clean-up.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

#: Seconds from the first stop signal until open connections are no longer waited for.
DEADLINE = 5.0
#: Seconds after :data:`DEADLINE` until the process ends without further clean-up.
LAST_RESORT = 5.0
#: The signals that stop the app (those uvicorn handles).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

_started = threading.Event()


def install(deadline: float = DEADLINE, last_resort: float = LAST_RESORT,
            stop_servers: Callable[[], None] | None = None) -> bool:
    """Wrap the current SIGINT and SIGTERM handlers (uvicorn's, while it serves) with the stop
    deadline described in this module's docstring.

    Args:
        deadline: seconds from the first stop signal until uvicorn stops waiting for open
            connections (``force_exit``).
        last_resort: seconds after ``deadline`` until ``os._exit(128 + signal number)``.
        stop_servers: called once, at the first stop signal, on a helper thread; default
            :func:`toolsearch.live.reaper.stop_all` (every live server this process started).

    Returns:
        ``True`` if the handlers were wrapped, ``False`` where signals cannot be handled (not the
        main thread, as in a test harness running the app's scripts). Never raises.
    """
    if threading.current_thread() is not threading.main_thread():
        return False
    if stop_servers is None:
        from toolsearch.live.reaper import stop_all  # noqa: PLC0415 - the app's live servers

        stop_servers = stop_all
    for signum in STOP_SIGNALS:
        previous = signal.getsignal(signum)
        handler = _handler(previous, deadline, last_resort, stop_servers)
        try:
            signal.signal(signum, handler)
        except (ValueError, OSError):  # pragma: no cover - main thread checked above
            return False
    return True


def _handler(previous: Any, deadline: float, last_resort: float,
             stop_servers: Callable[[], None]) -> Callable[[int, FrameType | None], None]:
    """A signal handler that starts the deadline (first signal only), then runs ``previous``."""

    def on_stop(signum: int, frame: FrameType | None) -> None:
        if not _started.is_set():
            _started.set()
            threading.Thread(target=_deadline, name="toolsearch-stop-deadline", daemon=True,
                             args=(signum, previous, deadline, last_resort, stop_servers)).start()
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:  # nobody handles it: what the signal would have done
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)
        # SIG_IGN: ignored, as before

    return on_stop


def _deadline(signum: int, previous: Any, deadline: float, last_resort: float,
              stop_servers: Callable[[], None]) -> None:
    """The helper thread: stop the live servers, then force the stop when the deadline passes."""
    try:
        stop_servers()
    except Exception:  # noqa: BLE001 - stopping must go on whatever a server does
        pass
    time.sleep(deadline)
    # uvicorn's handler is a bound method of its server: a second Ctrl-C sets this flag
    server = getattr(previous, "__self__", None)
    if server is not None and hasattr(server, "force_exit"):
        print(f"toolsearch: still stopping {deadline:g} s after the stop signal; "
              "no longer waiting for open browser connections", file=sys.stderr, flush=True)
        server.force_exit = True
    time.sleep(last_resort)
    print(f"toolsearch: still running {deadline + last_resort:g} s after the stop signal; ending now",
          file=sys.stderr, flush=True)
    os._exit(128 + signum)
