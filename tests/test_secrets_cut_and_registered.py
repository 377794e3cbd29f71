"""Credentials in the forms a program or a harness turns them into, never shown:

* a credential-shaped token cut by a line break in an error text (a real line break, or ``\\n`` as
  an error object kept as JSON writes one);
* an ``sk-proj-…`` key in a tool name as the harness registers it (``sk_proj_…``, every character
  other than a letter, digit or ``_`` as ``_``), and a config value registered the same way;
* a percent-encoded credential in a URL of an MCP client config (``p%40ss``, ``?key=abc%2Fdef``)
  that the program reading the URL decodes and prints (``p@ss``, ``abc/def``).

Each goes through ``toolsearch`` as a process and, where it reaches the app, through the page
(Streamlit AppTest). Ordinary words near these shapes stay as they are.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import literal_tables, run_cli_process as run_cli, write_json
from toolsearch.engine import constants as C
from toolsearch.engine.secrets import mask_token_shapes, scrub_text, secret_list

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
HOSTILE = ROOT / "tests" / "hostile_mcp_server.py"
MASK = C.SECRET_MASK

GHP = "ghp_" + "Vq4Nc8Lx2Rz6Tw1Mk9Pd3Hy7Bs5Gf0Ja2Ue8Io"
SK_REGISTERED = "sk_proj_" + "Hq3Wd8Lr5Tz1Mv6Kx9Pb2Ns4Cy7Fg0Je"  # sk-proj-… as a harness registers it
#: The GitHub token cut after 14 characters: neither piece is a whole token on its own line.
GHP_CUT = (GHP[:14], GHP[14:])
#: A connection string a stdio server takes as an argument: its password and a query value are
#: percent-encoded, and the server prints them decoded.
DSN = "postgresql://app:Pw%40Orchid%2F7731@db.internal:5432/app?sslpassword=Key%2BHeron%2F9924&mode=ro"
DECODED = ("Pw@Orchid/7731", "Key+Heron/9924")
#: Pieces none of the above may show in (also as a harness registers them: "_" for "@" and "/").
PIECES = ("Vq4Nc8Lx2R", "z6Tw1Mk9Pd", "Hq3Wd8Lr5T", "Orchid", "Heron")


def _clean(text: str, where: str = "") -> None:
    for piece in PIECES:
        at = text.find(piece)
        assert at < 0, (where, piece, text[max(0, at - 160): at + 60])


@pytest.mark.parametrize("text, shown", [
    (f"bad credentials {GHP_CUT[0]}\n{GHP_CUT[1]} for user", f"bad credentials {MASK}\n for user"),
    (f"bad credentials {GHP_CUT[0]}\r\n  {GHP_CUT[1]}", f"bad credentials {MASK}\r\n"),
    (f'{{"error": "bad {GHP_CUT[0]}\\n{GHP_CUT[1]}"}}', f'{{"error": "bad {MASK}\\n"}}'),  # JSON text's \n
    (f"key gh\np_{GHP[4:20]}\n{GHP[20:]} end", f"key {MASK}\n\n end"),  # cut inside the prefix, twice
    (f"key {GHP}\nPlease retry", f"key {MASK}\nPlease retry"),  # a whole token, then a word: the word stays
    (f"mcp__vault__{SK_REGISTERED}", f"mcp__vault__{MASK}"),
    (SK_REGISTERED, MASK),
    ("mcp__vault__sk_ant_api03_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2", f"mcp__vault__{MASK}"),
    ("mcp__chat__xoxb_123456789012_abcdefABCDEF", f"mcp__chat__{MASK}"),
    ("mcp__auth__eyJhbGciOiJIUzI1NiJ9_eyJzdWIiOiIxMjM0In0_c2lnbmF0dXJl", f"mcp__auth__{MASK}"),
])
def test_cut_and_registered_shapes_are_masked(text, shown) -> None:
    assert mask_token_shapes(text) == shown


@pytest.mark.parametrize("text", [
    "sk_learn_pipeline_fit", "mcp__ml__sk_learn_pipeline_fit_v2", "mask_ant_colony_simulation",
    "task_list_all_items_for_project_v2", "risk-\nassessment-for-2024-q3 plan", "hello\nworld",
    "the task\nlist", "desk_\nbooking_system",
])
def test_ordinary_names_and_lines_stay(text) -> None:
    assert mask_token_shapes(text) == text


def test_a_long_run_of_spaces_or_lines_is_masked_in_linear_time() -> None:
    """A line break is looked for from the start of a run of spaces only: 300,000 spaces before a
    break took minutes (the time grew with the square of the run)."""
    import time

    text = " " * 300_000 + "x\n" + "a\n" * 100_000
    started = time.process_time()
    assert mask_token_shapes(text) == text
    assert scrub_text(text, secret_list(["abcdefgh"])) == text
    assert time.process_time() - started < 5


def test_a_config_value_is_masked_decoded_and_as_registered() -> None:
    secrets = secret_list(["Pw%40Orchid%2F7731", "envValue-Heron-9924"])
    assert scrub_text("login Pw@Orchid/7731 refused; tool mcp__util__envValue_Heron_9924",
                      secrets) == f"login {MASK} refused; tool mcp__util__{MASK}"


def _session_file(tmp_path: Path) -> Path:
    """One session: a call of a tool whose registered name holds an ``sk_proj_`` key, and a call
    whose error (a string, and an error object) holds a GitHub token cut by a line break."""
    def call(call_id: str, name: str) -> dict:
        return {"role": "assistant", "content": "", "tool_calls": [{"id": call_id, "type": "function", "function": {
            "name": "tool_call", "arguments": json.dumps({"name": name, "arguments": {"title": "x"}})}}]}

    messages = [
        {"role": "user", "content": "Open an issue about the flaky test."},
        call("c1", f"mcp__vault__{SK_REGISTERED}"),
        {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_call", "content": "{\"ok\": true}"},
        call("c2", "mcp__github__create_issue"),
        {"role": "tool", "tool_call_id": "c2", "tool_name": "tool_call", "content": json.dumps({
            "error": f"401 Bad credentials for {GHP_CUT[0]}\n{GHP_CUT[1]} (check the token)"})},
        call("c3", "mcp__github__create_issue"),
        {"role": "tool", "tool_call_id": "c3", "tool_name": "tool_call", "content": json.dumps({
            "error": {"message": f"401 for {GHP_CUT[0]}\n{GHP_CUT[1]}", "code": 401}})},
    ]
    path = tmp_path / "cut-session.json"
    path.write_text(json.dumps([{"id": "cut", "model": "test/model", "messages": messages}]), encoding="utf-8")
    return path


def test_the_sessions_command_masks_cut_tokens_and_registered_keys(tmp_path) -> None:
    path = _session_file(tmp_path)
    text = run_cli("sessions", path, "--catalog", CATALOG)
    assert text.returncode == 0, text.stderr
    _clean(text.stdout + text.stderr, "sessions")
    assert "(check the token)" in text.stdout  # the rest of the error text stays
    data = run_cli("sessions", path, "--catalog", CATALOG, "--json")
    assert data.returncode == 0, data.stderr
    _clean(data.stdout + data.stderr, "sessions --json")
    calls = [e for e in json.loads(data.stdout)["per_session"][0]["events"] if e["kind"] == "call"]
    assert [c["name"] for c in calls] == [f"mcp__vault__{MASK}", "mcp__github__create_issue",
                                         "mcp__github__create_issue"]
    assert calls[1]["error"] == f"401 Bad credentials for {MASK} (check the token)"
    assert calls[2]["error"].startswith(f'{{"message": "401 for {MASK}')


def test_the_sessions_page_masks_cut_tokens_and_registered_keys(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    at.radio(key="sessions_source").set_value("Upload a session file").run()
    at.file_uploader(key="sessions_upload").set_value(
        ("cut-session.json", _session_file(tmp_path).read_bytes(), "application/json")).run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    shown = "\n".join([*(str(t.to_dict()) for t in tables.values()), *(t.value for t in at.text),
                       *(m.value for m in at.markdown), *(c.value for c in at.caption), *(c.value for c in at.code),
                       *(str(x.value) for x in [*at.warning, *at.error, *at.info])])
    _clean(shown, "Sessions page")
    assert "(check the token)" in shown and f"mcp__vault__{MASK}" in shown


def _dsn_config(tmp_path: Path) -> Path:
    return write_json(tmp_path / "mcp.json", {"mcpServers": {"db": {
        "command": sys.executable, "args": [str(HOSTILE), "--dsn", DSN]}}})


def test_a_percent_encoded_url_credential_the_server_prints_decoded_is_masked(tmp_path) -> None:
    """The server prints the password and the query value decoded, in its info, descriptions,
    schemas, stderr, and a tool name (``leak_Pw@Orchid/7731``, registered ``leak_Pw_Orchid_7731``)."""
    config = _dsn_config(tmp_path)
    for args in ((), ("--json",)):
        done = run_cli("plan", config, *args)
        assert done.returncode == 0, done.stderr
        _clean(done.stdout + done.stderr, f"plan {args}")
        assert "sent back a value that matches a secret from the config" in done.stderr
    described = run_cli("describe", config, "mcp__db__echo", "--json")
    _clean(described.stdout + described.stderr, "describe")
    called = run_cli("call", config, "mcp__db__echo", "-a", '{"text": "hi"}')
    _clean(called.stdout + called.stderr, "call")
    snapshot = tmp_path / "snapshot.json"
    done = run_cli("snapshot", config, "-o", snapshot)
    assert done.returncode == 0, done.stderr
    _clean(done.stdout + done.stderr + snapshot.read_text(encoding="utf-8"), "snapshot")


def test_the_live_page_masks_a_decoded_url_credential(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest
    from toolsearch.live.guard import launch_token

    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(
        ("mcp.json", _dsn_config(tmp_path).read_bytes(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    assert "live_catalog" in at.session_state
    at.selectbox(key="live_tool").select("mcp__db__echo").run()
    at.button(key="live_call").click().run()
    assert not at.exception, at.exception
    shown = "\n".join([*(str(o.options) for o in [*at.selectbox, *at.multiselect]),
                       *(c.value for c in at.code), *(t.value for t in at.text), *(m.value for m in at.markdown),
                       *(str(df.value.to_dict()) for df in at.dataframe), *(h.value.replace("<wbr>", "") for h in at.html),
                       *(str(x.value) for x in [*at.warning, *at.error, *at.success, *at.info])])
    _clean(shown, "Live servers page")
    outcome = at.session_state["live_last_call"]["outcome"]
    # (the query's other value, "ro", is shorter than any value searched for in free text)
    assert outcome["response"]["structuredContent"] == {"secret": f"{MASK} {MASK} ro",
                                                        "deep": [{"k": f"{MASK} {MASK} ro"}]}


def test_a_long_error_text_is_read_only_as_far_as_it_is_shown() -> None:
    """A call's error is shown as one line of at most 300 characters; a tool's error can be
    megabytes of output, all of it masked for that line before (seconds per error)."""
    import time

    from toolsearch.analysis.sessions import _short

    text = f"denied for {GHP_CUT[0]}\n{GHP_CUT[1]}: " + "error at /usr/lib/x.so line 42 \n" * 500_000
    started = time.process_time()
    shown = _short(text)
    assert time.process_time() - started < 1
    assert shown.startswith(f"denied for {MASK} : error at /usr/lib/x.so line 42 error at") and shown.endswith("…")
    assert len(shown) == 300
    # a word that ends past the limit is left out when the text before it fills the line …
    assert _short("y " * 200 + "x" * 30_000) == ("y " * 150)[:299] + "…"
    # … and shown, cut, when it is most of the text (an error that is one long line of output)
    assert _short("x" * 30_000) == "x" * 299 + "…"
