"""toolsearch: inspect progressive tool disclosure ("tool search") in agent harnesses.

The engine reproduces the reference behavior (``docs/reference.md``): configuration,
registration of MCP tools, the listing and its degradation, tiers, the bridge tools and search.
Start with :class:`toolsearch.engine.inspector.Inspector`.
"""

from .engine.catalog import Catalog, Server, Tool, load_source, load_sources
from .engine.config import ToolSearchConfig, load_config, parse_config
from .engine.errors import CatalogError, ConfigError, ProfileError, ServerError, ToolsearchError
from .engine.inspector import Inspector
from .engine.plan import Plan, Planner, listing_budget

__version__ = "0.1.0"

__all__ = [
    "Catalog", "Server", "Tool", "load_source", "load_sources", "ToolSearchConfig", "load_config",
    "parse_config", "CatalogError", "ConfigError", "ProfileError", "ServerError", "ToolsearchError",
    "Inspector", "Plan", "Planner", "listing_budget",
]
