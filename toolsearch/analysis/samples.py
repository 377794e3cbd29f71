"""Where the shipped samples are: the checkout's folders, or the copies a wheel carries.

A checkout keeps ``sample_catalogs/``, ``sample_sessions/`` and ``sample_skills/`` next to the
package, and the small example catalogs the docs run in ``docs/examples/``; a built wheel carries the same folders inside the package, under ``toolsearch/samples/``
(with the documentation pages of ``docs/`` around ``docs/examples/``)
(``setup.py`` copies them at build time), so an installed ``toolsearch`` offers them from any
directory.
"""

from __future__ import annotations

from pathlib import Path

#: The sample folders, by their path in a checkout.
SAMPLE_FOLDERS = ("sample_catalogs", "sample_sessions", "sample_skills", "docs/examples")

_PACKAGE = Path(__file__).resolve().parent.parent


def samples_dir(name: str) -> Path:
    """The folder of shipped samples ``name`` (one of :data:`SAMPLE_FOLDERS`).

    From a checkout (the package next to ``pyproject.toml``) it is the checkout's folder; from an
    installed wheel, ``toolsearch/samples/<name>``. The folder may be missing (a trimmed install);
    callers treat a missing folder as "no samples". Raises :class:`ValueError` for another name.
    """
    if name not in SAMPLE_FOLDERS:
        raise ValueError(f"unknown sample folder {name!r}; expected one of {', '.join(SAMPLE_FOLDERS)}")
    checkout = _PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / name).is_dir():
        return checkout / name
    return _PACKAGE / "samples" / name


def docs_dir() -> Path:
    """The folder of the documentation pages (``docs/*.md``, which the help and the app name as
    ``docs/reference.md`` and so on): the checkout's ``docs/``, or the copy a wheel carries under
    ``toolsearch/samples/docs``. It may be missing (a trimmed install)."""
    checkout = _PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "docs").is_dir():
        return checkout / "docs"
    return _PACKAGE / "samples" / "docs"


def docs_elsewhere(cwd: Path | None = None) -> Path | None:
    """Where the documentation pages are when a reader of ``docs/reference.md`` (a help text, an
    app caption) would not find them under ``docs/`` of the current folder ``cwd`` (default: the
    process's): :func:`docs_dir`, or ``None`` when ``cwd/docs`` is that folder or the pages were
    not installed."""
    folder = docs_dir()
    if not (folder / "reference.md").is_file():
        return None
    here = (cwd or Path.cwd()) / "docs"
    return None if here.resolve() == folder.resolve() else folder
