"""Sessions benchmark: builds a Hermes session store with 10,000 sessions and 100,000 messages, then
prints the time to read it, replay every recorded search (every variant), compute the listing
what-if and the aggregates, and the peak memory of that process.

Usage: ``python -m benchmarks.sessions [--sessions N] [--keep DIR]``. Prints numbers; asserts
nothing. Targets: read + replay under 30 s, peak memory under 1 GB. A store of more sessions than
the reader's limit (``MAX_STORE_SESSIONS``, 50,000) is read up to it: ``--sessions 200000``
measures that, and prints the problem that says what was not read.

The store gets its schema from Hermes itself when the ``hermes-agent`` environment is available
(``$TOOLSEARCH_HERMES_PYTHON`` or ``.ci/venv-hermes``: an empty store written by
``hermes_state.SessionDB``); the rows are then bulk-inserted with ``sqlite3`` in one transaction
(appending 100,000 messages one by one through Hermes would only measure Hermes). Without it, a
store with the same columns toolsearch reads is created. The measurement runs in a fresh process,
so the peak memory is the reader's and the replay's, not the builder's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
MODELS = ("anthropic/claude-sonnet-4.5", "openai/gpt-5-mini", "anthropic/claude-haiku-4.5", "google/gemini-2.5-pro")
VERBS = ("create", "list", "get", "update", "search", "delete", "post", "read", "query", "add", "close", "merge")
OBJECTS = ("issue", "pull request", "message", "dashboard", "page", "file", "comment", "alert rule", "incident",
           "workflow run", "release", "channel", "screenshot", "label", "on-call schedule", "metrics", "logs",
           "kubernetes pod", "invoice", "calendar event")
SERVICES = ("github", "slack", "grafana", "linear", "notion", "sentry", "", "", "")


def _hermes_python() -> str | None:
    value = os.environ.get("TOOLSEARCH_HERMES_PYTHON")
    if value and Path(value).exists():
        return value
    local = ROOT / ".ci" / "venv-hermes" / "bin" / "python"
    return str(local) if local.exists() else None


_MINIMAL_SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, model_config TEXT,
    started_at REAL NOT NULL, title TEXT, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
    active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);
"""


def build(db: Path, sessions: int, seed: int = 7) -> str:
    """Write the store; returns how its schema was made."""
    hermes = _hermes_python()
    if hermes:
        spec = db.with_suffix(".spec.json")
        spec.write_text('{"sessions": []}', encoding="utf-8")
        subprocess.run([hermes, str(ROOT / "scripts" / "hermes_store_writer.py"), str(spec), str(db)], check=True)
        how = "schema written by hermes_state.SessionDB"
    else:
        conn = sqlite3.connect(db)
        conn.executescript(_MINIMAL_SCHEMA)
        conn.close()
        how = "minimal schema (hermes-agent not installed)"
    rng = random.Random(seed)
    tools = _tool_names()
    conn = sqlite3.connect(db)
    session_rows, message_rows = [], []
    t = 1_790_000_000.0
    for n in range(sessions):
        sid = f"bench_{n:05d}"
        model = MODELS[n % len(MODELS)]
        session_rows.append((sid, "cli", model, json.dumps({"context_length": rng.choice((16000, 128000, 200000))}),
                             t + n, rng.randint(2000, 90000), rng.randint(50, 3000), rng.randint(0, 60000),
                             rng.randint(0, 9000)))
        message_rows.append((sid, "user", "Please help with the next task.", None, None, None, t + n))
        for k in range(4):  # 4 × (assistant call + tool result) = 8 messages
            call_id = f"c{n}_{k}"
            if k % 2 == 0:
                queries = [_query(rng) for _ in range(rng.choice((1, 1, 2, 3)))]
                args = {"queries": queries}
                result = {"queries": queries, "results": [{"query": q, "matches": rng.sample(tools, rng.choice((0, 3, 5)))}
                                                          for q in queries], "tools": {}}
                name = "tool_search"
            else:
                target = rng.choice(tools)
                args = {"name": target, "arguments": {"owner": "octo-org", "token": "ghp_" + "x" * 30}}
                result = {"ok": True} if rng.random() < 0.85 else {"error": "missing required argument"}
                name = "tool_call"
            message_rows.append((sid, "assistant", "", None, json.dumps([{"id": call_id, "type": "function",
                                 "function": {"name": name, "arguments": json.dumps(args)}}]), None, t + n))
            message_rows.append((sid, "tool", json.dumps(result), call_id, None, name, t + n))
        message_rows.append((sid, "assistant", "Done.", None, None, None, t + n))
    with conn:
        conn.executemany("INSERT INTO sessions (id, source, model, model_config, started_at, input_tokens, "
                         "output_tokens, cache_read_tokens, cache_write_tokens) VALUES (?,?,?,?,?,?,?,?,?)", session_rows)
        conn.executemany("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, "
                         "timestamp) VALUES (?,?,?,?,?,?,?)", message_rows)
    conn.close()
    return how


