"""Whether the MCP servers a harness config (``--config``: Hermes' ``config.yaml`` with
``mcp_servers``) sets up are the servers the catalog lists, as the catalog lists them.

The figures of every command are for the catalog; the harness registers what its config starts.
Where the two disagree, the figures are for servers the harness does not run as counted, and
``check --strict`` refuses to gate on them. Three ways they disagree, each said in one sentence:

* the config starts a server the catalog lacks (:attr:`ServerAgreement.not_in_catalog`): the
  catalog was listed before the server was added;
* the config sets up a catalog server otherwise than the catalog was listed with
  (:attr:`ServerAgreement.set_up_otherwise`): ``enabled: false``, an entry the harness cannot
  use, or a per-server ``tools`` block (``include``, ``exclude``…) that registers other tools;
* the catalog has an MCP server the config never configures (:attr:`ServerAgreement.not_in_config`):
  the harness would not start it. Said only of a config that configures at least one MCP server
  (a file with just ``tools.tool_search`` says nothing about servers).

One function, :func:`server_agreement`, feeds every command's warnings, ``check --strict``'s
refusal and ``recommend``'s answer (its lines, its config block, its markdown and its JSON).
Nothing is started.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..engine.catalog import Catalog
from ..engine.invisible import quoted, reveal_line
from ..engine.wording import counted

#: How the sentences name who counts the servers: the figures (every command's warning) or the
#: gate (``check --strict``'s refusal).
FIGURES, GATE = "figures", "gate"


def _pronouns(n: int) -> tuple[str, str]:
    return ("it", "its") if n == 1 else ("them", "their")


def snapshot_hint(config_path: str) -> str:
    """The command that lists the config's servers into a catalog again: ``toolsearch snapshot
    config.yaml -o CATALOG``."""
    return f"toolsearch snapshot {config_path} -o CATALOG"


def not_in_catalog_words(config_path: str, missing: Sequence[str], judged: str = "these figures are for") -> str:
    """The servers ``config_path`` starts that the catalog lacks (``missing``, names), in one sentence;
    ``judged`` names what is for a catalog without them (``check --strict``: ``the gate would judge``)."""
    names = ", ".join(quoted(name) for name in missing)
    it, _ = _pronouns(len(missing))
    return (f"{config_path} configures {counted(len(missing), 'MCP server')} the catalog does not have ({names}): "
            f"{judged} a catalog without {it}; list the servers' tools into the catalog again "
            f"({snapshot_hint(config_path)})")


def set_up_otherwise_fix(config_path: str, whats: Sequence[str]) -> str:
    """How to make the catalog agree with servers ``config_path`` sets up otherwise (``whats``: what
    differs for each, as :attr:`ServerAgreement.set_up_otherwise` words it), the offline ways first: drop
    a disabled server from the catalog files, record a ``tools`` block under the catalog server's
    ``config:``, fix an entry that cannot be used; else list the servers again with ``snapshot``."""
    fixes = []
    if any(what == "enabled: false" for what in whats):
        fixes.append("drop the disabled server from the catalog files")
    if any(what.startswith("tools.") for what in whats):
        fixes.append(f"copy the server's tools block from mcp_servers in {config_path} under its config: in the catalog")
    if any(what.startswith("an entry that cannot be used") for what in whats):
        fixes.append(f"fix the entry in mcp_servers of {config_path}")
    if any(not what.startswith("an entry") for what in whats):  # snapshot cannot mend an entry it cannot start
        fixes.append(f"or list the servers again ({snapshot_hint(config_path)})")
    return "; ".join(fixes)


def set_up_otherwise_words(config_path: str, differ: Sequence[str], judged: str = "these figures count",
                           fix: str | None = None) -> str:
    """The catalog's servers ``config_path`` sets up otherwise than the catalog was listed with
    (``differ``: ``'name': what differs`` each), in one sentence; ``judged`` says who counts them as
    listed (``check --strict``: ``the gate would count``); ``fix`` how to make them agree
    (:func:`set_up_otherwise_fix`; default: list the servers again with ``snapshot``)."""
    it, its = _pronouns(len(differ))
    return (f"{config_path} sets up {counted(len(differ), 'MCP server')} otherwise than the catalog was listed with "
            f"({'; '.join(differ)}): {judged} {its} tools as the catalog lists {it}; "
            + (fix or f"list the servers' tools into the catalog again ({snapshot_hint(config_path)})"))


def not_in_config_words(config_path: str, unstarted: Sequence[str], judged: str = "these figures count") -> str:
    """The catalog's MCP servers ``config_path`` never configures (``unstarted``, names), in one
    sentence; ``judged`` says who counts them (``check --strict``: ``the gate would count``)."""
    names = ", ".join(quoted(name) for name in unstarted)
    it, _ = _pronouns(len(unstarted))
    return (f"{config_path} does not configure {counted(len(unstarted), 'MCP server')} the catalog has ({names}): "
            f"{judged} {it} as registered, though the harness would not start {it}; drop {it} from the catalog "
            f"files or add {it} to mcp_servers in {config_path}")


def unreadable_words(config_path: str, problem: str, judged: str = "these figures cannot tell") -> str:
    """``config_path``'s servers map that cannot be read (``problem``, naming the file and the key), in one
    sentence; ``judged`` says who cannot tell which servers the harness runs (``check --strict``: ``the gate
    could not tell``)."""
    return (f"{problem}: {judged} which servers the harness runs, so every catalog server is counted as "
            f"listed; fix mcp_servers in {config_path}")


@dataclass(frozen=True)
class ServerAgreement:
    """How the MCP servers of a harness config agree with a catalog's (:func:`server_agreement`).

    Attributes:
        config_path: the config file as the user named it.
        not_in_catalog: the servers the config starts (enabled entries) that the catalog lacks, in
            the config's order.
        set_up_otherwise: the catalog's servers the config sets up otherwise than the catalog was
            listed with, each as ``(name, what differs)`` (``enabled: false``; ``an entry that cannot
            be used (why)``; ``tools.exclude, tools.prompts``), in the config's order.
        not_in_config: the catalog's MCP servers (kind ``mcp``) the config does not configure at
            all, in catalog order; always empty when the config configures no MCP server.
        unreadable: why the config's servers map cannot be read (``mcp_servers`` that is not a
            mapping), naming the file and the key; ``""`` when it can. Then nothing else is compared.
    """

    config_path: str
    not_in_catalog: tuple[str, ...] = ()
    set_up_otherwise: tuple[tuple[str, str], ...] = ()
    not_in_config: tuple[str, ...] = ()
    unreadable: str = ""

    @property
    def agrees(self) -> bool:
        """Nothing to say: the catalog lists what the config would start, as it would register it."""
        return not (self.unreadable or self.not_in_catalog or self.set_up_otherwise or self.not_in_config)

    @property
    def differ_words(self) -> list[str]:
        """:attr:`set_up_otherwise` as the sentences name them: ``'name': what differs``."""
        return [f"{quoted(name)}: {what}" for name, what in self.set_up_otherwise]

    def sentences(self, who: str = FIGURES) -> list[str]:
        """One sentence per way the config and the catalog disagree (servers the catalog lacks, servers
        set up otherwise, servers the config does not configure), each naming the file and the
        servers; ``who`` (:data:`FIGURES` or :data:`GATE`) says whose count it is. ``[]`` when
        they agree. Server names are shown literally (:func:`~toolsearch.engine.invisible.quoted`);
        the caller writes each sentence on one line for its medium."""
        gate = who == GATE
        out = []
        if self.unreadable:
            out.append(unreadable_words(self.config_path, self.unreadable,
                                        "the gate could not tell" if gate else "these figures cannot tell"))
        if self.not_in_catalog:
            out.append(not_in_catalog_words(self.config_path, self.not_in_catalog,
                                            "the gate would judge" if gate else "these figures are for"))
        if self.set_up_otherwise:
            out.append(set_up_otherwise_words(self.config_path, self.differ_words,
                                              "the gate would count" if gate else "these figures count",
                                              set_up_otherwise_fix(self.config_path,
                                                                   [what for _, what in self.set_up_otherwise])))
        if self.not_in_config:
            out.append(not_in_config_words(self.config_path, self.not_in_config,
                                           "the gate would count" if gate else "these figures count"))
        return out

    @property
    def gate_words(self) -> str:
        """Why ``check --strict`` refuses a gate on this catalog with this config, and until when, as
        ``recommend`` writes it under its gate line: ``check --strict refuses it until the catalog agrees
        with mcp_servers in config.yaml (each line labelled “config servers:” says how)``; ``""`` when they
        agree. (In ``--json`` those lines are ``config_servers``.)"""
        if self.agrees:
            return ""
        if self.unreadable:
            return f"check --strict refuses it until mcp_servers in {self.config_path} maps server names to entries"
        return (f"check --strict refuses it until the catalog agrees with mcp_servers in {self.config_path} "
                "(each line labelled “config servers:” says how)")

    def refusal(self) -> str:
        """``check --strict``'s error when they disagree, after the warnings that said each way
        (:meth:`sentences`): it names the servers (a CI annotation may show only the error) but leaves
        the how-to to the warnings, so nothing is said twice."""
        if self.unreadable:
            return (f"mcp_servers in {self.config_path} cannot be read (the warning above): the gate could not tell "
                    "which servers the harness runs; fix it, or drop --strict to check the catalog as it is")
        n = len(self.sentences())
        which = ([f"not in the catalog: {', '.join(quoted(name) for name in self.not_in_catalog)}"]
                 if self.not_in_catalog else [])
        which += [f"set up otherwise: {'; '.join(self.differ_words)}"] if self.set_up_otherwise else []
        which += ([f"not configured: {', '.join(quoted(name) for name in self.not_in_config)}"]
                  if self.not_in_config else [])
        says = "says" if n == 1 else "say"
        return (f"{self.config_path} and the catalog disagree about MCP servers ({'; '.join(which)}; the "
                f"{counted(n, 'warning')} above {says} how to make them agree): "
                "the gate would judge servers the harness does not run as counted; once they agree, commit the "
                "catalog with the config, or drop --strict to check the catalog as it is")

    def not_run(self, server: str) -> str:
        """Why the harness would not run the catalog's server ``server`` with this config (``enabled:
        false``; ``an entry that cannot be used (why)``; ``not configured``), ``""`` when it would run
        it (or nothing is known)."""
        if server in self.not_in_config:
            return f"not in mcp_servers of {self.config_path}"
        for name, what in self.set_up_otherwise:
            if name == server and not what.startswith("tools."):
                return f"{what} in {self.config_path}"
        return ""

    def within(self, reaches: Callable[[str], bool]) -> ServerAgreement:
        """Only the servers a session scope reaches (``reaches(name)``): a scoped answer is not about the
        others. A servers map that cannot be read (:attr:`unreadable`) stays: no server can be told."""
        return replace(self, not_in_catalog=tuple(name for name in self.not_in_catalog if reaches(name)),
                       set_up_otherwise=tuple(pair for pair in self.set_up_otherwise if reaches(pair[0])),
                       not_in_config=tuple(name for name in self.not_in_config if reaches(name)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, the servers by name: ``config``, ``not_in_catalog``, ``set_up_otherwise`` (each
        ``server`` and ``differs``) and ``not_in_config``."""
        return {"config": self.config_path, "not_in_catalog": list(self.not_in_catalog),
                "set_up_otherwise": [{"server": name, "differs": what} for name, what in self.set_up_otherwise],
                "not_in_config": list(self.not_in_config), "mcp_servers_unreadable": self.unreadable or None}


