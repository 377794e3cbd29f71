"""Stopping everything a stdio server started, not just the server.

The SDK starts each stdio server in a new session (its own process group) and, when the
session ends, closes its stdin and signals that group only if the server does not exit by
itself. A server that exits at the end of its input therefore leaves running whatever it
started: children in its group, and children it moved into a group or session of their own.

Every stdio server this process starts gets a mark in its environment
(``TOOLSEARCH_SERVER_ID=<this process>.<n>``), which its descendants inherit. While the session
is open :func:`track` learns the server's pid; when the session closes, :func:`remember` first
notes the server's descendants (``psutil``: those still attached, even with an empty
environment), and once the SDK has stopped the server :func:`stop` ends, with SIGTERM and then
SIGKILL after :data:`STOP_GRACE` seconds:

* every process in the server's process group (the server's pid is the group id);
* every descendant noted while the server ran;
* every process still carrying the server's mark (children that were re-parented to init).

An ``atexit`` hook does the same for every server still open when this process ends normally.
A process can also end without running it (SIGTERM to a server that re-raises it with the default
action, as the app's web server does; SIGKILL), so with the first server a small watchdog process
starts in a session of its own: it holds a pipe from this process, learns the servers' process
groups through it, and when the pipe closes (this process has ended, however) it ends whatever
is left in those groups, below them, or carrying this process's marks. No server or child of one
outlives the process that started it.
A process that left the session, cleared its environment and detached from the server before
the session closed cannot be told apart from any other process, and is left alone.
"""

from __future__ import annotations

import atexit
import itertools
import logging
import os
import subprocess
import sys
import threading
import time
import uuid
from typing import Iterable

import psutil

logger = logging.getLogger(__name__)

#: The environment variable that marks a stdio server and everything it starts.
ENV_MARK = "TOOLSEARCH_SERVER_ID"
#: Seconds between SIGTERM and SIGKILL for what a server leaves behind.
STOP_GRACE = 1.0

_OWNER = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
_counter = itertools.count(1)
_lock = threading.Lock()
_leaders: dict[str, int | None] = {}  # mark -> the server's pid (None until known)
_seen: dict[str, list[psutil.Process]] = {}  # mark -> descendants noted while the server ran
_hooked = False
_watchdog: "subprocess.Popen[bytes] | None" = None

#: The watchdog (``python -c``; psutil and the standard library only, so it needs no import path).
_WATCHDOG = r"""
import os, sys, time, psutil
needle = b"%s=" + sys.argv[1].encode() + b"."
groups = set()
for line in sys.stdin.buffer:
    word, _, pid = line.strip().partition(b" ")
    if pid.isdigit():
        (groups.add if word == b"group" else groups.discard)(int(pid))
me, found = os.getpid(), {}
for leader in groups:
    try:
        for p in [psutil.Process(leader)] + psutil.Process(leader).children(recursive=True):
            found[p.pid] = p
    except psutil.Error:
        pass
for pid in psutil.pids():
    if pid == me or pid in found:
        continue
    try:
        hit = os.getpgid(pid) in groups
        if not hit:
            try:
                with open("/proc/%%d/environ" %% pid, "rb") as fh:
                    hit = needle in fh.read()
            except FileNotFoundError:
                hit = not os.path.isdir("/proc/self") and any(
                    v.startswith(sys.argv[1] + ".") for k, v in psutil.Process(pid).environ().items() if k == "%s")
        if hit:
            found[pid] = psutil.Process(pid)
    except (OSError, psutil.Error):
        pass
procs = list(found.values())
for p in procs:
    try:
        p.terminate()
    except psutil.Error:
        pass
gone, alive = psutil.wait_procs(procs, timeout=1.0)
for p in alive:
    try:
        p.kill()
    except psutil.Error:
        pass
""" % (ENV_MARK, ENV_MARK)


def _start_watchdog() -> bool:
    """Start the watchdog unless it runs (call with :data:`_lock` held); False if it cannot start."""
    global _watchdog
    if _watchdog is None:
        try:
            _watchdog = subprocess.Popen([sys.executable, "-c", _WATCHDOG, _OWNER], stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True, close_fds=True)
        except OSError:
            logger.warning("could not start the watchdog for stdio servers' processes", exc_info=True)
            return False
    return True


def _tell_watchdog(line: str) -> None:
    """Send the watchdog one line (``group PID`` / ``done PID``); starts it on first use."""
    with _lock:
        if not _start_watchdog():
            return
        try:
            assert _watchdog.stdin is not None
            _watchdog.stdin.write(line.encode() + b"\n")
            _watchdog.stdin.flush()
        except (OSError, ValueError):
            pass


def new_mark() -> str:
    """A fresh mark for one stdio server (put it in the server's environment as
    :data:`ENV_MARK`); registers the exit hook and starts the watchdog on first use. The watchdog
    runs before the first server starts, so what carries a mark is ended when this process ends
    even if :func:`track` never found the server (its group then stays unknown)."""
    global _hooked
    mark = f"{_OWNER}.{next(_counter)}"
    with _lock:
        _leaders[mark] = None
        _seen[mark] = []
        if not _hooked:
            atexit.register(stop_all)
            _hooked = True
        _start_watchdog()
    return mark