def _query(rng: random.Random) -> str:
    words = [rng.choice(VERBS), rng.choice(OBJECTS)]
    service = rng.choice(SERVICES)
    if service:
        words.insert(rng.randrange(3), service)
    return " ".join(words)


def _tool_names() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from toolsearch.engine.config import ToolSearchConfig  # noqa: PLC0415
    from toolsearch.engine.inspector import Inspector  # noqa: PLC0415

    return [t.name for t in Inspector.from_files([CATALOG]).bridge(ToolSearchConfig()).deferred]


def measure(db: str) -> None:
    """Read, replay, what-if and aggregates on ``db``; print the figures (run in a fresh process)."""
    from toolsearch.engine.config import ToolSearchConfig  # noqa: PLC0415
    from toolsearch.engine.inspector import Inspector  # noqa: PLC0415
    from toolsearch.analysis.sessions import aggregates, listing_what_if, load_sessions, replay, summary  # noqa: PLC0415

    inspector = Inspector.from_files([CATALOG])
    config = ToolSearchConfig()
    t0 = time.perf_counter()
    loaded = load_sessions([db])
    t1 = time.perf_counter()
    rep = replay(loaded.sessions, inspector, config)
    t2 = time.perf_counter()
    what_if = listing_what_if(loaded.sessions, inspector, config)
    agg = aggregates(loaded.sessions, rep)
    t3 = time.perf_counter()
    data = summary(loaded.sessions, rep)
    messages = sum(s.messages for s in loaded.sessions)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"store: {len(loaded.sessions):,} sessions, {messages:,} messages, {data['searches']:,} searches "
          f"(one per query), {len(rep.variants)} variants: {', '.join(rep.variants)}")
    for problem in loaded.problems:
        if "over the limit" in problem.message and "per store" in problem.message:
            print(f"store limit: {problem.message}")
    print(f"read:                {t1 - t0:6.2f} s")
    print(f"replay:              {t2 - t1:6.2f} s")
    print(f"what-if + aggregates: {t3 - t2:5.2f} s ({len(what_if):,} called tools, "
          f"{len(agg['per_model'])} models)")
    print(f"read + replay:       {t2 - t0:6.2f} s   (target < 30 s)")
    print(f"all:                 {t3 - t0:6.2f} s")
    print(f"peak memory:         {peak_mb:6.0f} MB  (target < 1024 MB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000, help="sessions to write (10 messages each)")
    parser.add_argument("--keep", metavar="DIR", help="write the store into DIR and keep it")
    parser.add_argument("--measure", metavar="DB", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        measure(args.measure)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "bench-state.db"
        db.unlink(missing_ok=True)
        t0 = time.perf_counter()
        how = build(db, args.sessions)
        print(f"built {db.name} in {time.perf_counter() - t0:.1f} s ({how}; {db.stat().st_size / 1e6:.0f} MB)")
        return subprocess.run([sys.executable, "-m", "benchmarks.sessions", "--measure", str(db)], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
