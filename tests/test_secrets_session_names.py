"""Secrets in the names a recorded session holds: a credential-shaped string, or a value of the MCP
client config the catalog was listed from (written in the file, or a ``${VAR}`` from the
environment), used as a tool name, a server name, a recorded match, a described name, a query, an
argument or an error text. No surface shows it: ``toolsearch sessions`` (text, ``--json``,
``--export-queries``), ``recommend --sessions``, the HTML report and the Sessions page; and the
rest of the session is still read and counted, each masked name still counted on its own and still
matched against the catalog by its real value.

The sessions are written as a user's would be: a Hermes store by Hermes' own writer and a Claude Code
transcript (JSON Lines); the config's server is a real stdio MCP server (tests/mcp_test_server.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import literal_tables, run_cli, write_json, write_yaml
from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
SERVER = ROOT / "tests" / "mcp_test_server.py"
MASK = C.SECRET_MASK

GHP = "ghp_" + "Qm7Rt2Yx9Lk4Wp1Zc8Vb3Nd6Hs5Jf0Ga2Ue7Io"  # a GitHub token shape (36 characters after ghp_)
SK = "sk-proj-" + "Hq3Wd8Lr5Tz1Mv6Kx9Pb2Ns4Cy7Fg0Je"       # an OpenAI key shape
CONFIG_SECRET = "cfgValue-Orchid-7731"                     # an env value written in the config
ENV_SECRET = "envValue-Heron-9924"                         # a ${VAR} the config takes from the environment
ENV_VAR = "TOOLSEARCH_TEST_NAMES_TOKEN"
SECRETS = (GHP, SK, CONFIG_SECRET, ENV_SECRET)
#: Pieces of each secret: none may show, not even cut or glued to other text.
PIECES = ("Qm7Rt2Yx9Lk4", "Hq3Wd8Lr5Tz1", "Orchid-7731", "Heron-9924")

ISSUE = "mcp__github__create_issue"       # a catalog tool the session calls: counted as usual
GHP_TOOL = f"mcp__github__{GHP}"          # a recorded match holding a token
GHP_SERVER_TOOL = f"mcp__{GHP}__read"     # a token as the server part of a name
SK_TOOL = f"mcp__vault__{SK}"             # described, not found
ENV_TOOL = f"mcp__util__{ENV_SECRET}"     # a value from the environment inside a name


def _clean(text: str, where: str = "") -> None:
    for piece in PIECES:
        at = text.find(piece)
        assert at < 0, (where, piece, text[max(0, at - 160): at + 60])


def _config(tmp_path: Path) -> Path:
    """An MCP client config with one real server; one env value written in the file and one
    taken from the environment."""
    return write_json(tmp_path / "mcp.json", {"mcpServers": {"util": {
        "command": sys.executable, "args": [str(SERVER), "--name", "util"],
        "env": {"UTIL_API_KEY": CONFIG_SECRET, "UTIL_TOKEN": f"${{{ENV_VAR}}}"}}}})


def _tool_calls(call_id: str, name: str, arguments: dict) -> list[dict]:
    return [{"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]


def _hermes_spec() -> dict:
    """One Hermes session: a search whose queries and matches hold secrets, a describe of a
    secret name, calls of secret names with secret arguments and errors, and an ordinary call."""
    queries = [f"repo access with {GHP}", f"log in with {CONFIG_SECRET}", "create a github issue"]
    return {"sessions": [{"id": "s-names", "model": "openai/gpt-5-mini", "messages": [
        {"role": "user", "content": "Open an issue about the flaky test."},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("h1", "tool_search", {"queries": queries})},
        {"role": "tool", "tool_call_id": "h1", "tool_name": "tool_search", "content": json.dumps({
            "queries": queries, "total_available": 60,
            "results": [{"query": q, "matches": [ISSUE, GHP_TOOL]} for q in queries], "tools": {}})},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("h2", "tool_describe",
                                                                       {"names": [ISSUE, SK_TOOL]})},
        {"role": "tool", "tool_call_id": "h2", "tool_name": "tool_describe",
         "content": json.dumps({"tools": {}, "not_found": [SK_TOOL]})},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("h3", "tool_call", {
            "name": GHP_SERVER_TOOL, "arguments": {"note": CONFIG_SECRET, "path": f"/srv/{ENV_SECRET}/x"}})},
        {"role": "tool", "tool_call_id": "h3", "tool_name": "tool_call", "content": "{\"ok\": true}"},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("h4", "tool_call", {
            "name": CONFIG_SECRET, "arguments": {"q": "x"}})},
        {"role": "tool", "tool_call_id": "h4", "tool_name": "tool_call",
         "content": json.dumps({"error": f"denied for {ENV_SECRET}"})},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("h5", "tool_call", {
            "name": ISSUE, "arguments": {"title": "flaky"}})},
        {"role": "tool", "tool_call_id": "h5", "tool_name": "tool_call", "content": "{\"number\": 7}"}]}]}


def _transcript(tmp_path: Path) -> Path:
    """A Claude Code transcript: ToolSearch with a secret in its query and in a returned tool
    reference, then direct calls of a name holding an environment value and of a catalog tool."""
    sid = "cc-names"
    entries = [
        ("user", {"role": "user", "content": "Tell the team the release is out."}),
        ("assistant", {"role": "assistant", "model": "claude-sonnet-4.5", "content": [
            {"type": "tool_use", "id": "t1", "name": "ToolSearch", "input": {"query": f"slack token {SK}"}}]}),
        ("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [
            {"type": "tool_reference", "tool_name": "mcp__slack__slack_post_message"},
            {"type": "tool_reference", "tool_name": ENV_TOOL}]}]}),
        ("assistant", {"role": "assistant", "model": "claude-sonnet-4.5", "content": [
            {"type": "tool_use", "id": "t2", "name": ENV_TOOL, "input": {"key": GHP}}]}),
        ("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "is_error": True,
                                               "content": f"no such tool {ENV_TOOL}"}]}),
        ("assistant", {"role": "assistant", "model": "claude-sonnet-4.5", "content": [
            {"type": "tool_use", "id": "t3", "name": "mcp__slack__slack_post_message",
             "input": {"channel_id": "C1", "text": "2.4 is out"}}]}),
        ("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t3", "content": "{\"ok\": true}"}]}),
    ]
    lines = [json.dumps({"parentUuid": None if i == 0 else f"{sid}-{i - 1:03d}", "isSidechain": False,
                         "sessionId": sid, "uuid": f"{sid}-{i:03d}", "timestamp": f"2026-11-30T09:15:{i:02d}.000Z",
                         "type": kind, "message": message})
             for i, (kind, message) in enumerate(entries)]
    path = tmp_path / "transcript.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def recorded(tmp_path, monkeypatch) -> dict[str, Path]:
    from tests.test_sessions import write_store

    monkeypatch.setenv(ENV_VAR, ENV_SECRET)
    return {"store": write_store(tmp_path, _hermes_spec()), "transcript": _transcript(tmp_path),
            "config": _config(tmp_path)}


def test_the_sessions_command_shows_no_secret_and_still_counts_everything(recorded, tmp_path) -> None:
    sessions = [recorded["store"], recorded["transcript"]]
    catalog = ["--catalog", CATALOG, recorded["config"]]
    exported = tmp_path / "labeled.yaml"
    text = run_cli("sessions", *sessions, *catalog, "--variant", "reference", "--export-queries", exported)
    assert text.returncode == 0, text.stderr
    _clean(text.stdout + text.stderr, "sessions text")
    _clean(exported.read_text(encoding="utf-8"), "exported queries")
    data = run_cli("sessions", *sessions, *catalog, "--variant", "reference", "--json")
    assert data.returncode == 0, data.stderr
    _clean(data.stdout + data.stderr, "sessions --json")
    report = json.loads(data.stdout)

    # nothing dropped: both sessions, every search (3 queries + 1) and every event are there
    assert (report["sessions"], report["searches"]) == (2, 4)
    by_id = {s["id"]: s for s in report["per_session"]}
    store, transcript = by_id["s-names"], by_id["cc-names"]
    assert [e["kind"] for e in store["events"]] == ["search", "describe", "call", "call", "call"]
    assert [e["kind"] for e in transcript["events"]] == ["search", "call", "call"]

    # shown masked: queries, matches, described names, call names, arguments, errors
    search = store["events"][0]
    assert [q["query"] for q in search["queries"]] == [f"repo access with {MASK}", f"log in with {MASK}",
                                                      "create a github issue"]
    assert search["queries"][0]["matches"] == [ISSUE, f"mcp__github__{MASK}"]
    assert store["events"][1]["names"] == [ISSUE, f"mcp__vault__{MASK}"]
    assert store["events"][1]["not_found"] == [f"mcp__vault__{MASK}"]
    calls = store["events"][2:]
    assert [c["name"] for c in calls] == [f"mcp__{MASK}__read", MASK, ISSUE]
    assert calls[0]["arguments"] == {"note": MASK, "path": f"/srv/{MASK}/x"}
    assert calls[1]["error"] == f"denied for {MASK}"
    assert [c["succeeded"] for c in calls] == [True, False, True]
    assert transcript["events"][0]["queries"][0]["query"] == f"slack token {MASK}"
    assert transcript["events"][0]["queries"][0]["matches"] == ["mcp__slack__slack_post_message",
                                                                f"mcp__util__{MASK}"]
    assert [c["name"] for c in transcript["events"][1:]] == [f"mcp__util__{MASK}", "mcp__slack__slack_post_message"]
    assert transcript["events"][1]["arguments"] == {"key": MASK}

    # still counted: the catalog's tools are matched, and the masked names count one each
    assert store["called_tools"] == [f"mcp__{MASK}__read", MASK, ISSUE]
    assert [w["tool"] for w in store["listing_what_if"]] == [ISSUE]
    assert [w["tool"] for w in transcript["listing_what_if"]] == ["mcp__slack__slack_post_message"]
    drift = report["catalog_drift"]
    # (the failed call of the config value is not a tool the sessions' catalog had)
    assert sorted(drift["missing_tools"]) == sorted([f"mcp__github__{MASK}", f"mcp__{MASK}__read",
                                                     f"mcp__util__{MASK}"])
    assert drift["missing_servers"] == [MASK]
    assert drift["sessions_with_missing"] == 2
    assert "3 tools the sessions used are not in" in text.stdout  # counted by real names: 3 masks are 3 tools
    assert sorted(report["called_not_deferred"]) == sorted([f"mcp__{MASK}__read", MASK, f"mcp__util__{MASK}"])
    assert f"call mcp__{MASK}__read via tool_call: ok" in text.stdout
    assert f"call {MASK} via tool_call: failed" in text.stdout
    assert f"describe {ISSUE}, mcp__vault__{MASK}; not found: mcp__vault__{MASK}" in text.stdout


def test_recommend_and_the_report_with_sessions_show_no_secret(recorded, tmp_path) -> None:
    sessions = ["--sessions", recorded["store"], recorded["transcript"]]
    catalog = [CATALOG, recorded["config"]]
    text = run_cli("recommend", *catalog, "--context-lengths", "200k", "--goal", "any", *sessions)
    assert text.returncode in (0, 1), text.stderr
    _clean(text.stdout + text.stderr, "recommend text")
    assert "the sessions called 3 tools this catalog does not defer" in text.stderr
    assert f"mcp__{MASK}__read" in text.stderr
    data = run_cli("recommend", *catalog, "--context-lengths", "200k", "--goal", "any", *sessions, "--json")
    _clean(data.stdout + data.stderr, "recommend --json")
    evidence = json.loads(data.stdout)["sessions"]
    assert evidence["read"] == 2
    assert sorted(evidence["called_not_deferred"]) == sorted([f"mcp__{MASK}__read", MASK, f"mcp__util__{MASK}"])
    assert len(evidence["catalog_drift"]["missing_tools"]) == 3
    out = tmp_path / "report.html"
    done = run_cli("report", *catalog, "--context-lengths", "200k", "--goal", "any", *sessions, "-o", out)
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    _clean(html + done.stdout + done.stderr, "report")
    assert "not in" in html and f"mcp__{MASK}__read" in html  # the drift is said, its names masked


def test_a_name_that_holds_a_credential_is_still_matched_by_its_real_value(tmp_path) -> None:
    """A catalog tool whose own name holds a token shape: the session's call of it counts as a call
    of that deferred tool (what-if, called tools listed), and is shown masked. (A GitHub token keeps
    its shape when registered; an ``sk-proj-`` key would be registered as ``sk_proj_…``.)"""
    catalog = write_yaml(tmp_path / "vault.yaml", {"name": "vault", "servers": [{"name": "vault", "tools": [
        {"name": f"lookup_{GHP}", "description": "Look up a stored record by its key.",
         "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
        {"name": "list_records", "description": "List stored records.",
         "inputSchema": {"type": "object", "properties": {}}}]}]})
    name = f"mcp__vault__lookup_{GHP}"
    session = tmp_path / "vault-session.json"
    session.write_text(json.dumps([{"id": "v1", "model": "m", "messages": [
        {"role": "user", "content": "find record 7"},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("a", "tool_search", {"queries": ["record"]})},
        {"role": "tool", "tool_call_id": "a", "tool_name": "tool_search", "content": json.dumps(
            {"queries": ["record"], "results": [{"query": "record", "matches": [name]}]})},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("b", "tool_call", {
            "name": name, "arguments": {"id": "7"}})},
        {"role": "tool", "tool_call_id": "b", "tool_name": "tool_call", "content": "{\"ok\": true}"}]}]),
        encoding="utf-8")
    data = run_cli("sessions", session, "--catalog", catalog, "--variant", "reference", "--context-lengths", "200k",
                   "--json")
    assert data.returncode == 0, data.stderr
    _clean(data.stdout + data.stderr)
    report = json.loads(data.stdout)
    shown = f"mcp__vault__lookup_{MASK}"
    assert report["catalog_drift"]["drifted"] is False  # matched by its real name
    assert report["called_not_deferred"] == []
    assert report["called_listed"][0]["called_total"] == 1
    (what_if,) = report["per_session"][0]["listing_what_if"]
    assert (what_if["tool"], what_if["server"]) == (shown, "vault")
    (query,) = report["per_session"][0]["queries"]
    assert query["recorded"] == {"matches": [shown], "empty": False, "found_called": True}
    assert query["called_later"] == [shown]
    # the labeled queries would carry it: left out with a word, not silently
    exported = tmp_path / "labeled.yaml"
    done = run_cli("sessions", session, "--catalog", catalog, "--variant", "reference", "--export-queries", exported)
    assert done.returncode == 0, done.stderr
    _clean(exported.read_text(encoding="utf-8") + done.stderr)
    assert f"an expected tool name that holds a credential left out ({shown})" in done.stderr


def _app(catalog_state: dict | None = None):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    for key, value in (catalog_state or {}).items():
        at.session_state[key] = value
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    at.radio(key="sessions_source").set_value("Upload a session file").run()
    return at


def _shown(at) -> str:
    tables = literal_tables(at)
    return "\n".join([*(str(t.to_dict()) for t in tables.values()), *(t.value for t in at.text),
                      *(m.value for m in at.markdown), *(c.value for c in at.caption), *(c.value for c in at.code),
                      *(str(x.value) for x in [*at.warning, *at.error, *at.info]),
                      *(str(s.options) for s in at.selectbox)])


@pytest.mark.parametrize("live_catalog", [True, False], ids=["live catalog", "sample catalog"])
def test_the_sessions_page_shows_no_secret_of_a_store_or_a_transcript(recorded, live_catalog) -> None:
    """The config's servers connected on the Live servers page: the sessions are scrubbed of its
    values whether the sidebar shows the live catalog or a sample."""
    from toolsearch.live.client import load_sources

    live = load_sources([str(CATALOG), str(recorded["config"])])
    state = {"live_specs": dict(live.specs)}  # what the Live servers page keeps once connected
    if live_catalog:
        state.update({"catalog": "Live servers", "live_catalog": live.catalog})
    at = _app(state)
    for path in (recorded["store"], recorded["transcript"]):
        at.file_uploader(key="sessions_upload").set_value((path.name, path.read_bytes(), "application/octet-stream")).run()
        assert not at.exception, at.exception
        timelines = []
        for session_id in at.selectbox(key="sessions_pick").options:
            at.selectbox(key="sessions_pick").set_value(session_id).run()
            timelines.append(_shown(at))
        shown = "\n".join(timelines)
        _clean(shown, path.name)
        timeline = literal_tables(at)["sessions_timeline"]
        if path == recorded["store"]:
            assert list(timeline["event"]) == ["search (tool_search)"] * 3 + ["describe"] + ["call via tool_call"] * 3
            assert f"mcp__{MASK}__read" in " ".join(timeline["detail"])
            assert f"repo access with {MASK}" in list(timeline["detail"])
        else:
            assert list(timeline["event"]) == ["search (ToolSearch)", "call via direct", "call via direct"]
            assert f"mcp__util__{MASK}" in " ".join(timeline["detail"])
        assert "The sessions ran on another catalog" in shown and f"{MASK}" in shown


def test_a_session_id_and_a_typed_limit_holding_a_token_are_masked_and_nothing_is_dropped(tmp_path) -> None:
    """A session whose id holds a token (read from two files, so the second copy is a problem that
    names it) and whose search's ``limit`` is a key the model typed: shown masked in the text report,
    ``--json``, stderr and the labeled queries; the session is still counted once, with its search."""
    session = [{"id": f"run-{GHP}", "model": "m", "messages": [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("a", "tool_search", {
            "queries": ["github issue"], "limit": SK})},
        {"role": "tool", "tool_call_id": "a", "tool_name": "tool_search", "content": json.dumps(
            {"queries": ["github issue"], "results": [{"query": "github issue", "matches": [ISSUE]}]})},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("b", "tool_call", {
            "name": ISSUE, "arguments": {"title": "t"}})},
        {"role": "tool", "tool_call_id": "b", "tool_name": "tool_call", "content": "{\"ok\": true}"}]}]
    first, second = tmp_path / "ids.json", tmp_path / "ids-copy.json"
    for path in (first, second):
        path.write_text(json.dumps(session), encoding="utf-8")
    exported = tmp_path / "labeled.yaml"
    text = run_cli("sessions", first, second, "--catalog", CATALOG, "--variant", "reference",
                   "--export-queries", exported)
    data = run_cli("sessions", first, second, "--catalog", CATALOG, "--variant", "reference", "--json")
    assert text.returncode == data.returncode == 0, text.stderr + data.stderr
    for shown in (text.stdout, text.stderr, data.stdout, data.stderr, exported.read_text(encoding="utf-8")):
        _clean(shown)
    assert f"session 'run-{MASK}': the same session id was read from" in text.stderr  # said, not dropped silently
    assert f"session run-{MASK} (m, context length unknown" in text.stdout
    report = json.loads(data.stdout)
    assert (report["sessions"], report["searches"]) == (1, 1)
    (one,) = report["per_session"]
    assert one["id"] == f"run-{MASK}" and one["events"][0]["limit"] == MASK
    assert one["listing_what_if"][0]["session"] == f"run-{MASK}"
    assert one["queries"][0]["limit"] == 5  # an unreadable limit replays with the default, as recorded
    assert f"note: session run-{MASK}, search at step 1" in exported.read_text(encoding="utf-8")


def test_the_tuning_page_shows_no_secret_of_the_sessions_it_takes_as_evidence(recorded) -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.client import load_sources

    live = load_sources([str(CATALOG), str(recorded["config"])])
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "16k,200k,1m"})
    at.run()
    for key, value in {"catalog": "Live servers", "live_catalog": live.catalog, "live_specs": dict(live.specs)}.items():
        at.session_state[key] = value
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    at.file_uploader(key="tuning_session_upload").set_value([
        (path.name, path.read_bytes(), "application/octet-stream")
        for path in (recorded["store"], recorded["transcript"])]).run()
    assert not at.exception, at.exception
    shown = _shown(at)
    _clean(shown, "tuning")
    evidence = next(c.value for c in at.caption if c.value.startswith("Evidence")).replace("\\", "")
    assert evidence.startswith("Evidence: 2 recorded sessions from state.db, transcript.jsonl; they called 2 distinct")
    warning = next(w.value for w in at.warning if "does not defer" in w.value).replace("\\", "")
    assert warning.startswith("The sessions called 3 tools this catalog does not defer")
    assert f"mcp__{MASK}__read" in warning


def test_the_servers_of_the_harness_config_count_as_config_secrets(tmp_path, monkeypatch) -> None:
    """Hermes' config.yaml holds the ``tools.tool_search`` block and the ``mcp_servers`` with their
    env: given as ``--config`` (the catalog a snapshot file), its servers' values are masked in the
    sessions as when the config is the catalog; nothing is started."""
    monkeypatch.setenv(ENV_VAR, ENV_SECRET)
    marker = tmp_path / "started.txt"
    config = write_yaml(tmp_path / "config.yaml", {
        "tools": {"tool_search": {"threshold_pct": 5}},
        "mcp_servers": {"util": {"command": sys.executable,
                                 "args": [str(SERVER), "--name", "util", "--start-marker", str(marker)],
                                 "env": {"UTIL_API_KEY": CONFIG_SECRET, "UTIL_TOKEN": f"${{{ENV_VAR}}}"}}}})
    session = tmp_path / "hermes-config-session.json"
    session.write_text(json.dumps([{"id": "h1", "model": "m", "messages": [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("a", "tool_search", {
            "queries": [f"log in as {CONFIG_SECRET}", "create a github issue"]})},
        {"role": "tool", "tool_call_id": "a", "tool_name": "tool_search", "content": json.dumps(
            {"queries": [f"log in as {CONFIG_SECRET}", "create a github issue"],
             "results": [{"query": "q", "matches": [ISSUE]}, {"query": "q", "matches": [ISSUE]}]})},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("b", "tool_call", {
            "name": f"mcp__util__{ENV_SECRET}", "arguments": {"value": ENV_SECRET}})},
        {"role": "tool", "tool_call_id": "b", "tool_name": "tool_call", "content": "{\"ok\": true}"},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("c", "tool_call", {
            "name": ISSUE, "arguments": {"title": "t"}})},
        {"role": "tool", "tool_call_id": "c", "tool_name": "tool_call", "content": "{\"ok\": true}"}]}]),
        encoding="utf-8")
    text = run_cli("sessions", session, "--catalog", CATALOG, "--config", config, "--variant", "reference")
    data = run_cli("sessions", session, "--catalog", CATALOG, "--config", config, "--variant", "reference", "--json")
    evidence = run_cli("recommend", CATALOG, "--config", config, "--context-lengths", "200k", "--goal", "any",
                       "--sessions", session, "--json")
    assert text.returncode == data.returncode == 0 and evidence.returncode in (0, 1), text.stderr + evidence.stderr
    for shown in (text.stdout, text.stderr, data.stdout, data.stderr, evidence.stdout, evidence.stderr):
        _clean(shown)
    assert not marker.exists()  # the config's server was not started
    (one,) = json.loads(data.stdout)["per_session"]
    assert [q["query"] for q in one["events"][0]["queries"]] == [f"log in as {MASK}", "create a github issue"]
    assert [(e["name"], e["arguments"]) for e in one["events"][1:]] == [
        (f"mcp__util__{MASK}", {"value": MASK}), (ISSUE, {"title": "t"})]
    assert [w["tool"] for w in one["listing_what_if"]] == [ISSUE]
    assert json.loads(evidence.stdout)["sessions"]["called_not_deferred"] == [f"mcp__util__{MASK}"]


def test_a_server_entry_with_a_mistake_still_counts_its_values_as_secrets(tmp_path, monkeypatch) -> None:
    """A server entry that cannot be used (a ``timeout: "30s"``, an ``env`` written as one
    ``NAME=value`` string, a ``headers`` value that is a list) lost all its values from the
    config's secrets: its env value, token argument and what its ``${VAR}`` took from the
    environment showed in the sessions. They are masked as a usable entry's are; a value that is
    not a secret by the config rules (the timeout) stays."""
    monkeypatch.setenv(ENV_VAR, ENV_SECRET)
    config = write_yaml(tmp_path / "config.yaml", {
        "tools": {"tool_search": {"threshold_pct": 5}},
        "mcp_servers": {
            "slow": {"command": "npx", "args": ["-y", "srv", "--token", "tokArg-Lynx-5521"], "timeout": "30s",
                     "env": {"UTIL_API_KEY": CONFIG_SECRET, "UTIL_TOKEN": f"${{{ENV_VAR}}}"}},
            "flat": {"command": "npx", "env": "GITHUB_TOKEN=envText-Otter-4410"},
            "listed": {"url": "https://mcp.example/x?key=query-Wren-8830",
                       "headers": {"Authorization": ["Bearer hdrList-Finch-2267"]}}}})
    words = [CONFIG_SECRET, ENV_SECRET, "tokArg-Lynx-5521", "envText-Otter-4410", "query-Wren-8830",
             "hdrList-Finch-2267"]
    session = tmp_path / "session.json"
    session.write_text(json.dumps([{"id": "h1", "model": "m", "messages": [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": "", "tool_calls": _tool_calls("a", "tool_search", {
            "queries": [f"use {w} now" for w in words] + ["timeout 30s"]})}]}]), encoding="utf-8")
    data = run_cli("sessions", session, "--catalog", CATALOG, "--config", config, "--variant", "reference", "--json")
    text = run_cli("sessions", session, "--catalog", CATALOG, "--config", config, "--variant", "reference")
    assert data.returncode == text.returncode == 0, data.stderr + text.stderr
    for shown in (data.stdout, data.stderr, text.stdout, text.stderr):
        for word in words:
            assert word.split("-")[1] not in shown, (word, shown[:2000])
    (one,) = json.loads(data.stdout)["per_session"]
    assert [q["query"] for q in one["events"][0]["queries"]] == [f"use {MASK} now"] * len(words) + ["timeout 30s"]
