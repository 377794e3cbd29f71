"""Named exceptions. Each message says which file, which place in it, and what was expected."""

from __future__ import annotations


class ToolsearchError(Exception):
    """Base class for every error a user can cause and fix.

    The CLI prints ``str(error)`` on one line and exits with status 2; the app shows it
    as a message in the page.
    """


class CatalogError(ToolsearchError):
    """A catalog source cannot be read or is not one of the accepted shapes."""


class ConfigError(ToolsearchError):
    """A config file or value cannot be used."""


class ProfileError(ToolsearchError):
    """A wording profile is missing a key or has the wrong shape."""


class TokenizerError(ToolsearchError):
    """A tokenizer name is unknown."""


class ServerError(ToolsearchError):
    """A live MCP server could not be started, listed or called."""


def where(source: str, path: str | None = None) -> str:
    """Format a location for messages: ``file.yaml`` or ``file.yaml: servers[2].tools[0]``."""
    return f"{source}: {path}" if path else source


class InputLimitError(ToolsearchError):
    """An input is over one of the reading limits (size, YAML alias expansion, nesting depth).

    Raised by :mod:`toolsearch.engine.readers` as an instance that is also the reader's own
    error class (e.g. a :class:`CatalogError`), so every handler of that class shows it.
    """
