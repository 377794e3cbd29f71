"""Synthetic catalogs and skills of exact sizes, for worked examples and rule tests.

Every tool's registered definition (``{"type":"function","function":{name, description,
parameters}}`` as compact JSON) is padded to exactly ``4 × tokens_per_tool`` characters, and every
skill's listing line and body to ``4 × tokens`` characters, so each counts exactly that many tokens
with the reference ``chars4`` estimate (docs/reference.md §3). Other tokenizers count the same text differently.

:func:`large_catalog` builds catalogs of any size with varied names, descriptions and schemas
(for scale tests and benchmarks: ``toolsearch synth``); :func:`worked_example` builds the worked example of the strategies guide (200 tools at 500 tokens, 50 skills with
100-token listing lines and 2,000-token bodies, a task that reads 2 skills and uses 4 tools);
:func:`write_worked_example` writes it as files (``sample_catalogs/seed-worked-example/``).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..engine import constants as C
from ..engine.catalog import Catalog, Server, Tool, dump_catalog
from ..engine.registration import mcp_prefixed_tool_name, register_catalog
from .skills import Skill, SkillSet, dump_skill_md
from ..engine.tokens import compact_json
from .wording import counted

_TOOL_FILLER = ("This synthetic tool stands for any MCP tool of the same size; the sentence repeats "
                "only to give its definition an exact length. ")
_SKILL_FILLER = ("Use it when the task needs this synthetic capability; the words repeat to size the line. ")
_BODY_FILLER = ("Follow these steps in order, check each result before the next step, and report what "
                "changed. The text repeats only to give the body an exact length.\n")
_SCHEMA = {"type": "object", "properties": {"id": {"type": "string", "description": "Record ID."}},
           "required": ["id"]}


def _pad(head: str, filler: str, length: int) -> str:
    """``head`` followed by ``filler`` repeated, cut to exactly ``length`` characters."""
    if len(head) > length:
        raise ValueError(f"cannot size text to {length} characters: its fixed part alone has {len(head)}")
    text = head
    while len(text) < length:
        text += filler
    return text[:length].rstrip() + "." * (length - len(text[:length].rstrip()))


def _split(total: int, parts: int) -> list[int]:
    """``total`` as ``parts`` near-equal whole numbers, larger ones first."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def synthetic_catalog(n_tools: int = 200, tokens_per_tool: int = 500, n_servers: int = 10,
                      name: str = "Synthetic catalog") -> Catalog:
    """A catalog of ``n_tools`` MCP tools whose registered definitions are ``tokens_per_tool``
    chars4 tokens each, spread over ``n_servers`` servers ``s01``, ``s02``… (tools ``tool_001``…).

    Raises:
        ValueError: a non-positive count, or ``tokens_per_tool`` too small for the fixed parts of
            a definition (name and schema; about 40 tokens).
    """
    if n_tools <= 0 or n_servers <= 0 or tokens_per_tool <= 0:
        raise ValueError("n_tools, n_servers and tokens_per_tool must be positive")
    n_servers = min(n_servers, n_tools)
    width = max(3, len(str(n_tools)))
    swidth = max(2, len(str(n_servers)))
    target = 4 * tokens_per_tool
    servers = []
    number = 0
    for s, count in enumerate(_split(n_tools, n_servers), 1):
        server = f"s{s:0{swidth}d}"
        tools = []
        for _ in range(count):
            number += 1
            tool = f"tool_{number:0{width}d}"
            wire = mcp_prefixed_tool_name(server, tool)
            empty = {"type": "function", "function": {"name": wire, "description": "", "parameters": _SCHEMA}}
            room = target - len(compact_json(empty))
            head = f"Synthetic tool {number} of server {server}. "
            tools.append(Tool(name=tool, description=_pad(head, _TOOL_FILLER, room), input_schema=_SCHEMA))
        servers.append(Server(name=server, kind="mcp", tools=tuple(tools), origin=name))
    catalog = Catalog(name=name, servers=tuple(servers), sources=(name,))
    # Check against the real registration, so the sizes hold by construction, not by assumption.
    for registered in register_catalog(catalog).tools:
        size = len(compact_json(registered.definition))
        if size != target:  # pragma: no cover - a registration change would show up here
            raise AssertionError(f"{registered.name}: definition is {size} characters, expected {target}")
    return catalog


