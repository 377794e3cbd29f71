"""Recorded sessions: secrets a model passed as command-line options (``--password VALUE``,
``--api-key=VALUE``, ``curl -u USER:PASSWORD``) or as values under a key that names a secret that
are not plain strings (a numeric PIN, a ``credentials`` object) never show in ``toolsearch
sessions`` (text and ``--json``). The store is written by Hermes' own ``hermes_state.SessionDB``.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from test_sessions import tool_calls, write_store
from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
M = C.SECRET_MASK

CALLS = [
    ("terminal", {"command": "mysql --password=Pw0rdOne -u root shop"}),
    ("terminal", {"command": "mysql --password Pw0rdTwo -u root shop"}),
    ("terminal", {"command": "deploy --api-key Ky0Three --verbose"}),
    ("terminal", {"command": "curl -u admin:Pw0rdFour https://ci.example.com/api"}),
    ("tool_call", {"name": "mcp__github__create_issue",
                   "arguments": {"title": "flaky", "credentials": {"user": "mona", "pass": "Pw0rdFive"}}}),
    ("tool_call", {"name": "mcp__github__create_issue", "arguments": {"title": "otp", "pin": 918273,
                                                                      "client_secret": 5647382910}}),
]
#: What each call's arguments read as, in order.
EXPECTED = [
    {"command": f"mysql --password={M} -u root shop"},
    {"command": f"mysql --password {M} -u root shop"},
    {"command": f"deploy --api-key {M} --verbose"},
    {"command": f"curl -u admin:{M} https://ci.example.com/api"},
    {"title": "flaky", "credentials": {"user": M, "pass": M}},
    {"title": "otp", "pin": M, "client_secret": M},
]
SECRETS = ("Pw0rdOne", "Pw0rdTwo", "Ky0Three", "Pw0rdFour", "Pw0rdFive", "918273", "5647382910")


def test_options_and_non_text_secrets_of_a_hermes_store_are_masked(tmp_path):
    messages = [{"role": "user", "content": "Check the shop database and file an issue."}]
    for i, (name, arguments) in enumerate(CALLS):
        messages.append({"role": "assistant", "content": "", "tool_calls": tool_calls(f"c{i}", name, arguments)})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "tool_name": name, "content": "{\"ok\": true}"})
    db = write_store(tmp_path, {"sessions": [{"id": "s-opts", "model": "openai/gpt-5-mini", "messages": messages}]})

    text = run_cli("sessions", str(db), "--catalog", str(CATALOG))
    as_json = run_cli("sessions", str(db), "--catalog", str(CATALOG), "--json")
    assert text.returncode == 0 and as_json.returncode == 0, text.stderr + as_json.stderr
    for out in (text.stdout + text.stderr, as_json.stdout + as_json.stderr):
        assert not [s for s in SECRETS if s in out]
    events = json.loads(as_json.stdout)["per_session"][0]["events"]
    assert [e["arguments"] for e in events if e["kind"] == "call"] == EXPECTED
    # ordinary options stay as they are
    assert "-u root shop" in text.stdout and "--verbose" in text.stdout
