"""Convert third-party labeled tool-retrieval sets into toolsearch catalogs and query files.

Two public sets, neither written for toolsearch:

* ``metatool``: ToolE from MetaTool (HowieHwong/MetaTool, MIT licence): user requests for
  ChatGPT plugins, each labeled with the one plugin that serves it; the catalog is the 199
  plugins with their descriptions (``dataset/plugin_des.json``), the requests are
  ``dataset/data/all_clean_data.csv``.
* ``bfcl-live``: the user-contributed "live" categories of the Berkeley Function Calling
  Leaderboard (ShishirPatil/gorilla, Apache-2.0): real users' requests with the real function
  documents they sent (``BFCL_v4_live_simple.json``, ``BFCL_v4_live_multiple.json``) and the
  function each request must call (``possible_answer/``). The catalog is the union of all
  functions of both files (first definition of each name wins).

Each set gets, under ``benchmarks/data/<set>/``:

* ``catalog.json``: a flat list of MCP tools on one server (``metatool`` / ``bfcl``); names are
  made safe (characters outside ``[A-Za-z0-9_]`` become ``_``).
* ``all.json``: every sampled task; ``tune.json`` and ``test.json``: the split.
* Absent-capability requests: a seeded 10 % of the tools that have requests are *held out*
  (removed from the catalog); sampled requests for them are kept with ``expected: []``, so the
  correct answer is an empty result.
* The split is by tool group: every task is assigned by its gold tool (absent tasks by their
  held-out tool), hashed with the seed, so no tool's requests are on both sides.
* ``metatool`` only, ``no-tool-tune.json`` and ``no-tool-test.json``: requests that MetaTool's
  own labels say need no external tool at all (the ``negative`` items of
  ``dataset/tmp_dataset/Task1.json``), as abstention tasks (``expected: []``) over the same
  catalog: a second measure of abstention, labeled by MetaTool rather than by a hold-out.

Usage (the sources are git checkouts, or bare git directories read with ``git show``)::

    python scripts/third_party_data.py --metatool PATH/TO/MetaTool --gorilla PATH/TO/gorilla [--out-dir DIR]

Deterministic: the same sources and seed give byte-identical files.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

SEED = 23
HOLD_OUT_SHARE = 0.10
TEST_SHARE = 0.5
#: How many of MetaTool's needs-no-tool requests are sampled (both files together).
NO_TOOL_SAMPLE = 160
#: Requests longer than this are left out (as for BFCL's requests).
MAX_REQUEST_CHARS = 500
OUT = Path(__file__).resolve().parent.parent / "benchmarks" / "data"
_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


class Source:
    """Files of one repository: a checkout (read from disk) or a git directory (``git show``)."""

    def __init__(self, path: str):
        self.path = Path(path)
        self.bare = not (self.path / ".git").exists() and (self.path / "HEAD").exists()

    def read(self, rel: str) -> str:
        if self.bare:
            return subprocess.run(["git", "--git-dir", str(self.path), "show", f"HEAD:{rel}"], check=True,
                                  capture_output=True, text=True).stdout
        return (self.path / rel).read_text(encoding="utf-8")

    def commit(self) -> str:
        args = ["git", "--git-dir", str(self.path)] if self.bare else ["git", "-C", str(self.path)]
        return subprocess.run(args + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def safe(name: str) -> str:
    return _UNSAFE.sub("_", name)


def bucket(key: str, salt: str) -> float:
    """A stable number in [0, 1) for ``key`` (sha256 of seed, salt and key)."""
    digest = hashlib.sha256(f"{SEED}:{salt}:{key}".encode()).hexdigest()
    return int(digest[:12], 16) / 16 ** 12


def same_words(query: str) -> str:
    """A request's words, case and spacing aside: two requests with the same are the same request."""
    return " ".join(query.split()).casefold()


def drop_ambiguous(tasks: list[dict]) -> list[dict]:
    """``tasks`` without those whose request was also sampled for another tool (the same words,
    case and spacing aside): its label is ambiguous (BFCL has "if I have 100$ and I donated 40…"
    labeled both ``add`` and ``sub``), and it would stand on both sides of the split, so a figure
    tuned on one side would have seen a request of the other. Run after sampling, so every other
    task stays as sampled."""
    groups: dict[str, set[str]] = {}
    for task in tasks:
        for query in task["queries"]:
            groups.setdefault(same_words(query), set()).add(task["group"])
    return [t for t in tasks if all(len(groups[same_words(q)]) == 1 for q in t["queries"])]


