"""Values from the environment and secret-looking arguments never show, wherever they land.

* Every value a ``${VAR}`` reference (or an ``envFile``) supplied is a secret in the command,
  the arguments, the working directory, any part of a URL and the headers: the CLI (text and
  ``--json``), snapshot files, the Live servers page's config table and launch confirmation.
* Secret-argument forms: camelCase options (``--accessToken=x``, ``--authToken x``,
  ``--clientSecret=x``), docker's ``-e NAME=x`` / ``--env NAME=x`` and mcp-remote's
  ``--header "Authorization: Bearer x"`` / ``-H``; ``--max-tokens 5`` stays as it is.
* The "unset variables" column, and the launch confirmation's expanded view, are for a browser on
  this machine or one holding the launch token only.

The server is ``tests/argv_echo_mcp_server.py``: it echoes its whole command line, working
directory and environment in its server info, tool names, descriptions, schemas, results,
errors and stderr.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import literal_tables, toolsearch_command, write_json
from toolsearch.engine import constants as C
from toolsearch.live.guard import launch_token
from toolsearch.live.mcpconfig import load_mcp_config, mask_arguments, secret_arguments

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ECHO = ROOT / "tests" / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
#: Every secret below has this in it; no output may.
MARK = "S3cret"
FAKE_APP_SECRET = "AppEnvS3cret-7f3a9c"
FILE_SECRET = "FileEnvS3cret-5d2e"
ARG_SECRETS = {
    "access": "AccTokS3cret-1111", "auth": "AuthTokS3cret-2222", "client": "CliSecS3cret-3333",
    "docker": "DockerS3cret-4444", "envopt": "EnvOptS3cret-5555", "bearer": "HdrBearerS3cret-6666",
    "hkey": "HdrKeyS3cret-7777", "snake": "SnakeS3cret-8888", "glued": "GluedS3cret-9999",
}


def _arguments() -> list[str]:
    s = ARG_SECRETS
    return [str(ECHO), f"--accessToken={s['access']}", "--authToken", s["auth"], f"--clientSecret={s['client']}",
            "-e", f"GITHUB_TOKEN={s['docker']}", "--env", f"SOME_NAME={s['envopt']}",
            "--header", f"Authorization: Bearer {s['bearer']}", "-H", f"X-Api-Key: {s['hkey']}",
            "--api_key", s["snake"], f"-eGLUED_KEY={s['glued']}",
            "--workspace", "${FAKE_APP_SECRET}", "--label=pre-${FAKE_APP_SECRET}-post",
            "--max-tokens", "5", "--verbose"]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _config(tmp_path: Path) -> Path:
    workdir = tmp_path / FAKE_APP_SECRET  # the working directory is an expanded value
    workdir.mkdir(exist_ok=True)
    dotenv = tmp_path / "server.env"
    dotenv.write_text(f"FROM_ENV_FILE={FILE_SECRET}\n", encoding="utf-8")
    port = _closed_port()
    return write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": PY, "args": _arguments(), "cwd": str(tmp_path / "${FAKE_APP_SECRET}"),
                 "envFile": str(dotenv), "env": {"FROM_VARIABLE": "${FAKE_APP_SECRET}"}},
        "path": {"url": f"http://127.0.0.1:{port}/${{FAKE_APP_SECRET}}/mcp?q=1",
                 "headers": {"X-Trace": "${FAKE_APP_SECRET}"}},
        "host": {"url": "http://${FAKE_APP_SECRET}.invalid/mcp"}}})


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "FAKE_APP_SECRET"}
    env["FAKE_APP_SECRET"] = FAKE_APP_SECRET
    return env


def _cli(*args: str) -> subprocess.CompletedProcess:
    """``toolsearch ARGS`` with ``FAKE_APP_SECRET`` in its environment."""
    return subprocess.run([*toolsearch_command(), *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", timeout=180, env=_env())


def _clean(*texts: str) -> None:
    for text in texts:
        assert MARK not in text, text[max(0, text.find(MARK) - 200): text.find(MARK) + 50]
        assert "AppEnv" not in text and "FileEnv" not in text


# --- the library's view of the arguments ---------------------------------------------------------------

def test_secret_argument_forms_are_recognised_and_ordinary_options_are_not() -> None:
    shown = mask_arguments(_arguments()[1:])
    assert shown == [f"--accessToken={MASK}", "--authToken", MASK, f"--clientSecret={MASK}",
                     "-e", f"GITHUB_TOKEN={MASK}", "--env", f"SOME_NAME={MASK}",
                     "--header", f"Authorization: {MASK}", "-H", f"X-Api-Key: {MASK}",
                     "--api_key", MASK, f"-eGLUED_KEY={MASK}",
                     "--workspace", "${FAKE_APP_SECRET}", "--label=pre-${FAKE_APP_SECRET}-post",
                     "--max-tokens", "5", "--verbose"]
    found = secret_arguments(_arguments()[1:])
    assert set(ARG_SECRETS.values()) <= set(found)
    # Clean controls: counts, files, URLs, kinds, ids and switches keep their values.
    controls = ["--max-tokens", "5", "--token-file", "/etc/t", "--auth-url", "https://id.example/a",
                "--auth-type", "oauth", "--key-id", "k1", "--no-auth", "server.py", "--tokenizer", "cl100k",
                "--monkey", "banana", "--author", "me", "-e", "PASS_THROUGH", "--keyboard", "us",
                "--header", "Authorization: Bearer ${TOKEN}", "-e", "process.env.DEBUG=1"]
    assert mask_arguments(controls) == controls
    assert secret_arguments(controls) == []
    # More spellings of the same options.
    more = ["--access-token", "a1b2c3d4", "--ACCESS_TOKEN=e5f6g7h8", "-token=i9j0k1l2", "--GitHubPAT", "m3n4o5p6",
            "--password", "q7r8s9t0", "--env=N=u1v2w3x4", "--header=Cookie: y5z6a7b8"]
    assert mask_arguments(more) == ["--access-token", MASK, f"--ACCESS_TOKEN={MASK}", f"-token={MASK}", "--GitHubPAT",
                                    MASK, "--password", MASK, f"--env=N={MASK}", f"--header=Cookie: {MASK}"]


def test_the_launch_preview_masks_every_expanded_value(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_APP_SECRET", FAKE_APP_SECRET)
    specs = {s.name: s for s in load_mcp_config(_config(tmp_path)).servers}
    echo = specs["echo"].launch_preview()
    assert echo["cwd"] == str(tmp_path / MASK)
    assert f" --workspace {MASK} " in echo["command_line"] and f" --label=pre-{MASK}-post " in echo["command_line"]
    assert "--max-tokens 5 --verbose" in echo["command_line"]
    assert specs["path"].launch_preview()["url"].endswith(f"/{MASK}/mcp?q={MASK}")
    assert specs["host"].launch_preview()["url"] == f"http://{MASK}.invalid/mcp"
    # As written (for a browser that may not learn which variables are set): the placeholders.
    assert specs["echo"].launch_preview(expanded=False)["cwd"] == str(tmp_path / "${FAKE_APP_SECRET}")
    assert specs["host"].launch_preview(expanded=False)["url"] == "http://${FAKE_APP_SECRET}.invalid/mcp"
    _clean(json.dumps([s.launch_preview() for s in specs.values()]), json.dumps([s.redacted() for s in specs.values()]),
           repr(list(specs.values())))


# --- the CLI ------------------------------------------------------------------------------------------------

def test_plan_text_and_json_never_show_an_expanded_value_or_a_secret_argument(tmp_path) -> None:
    config = _config(tmp_path)
    data = _cli("plan", config, "--json", "--timeout", "30")
    _clean(data.stdout, data.stderr)
    servers = {s["name"]: s for s in json.loads(data.stdout)["servers"]}
    assert servers["echo"]["tool_count"] == 2 + len(_arguments()) - 1
    assert "toolsearch: live: echo: ok" in data.stderr
    assert f"/{MASK}/mcp?q={MASK}" in data.stderr and f"http://{MASK}.invalid/mcp" in data.stderr
    text = _cli("plan", config, "--timeout", "30")
    _clean(text.stdout, text.stderr)
    listing = json.loads(data.stdout)["listing"]
    assert f"argument 0 is --accessToken={MASK}\n" in listing and f"argument 5 is GITHUB_TOKEN={MASK}\n" in listing
    assert "argument 18 is --max-tokens\n" in listing and "argument 19 is 5\n" in listing  # the clean control


def test_describe_text_and_json_never_show_what_the_server_echoes(tmp_path) -> None:
    config = _config(tmp_path)
    result = _cli("describe", config, "mcp__echo__echo", "--json", "--timeout", "30")
    _clean(result.stdout, result.stderr)
    tool = json.loads(result.stdout)["tools"]["mcp__echo__echo"]
    assert f"--accessToken={MASK} --authToken {MASK} --clientSecret={MASK}" in tool["description"]
    assert f"GITHUB_TOKEN={MASK}" in tool["description"] and f"FROM_ENV_FILE={MASK}" in tool["description"]
    assert f"cwd: {tmp_path / MASK}" in tool["description"]
    assert "--max-tokens 5 --verbose" in tool["description"]
    props = tool["parameters"]["properties"]
    assert MASK in props["mode"]["enum"] and "--max-tokens" in props["mode"]["enum"]
    text = _cli("describe", config, "mcp__echo__echo", "--timeout", "30")
    _clean(text.stdout, text.stderr)
    assert "--max-tokens 5 --verbose" in text.stdout


def test_call_text_and_json_never_show_what_the_server_echoes(tmp_path) -> None:
    config = _config(tmp_path)
    ok = _cli("call", config, "mcp__echo__echo", "-a", '{"text": "hi"}', "--json", "--timeout", "30")
    _clean(ok.stdout, ok.stderr)
    structured = json.loads(ok.stdout)["response"]["structuredContent"]
    assert structured["argv"][0:3] == [f"--accessToken={MASK}", "--authToken", MASK]
    assert structured["env"]["FROM_ENV_FILE"] == MASK and structured["env"]["FROM_VARIABLE"] == MASK
    assert structured["cwd"] == str(tmp_path / MASK)
    assert structured["argv"][-3:] == ["--max-tokens", "5", "--verbose"]
    failed = _cli("call", config, "mcp__echo__fail", "--json", "--timeout", "30")
    _clean(failed.stdout, failed.stderr)
    response = json.loads(failed.stdout)["response"]
    assert response["code"] == -32001 and response["data"]["env"]["FROM_ENV_FILE"] == MASK
    for args in (["mcp__echo__echo", "-a", '{"text": "hi"}'], ["mcp__echo__fail"]):
        text = _cli("call", config, *args, "--timeout", "30")
        _clean(text.stdout, text.stderr)


def test_snapshot_file_never_holds_what_the_server_echoes(tmp_path) -> None:
    out = tmp_path / "snap.yaml"
    result = _cli("snapshot", _config(tmp_path), "-o", out, "--timeout", "30")
    _clean(result.stdout, result.stderr)
    text = out.read_text(encoding="utf-8")
    _clean(text)
    data = yaml.safe_load(text)
    server = next(s for s in data["servers"] if s["name"] == "echo")
    names = [t["name"] for t in server["tools"]]
    assert f"arg0_--accessToken={MASK}" in names and "arg18_--max-tokens" in names
    assert set(data["snapshot"]["failed"]) == {"path", "host"}


# --- the Live servers page -----------------------------------------------------------------------------------

def _page():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    return at


def _shown(at) -> str:
    """Every text the page shows (tables, code, text, markdown, captions, notices, choices)."""
    return "\n".join([
        *(c.value for c in at.code), *(t.value for t in at.text), *(m.value for m in at.markdown),
        *(c.value for c in at.caption), *(str(df.value.to_dict()) for df in at.dataframe),
        *(h.value.replace("<wbr>", "") for h in at.html),
        *(str(x.value) for x in [*at.warning, *at.error, *at.success, *at.info]),
        *(str(o.options) for o in [*at.selectbox, *at.multiselect])])


def _local(monkeypatch) -> None:
    """Make the page see a browser on this machine (AppTest has no request headers)."""
    import toolsearch.ui.common as ui_common
    from toolsearch.live.guard import ClientCheck

    monkeypatch.setattr(ui_common, "client_check", lambda: ClientCheck(True))


def test_the_live_page_never_shows_an_expanded_value_or_a_secret_argument(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_APP_SECRET", FAKE_APP_SECRET)
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", _config(tmp_path).read_bytes(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()  # Connect alone shows the confirmation: no token needed
    assert not at.exception, at.exception
    _clean(_shown(at))
    codes = [c.value for c in at.code if c.language == "bash"]
    assert len(codes) == 1 and f"--accessToken={MASK} --authToken {MASK} --clientSecret={MASK}" in codes[0]
    assert f"-e GITHUB_TOKEN={MASK} --env SOME_NAME={MASK} --header 'Authorization: {MASK}'" in codes[0]
    assert "--max-tokens 5 --verbose" in codes[0]
    # A browser elsewhere without the token sees the file as written (set or not, no telling).
    assert f"working directory: {tmp_path / '${FAKE_APP_SECRET}'}" in [t.value for t in at.text]
    at.text_input(key="live_token_connect").input(launch_token()).run()
    _clean(_shown(at))
    assert f"working directory: {tmp_path / MASK}" in [t.value for t in at.text]
    urls = [c.value for c in at.code if c.language != "bash"]
    assert f"http://{MASK}.invalid/mcp" in urls and any(u.endswith(f"/{MASK}/mcp?q={MASK}") for u in urls)
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    _clean(_shown(at))
    at.selectbox(key="live_tool").select("mcp__echo__echo").run()
    at.button(key="live_call").click().run()
    assert not at.exception, at.exception
    _clean(_shown(at))
    outcome = at.session_state["live_last_call"]["outcome"]
    assert outcome["response"]["structuredContent"]["env"]["FROM_VARIABLE"] == MASK  # envFile: not read for a remote browser
    at.selectbox(key="live_tool").select("mcp__echo__fail").run()
    at.button(key="live_call").click().run()
    assert not at.exception, at.exception
    _clean(_shown(at))
    assert at.error and "refused\\: argv\\: \\-\\-accessToken\\=••••" in at.error[0].value  # markdown-escaped


def _unset_config() -> bytes:
    return json.dumps({"mcpServers": {"s": {
        "command": PY, "args": ["-c", "pass", "${FAKE_APP_SECRET}", "${TS_SURELY_UNSET_VAR}"]}}}).encode()


def test_unset_variables_are_hidden_from_a_browser_elsewhere_without_the_token(monkeypatch) -> None:
    monkeypatch.setenv("FAKE_APP_SECRET", FAKE_APP_SECRET)
    monkeypatch.delenv("TS_SURELY_UNSET_VAR", raising=False)
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", _unset_config(), "application/json"))
    at.run()
    assert not at.exception, at.exception
    table = literal_tables(at)["live_specs"]
    assert "unset variables" not in table.columns
    assert "TS_SURELY_UNSET_VAR" in table.loc[0, "args"]  # as written in the file: the uploader's own text
    assert any("shown only to a browser on the machine that runs the app" in c.value for c in at.caption)
    at.button(key="live_connect").click().run()
    code = [c.value for c in at.code if c.language == "bash"][0]
    assert code.endswith("-c pass '${FAKE_APP_SECRET}' '${TS_SURELY_UNSET_VAR}'")  # no telling which is set
    # The launch token shows both the column and the expanded command line.
    at.text_input(key="live_token_connect").input(launch_token()).run()
    table = literal_tables(at)["live_specs"]
    assert list(table["unset variables"]) == ["TS_SURELY_UNSET_VAR"]
    code = [c.value for c in at.code if c.language == "bash"][0]
    assert code.endswith(f"-c pass {MASK} '${{TS_SURELY_UNSET_VAR}}'")
    _clean(_shown(at))


def test_a_browser_on_this_machine_sees_the_unset_variables(monkeypatch) -> None:
    monkeypatch.setenv("FAKE_APP_SECRET", FAKE_APP_SECRET)
    monkeypatch.delenv("TS_SURELY_UNSET_VAR", raising=False)
    _local(monkeypatch)
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", _unset_config(), "application/json"))
    at.run()
    assert not at.exception, at.exception
    assert list(literal_tables(at)["live_specs"]["unset variables"]) == ["TS_SURELY_UNSET_VAR"]
    at.button(key="live_connect").click().run()
    assert [c.value for c in at.code if c.language == "bash"][0].endswith(f"-c pass {MASK} '${{TS_SURELY_UNSET_VAR}}'")
    assert "live_token_connect" not in [w.key for w in at.text_input]  # no token asked of this browser
    _clean(_shown(at))