def server_agreement(config_path: str | Path | None, catalog: Catalog) -> ServerAgreement:
    """How the MCP servers the harness config ``config_path`` sets up agree with ``catalog``'s (the
    whole catalog, not a session scope's): see :class:`ServerAgreement`. A catalog server's own
    record (``config:``, as ``snapshot`` writes it) is what registration applies, so a per-server
    ``tools`` block is compared by what it registers
    (:func:`~toolsearch.engine.registration.registration_effect`: ``resources: true``, the default,
    or an ``exclude`` naming no tool of the server changes nothing). Without ``config_path``, or for a
    file that configures no MCP server or that this reader cannot use (the commands say what is
    wrong with it), they agree."""
    from ..engine.registration import registration_effect  # noqa: PLC0415
    from .client import config_file_registration, config_servers_problem  # noqa: PLC0415

    if not config_path:
        return ServerAgreement("")
    problem = config_servers_problem(config_path)
    if problem:
        return ServerAgreement(str(config_path), unreadable=problem)
    configured = config_file_registration(config_path)
    # only the catalog's MCP servers are the config's to start: an entry named like a core or plugin
    # toolset is another server, one the catalog lacks
    servers = {server.name: server for server in catalog.servers if server.kind == "mcp"}
    missing: list[str] = []
    differ: list[tuple[str, str]] = []
    for name, (enabled, registration, invalid) in configured.items():
        server = servers.get(name)
        if server is None:
            if enabled:  # a disabled server the catalog lacks: not started, so not missed
                missing.append(name)
            continue
        if not enabled:
            differ.append((name, "enabled: false"))
            continue
        if invalid is not None:  # the harness cannot start it as written
            differ.append((name, f"an entry that cannot be used ({invalid})"))
            continue
        listed = server.config.get("tools") if isinstance(server.config.get("tools"), Mapping) else {}
        wanted = registration.get("tools") or {}
        if registration_effect(server, listed) == registration_effect(server, wanted):
            continue  # written otherwise, registered the same
        keys = [key for key in dict.fromkeys([*wanted, *listed]) if listed.get(key) != wanted.get(key)]
        if keys:
            differ.append((name, ", ".join("tools." + reveal_line(str(key)) for key in keys)))
    unstarted = [server.name for server in catalog.servers
                 if configured and server.kind == "mcp" and server.name not in configured]
    return ServerAgreement(str(config_path), tuple(missing), tuple(differ), tuple(dict.fromkeys(unstarted)))