# --- large varied catalogs (scale tests) -------------------------------------------------------

_DOMAINS = ("billing", "crm", "tickets", "storage", "dns", "builds", "alerts", "wiki", "calendar", "chat",
            "payments", "inventory", "shipping", "analytics", "identity", "search", "media", "forms",
            "contracts", "payroll", "fleet", "metrics", "logs", "secrets", "queues", "mail", "maps",
            "surveys", "assets", "recruiting")
_VERBS = ("list", "get", "create", "update", "delete", "search", "archive", "restore", "export", "import",
          "assign", "approve", "close", "reopen", "sync", "validate", "publish", "schedule", "cancel", "merge")
_NOUNS = ("account", "invoice", "customer", "ticket", "bucket", "record", "zone", "pipeline", "rule", "page",
          "event", "message", "channel", "payment", "order", "item", "shipment", "report", "dashboard", "user",
          "group", "role", "token", "file", "folder", "image", "survey", "response", "contract", "employee",
          "vehicle", "metric", "query", "alert", "incident", "template", "webhook", "label", "comment", "note")
_QUALIFIERS = ("", "", "", "", "batch", "draft", "version", "summary", "history", "settings", "member",
               "attachment", "schedule", "policy", "status")
_PHRASES = ("in the workspace", "for the current project", "by its identifier", "across every region",
            "with optional filters", "matching the given criteria", "owned by the caller",
            "in the selected account", "for a date range", "and return the result")
_EXTRAS = ("Results are paginated.", "Requires the admin scope.", "Changes are audited.",
           "Deleted items can be restored for 30 days.", "Use the list tool first to find identifiers.",
           "Returns at most 100 items per page.", "Rate limited to 10 calls per second.",
           "The operation is idempotent.", "Times are in UTC (ISO 8601).", "")
_PARAMS = (("id", "string", "Identifier of the {noun}."), ("limit", "integer", "Maximum number of results."),
           ("cursor", "string", "Pagination cursor from the previous response."),
           ("query", "string", "Free-text filter."), ("name", "string", "Display name of the {noun}."),
           ("status", "string", "Status to filter by."), ("since", "string", "Only items changed after this time."),
           ("tags", "array", "Tags to attach."), ("dry_run", "boolean", "Validate without changing anything."),
           ("notes", "string", "Free-text notes stored with the {noun}."), ("owner", "string", "User who owns the {noun}."),
           ("priority", "integer", "Priority from 1 (highest) to 5."))


