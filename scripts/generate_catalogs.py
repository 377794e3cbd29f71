"""Generate the sample catalogs in ``sample_catalogs/`` from the data files in
``scripts/catalog_data/``.

Run ``python scripts/generate_catalogs.py`` after editing a data file; it rewrites every sample
catalog and ``sample_catalogs/README.md``, byte for byte the same on every run.
``tests/test_generator.py`` regenerates them and checks that the shipped files are equal, so the
data files are the one source of the sample catalogs. Options: ``--data-dir`` reads another data
folder and ``--out-dir`` writes to another folder (both default to the ones in this repository).
It needs the standard library and PyYAML.

Data layout (all YAML):

* ``catalog_data/catalogs.yaml``: the catalogs, in the order of the README table. Each has
  ``file`` (output name), ``name``, ``description``, ``syntax`` (``yaml``; ``yaml-escaped``, which
  writes non-ASCII characters as visible escapes; or ``json``, still valid YAML and much faster to
  parse for very large catalogs) and ``servers``. A server entry has ``name``, optional ``kind``
  (``mcp`` when absent) and ``capabilities``, and ``tools_from``: the data file holding its tools,
  under its name. ``only`` keeps the listed tools, ``leave_out`` drops them; the tools keep the
  data file's order either way.
* ``catalog_data/servers/<file>.yaml``: ``servers`` maps a server name to its list of tools, each
  as an MCP server lists it (``name``, optional ``title`` and ``description``, ``inputSchema``,
  optional ``annotations``). An optional ``shared`` section defines schemas that several tools
  use once, with a YAML anchor (``&owner``), and the tools refer to them with aliases
  (``*owner``); the generator ignores the section itself and writes a full copy at every use.
* ``catalog_data/templates/<file>.yaml``: a server too large to list tool by tool, given as a
  vocabulary (``template`` names the expansion, ``server`` the server, ``seed`` the sampling
  seed). ``catalog_templates.py`` beside this script expands it into the server's tool list,
  which catalogs use like a list from ``servers/``.

Every name, description and schema there was written for this project. The servers imitate the
*shape* and *size* of real MCP servers as publicly reported (see ``shared/figures.md``), not
their text. Sizes are measured with the ``chars4`` estimate of the reference behavior (docs/reference.md §3):
each tool becomes ``{"type":"function","function":{"name","description","parameters"}}``,
serialised as compact JSON without ASCII escaping; the lengths are summed, divided by 4 and
rounded up once. Every run prints that per catalog and per server.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import re
import sys
from pathlib import Path
from typing import Any, Iterable

import yaml

import catalog_templates  # beside this script

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "scripts" / "catalog_data"
OUT_DIR = ROOT / "sample_catalogs"
SYNTAXES = ("yaml", "yaml-escaped", "json")
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: ~10x faster


def _load_constants() -> Any:
    """Load ``toolsearch/engine/constants.py`` by path (one place for each fact), without importing
    the package ``__init__`` and its dependencies."""
    spec = importlib.util.spec_from_file_location("_ts_constants",
                                                  ROOT / "toolsearch" / "engine" / "constants.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


C = _load_constants()


class DataError(Exception):
    """A data file is missing, not valid YAML, or not shaped as described in the module
    docstring. The message is one line naming the file and the place in it."""


# =============================================================================================
# Reading the data files
# =============================================================================================

def _read_yaml(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.load(handle, Loader=_SafeLoader)
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(f"{path}:{where} not valid YAML ({problem})") from None


def _expect(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise DataError(f"{where}: expected {what}")


def _server_tools(data_dir: Path, entry: dict[str, Any], where: str,
                  files: dict[str, Any]) -> list[dict[str, Any]]:
    """The tools of one catalog server entry: its list in its data file, filtered by ``only``
    or ``leave_out``."""
    name, source = entry.get("name"), entry.get("tools_from")
    _expect(isinstance(name, str) and name != "", where, "`name`: a non-empty string")
    _expect(isinstance(source, str) and source != "", where,
            "`tools_from`: a data file path relative to the data folder")
    source_where = str(data_dir / source)
    if source not in files:
        files[source] = _read_yaml(data_dir / source)
        if isinstance(files[source], dict) and "template" in files[source]:
            try:
                files[source] = catalog_templates.expand(files[source], source_where)
            except catalog_templates.TemplateError as exc:
                raise DataError(str(exc)) from None
    _expect(isinstance(files[source], dict) and isinstance(files[source].get("servers"), dict),
            source_where, "a mapping with `servers`: server names mapped to tool lists")
    table = files[source]["servers"]
    _expect(name in table, f"{source_where}: servers", f"a tool list under {name!r}")
    tools = table[name] if table[name] is not None else []
    _expect(isinstance(tools, list) and all(isinstance(t, dict) and isinstance(t.get("name"), str)
                                            for t in tools),
            f"{source_where}: servers: {name}", "a list of tools, each a mapping with a `name`")
    names = [t["name"] for t in tools]
    if "only" in entry and "leave_out" in entry:
        raise DataError(f"{where}: expected `only` or `leave_out`, not both")
    for key in ("only", "leave_out"):
        if key in entry:
            chosen = entry[key]
            _expect(isinstance(chosen, list) and all(isinstance(n, str) for n in chosen), where,
                    f"`{key}`: a list of tool names")
            unknown = [n for n in chosen if n not in names]
            _expect(not unknown, f"{where}: {key}",
                    f"tools of {name!r} in {source}, found unknown {', '.join(unknown)}")
            keep = set(chosen) if key == "only" else set(names) - set(chosen)
            tools = [t for t in tools if t["name"] in keep]
    return tools


def build_catalogs(data_dir: Path = DATA_DIR) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Read the data files into catalog documents.

    Returns (file name → catalog document ``{"name", "description", "servers"}`` in the order of
    ``catalogs.yaml``, file name → syntax). Raises :class:`DataError` for a missing or
    malformed data file."""
    index_path = data_dir / "catalogs.yaml"
    index = _read_yaml(index_path)
    _expect(isinstance(index, dict) and isinstance(index.get("catalogs"), list), str(index_path),
            "a mapping with a `catalogs` list")
    files: dict[str, Any] = {}
    catalogs: dict[str, dict[str, Any]] = {}
    syntaxes: dict[str, str] = {}
    for i, spec in enumerate(index["catalogs"]):
        where = f"{index_path}: catalogs[{i}]"
        _expect(isinstance(spec, dict), where, "a mapping")
        file_name = spec.get("file")
        _expect(isinstance(file_name, str) and re.fullmatch(r"[\w.-]+\.yaml", file_name or "")
                is not None, where, "`file`: a file name ending in .yaml")
        where = f"{where} ({file_name})"
        _expect(file_name not in catalogs, where, "a file name used by one catalog only")
        for key in ("name", "description"):
            _expect(isinstance(spec.get(key), str), where, f"`{key}`: a string")
        _expect(spec.get("syntax", "yaml") in SYNTAXES, where,
                f"`syntax`: one of {', '.join(SYNTAXES)}")
        _expect(isinstance(spec.get("servers"), list), where, "`servers`: a list")
        servers = []
        for j, entry in enumerate(spec["servers"]):
            entry_where = f"{where} servers[{j}]"
            _expect(isinstance(entry, dict), entry_where, "a mapping")
            _expect(entry.get("kind", "mcp") in C.SERVER_KINDS, entry_where,
                    f"`kind`: one of {', '.join(C.SERVER_KINDS)}")
            _expect(isinstance(entry.get("capabilities", {}), dict), entry_where,
                    "`capabilities`: a mapping")
            server: dict[str, Any] = {"name": entry.get("name"), "kind": entry.get("kind", "mcp")}
            if "capabilities" in entry:
                server["capabilities"] = entry["capabilities"]
            server["tools"] = _server_tools(data_dir, entry, entry_where, files)
            servers.append(server)
        catalogs[file_name] = {"name": spec["name"], "description": spec["description"],
                               "servers": servers}
        syntaxes[file_name] = spec.get("syntax", "yaml")
    return catalogs, syntaxes


