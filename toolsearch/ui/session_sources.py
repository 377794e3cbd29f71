"""Where recorded sessions come from, shared by the pages that read them (Sessions, Tuning):
the shipped samples, uploaded files and a file on this machine.

Reading is :func:`toolsearch.analysis.sessions.load_sessions` /
:func:`~toolsearch.analysis.sessions.load_sessions_bytes` (limits from
:mod:`toolsearch.engine.readers`, secrets masked on extraction); this module only caches the
result per source, keeps uploads for the browser session, and draws the controls. Session text is
untrusted: errors and skipped parts are shown with invisible characters made visible.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable, Sequence

import streamlit as st

from toolsearch.analysis.samples import samples_dir
from toolsearch.analysis.session_formats import not_a_session_file
from toolsearch.analysis.sessions import LoadedSessions, load_sessions, load_sessions_bytes, show_invisible
from toolsearch.engine.errors import ToolsearchError
from toolsearch.live.guard import token_matches
from toolsearch.live.mcpconfig import secrets_of
from toolsearch.ui import origin
from toolsearch.ui.sources import LIVE_SPECS
from toolsearch.ui.text import md_escape, upload_labels

SAMPLES_DIR = samples_dir("sample_sessions")
#: File types the session uploaders take (Hermes stores, exports, transcripts, message arrays).
UPLOAD_TYPES = ["db", "sqlite", "sqlite3", "json", "jsonl"]
#: What a session file can be, for the pages' notes.
FORMATS_WORDS = ("a Hermes state.db, a `hermes sessions export` file, a trajectory, a Claude Code transcript, "
                 "or an Anthropic / OpenAI messages array")
#: Skipped parts shown one by one before the rest are counted.
PROBLEMS_SHOWN = 20


def config_secrets() -> list[str]:
    """The secrets of the servers connected on the Live servers page in this browser session
    (:meth:`~toolsearch.live.mcpconfig.ServerSpec.secret_values`), longest first; ``[]`` when none
    is. Recorded sessions are scrubbed of them (:func:`toolsearch.analysis.sessions.scrub_sessions`)
    whichever catalog the sidebar shows: the app holds them, so it shows none of them anywhere."""
    specs = st.session_state.get(LIVE_SPECS) or {}
    return sorted(secrets_of(specs.values()), key=len, reverse=True)


def sample_files() -> dict[str, Path]:
    """``{file name: path}`` of the shipped sample sessions, the Hermes store first."""
    files = sorted(p for p in SAMPLES_DIR.glob("*") if p.suffix in (".db", ".json", ".jsonl"))
    return {p.name: p for p in sorted(files, key=lambda p: (p.suffix != ".db", p.name))}


@st.cache_resource
def _loaded_cache() -> dict[tuple, LoadedSessions]:
    """Loaded sessions per source key (path, size, mtime, format / upload digest), shared by every
    browser session; at most eight entries. Filled outside Streamlit's own caching so a progress
    bar can move while a large store is read."""
    return {}


def _cached_load(key: tuple, load: Callable[[], LoadedSessions]) -> LoadedSessions:
    store = _loaded_cache()
    if key not in store:
        if len(store) >= 8:
            store.pop(next(iter(store)))
        store[key] = load()
    return store[key]


def progress(bar: Any, label: str) -> Callable[[int, int | None], None]:
    """A progress callback that moves ``bar`` (an ``st.empty`` or ``None``)."""
    def show(done: int, total: int | None) -> None:
        if bar is None:
            return
        if total:
            bar.progress(min(1.0, done / total), text=f"{label}: {done:,} of {total:,}")
        else:
            bar.progress(0.0, text=f"{label}: {done:,}")
    return show


def load_path(path: str | Path, fmt: str | None = None, bar: Any = None) -> LoadedSessions:
    """The sessions of one file on this machine, cached per path, size and modification time.

    Raises:
        ToolsearchError: no such file, or a source that cannot be read at all (one line naming it).
    """
    path = Path(path).expanduser()
    unreadable = not_a_session_file(path)
    if unreadable:
        raise ToolsearchError(f"{path}: {unreadable}")
    stat = path.stat()
    return _cached_load(("path", str(path), stat.st_size, stat.st_mtime_ns, fmt),
                        lambda: load_sessions([str(path)], fmt, progress(bar, "Reading sessions")))


def load_upload(name: str, data: bytes, fmt: str | None = None, bar: Any = None) -> LoadedSessions:
    """The sessions of one uploaded file, cached per content digest and name.

    Raises:
        ToolsearchError: unreadable or unrecognised content, or over the input size limit (one line
            naming ``name``).
    """
    digest = hashlib.sha256(data).hexdigest()
    return _cached_load(("upload", digest, name, fmt),
                        lambda: load_sessions_bytes(data, name, fmt, progress(bar, "Reading sessions")))


def load_uploads(files: Sequence[tuple[str, bytes]], fmt: str | None = None,
                 bar: Any = None) -> tuple[list[tuple[str, LoadedSessions]], list[str]]:
    """Every uploaded file on its own: ``([(label, sessions)], [one-line error per bad file])``.
    One bad file never hides the others. Each file is named by its
    :func:`~toolsearch.ui.text.upload_labels` label (``sessions.jsonl (2nd upload)`` where files of
    one name differ), in its sessions' origins, its problems and its error, as the sidebar's
    uploads are."""
    loaded, errors = [], []
    for (_, data), label in zip(files, upload_labels(files)):
        try:
            loaded.append((label, load_upload(label, data, fmt, bar)))
        except ToolsearchError as exc:
            errors.append(str(exc))
    return loaded, errors


def show_problems(problems: Sequence[Any], where: Any = st) -> None:
    """Skipped parts of the loaded sessions, one warning each (the first :data:`PROBLEMS_SHOWN`)."""
    for problem in problems[:PROBLEMS_SHOWN]:
        where.warning(md_escape(show_invisible(f"Skipped: {problem}")), icon=":material/warning:")
    if len(problems) > PROBLEMS_SHOWN:
        where.warning(f"… and {len(problems) - PROBLEMS_SHOWN} more skipped parts", icon=":material/warning:")


def show_error(message: str, where: Any = st) -> None:
    """One error line from a session source, shown literally."""
    where.error(md_escape(show_invisible(message)), icon=":material/warning:")


def store_uploads(uploader_key: str, store_key: str) -> Callable[[], None]:
    """An ``on_change`` for a session uploader: keeps the files' ``(name, bytes)`` under
    ``store_key`` for the browser session, so they survive reruns and pages that do not draw it."""
    def keep() -> None:
        files = st.session_state.get(uploader_key) or []
        if not isinstance(files, list):
            files = [files]
        st.session_state[store_key] = [(f.name, f.getvalue()) for f in files]
    return keep


def local_path_controls(where: Any, prefix: str) -> str | None:
    """A path input and a Read button for a session file on this machine. A browser the app cannot
    place on this machine needs the launch token printed in the app's terminal (a path names any
    file this machine's user can read).

    Widget keys: ``{prefix}_path``, ``{prefix}_token``, ``{prefix}_read``; the path read is kept
    under ``{prefix}_path_read`` (it survives page switches).

    Returns:
        The path last read (text as typed), or ``None``.
    """
    where.text_input("Path of a session file", key=f"{prefix}_path", placeholder="~/.hermes/state.db",
                     help="Read-only: a Hermes store is opened with a read-only URI and never locked for writing.")
    check = origin.client_check()
    if not check.local:
        where.warning("This browser is not on the machine that runs the app (" + md_escape(check.reason)
                      + "). Reading a file on that machine needs the launch token printed in the app's terminal.",
                      icon=":material/lock:")
        where.text_input("Launch token", type="password", key=f"{prefix}_token")
    if where.button("Read", key=f"{prefix}_read"):
        if check.local or token_matches(st.session_state.get(f"{prefix}_token")):
            st.session_state[f"{prefix}_path_read"] = (st.session_state.get(f"{prefix}_path") or "").strip()
        else:
            st.session_state.pop(f"{prefix}_path_read", None)
            where.error("Refused: nothing was read. A browser that is not on this machine needs the launch "
                        "token printed in the app's terminal.", icon=":material/block:")
    return st.session_state.get(f"{prefix}_path_read") or None