def large_catalog(n_tools: int = 50_000, n_servers: int = 200, seed: int = 0,
                  name: str | None = None) -> Catalog:
    """A deterministic catalog of ``n_tools`` MCP tools over ``n_servers`` servers, for scale work.

    Servers are named ``<domain>-<nnn>`` and hold near-equal shares of the tools (larger shares
    first). Tool names (``<verb>_<domain>_<noun>[_<qualifier>]``, unique in the catalog), descriptions (one to
    three sentences) and schemas (one to six properties) are drawn from fixed word lists with a
    ``random.Random`` seeded from ``seed``, so the same arguments always give the same catalog and
    search has a realistic spread of terms. A definition averages about 125 chars4 tokens.

    Raises:
        ValueError: a non-positive count, or more than :data:`~toolsearch.engine.constants.SYNTH_MAX_TOOLS` tools.
    """
    if n_tools <= 0 or n_servers <= 0:
        raise ValueError("the number of tools and the number of servers must be positive")
    if n_tools > C.SYNTH_MAX_TOOLS:
        raise ValueError(f"at most {C.SYNTH_MAX_TOOLS:,} tools (a larger catalog file is over the size toolsearch "
                         "reads back)")
    n_servers = min(n_servers, n_tools)
    rng = random.Random(f"toolsearch-synth:{seed}")
    swidth = max(3, len(str(n_servers)))
    servers = []
    seen: set[str] = set()  # tool names unique over the catalog, as in a well-kept deployment
    for s, count in enumerate(_split(n_tools, n_servers), 1):
        domain = _DOMAINS[(s - 1) % len(_DOMAINS)]
        server = f"{domain}-{s:0{swidth}d}"
        tools = []
        for _ in range(count):
            verb, noun, qual = rng.choice(_VERBS), rng.choice(_NOUNS), rng.choice(_QUALIFIERS)
            base = f"{verb}_{domain}_{noun}" + (f"_{qual}" if qual else "")
            tool_name, n = base, 1
            while tool_name in seen:
                n += 1
                tool_name = f"{base}_{n}"
            seen.add(tool_name)
            thing = f"{noun} {qual}".strip()
            sentences = [f"{verb.capitalize()} a {domain} {thing} {rng.choice(_PHRASES)}."]
            for _ in range(rng.randrange(3)):
                extra = rng.choice(_EXTRAS)
                if extra and extra not in sentences:
                    sentences.append(extra)
            properties: dict[str, Any] = {}
            for pname, ptype, pdesc in rng.sample(_PARAMS, rng.randint(1, 6)):
                prop: dict[str, Any] = {"type": ptype, "description": pdesc.format(noun=noun)}
                if ptype == "array":
                    prop["items"] = {"type": "string"}
                properties[pname] = prop
            required = [p for p in properties if p in ("id", "name", "query")]
            schema: dict[str, Any] = {"type": "object", "properties": properties}
            if required:
                schema["required"] = required
            tools.append(Tool(name=tool_name, description=" ".join(sentences), input_schema=schema))
        servers.append(Server(name=server, kind="mcp", tools=tuple(tools)))
    title = name or (f"Synthetic catalog: {counted(n_tools, 'tool')} on {counted(n_servers, 'server')} "
                     f"(seed {seed})")
    return Catalog(name=title, servers=tuple(servers), sources=(title,))


def dump_catalog_json(catalog: Catalog) -> str:
    """The catalog in the catalog file format as JSON text (also valid YAML; large catalogs load
    faster as JSON). Deterministic: the same catalog always gives the same bytes."""
    from ..engine.catalog import catalog_to_data  # noqa: PLC0415

    return json.dumps(catalog_to_data(catalog), ensure_ascii=False, indent=1) + "\n"


def synthetic_skills(n_skills: int = 50, listing_tokens: int = 100, body_tokens: int = 2000,
                     links: Sequence[Sequence[str]] = ()) -> SkillSet:
    """``n_skills`` skills ``skill-01``… whose listing line (``- name: description``) is
    ``listing_tokens`` and whose body is ``body_tokens`` chars4 tokens.

    Args:
        links: per skill, in order, the tool wire names for ``metadata.include_tools``; skills
            past the end of ``links`` link no tools.

    Raises:
        ValueError: a non-positive count, or sizes too small for the fixed text.
    """
    if n_skills <= 0 or listing_tokens <= 0 or body_tokens <= 0:
        raise ValueError("n_skills, listing_tokens and body_tokens must be positive")
    width = max(2, len(str(n_skills)))
    skills = []
    for i in range(1, n_skills + 1):
        name = f"skill-{i:0{width}d}"
        line_room = 4 * listing_tokens - len(f"- {name}: ")
        description = _pad(f"Synthetic skill {i}. ", _SKILL_FILLER, line_room)
        body = _pad(f"# {name}\n\n", _BODY_FILLER, 4 * body_tokens)
        include = tuple(links[i - 1]) if i - 1 < len(links) else ()
        skills.append(Skill(name=name, description=description, include_tools=include, body=body,
                            origin=f"synthetic: {name}"))
    return SkillSet(tuple(skills), (), ("synthetic",))


