"""One object over the whole pipeline: catalog → registration → planner / bridge.

The CLI and the app both go through :class:`Inspector`, so they agree by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from .bridge import Bridge
from .catalog import Catalog, load_sources
from .config import ToolSearchConfig
from .plan import Plan, Planner
from .profile import Profile, default_profile
from .registration import Registration, register_catalog
from .search import SearchOptions


class Inspector:
    """A registered catalog with its planner and cached bridges.

    Args:
        catalog: the catalog.
        naming: ``prefixed`` (reference MCP naming) or ``as-is``.
        profile: wording profile (default: the shipped one).

    Raises:
        ValueError: an unknown ``naming``.
    """

    def __init__(self, catalog: Catalog, naming: str = "prefixed", profile: Profile | None = None):
        self.catalog = catalog
        self.naming = naming
        self.profile = profile or default_profile()
        self.registration: Registration = register_catalog(catalog, naming, self.profile)
        self.planner = Planner(self.registration, self.profile)
        self._bridges: dict[tuple, Bridge] = {}

    @classmethod
    def from_files(cls, paths: Iterable[str | Path], naming: str = "prefixed",
                   profile: Profile | None = None) -> "Inspector":
        """Load and combine catalog files. Raises :class:`~toolsearch.errors.CatalogError`."""
        return cls(load_sources(paths), naming, profile)

    def plan(self, config: ToolSearchConfig, context_length: int | None = None,
             tokenizer: str = "chars4", display_tokenizer: str | None = None) -> Plan:
        """See :meth:`toolsearch.plan.Planner.plan`."""
        return self.planner.plan(config, context_length, tokenizer, display_tokenizer)

    def bridge(self, config: ToolSearchConfig, options: SearchOptions = SearchOptions()) -> Bridge:
        """The bridge for this config (cached per defer set, search limits and options)."""
        key = (config.defer, config.search_default_limit, config.max_search_limit, options)
        bridge = self._bridges.get(key)
        if bridge is None:
            bridge = self._bridges[key] = Bridge(self.registration.tools, config, self.profile, options=options)
        return bridge