# =============================================================================================
# Measurement: chars4 schema tokens and approximate listing sizes
# =============================================================================================

def function_def(t: dict[str, Any]) -> dict[str, Any]:
    """The model-facing definition that the chars4 estimate measures (docs/reference.md §3)."""
    return {"type": "function", "function": {"name": t["name"],
                                             "description": t.get("description", ""),
                                             "parameters": t["inputSchema"]}}


def chars4(tools: Iterable[dict[str, Any]]) -> int:
    """chars4 token estimate: summed compact-JSON code-point lengths of the tools' definitions,
    divided by 4, rounded up once."""
    chars = sum(len(json.dumps(function_def(t), separators=(",", ":"), ensure_ascii=False))
                for t in tools)
    return math.ceil(chars / C.CHARS_PER_TOKEN)


def name_tokens(tools: list[dict[str, Any]]) -> float:
    """Tokens of the tool names alone: sum of ``len(name) + 2``, divided by 4."""
    return sum(len(t["name"]) + 2 for t in tools) / C.CHARS_PER_TOKEN


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def short_description(desc: str) -> str:
    """First sentence capped at 60 characters (docs/reference.md §5.1), for listing estimates."""
    text = " ".join(desc.split())
    end = len(text)
    for m in _SENTENCE_END.finditer(text):
        if m.group() == ".":
            start = text.rfind(" ", 0, m.start()) + 1
            if text[start:m.start()] in ("e.g", "i.e", "etc"):
                continue
        end = m.end()
        break
    first = text[:end]
    cap = C.SHORT_DESCRIPTION_MAX_CHARS
    if len(first) <= cap:
        return first
    cut = first[:cap]
    if " " in cut:
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip(",;: ") + C.ELLIPSIS