def _mark_of(process: psutil.Process) -> str | None:
    try:
        return process.environ().get(ENV_MARK)
    except (psutil.Error, OSError):
        return None


def track(mark: str) -> int | None:
    """Find the server started with ``mark`` among this process's children; returns its pid
    (``None`` if it is not (or no longer) running)."""
    try:
        children = psutil.Process().children()
    except psutil.Error:
        return None
    for child in children:
        if _mark_of(child) == mark:
            with _lock:
                if mark in _leaders:
                    _leaders[mark] = child.pid
            _tell_watchdog(f"group {child.pid}")
            return child.pid
    return None


def remember(mark: str) -> None:
    """Note the descendants of the server started with ``mark`` while it still runs (call it
    before the session closes the server's stdin). A server :func:`track` did not find (the
    process listing failed, or the server was not there with its mark yet) is looked for again
    first: without its pid, its group and descendants would never be stopped."""
    with _lock:
        pid = _leaders.get(mark)
    if pid is None and mark in _leaders:
        pid = track(mark)
    if pid is None:
        return
    try:
        found = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return
    with _lock:
        if mark in _seen:
            _seen[mark].extend(found)


def _leftovers(marks: dict[str, int | None], seen: Iterable[psutil.Process]) -> list[psutil.Process]:
    """Live processes in the groups of ``marks``' servers, noted in ``seen``, or carrying one of
    ``marks`` (this process and its own group excluded)."""
    me = os.getpid()
    own_group = os.getpgrp()
    groups = {pid for pid in marks.values() if pid is not None and pid != own_group}
    found: dict[int, psutil.Process] = {}
    for process in seen:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                found[process.pid] = process
        except psutil.Error:
            continue
    needles = [f"{ENV_MARK}={mark}\0".encode() for mark in marks]
    for pid in psutil.pids():
        if pid == me or pid in found:
            continue
        try:
            hit = os.getpgid(pid) in groups or _carries(pid, needles, marks)
            if hit:
                found[pid] = psutil.Process(pid)
        except (OSError, psutil.Error):
            continue
    return list(found.values())


def _carries(pid: int, needles: list[bytes], marks: dict[str, int | None]) -> bool:
    """True when process ``pid`` has one of ``marks`` in its environment (read raw from /proc
    where there is one: much cheaper than a psutil object per process)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return False  # gone
        return _mark_of(psutil.Process(pid)) in marks
    except OSError:
        return False
    return any(needle in data for needle in needles)


def _running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _wait(processes: list[psutil.Process], timeout: float) -> list[psutil.Process]:
    """The processes still running after up to ``timeout`` seconds. Polls instead of waiting
    for them: a server is this process's child, and reaping it here would take its exit status
    from the event loop that started it."""
    deadline = time.monotonic() + timeout
    alive = [p for p in processes if _running(p)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.02)
        alive = [p for p in alive if _running(p)]
    return alive


def _end(processes: list[psutil.Process], grace: float) -> None:
    for process in processes:
        try:
            process.terminate()
        except psutil.Error:
            pass
    alive = _wait(processes, grace)
    for process in alive:
        try:
            process.kill()
        except psutil.Error:
            pass
    if alive:
        _wait(alive, 1.0)


def stop(mark: str, grace: float | None = None) -> None:
    """End everything left of the server started with ``mark`` (call it after the session has
    closed): its process group, the descendants :func:`remember` noted and every process with
    its mark. SIGTERM first, SIGKILL after ``grace`` seconds (default :data:`STOP_GRACE`).
    Never raises for processes that are gone or not ours to signal."""
    with _lock:
        leader = _leaders.pop(mark, None)
        seen = _seen.pop(mark, [])
    if leader is not None:
        _tell_watchdog(f"done {leader}")
    try:
        leftovers = _leftovers({mark: leader}, seen)
        if leftovers:
            logger.info("stopping %d process(es) a stdio server left behind", len(leftovers))
            _end(leftovers, STOP_GRACE if grace is None else grace)
    except Exception:  # noqa: BLE001 - cleanup must never break closing a session
        logger.warning("could not stop what a stdio server left behind", exc_info=True)


def stop_all(grace: float | None = None) -> None:
    """:func:`stop` for every server this process started that is still open (the exit hook):
    SIGTERM, then SIGKILL after ``grace`` seconds (default :data:`STOP_GRACE`)."""
    with _lock:
        marks = dict(_leaders)
        seen = [p for mark in marks for p in _seen.get(mark, [])]
        for mark in marks:
            pid = marks[mark]
            if pid is not None:
                try:
                    seen.extend(psutil.Process(pid).children(recursive=True))
                    seen.append(psutil.Process(pid))
                except psutil.Error:
                    pass
        _leaders.clear()
        _seen.clear()
    if not marks:
        return
    try:
        leftovers = _leftovers(marks, seen)
        if leftovers:
            _end(leftovers, STOP_GRACE if grace is None else grace)
    except Exception:  # noqa: BLE001 - at exit: never a traceback
        pass


def shorten_grace(seconds: float) -> None:
    """Use at most ``seconds`` between SIGTERM and SIGKILL from now on (when being terminated)."""
    global STOP_GRACE
    STOP_GRACE = min(STOP_GRACE, seconds)


__all__ = ["ENV_MARK", "STOP_GRACE", "new_mark", "track", "remember", "stop", "stop_all", "shorten_grace"]
