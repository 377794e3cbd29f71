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
