"""Generate sample_sessions/: recorded sessions on the app's default catalog (team-workspace).

    python scripts/generate_sample_sessions.py [--hermes-python PATH] [--out sample_sessions]

Seven short sessions a team might have had with tool search on: found at once, an empty search
then a retry with the service's name, a failed call then a fixed one with a search repeated after
a compaction, a message posted after one search, a search that gave up, and a tool called by a
name read off the listing, never searched. The recorded ``tool_search``, ``tool_describe`` and
``tool_call`` results are what the toolsearch engine returns for team-workspace at the session's
settings, so the samples match the app's default catalog: the Sessions page opens with no catalog
drift (tests that exercise drift bring their own sessions).

Written files:

* ``state.db``: a Hermes session store written by Hermes' own ``hermes_state.SessionDB``
  (through scripts/hermes_store_writer.py, run with the Python of an environment where
  ``hermes-agent`` is installed: ``--hermes-python`` or ``$TOOLSEARCH_HERMES_PYTHON``), and
  ``hermes-export.jsonl``, Hermes' own JSON Lines export of it;
* ``trajectory.jsonl`` (Hermes trajectory, ShareGPT style), ``claude-code.jsonl`` (Claude Code
  transcript), ``anthropic-messages.json`` (Anthropic Messages arrays, with the server-side tool
  search blocks) and ``openai-messages.json`` (OpenAI Chat Completions arrays): the same sessions
  written by this script in each format's publicly documented shape.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolsearch.engine.config import ToolSearchConfig  # noqa: E402
from toolsearch.engine.inspector import Inspector  # noqa: E402

CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"


class Recorder:
    """Builds one session's OpenAI-shaped messages with engine answers as the recorded results."""

    def __init__(self, inspector: Inspector, prefix: str):
        self.bridge = inspector.bridge(ToolSearchConfig())
        self.messages: list[dict[str, Any]] = []
        self.prefix = prefix
        self.n = 0

    def user(self, text: str) -> None:
        self.messages.append({"role": "user", "content": text})

    def say(self, text: str) -> None:
        self.messages.append({"role": "assistant", "content": text})

    def call(self, name: str, arguments: dict[str, Any], result: Any = None) -> Any:
        self.n += 1
        call_id = f"call_{self.prefix}_{self.n}"
        self.messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}]})
        if result is None:
            if name == "tool_search":
                result = self.bridge.tool_search(arguments)
            elif name == "tool_describe":
                result = self.bridge.tool_describe(arguments)
            elif name == "tool_call":
                check = self.bridge.check_call(arguments)
                result = check.error if check.error is not None else {"ok": True}
            else:
                result = {"ok": True}
        content = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
        self.messages.append({"role": "tool", "tool_call_id": call_id, "tool_name": name, "content": content})
        return result

    def compact(self, summary: str) -> None:
        self.messages.append({"compact": [{"role": "user", "content": summary}]})


