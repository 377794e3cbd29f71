"""One object over the whole pipeline: catalog → registration → planner / bridge.

The CLI and the app both go through :class:`Inspector`, so they agree by construction.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterable

from .bridge import Bridge
from .catalog import Catalog, load_sources
from .config import ToolSearchConfig
from .plan import Plan, Planner
from .profile import Profile, default_profile
from .registration import Registration, register_catalog
from .scopes import Scope, scoped_registration
from .search import SearchOptions


#: Scoped inspectors kept per catalog (each holds its own planner caches).
_MAX_SCOPED = 32


class Inspector:
    """A registered catalog with its planner and cached bridges.

    Args:
        catalog: the catalog.
        naming: ``prefixed`` (reference MCP naming) or ``as-is``.
        profile: wording profile (default: the shipped one).

    Raises:
        ValueError: an unknown ``naming``.
    """

    def __init__(self, catalog: Catalog, naming: str = "prefixed", profile: Profile | None = None) -> None:
        self.catalog = catalog
        self.naming = naming
        self.profile = profile or default_profile()
        self.registration: Registration = register_catalog(catalog, naming, self.profile)
        #: The whole registry (docs/reference.md §2 "the session's own tool list"): equal to
        #: :attr:`registration` unless scoped.
        self.full_registration: Registration = self.registration
        #: The session scope, ``None`` for the whole catalog.
        self.scope: Scope | None = None
        self.planner = Planner(self.registration, self.profile)
        self._bridges: dict[tuple, Bridge] = {}
        self._root: Inspector = self
        self._scoped: dict[Scope, Inspector] = {}

    @classmethod
    def from_files(cls, paths: Iterable[str | Path], naming: str = "prefixed",
                   profile: Profile | None = None) -> "Inspector":
        """Load and combine catalog files (:func:`~toolsearch.engine.catalog.load_sources`) and
        register them.

        Args:
            paths: catalog files in any accepted shape, combined in the order given.
            naming: ``prefixed`` (reference MCP naming, docs/reference.md §21) or ``as-is``.
            profile: wording profile (default: the shipped one).

        Raises:
            CatalogError: a file cannot be read, is not valid YAML/JSON, is over a reading limit
                or is not an accepted shape; the message names the file and the place.
            ValueError: an unknown ``naming``.
        """
        return cls(load_sources(paths), naming, profile)

    def plan(self, config: ToolSearchConfig, context_length: int | None = None,
             tokenizer: str = "chars4", display_tokenizer: str | None = None) -> Plan:
        """What the model sees at these settings (docs/reference.md §2, §4, §5, §6); see
        :meth:`toolsearch.engine.plan.Planner.plan`.

        Args:
            config: effective ``tools.tool_search`` settings (:func:`~toolsearch.engine.config.parse_config`).
            context_length: the model's context length in tokens; ``None``, 0 or negative mean
                unknown (the 10,000-token fallback of docs/reference.md §4).
            tokenizer: the planning tokenizer (``chars4``, ``o200k_base``, ``cl100k_base``), which
                decides whether a listing fits the budget.
            display_tokenizer: the tokenizer of the reported token costs (default: ``tokenizer``).

        Returns:
            A :class:`~toolsearch.engine.plan.Plan`; its token figures are in tokens of the
            display tokenizer, except ``listing_tokens`` (planning tokenizer).

        Raises:
            TokenizerError: an unknown tokenizer name.
        """
        return self.planner.plan(config, context_length, tokenizer, display_tokenizer)

    def bridge(self, config: ToolSearchConfig, options: SearchOptions = SearchOptions()) -> Bridge:
        """The bridge for this config (cached per defer set, search limits and options).

        Args:
            config: effective settings; the defer set and the search limits matter here.
            options: search variant switches (the defaults are the reference, docs/reference.md §7).

        Returns:
            A :class:`~toolsearch.engine.bridge.Bridge` whose ``tool_search``, ``tool_describe`` and
            ``tool_call`` return the response objects (docs/reference.md §6–§9); bad arguments give
            ``{"error": ...}`` responses (§11), not exceptions.

        A scoped inspector's bridge searches, describes and calls the session's tools only; the
        whole catalog is its registry, so out-of-session names get the reference's errors
        (docs/reference.md §8, §9.2, §11).
        """
        key = (config.defer, config.search_default_limit, config.max_search_limit, options)
        bridge = self._bridges.get(key)
        if bridge is None:
            registry = self.full_registration.tools if self.scope is not None else ()
            # A bridge over the same deferred tools whose documents are tokenized the same way
            # lends its index statistics (the costly part on a large catalog): variants that
            # differ only on the query side build the index once.
            shared = next((b.index for k, b in self._bridges.items() if k[0] == config.defer
                           and (k[3].tokenizer, k[3].split_words, k[3].field_weights)
                           == (options.tokenizer, options.split_words, options.field_weights)), None)
            bridge = self._bridges[key] = Bridge(self.registration.tools, config, self.profile,
                                                 registry_tools=registry, options=options, shared_index=shared)
        return bridge

    def scoped(self, scope: Scope | None) -> "Inspector":
        """The same catalog as a session with ``scope`` (``None``: the whole catalog).

        The scoped inspector plans, searches, describes and calls exactly as the reference does
        for a session whose pre-assembly tool list is the scope's tools (docs/reference.md §2
        "the session's own tool list"); its :attr:`full_registration` is the whole catalog. Cached
        per scope; registration is shared.
        """
        root = self._root
        if scope is None:
            return root
        cached = root._scoped.get(scope)
        if cached is None:
            cached = object.__new__(Inspector)
            registration = scoped_registration(root.registration, scope)
            servers = set(registration.server_kinds)
            cached.catalog = replace(root.catalog, servers=tuple(s for s in root.catalog.servers if s.name in servers))
            cached.naming = root.naming
            cached.profile = root.profile
            cached.registration = registration
            cached.full_registration = root.registration
            cached.scope = scope
            cached.planner = Planner(registration, root.profile)
            cached._bridges = {}
            cached._root = root
            cached._scoped = {}
            if len(root._scoped) >= _MAX_SCOPED:  # a long-lived app: keep the most recent sessions
                root._scoped.pop(next(iter(root._scoped)))
            root._scoped[scope] = cached
        return cached
