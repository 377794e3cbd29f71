"""Scale benchmark: ``toolsearch lint``, ``report`` and ``plan`` and catalog loading on large catalogs.

Usage: ``python -m benchmarks.scale [--tools 20000,200000] [--few-servers 20] [--one-tool 2000,20000]
[--only lint,report,plan,load]``. Two shapes of catalog are built (each written once into the
temporary folder as compact JSON, outside the measured part):

* ``--tools N``: N tools in ``--few-servers`` servers (many tools in few servers);
* ``--one-tool N``: N servers of one tool each (many one-tool servers);
* ``--hostile N``: N servers of one tool each, every tool name a look-alike spelling of one name
  (``l``, ``1``, ``I``; ``o``, ``0``, Cyrillic ``о``) and every description naming a tool that half
  of the servers have (the pairwise checks: look-alike names, tools named in other servers' text).

Tool names (``<verb>_<domain>_<noun>``, unique in the catalog, a number appended when drawn twice)
and short descriptions are drawn from fixed word lists with a seeded ``random.Random``, so a size
always gives the same file; tools are short (one or two properties) so that 200,000 of them fit
under the 64 MiB toolsearch reads. Each command runs as ``toolsearch COMMAND CATALOG`` in its own
process at default settings; its wall time, CPU time, peak memory (max RSS) and output size (the
HTML file for ``report``) are printed. ``load`` is the catalog read alone
(:func:`toolsearch.engine.catalog.load_source`) in this process. Prints numbers; it asserts
nothing. CPU times are printed because wall times on a shared machine depend on its load.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("load", "plan", "lint", "report")

_DOMAINS = ("billing", "crm", "tickets", "storage", "dns", "builds", "alerts", "wiki", "calendar", "chat",
            "payments", "inventory", "shipping", "analytics", "identity", "search", "media", "forms")
_VERBS = ("list", "get", "create", "update", "delete", "search", "archive", "restore", "export", "import",
          "assign", "approve", "close", "reopen", "sync", "validate", "publish", "schedule", "cancel", "merge")
_NOUNS = ("account", "invoice", "customer", "ticket", "bucket", "record", "zone", "pipeline", "rule", "page",
          "event", "message", "channel", "payment", "order", "item", "shipment", "report", "dashboard", "user",
          "group", "role", "token", "file", "folder", "image", "survey", "response", "contract", "employee")
_PHRASES = ("in the workspace", "by its identifier", "with optional filters", "for a date range",
            "owned by the caller", "matching the given criteria")
_PARAMS = (("id", "string", "Identifier."), ("limit", "integer", "Maximum number of results."),
           ("query", "string", "Free-text filter."), ("cursor", "string", "Pagination cursor."))


def catalog_data(n_tools: int, n_servers: int, seed: int = 0) -> dict:
    """A catalog (file format data) of ``n_tools`` short tools over ``n_servers`` servers
    (near-equal shares, larger first), the same for the same arguments."""
    rng = random.Random(f"toolsearch-scale:{seed}")
    base, extra = divmod(n_tools, n_servers)
    width = len(str(n_servers))
    seen: set[str] = set()
    servers = []
    for s in range(n_servers):
        domain = _DOMAINS[s % len(_DOMAINS)]
        tools = []
        for _ in range(base + (1 if s < extra else 0)):
            verb, noun = rng.choice(_VERBS), rng.choice(_NOUNS)
            name = stem = f"{verb}_{domain}_{noun}"
            n = 1
            while name in seen:
                n += 1
                name = f"{stem}_{n}"
            seen.add(name)
            properties = {p: {"type": t, "description": d} for p, t, d in rng.sample(_PARAMS, rng.randint(1, 2))}
            tools.append({"name": name, "description": f"{verb.capitalize()} a {domain} {noun} {rng.choice(_PHRASES)}.",
                          "inputSchema": {"type": "object", "properties": properties}})
        servers.append({"name": f"{domain}-{s:0{width}d}", "tools": tools})
    return {"name": f"{n_tools:,} tools on {n_servers:,} servers", "servers": servers}


def hostile_data(n_servers: int) -> dict:
    """``n_servers`` one-tool servers: tool names that are look-alike spellings of one name, each
    description naming ``create_record``, the tool of every other server."""
    spellings = itertools.product(*({"l": "l1I", "o": "o0\u043e"}.get(c, c) for c in "tool_lo_lo_lo_lo_lo_lo_lo_lo"))
    servers = []
    for s, letters in zip(range(n_servers), spellings):
        name = "create_record" if s % 2 else "".join(letters)
        servers.append({"name": f"srv-{s:06d}", "tools": [
            {"name": name, "description": "Reads a record; call create_record first to make one.",
             "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}]})
    return {"name": f"{n_servers:,} servers of look-alike names", "servers": servers}


def catalog_file(n_tools: int, n_servers: int, hostile: bool = False) -> Path:
    """:func:`catalog_data` (or :func:`hostile_data`) as compact JSON in the temporary folder
    (written once per size)."""
    path = Path(tempfile.gettempdir()) / f"toolsearch-scale-{'hostile-' if hostile else ''}{n_tools}-{n_servers}.json"
    if not path.exists():
        data = hostile_data(n_servers) if hostile else catalog_data(n_tools, n_servers)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        partial.replace(path)
    return path


def run_cli(*args: str) -> tuple[int, float, float, int]:
    """``toolsearch ARGS`` in its own process: (stdout bytes, wall s, CPU s, max RSS in MB). Exit
    status 1 (``lint``: error findings) counts as a run; 2 or more stops the benchmark."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "toolsearch", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    size = 0
    while chunk := process.stdout.read(1 << 20):  # type: ignore[union-attr]
        size += len(chunk)
    err = process.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"toolsearch {' '.join(args)}: exit status {code}: {err.decode(errors='replace')[-500:]}")
    return size, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def measure(path: Path, commands: list[str]) -> None:
    """Print one line per command for the catalog ``path``."""
    if "load" in commands:
        from toolsearch.engine.catalog import load_source

        wall, cpu = time.perf_counter(), time.process_time()
        catalog = load_source(path)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"  load: wall {wall:.2f} s, CPU {cpu:.2f} s ({len(catalog.servers):,} servers)")
        del catalog
    for command in ("plan", "lint", "report"):
        if command not in commands:
            continue
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "report.html"
            args = [command, str(path)] + (["-o", str(out)] if command == "report" else [])
            size, wall, cpu, rss = run_cli(*args)
            if command == "report":
                size = out.stat().st_size
            what = "HTML file" if command == "report" else "output"
            print(f"  {command}: wall {wall:.2f} s, CPU {cpu:.2f} s, max RSS {rss:,} MB, {what} {size:,} bytes")


