"""Write a Hermes session store (state.db) with Hermes' own session writer.

Run with the Python of a virtual environment where the PyPI package ``hermes-agent`` is
installed (``.ci/run`` makes one at ``.ci/venv-hermes``; ``$TOOLSEARCH_HERMES_PYTHON`` names its
interpreter)::

    $TOOLSEARCH_HERMES_PYTHON scripts/hermes_store_writer.py SPEC.json STATE_DB

This script imports nothing from toolsearch: it only turns a JSON description of sessions into
calls of ``hermes_state.SessionDB``, so the file it writes is exactly what Hermes itself writes.
SPEC.json::

    {"sessions": [
      {"id": "s1", "source": "cli", "model": "anthropic/claude-sonnet-4.5",
       "model_config": {"context_length": 200000},          # optional, stored as JSON text
       "title": "Open an issue",                             # optional
       "tokens": {"input_tokens": 1200, "output_tokens": 300,
                  "cache_read_tokens": 900, "cache_write_tokens": 200},   # optional
       "end_reason": "agent_close",                          # optional
       "parent": "s0",        # optional: parent_session_id (a compression continuation when the
                              # parent's end_reason is "compression", as Hermes writes it when
                              # compression.in_place is false, and always before in-place compaction)
       "messages": [
         {"role": "user", "content": "..."},
         {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "tool_search", "arguments": "{\\"queries\\": [\\"...\\"]}"}}]},
         {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_search", "content": "{...}"},
         {"compact": [{"role": "user", "content": "Summary of the earlier turns ..."}]},
         ...]}]}

A ``{"compact": [...]}`` item archives every active message of the session (Hermes'
``archive_and_compact``: ``active = 0, compacted = 1``) and inserts the given messages as the
new active set, as Hermes does when it compacts a conversation in place. With ``--export FILE``
the script then writes Hermes' own JSON Lines export of every session (``SessionDB.export_all``,
the data behind ``hermes sessions export``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", help="JSON file describing the sessions ('-' for standard input)")
    parser.add_argument("db", help="state.db to create (must not exist yet)")
    parser.add_argument("--export", metavar="FILE", help="also write Hermes' JSON Lines export of every session")
    parser.add_argument("--keep-open", action="store_true",
                        help="after writing, print 'ready' and keep appending one message per line read from "
                             "standard input to the first session, until end of input (a live writer)")
    args = parser.parse_args(argv)

    from hermes_state import SessionDB  # the real writer, from the hermes-agent package

    text = sys.stdin.read() if args.spec == "-" and not args.keep_open else Path(args.spec).read_text(encoding="utf-8")
    spec = json.loads(text)
    db_path = Path(args.db)
    if db_path.exists():
        parser.error(f"{db_path} exists already")
    db = SessionDB(db_path)
    try:
        for session in spec["sessions"]:
            sid = session["id"]
            extra = {"parent_session_id": session["parent"]} if session.get("parent") else {}
            db.create_session(sid, session.get("source", "cli"), model=session.get("model"),
                              model_config=session.get("model_config"), **extra)
            if session.get("title"):
                db.set_session_title(sid, session["title"])
            for message in session.get("messages", []):
                if "compact" in message:
                    db.archive_and_compact(sid, message["compact"])
                    continue
                db.append_message(sid, message["role"], content=message.get("content"),
                                  tool_name=message.get("tool_name"), tool_calls=message.get("tool_calls"),
                                  tool_call_id=message.get("tool_call_id"))
            tokens = session.get("tokens")
            if tokens:
                db.update_token_counts(sid, model=session.get("model"), **tokens)
            if session.get("end_reason"):
                db.end_session(sid, session["end_reason"])
        if args.export:
            with open(args.export, "w", encoding="utf-8") as fh:
                for exported in db.export_all():
                    fh.write(json.dumps(exported, ensure_ascii=False) + "\n")
        if args.keep_open:
            first = spec["sessions"][0]["id"]
            print("ready", flush=True)
            for line in sys.stdin:
                db.append_message(first, "user", content=line.rstrip("\n"))
                print("wrote", flush=True)
    finally:
        db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