@dataclass(frozen=True)
class WorkedExample:
    """The issue-5 worked example.

    Attributes:
        catalog: 200 tools at 500 tokens (10 servers of 20).
        skills: 50 skills with 100-token listing lines and 2,000-token bodies. Every tool is
            linked to exactly one skill; ``skill-01`` and ``skill-02`` (the two the task reads)
            link two tools each, the other 196 tools are spread over the other 48 skills.
        events: the task as events: a call before its skill is read (fails under skill-linked
            disclosure), both reads, the four calls, a compaction, the same call again (fails
            again), the re-read (body paid again) and the call (succeeds).
    """

    catalog: Catalog
    skills: SkillSet
    events: tuple  # tuple[toolsearch.analysis.strategies.Event, ...]

    @property
    def task_tools(self) -> tuple[str, ...]:
        """The four tools the task uses."""
        return tuple(self.skills.skills[0].include_tools + self.skills.skills[1].include_tools)


def worked_example() -> WorkedExample:
    """Build the worked example in memory (see :class:`WorkedExample`)."""
    from .strategies import Event  # noqa: PLC0415 - strategies imports nothing from here

    catalog = synthetic_catalog(200, 500, 10, name="Worked example: 200 tools, 50 skills")
    names = [mcp_prefixed_tool_name(s.name, t.name) for s in catalog.servers for t in s.tools]
    sizes = [2, 2] + _split(len(names) - 4, 48)
    links, start = [], 0
    for size in sizes:
        links.append(names[start:start + size])
        start += size
    skills = synthetic_skills(50, 100, 2000, links)
    first, second = skills.skills[0], skills.skills[1]
    t1, t2 = first.include_tools
    t3, t4 = second.include_tools
    events = (
        Event("call", t1),
        Event("read_skill", first.name), Event("read_skill", second.name),
        Event("call", t1), Event("call", t2), Event("call", t3), Event("call", t4),
        Event("compaction"),
        Event("call", t1),
        Event("read_skill", first.name),
        Event("call", t1),
    )
    return WorkedExample(catalog, skills, events)


_TASK_HEADER = """\
# The worked example's task as events (toolsearch strategies ... --events task.yaml).
# Written by toolsearch.analysis.synthetic.write_worked_example; do not edit by hand.
#
# The task reads skill-01 and skill-02 and uses their four tools. Under skill-linked disclosure
# the first call fails (skill-01 not read yet); after the compaction the same call fails again
# until skill-01 is read again, and that read pays its body (2,000 tokens) again.
"""


_README = """\
# Worked example: 200 tools, 50 skills

Generated by `python scripts/generate_worked_example.py` (`toolsearch.analysis.synthetic.write_worked_example`);
do not edit by hand.

* `catalog.yaml`: 200 MCP tools on 10 servers (`s01` … `s10`), each definition exactly 500 tokens
  with the chars4 estimate.
* `skills/`: 50 `SKILL.md` files, each listing line (`- name: description`) exactly 100 tokens and
  each body exactly 2,000 tokens. Every tool is linked to one skill through
  `metadata.include_tools`; `skill-01` and `skill-02` (the two the task reads) link two tools each.
* `task.yaml`: the task as events.

    toolsearch strategies catalog.yaml --skills skills --events task.yaml

All up front: 105,000 tokens before any work, 109,000 once both skill bodies are read.
Skill-linked: 11,000 (5,000 listing + 4,000 bodies + 2,000 for the four tools). Difference:
98,000. The first call fails under skill-linked disclosure (skill not read yet); after the
compaction it fails again until `skill-01` is read again.
"""


def write_worked_example(folder: str | Path) -> list[Path]:
    """Write the worked example: ``catalog.yaml``, ``skills/<name>/SKILL.md``, ``task.yaml``, ``README.md``.

    Returns the files written, in order. The output is byte-identical on every run.
    """
    from .strategies import dump_events  # noqa: PLC0415

    example = worked_example()
    folder = Path(folder)
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "catalog.yaml"
    path.write_text(dump_catalog(example.catalog), encoding="utf-8")
    written.append(path)
    for skill in example.skills.skills:
        path = folder / "skills" / skill.name / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump_skill_md(skill), encoding="utf-8")
        written.append(path)
    path = folder / "task.yaml"
    path.write_text(_TASK_HEADER + dump_events(example.events), encoding="utf-8")
    written.append(path)
    path = folder / "README.md"
    path.write_text(_README, encoding="utf-8")
    written.append(path)
    return written