def scenarios(inspector: Inspector) -> list[dict[str, Any]]:
    out = []

    r = Recorder(inspector, "a")
    r.user("Open an issue in octo-org/payments-api about the flaky checkout test.")
    r.call("tool_search", {"queries": ["create a github issue"]})
    r.call("tool_call", {"name": "mcp__github__create_issue",
                         "arguments": {"owner": "octo-org", "repo": "payments-api", "title": "Flaky checkout test"}},
           {"number": 1412, "html_url": "https://github.com/octo-org/payments-api/issues/1412"})
    r.say("Opened issue #1412.")
    out.append({"id": "20261130_091500_a1", "model": "anthropic/claude-sonnet-4.5", "title": "Flaky test issue",
                "model_config": {"context_length": 200000}, "messages": r.messages,
                "tokens": {"input_tokens": 18210, "output_tokens": 412, "cache_read_tokens": 15800,
                           "cache_write_tokens": 2300}, "end_reason": "agent_close"})

    r = Recorder(inspector, "b")
    r.user("Who is on call for payments right now? Ping them in #payments.")
    r.call("tool_search", {"queries": ["page the on-call engineer"]})
    r.call("tool_search", {"queries": ["on-call schedule"], "limit": 3})
    r.call("tool_call", {"name": "mcp__grafana__get_current_oncall_users",
                         "arguments": {"schedule_id": "SCHED42", "api_token": "glsa_9fQk2mZ81xR7pLw0TvBn4cYd"}},
           {"users": [{"login": "mona"}]})
    r.call("tool_search", {"queries": ["post slack message"]})
    r.call("tool_call", {"name": "mcp__slack__slack_post_message",
                         "arguments": {"channel_id": "C024BE91L", "text": "@mona is on call for payments"}},
           {"ok": True, "ts": "1764494100.000200"})
    r.say("Mona is on call; I posted in #payments.")
    out.append({"id": "20261130_101200_b2", "model": "openai/gpt-5-mini", "title": "On-call ping",
                "model_config": {"context_length": 16000}, "messages": r.messages,
                "tokens": {"input_tokens": 9105, "output_tokens": 388, "cache_read_tokens": 6100,
                           "cache_write_tokens": 1900}, "end_reason": "agent_close"})

    r = Recorder(inspector, "c")
    r.user("Why did the last CI run of payments-api fail? Check the test locally first.")
    r.call("terminal", {"command": "pytest tests/test_checkout.py -k total"}, {"exit_code": 0, "output": "1 passed"})
    r.call("tool_search", {"queries": ["get logs of failed CI job"]})
    # The compaction drops what that search found, so the same search is made again after it.
    r.compact("Summary of the earlier turns: the checkout test passes locally; the user wants to know why "
              "CI run 9912 of octo-org/payments-api failed.")
    r.call("tool_search", {"queries": ["get logs of failed CI job", "workflow run logs"]})
    r.call("tool_describe", {"names": ["mcp__github__get_job_logs", "mcp__github__get_workflow_logs"]})
    r.call("tool_call", {"name": "mcp__github__get_job_logs", "arguments": {"repo": "payments-api", "run_id": 9912}})
    r.call("tool_call", {"name": "mcp__github__get_job_logs",
                         "arguments": {"owner": "octo-org", "repo": "payments-api", "run_id": 9912, "failed_only": True}},
           {"logs": "FAIL test_checkout_total (timeout after 30s)"})
    r.say("The checkout test timed out in CI; it passes locally.")
    out.append({"id": "20261130_140300_c3", "model": "anthropic/claude-sonnet-4.5", "title": "CI failure",
                "model_config": {"context_length": 200000}, "messages": r.messages,
                "tokens": {"input_tokens": 40420, "output_tokens": 1210, "cache_read_tokens": 35010,
                           "cache_write_tokens": 4200}, "end_reason": "agent_close"})

    r = Recorder(inspector, "d")
    r.user("Tell #release that 2.4.0 is out.")
    r.call("tool_search", {"queries": ["post message to slack channel"]})
    r.call("tool_call", {"name": "mcp__slack__slack_post_message",
                         "arguments": {"channel_id": "C0RELEASE", "text": "2.4.0 is out"}}, {"ok": True})
    out.append({"id": "20261128_170000_d4", "model": "openai/gpt-5-mini", "title": "Release note",
                "model_config": {"context_length": 16000}, "messages": r.messages,
                "tokens": {"input_tokens": 5120, "output_tokens": 96}, "end_reason": "agent_close"})

    r = Recorder(inspector, "e")
    r.user("Rotate the payments database secret in the cluster.")
    r.call("tool_search", {"queries": ["rotate kubernetes secret", "update secret"]})
    r.say("None of the connected servers can rotate Kubernetes secrets; use kubectl directly.")
    out.append({"id": "20261130_163000_e5", "model": "anthropic/claude-haiku-4.5", "title": "Secret rotation",
                "messages": r.messages, "tokens": {"input_tokens": 7300, "output_tokens": 150},
                "end_reason": "agent_close"})

    r = Recorder(inspector, "f")
    r.user("Show me the p99 latency panel of the checkout dashboard.")
    r.call("tool_search", {"queries": ["grafana dashboard latency"]})
    r.call("tool_search", {"queries": ["search grafana dashboards"]})
    r.call("tool_call", {"name": "mcp__grafana__search_dashboards", "arguments": {"query": "checkout"}},
           {"dashboards": [{"uid": "chk-01", "title": "Checkout"}]})
    r.call("tool_search", {"queries": ["dashboard panel queries"]})
    r.call("tool_call", {"name": "mcp__grafana__get_dashboard_panel_queries", "arguments": {"uid": "chk-01"}},
           {"panels": [{"title": "p99 latency", "query": "histogram_quantile(0.99, ...)"}]})
    out.append({"id": "20261201_080500_f6", "model": "openai/gpt-5-mini", "title": "Latency panel",
                "model_config": {"context_length": 16000}, "messages": r.messages,
                "tokens": {"input_tokens": 12020, "output_tokens": 310, "cache_read_tokens": 8000,
                           "cache_write_tokens": 2500}, "end_reason": "agent_close"})

    r = Recorder(inspector, "g")
    r.user("What's on my plate in Linear today?")
    # Called by a name read off the listing, without a search (the listing shows full lines at 200K).
    r.call("tool_call", {"name": "mcp__linear__list_my_issues", "arguments": {}},
           {"issues": [{"identifier": "PAY-311", "title": "Checkout total rounding", "state": "In Progress"}]})
    r.say("One issue in progress: PAY-311, checkout total rounding.")
    out.append({"id": "20261201_093000_g7", "model": "anthropic/claude-sonnet-4.5", "title": "Linear triage",
                "model_config": {"context_length": 200000}, "messages": r.messages,
                "tokens": {"input_tokens": 16400, "output_tokens": 120, "cache_read_tokens": 15100,
                           "cache_write_tokens": 900}, "end_reason": "agent_close"})
    return out