def write_set(name: str, server: str, tools: list[dict], requests: dict[str, list[str]], per_tool: int,
              per_absent: int, meta: dict, root: Path = OUT) -> dict:
    """Hold out tools, sample requests, split by tool group and write the files under
    ``root / name``. Returns counts."""
    rng = random.Random(f"{SEED}:{name}")
    labeled = sorted(t for t in requests if requests[t])
    held = set(sorted(labeled, key=lambda t: bucket(t, "hold-out"))[:round(HOLD_OUT_SHARE * len(labeled))])
    catalog = [t for t in tools if t["name"] not in held]
    tasks = []
    for tool in labeled:
        pool = sorted(set(requests[tool]))
        take = rng.sample(pool, min(per_absent if tool in held else per_tool, len(pool)))
        for i, query in enumerate(take):
            tasks.append({"id": f"{tool}-{i}" if tool not in held else f"absent-{tool}-{i}", "queries": [query],
                          "expected": [] if tool in held else [f"mcp__{server}__{tool}"],
                          "group": tool,
                          "note": "held out of the catalog" if tool in held else ""})
    tasks = drop_ambiguous(tasks)
    side = {t: ("test" if bucket(t, "split") < TEST_SHARE else "tune") for t in labeled}
    out = root / name
    out.mkdir(parents=True, exist_ok=True)
    (out / "catalog.json").write_text(json.dumps(catalog, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    counts = {}
    for part in ("all", "tune", "test"):
        chosen = [t for t in tasks if part == "all" or side[t["group"]] == part]
        doc = {"name": f"{meta['title']} ({part})", "catalog": "catalog.json", "tool_names": "prefixed",
               "source": meta["source"], "licence": meta["licence"], "commit": meta["commit"],
               "split": f"{part}: tool groups with sha256('{SEED}:split:<tool>') "
                        f"{'< ' if part == 'test' else '>= ' if part == 'tune' else 'any, '}{TEST_SHARE}",
               "tasks": chosen}
        (out / f"{part}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        counts[part] = {"tasks": len(chosen), "absent": sum(1 for t in chosen if not t["expected"])}
    counts["catalog_tools"] = len(catalog)
    counts["held_out_tools"] = sorted(held)
    return counts


def write_no_tool(name: str, negatives: list[str], positives: list[str], meta: dict, root: Path = OUT) -> dict:
    """Write ``no-tool-tune.json`` and ``no-tool-test.json`` for set ``name``: requests that need no
    tool at all (by the source's own labels), each an abstention task (``expected: []``).

    The requests are de-duplicated (the same words, case and spacing aside; the first kept), those
    with the words of a positive request or over :data:`MAX_REQUEST_CHARS` characters are left out,
    :data:`NO_TOOL_SAMPLE` of the rest are sampled with the seed, and each goes to ``test`` when
    ``sha256("<seed>:split:no-tool:<request>")`` read as a fraction is below :data:`TEST_SHARE`.
    Written under ``root / name``. Returns counts."""
    taken = {same_words(q) for q in positives}
    pool: dict[str, str] = {}
    for query in negatives:
        query = query.strip()
        key = same_words(query)
        if query and key not in taken and key not in pool and len(query) <= MAX_REQUEST_CHARS:
            pool[key] = query
    rng = random.Random(f"{SEED}:{name}:no-tool")
    sample = rng.sample(sorted(pool.values()), min(NO_TOOL_SAMPLE, len(pool)))
    tasks = [{"id": f"no-tool-{i:03d}", "queries": [query], "expected": [],
              "note": "needs no tool (the source's own label)"} for i, query in enumerate(sample)]
    out = root / name
    counts = {}
    for part in ("tune", "test"):
        chosen = [t for t in tasks if (bucket(f"no-tool:{t['queries'][0]}", "split") < TEST_SHARE) == (part == "test")]
        doc = {"name": f"{meta['title']} ({part})", "catalog": "catalog.json", "tool_names": "prefixed",
               "source": meta["source"], "source_file": meta["source_file"], "licence": meta["licence"],
               "commit": meta["commit"],
               "split": f"{part}: requests with sha256('{SEED}:split:no-tool:<request>') "
                        f"{'< ' if part == 'test' else '>= '}{TEST_SHARE}",
               "tasks": chosen}
        (out / f"no-tool-{part}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n",
                                                 encoding="utf-8")
        counts[f"no-tool-{part}"] = len(chosen)
    counts["no-tool-pool"] = len(pool)
    return counts


def metatool(src: Source, root: Path = OUT) -> dict:
    descriptions = json.loads(src.read("dataset/plugin_des.json"))
    tools = [{"server": "metatool", "name": safe(n), "description": d,
              "inputSchema": {"type": "object", "properties": {}}} for n, d in descriptions.items()]
    requests: dict[str, list[str]] = {}
    for row in csv.DictReader(io.StringIO(src.read("dataset/data/all_clean_data.csv"))):
        query, tool = (row.get("Query") or "").strip(), (row.get("Tool") or "").strip()
        if query and tool in descriptions:
            requests.setdefault(safe(tool), []).append(query)
    meta = {"title": "MetaTool ToolE requests", "source": "https://github.com/HowieHwong/MetaTool",
            "licence": "MIT", "commit": src.commit()}
    counts = write_set("metatool", "metatool", tools, requests, per_tool=2, per_absent=4, meta=meta,
                       root=root)
    # Task1 of MetaTool's tool-usage awareness test: "positive" requests need a tool, "negative"
    # ones, by MetaTool's labels, need none.
    items = json.loads(src.read("dataset/tmp_dataset/Task1.json"))
    negatives = [item["query"] for item in items if item.get("label") == "negative"]
    positives = [item["query"] for item in items if item.get("label") == "positive"]
    positives += [q for queries in requests.values() for q in queries]
    counts.update(write_no_tool("metatool", negatives, positives, {
        **meta, "title": "MetaTool requests that need no tool",
        "source_file": "dataset/tmp_dataset/Task1.json (label: negative)"}, root))
    return counts


def _schema(params: dict) -> dict:
    schema = json.loads(json.dumps(params))
    if schema.get("type") == "dict":
        schema["type"] = "object"
    return schema


def bfcl(src: Source, root: Path = OUT) -> dict:
    base = "berkeley-function-call-leaderboard/bfcl_eval/data/"
    tools: list[dict] = []
    seen: set[str] = set()
    requests: dict[str, list[str]] = {}
    for part in ("BFCL_v4_live_simple.json", "BFCL_v4_live_multiple.json"):
        answers = {}
        for line in src.read(base + "possible_answer/" + part).splitlines():
            if line.strip():
                item = json.loads(line)
                answers[item["id"]] = [safe(next(iter(call))) for call in item["ground_truth"]]
        for line in src.read(base + part).splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            for fn in item["function"]:
                name = safe(fn["name"])
                if name not in seen:
                    seen.add(name)
                    tools.append({"server": "bfcl", "name": name, "description": fn.get("description", ""),
                                  "inputSchema": _schema(fn.get("parameters") or {})})
            gold = answers.get(item["id"], [])
            turns = [m["content"] for turn in item["question"] for m in turn
                     if m.get("role") == "user" and isinstance(m.get("content"), str)]
            if len(set(gold)) == 1 and turns and len(turns[-1]) <= 500:
                requests.setdefault(gold[0], []).append(" ".join(turns[-1].split()))
    # A gold name that no request's function list defines is a labeling slip: its requests are dropped.
    # Wire names over 64 characters are shortened at registration, so their labels cannot match.
    requests = {tool: queries for tool, queries in requests.items()
                if tool in seen and len(f"mcp__bfcl__{tool}") <= 64}
    meta = {"title": "BFCL live requests", "source": "https://github.com/ShishirPatil/gorilla "
            "(berkeley-function-call-leaderboard, live_simple and live_multiple)",
            "licence": "Apache-2.0", "commit": src.commit()}
    return write_set("bfcl-live", "bfcl", tools, requests, per_tool=3, per_absent=3, meta=meta, root=root)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metatool", metavar="DIR", help="MetaTool checkout or git directory")
    parser.add_argument("--gorilla", metavar="DIR", help="gorilla checkout or git directory")
    parser.add_argument("--out-dir", metavar="DIR", type=Path, default=OUT,
                        help="where the sets' folders are written (default: benchmarks/data)")
    args = parser.parse_args(argv)
    if args.metatool:
        print("metatool", json.dumps(metatool(Source(args.metatool), args.out_dir)))
    if args.gorilla:
        print("bfcl-live", json.dumps(bfcl(Source(args.gorilla), args.out_dir)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