def _sizes(text: str) -> list[int]:
    return [int(x.replace("_", "")) for x in text.split(",") if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=_sizes, default=[20_000, 200_000],
                        help="tool counts for catalogs of few servers (default 20000,200000; empty: none)")
    parser.add_argument("--few-servers", type=int, default=20, help="servers of those catalogs (default 20)")
    parser.add_argument("--one-tool", type=_sizes, default=[2_000, 20_000],
                        help="server counts for catalogs of one-tool servers (default 2000,20000; empty: none)")
    parser.add_argument("--hostile", type=_sizes, default=[],
                        help="server counts for catalogs of look-alike names naming each other (default: none)")
    parser.add_argument("--only", type=lambda t: t.split(","), default=list(COMMANDS),
                        help=f"commands to time (default {','.join(COMMANDS)})")
    args = parser.parse_args()
    unknown = set(args.only) - set(COMMANDS)
    if unknown:
        parser.error(f"--only: unknown command(s) {', '.join(sorted(unknown))}; expected {', '.join(COMMANDS)}")
    print(f"machine: {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f} at start")
    shapes = ([(n, min(args.few_servers, n), False) for n in args.tools] + [(n, n, False) for n in args.one_tool]
              + [(n, n, True) for n in args.hostile])
    for n_tools, n_servers, hostile in shapes:
        path = catalog_file(n_tools, n_servers, hostile)
        print(f"{n_tools:,} tools on {n_servers:,} servers ({path.stat().st_size:,} bytes, {path.name}):")
        measure(path, args.only)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
