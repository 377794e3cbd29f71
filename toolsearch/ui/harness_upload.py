"""A harness ``config.yaml`` uploaded among the sidebar's catalog files.

Such a file is not a catalog: its ``tools.tool_search`` block holds the settings the sidebar sets, and
its ``mcp_servers`` the servers the Live servers page can list. It is read with the reader
``--config`` uses (:func:`toolsearch.engine.config.config_from_text`), and nothing is started from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from toolsearch.engine import readers
from toolsearch.engine.config import ToolSearchConfig, config_from_text
from toolsearch.engine.errors import CatalogError, ToolsearchError


@dataclass(frozen=True)
class HarnessUpload:
    """An uploaded harness config: its file ``name``; ``config``, its ``tools.tool_search`` block as
    ``--config`` reads it (``None`` when the file has no such block, or ``error`` says why it cannot
    be read); ``servers``, how many entries its ``mcp_servers`` mapping has (0 without one)."""

    name: str
    config: ToolSearchConfig | None
    servers: int
    error: str = ""


#: Keys of a tool definition: a ``tools`` mapping whose values hold one is a catalog's tools written
#: as a mapping (a broken catalog), not a harness config's tool settings.
_TOOL_KEYS = frozenset({"description", "inputSchema", "input_schema", "parameters"})


def harness_upload(text: str, name: str) -> HarnessUpload | None:
    """``text`` (the file ``name``) read as a harness ``config.yaml`` when it is one, else ``None``.

    A harness config is a YAML mapping whose ``tools`` value is a mapping (Hermes keeps its tool
    settings there; no catalog shape has a mapping there), unless it has neither a ``tool_search`` block
    nor ``mcp_servers`` and its ``tools`` values look like tool definitions (a catalog written wrongly,
    whose own error is the useful one). Its ``tools.tool_search`` block, when there
    is one, is parsed by :func:`~toolsearch.engine.config.config_from_text`, with its warnings (clamped
    values, unknown keys) naming the file and line. Never raises."""
    try:
        data = readers.load_yaml(text, name, CatalogError)
    except ToolsearchError:
        return None
    if not isinstance(data, Mapping) or not isinstance(data.get("tools"), Mapping):
        return None
    tools = data["tools"]
    if "tool_search" not in tools and "mcp_servers" not in data and any(
            isinstance(value, Mapping) and _TOOL_KEYS.intersection(value) for value in tools.values()):
        return None  # a catalog written with its tools as a mapping: its own error says what is wrong
    servers = data.get("mcp_servers")
    count = len(servers) if isinstance(servers, Mapping) else 0
    if "tool_search" not in data["tools"]:
        return HarnessUpload(name, None, count)
    try:
        return HarnessUpload(name, config_from_text(text, name), count)
    except ToolsearchError as exc:
        return HarnessUpload(name, None, count, str(exc))


__all__ = ["HarnessUpload", "harness_upload"]