# --- other formats (written from each format's public documentation) ------------------------

def _active(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages without compaction markers (a compaction keeps the summary and what follows)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if "compact" in m:
            out = list(m["compact"])
        else:
            out.append(m)
    return out


def to_trajectory(session: dict[str, Any]) -> dict[str, Any]:
    turns: list[dict[str, str]] = [{"from": "system", "value": "You are a helpful assistant with tools."}]
    pending: list[str] = []
    for m in _active(session["messages"]):
        if m["role"] == "user":
            turns.append({"from": "human", "value": m["content"]})
        elif m["role"] == "assistant" and m.get("tool_calls"):
            body = "".join(f"<tool_call>\n{json.dumps({'name': c['function']['name'], 'arguments': json.loads(c['function']['arguments'])}, ensure_ascii=False)}\n</tool_call>\n"
                           for c in m["tool_calls"])
            turns.append({"from": "gpt", "value": "<think>\n</think>\n" + body.rstrip()})
            pending = [c["function"]["name"] for c in m["tool_calls"]]
        elif m["role"] == "assistant":
            turns.append({"from": "gpt", "value": m["content"]})
        elif m["role"] == "tool":
            content: Any = m["content"]
            try:
                content = json.loads(content)
            except ValueError:
                pass
            turns.append({"from": "tool", "value": "<tool_response>\n" + json.dumps(
                {"tool_call_id": m["tool_call_id"], "name": pending[0] if pending else m.get("tool_name"),
                 "content": content}, ensure_ascii=False) + "\n</tool_response>"})
    return {"conversations": turns, "timestamp": "2026-11-30T09:15:00", "model": session["model"], "completed": True}


def to_anthropic(session: dict[str, Any], server_search: bool) -> dict[str, Any]:
    """Anthropic Messages shape; with ``server_search`` the bridge searches become server-side
    tool search blocks (one query each) and the found tools are called directly."""
    messages: list[dict[str, Any]] = []
    for m in _active(session["messages"]):
        if m["role"] == "user":
            messages.append({"role": "user", "content": m["content"]})
        elif m["role"] == "assistant" and m.get("tool_calls"):
            call = m["tool_calls"][0]
            name, args = call["function"]["name"], json.loads(call["function"]["arguments"])
            if server_search and name == "tool_search":
                continue  # written together with its result below
            if name == "tool_call":
                name, args = args["name"], args.get("arguments", {})
            messages.append({"role": "assistant", "content": [
                {"type": "tool_use", "id": call["id"].replace("call_", "toolu_"), "name": name, "input": args}]})
        elif m["role"] == "assistant":
            messages.append({"role": "assistant", "content": [{"type": "text", "text": m["content"]}]})
        elif m["role"] == "tool":
            result = json.loads(m["content"])
            if server_search and m["tool_name"] == "tool_search":
                blocks: list[dict[str, Any]] = []
                for k, group in enumerate(result["results"]):
                    use_id = f"srvtoolu_{m['tool_call_id'][5:]}_{k}"
                    blocks.append({"type": "server_tool_use", "id": use_id, "name": "tool_search_tool_bm25",
                                   "input": {"query": group["query"]}})
                    blocks.append({"type": "tool_search_tool_result", "tool_use_id": use_id,
                                   "content": {"type": "tool_search_tool_search_result",
                                               "tool_references": [{"type": "tool_reference", "tool_name": n}
                                                                   for n in group["matches"]]}})
                messages.append({"role": "assistant", "content": blocks})
                continue
            is_error = isinstance(result, dict) and "error" in result
            block = {"type": "tool_result", "tool_use_id": m["tool_call_id"].replace("call_", "toolu_"),
                     "content": m["content"]}
            if is_error:
                block["is_error"] = True
            messages.append({"role": "user", "content": [block]})
    return {"id": session["id"], "model": session["model"].split("/")[-1], "messages": messages}


def to_claude_code(session: dict[str, Any]) -> list[dict[str, Any]]:
    """Claude Code transcript entries (deferred tools found with ToolSearch, then called directly)."""
    converted = to_anthropic(session, server_search=False)
    entries: list[dict[str, Any]] = []
    parent = None
    # Claude Code stamps every entry with its time: the session's start (its id names it) and a
    # second per message; the reader orders a session's entries and the sessions by these times.
    start = datetime.datetime.strptime(session["id"][:15], "%Y%m%d_%H%M%S")

    def stamp(seconds: int) -> str:
        return (start + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    for i, message in enumerate(converted["messages"]):
        content = message["content"]
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use" and block["name"] == "tool_search":
                block["name"] = "ToolSearch"
                block["input"] = {"query": " ".join(block["input"]["queries"][:1]), "max_results": 5}
            if block.get("type") == "tool_result":
                try:
                    data = json.loads(block["content"])
                except ValueError:
                    data = None
                if isinstance(data, dict) and "results" in data:
                    block["content"] = [{"type": "tool_reference", "tool_name": n}
                                        for n in data["results"][0]["matches"]]
        uid = f"{session['id']}-{i:03d}"
        entry: dict[str, Any] = {"parentUuid": parent, "isSidechain": False, "userType": "external",
                                 "cwd": "/home/dev/payments-api", "sessionId": session["id"], "version": "2.0.0",
                                 "uuid": uid, "timestamp": stamp(i),
                                 "type": message["role"], "message": dict(message)}
        if message["role"] == "assistant":
            entry["message"]["model"] = converted["model"]
            entry["message"]["usage"] = {"input_tokens": 900 + 10 * i, "output_tokens": 40,
                                         "cache_read_input_tokens": 800, "cache_creation_input_tokens": 60}
        entries.append(entry)
        parent = uid
    if any("compact" in m for m in session["messages"]):
        entries.insert(0, {"type": "system", "subtype": "compact_boundary", "sessionId": session["id"],
                           "uuid": f"{session['id']}-compact", "timestamp": stamp(0),
                           "content": "Conversation compacted",
                           "compactMetadata": {"trigger": "auto", "preTokens": 151000}})
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate sample_sessions/ for the team-workspace catalog.")
    parser.add_argument("--hermes-python", default=os.environ.get("TOOLSEARCH_HERMES_PYTHON"),
                        help="Python of an environment with hermes-agent installed (default: $TOOLSEARCH_HERMES_PYTHON)")
    parser.add_argument("--out", default=str(ROOT / "sample_sessions"))
    args = parser.parse_args(argv)
    if not args.hermes_python:
        parser.error("give --hermes-python or set TOOLSEARCH_HERMES_PYTHON (an environment with hermes-agent)")
    inspector = Inspector.from_files([CATALOG])
    sessions = scenarios(inspector)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "state.db"
    for stale in (db, out / "state.db-wal", out / "state.db-shm"):
        stale.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.json"
        spec.write_text(json.dumps({"sessions": sessions}, ensure_ascii=False), encoding="utf-8")
        subprocess.run([args.hermes_python, str(ROOT / "scripts" / "hermes_store_writer.py"), str(spec), str(db),
                        "--export", str(out / "hermes-export.jsonl")], check=True)
    with (out / "trajectory.jsonl").open("w", encoding="utf-8") as fh:
        for s in sessions:
            fh.write(json.dumps(to_trajectory(s), ensure_ascii=False) + "\n")
    with (out / "claude-code.jsonl").open("w", encoding="utf-8") as fh:
        for s in sessions[:3]:
            for entry in to_claude_code(s):
                fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
    (out / "anthropic-messages.json").write_text(json.dumps(
        [to_anthropic(s, server_search=True) for s in sessions], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "openai-messages.json").write_text(json.dumps(
        [{"id": s["id"], "model": s["model"], "messages": _active(s["messages"])} for s in sessions],
        ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(sessions)} sessions in six formats to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