def prefixed_name(server_name: str, tool_name: str) -> str:
    """``mcp__<server>__<tool>`` with sanitizing and the 64-character clamp (docs/reference.md §21)."""
    def sanitize(s: str) -> str:
        return re.sub(r"[^A-Za-z0-9_]", "_", s)
    full = (f"{C.MCP_TOOL_NAME_PREFIX}{sanitize(server_name)}"
            f"{C.MCP_NAME_SEPARATOR}{sanitize(tool_name)}")
    if len(full) <= C.MCP_TOOL_NAME_MAX_LENGTH:
        return full
    digest = hashlib.sha256(full.encode("utf-8")).hexdigest()[:C.MCP_TOOL_NAME_HASH_LENGTH]
    return full[:C.MCP_TOOL_NAME_MAX_LENGTH - C.MCP_TOOL_NAME_HASH_LENGTH - 1] + "_" + digest


LISTING_HEADER_CHARS = 81  # the reference harness's listing header line, in characters (docs/reference.md §5.3)
UTILITY_SHORT_DESC = "List or read the resources or prompts of this server."


def deferred_groups(catalog: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """Approximate deferred tools per label as (listed name, short description).

    MCP and plugin tools defer; core tools defer only when in the default defer set. MCP
    servers gain the utility tools their capabilities advertise (docs/reference.md §24)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for srv in catalog["servers"]:
        kind = srv.get("kind", "mcp")
        entries = []
        for t in srv["tools"]:
            if kind == "core" and t["name"] not in C.DEFAULT_DEFER:
                continue
            name = prefixed_name(srv["name"], t["name"]) if kind == "mcp" else t["name"]
            entries.append((name, short_description(t.get("description") or "")))
        if kind == "mcp":
            caps = srv.get("capabilities")
            families = [f for f in ("resources", "prompts") if caps is None or f in caps]
            for family in families:
                for util in C.UTILITY_TOOLS:
                    if family[:-1] in util:
                        entries.append((prefixed_name(srv["name"], util), UTILITY_SHORT_DESC))
        if entries:
            groups.setdefault(srv["name"], []).extend(entries)
    return groups


def listing_estimates(catalog: dict[str, Any]) -> tuple[int, int]:
    """Approximate (full, names) listing tokens: header, a ``<label> tools (<N>):`` heading per
    group, then one ``- name: short`` line per tool (full) or one ``", "``-joined line (names)."""
    full_lines = ["x" * LISTING_HEADER_CHARS]
    names_lines = ["x" * LISTING_HEADER_CHARS]
    for label, entries in sorted(deferred_groups(catalog).items()):
        heading = f"{label} tools ({len(entries)}):"
        full_lines.append(heading)
        names_lines.append(heading)
        for name, short in sorted(entries):
            full_lines.append(f"- {name}: {short}" if short else f"- {name}")
        names_lines.append(", ".join(sorted(n for n, _ in entries)))
    return (math.ceil(len("\n".join(full_lines)) / C.CHARS_PER_TOKEN),
            math.ceil(len("\n".join(names_lines)) / C.CHARS_PER_TOKEN))


# =============================================================================================
# Writing and reporting
# =============================================================================================

class _NoAliasDumper(yaml.SafeDumper):
    """Shared schema objects are written out in full at every use, never as `&id`/`*id`
    anchors, so each tool reads on its own as a server would send it."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def serialize(doc: dict[str, Any], syntax: str) -> bytes:
    """One catalog file's bytes. ``yaml``: block style, keys in insertion order, Unicode as is;
    ``yaml-escaped``: the same with every non-ASCII character as a visible escape such as
    ``\\xE9`` or ``\\U000E0041`` (so that an editor cannot drop invisible characters unnoticed);
    ``json``: JSON, which is YAML too and which the loader reads with the fast JSON parser."""
    if syntax == "json":
        return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    return yaml.dump(doc, Dumper=_NoAliasDumper, sort_keys=False,
                     allow_unicode=syntax != "yaml-escaped", width=100,
                     default_flow_style=False).encode("utf-8")


def _notes(catalogs: dict[str, dict[str, Any]]) -> tuple[float | None, tuple[int, int] | None]:
    cf = catalogs.get("cloudflare-flat.yaml")
    team = catalogs.get("team-workspace.yaml")
    return (name_tokens(cf["servers"][0]["tools"]) if cf and cf["servers"] else None,
            listing_estimates(team) if team else None)


def report(catalogs: dict[str, dict[str, Any]], sizes: dict[str, int]) -> str:
    """The size table printed on every run: tools and chars4 tokens per catalog and server."""
    lines = [f"{'catalog / server':<66} {'tools':>6} {'chars4':>8} {'file':>10}"]
    for file_name, doc in catalogs.items():
        all_tools = [t for s in doc["servers"] for t in s["tools"]]
        lines.append(f"{file_name:<66} {len(all_tools):>6} {chars4(all_tools):>8} "
                     f"{sizes[file_name]:>10}")
        for s in doc["servers"]:
            lines.append(f"  {s['name']:<64} {len(s['tools']):>6} {chars4(s['tools']):>8}")
    cf_names, team = _notes(catalogs)
    if cf_names is not None:
        cf = catalogs["cloudflare-flat.yaml"]["servers"][0]["tools"]
        lines += ["", f"cloudflare-flat: names alone {cf_names:,.0f} tokens (sum of len(name)+2, "
                  f"/4); mean name length {sum(len(t['name']) for t in cf) / len(cf):.1f}"]
    if team is not None:
        lines.append(f"team-workspace: approximate listing {team[0]} tokens full, {team[1]} tokens "
                     "names (budgets: 4000 at 200K context, 1600 at 32K)")
    return "\n".join(lines)


def readme(catalogs: dict[str, dict[str, Any]]) -> str:
    """sample_catalogs/README.md, generated so that its numbers always match the files."""
    out = [
        "# Sample catalogs",
        "",
        "Catalog files (YAML, see the catalog file format in the design notes) that the app "
        "offers out of the box. They are **generated**: edit the data files in "
        "`scripts/catalog_data/` and run `python scripts/generate_catalogs.py`, which rewrites "
        "every file here, this README included, byte for byte the same on every run.",
        "",
        "All names, descriptions and schemas were written for this project. Each file imitates "
        "the size and shape of a publicly reported MCP deployment, not its text. `chars4` is the "
        "reference estimate of schema tokens: each tool as "
        "`{\"type\":\"function\",\"function\":{\"name\",\"description\",\"parameters\"}}`, compact "
        "JSON without ASCII escaping, lengths summed, divided by 4, rounded up.",
        "",
        "| file | imitates | servers | tools | chars4 tokens |",
        "| --- | --- | --- | ---: | ---: |",
    ]
    for file_name, doc in catalogs.items():
        all_tools = [t for s in doc["servers"] for t in s["tools"]]
        servers = ", ".join(f"{s['name']} ({len(s['tools'])})" for s in doc["servers"])
        out.append(f"| `{file_name}` | {doc['description']} | {servers} | {len(all_tools):,} "
                   f"| {chars4(all_tools):,} |")
    cf_names, team = _notes(catalogs)
    out += ["", "Notes:", ""]
    if cf_names is not None:
        out.append(f"* `cloudflare-flat.yaml`: the tool names alone total {cf_names:,.0f} tokens "
                   "(sum of `len(name) + 2` over all names, divided by 4).")
    if team is not None:
        out.append(
            f"* `team-workspace.yaml` is the app's default catalog. With prefixed names and the "
            f"default settings its approximate full listing is {team[0]:,} tokens (fits the "
            f"4,000-token budget at 200K context, tier 1, form `full`) and its names listing "
            f"{team[1]:,} tokens (fits the 1,600-token budget at 32K context, form `names`). The "
            "exact numbers come from the engine and the wording profile.")
    if "hard-cases.yaml" in catalogs:
        out.append("* `hard-cases.yaml` is not sized after anything; it collects inputs that "
                   "loaders, registration and listing must handle.")
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write the sample catalogs and their README from the data files.")
    parser.add_argument("--data-dir", type=Path, default=DATA_DIR,
                        help="folder with catalogs.yaml and servers/ (default: %(default)s)")
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR,
                        help="folder to write the catalogs and README.md to (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        catalogs, syntaxes = build_catalogs(args.data_dir)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out_dir.mkdir(parents=True, exist_ok=True)
    sizes: dict[str, int] = {}
    for file_name, doc in catalogs.items():
        data = serialize(doc, syntaxes[file_name])
        (args.out_dir / file_name).write_bytes(data)
        sizes[file_name] = len(data)
    (args.out_dir / "README.md").write_text(readme(catalogs), encoding="utf-8")
    print(report(catalogs, sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
