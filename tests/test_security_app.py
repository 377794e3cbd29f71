"""Launch guard: loopback-only app, confirmation before every launch, the per-launch token.

* ``streamlit run app.py`` (as the README says) listens on 127.0.0.1 only: not reachable on the
  machine's own non-loopback address.
* The Live servers page starts nothing on Connect, an upload or a rerun: it shows the exact
  command line, working directory and env keys (values masked) and starts only on Start.
* A browser that is not on this machine (AppTest has no request headers, so the guard cannot
  tell, and fails closed) needs the launch token; without it the launch is refused.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import literal_tables
from toolsearch.engine import constants as C
from toolsearch.live.guard import check_client, is_loopback_host, launch_token, token_matches

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SERVER = ROOT / "tests" / "mcp_test_server.py"


def non_loopback_ipv4() -> str | None:
    """An IPv4 address of this machine that is not loopback (from ``ip -4 addr``, else the
    address the kernel would use for an outside route), or ``None``."""
    ip = shutil.which("ip")
    if ip:
        out = subprocess.run([ip, "-4", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if "inet" in parts:
                return parts[parts.index("inet") + 1].split("/")[0]
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.123", 9))  # no packet is sent for a UDP connect
            address = sock.getsockname()[0]
            return None if address.startswith("127.") else address
    except OSError:
        return None


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def start_app(port: int, *extra: str, env: dict | None = None) -> subprocess.Popen:
    streamlit = shutil.which("streamlit", path=str(Path(PY).parent)) or "streamlit"
    return subprocess.Popen([streamlit, "run", "app.py", "--server.headless", "true", "--server.port", str(port),
                             *extra], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)


def wait_healthy(url: str, proc: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited: {proc.stdout.read().decode(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("streamlit did not start within 60 s")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# --- the guard's decision ---------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["localhost", "localhost:8501", "127.0.0.1", "127.0.0.1:80", "[::1]:8501", "::1",
                                  "127.1.2.3"])
def test_loopback_hosts(host) -> None:
    assert is_loopback_host(host)


@pytest.mark.parametrize("host", ["192.0.2.2:8501", "evil.example:8501", "0.0.0.0", "", None, "[fe80::1]:80",
                                  "localhost.evil.example"])
def test_other_hosts(host) -> None:
    assert not is_loopback_host(host)


def test_check_client_fails_closed_and_names_the_reason() -> None:
    local = {"Host": "localhost:8501", "Origin": "http://localhost:8501"}
    assert check_client(None, local).local
    assert check_client(None, {"Host": "127.0.0.1:8501"}).local  # no Origin header: fine
    assert check_client(None, {}) == check_client(None, None)
    assert check_client(None, {}).reason == "the app cannot tell where this browser connects from"
    assert check_client("192.0.2.7", local).reason == "this browser connects from 192.0.2.7, not from this machine"
    assert check_client(None, {**local, "X-Forwarded-For": "203.0.113.9"}).reason == \
        "the request came through a proxy (x-forwarded-for header)"
    # DNS rebinding: a page on another site whose name resolves to 127.0.0.1
    assert check_client(None, {"Host": "rebind.example:8501"}).reason == \
        "the app was reached as 'rebind.example:8501', not as localhost"
    assert check_client(None, {"Host": "localhost:8501", "Origin": "http://evil.example"}).reason == \
        "the page was opened from 'http://evil.example', not from localhost"
    # A sandboxed frame on any web site sends "Origin: null" (opaque), with Host localhost.
    assert check_client(None, {"Host": "localhost:8501", "Origin": "null"}).reason == \
        "the page has an opaque origin (a sandboxed frame, a data: URL or a file)"


def test_the_token_is_stable_per_process_and_compared_exactly() -> None:
    token = launch_token()
    assert len(token) >= 32 and launch_token() == token
    assert token_matches(token) and token_matches(f" {token} ")
    assert not token_matches("") and not token_matches(None) and not token_matches(token[:-1])


# --- the app as the README starts it ------------------------------------------------------------------

def test_the_app_started_as_the_readme_says_listens_on_loopback_only() -> None:
    address = non_loopback_ipv4()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to try")
    port = free_port()
    proc = start_app(port)  # no --server.address: .streamlit/config.toml decides
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://{address}:{port}/_stcore/health", timeout=3)
        with socket.socket() as sock:
            sock.settimeout(3)
            assert sock.connect_ex((address, port)) != 0  # nothing accepts on that address
    finally:
        stop(proc)
    output = proc.stdout.read().decode("utf-8", errors="replace")
    assert "0.0.0.0" not in output and f"{address}:{port}" not in output


def _agent(url: str, body: dict, host: str) -> dict:
    """One request to Streamlit's agent API (``server.enableAgentApi``), with a Host header of our choosing."""
    request = urllib.request.Request(f"{url}/_stcore/agent/interact", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Host": host})
    with urllib.request.urlopen(request, timeout=120) as resp:
        return json.loads(resp.read())


def test_streamlit_agent_api_cannot_start_a_server_without_the_token(tmp_path) -> None:
    # The agent API drives the page over HTTP; its sessions have no peer address (Streamlit's
    # st.context.ip_address then says None, as for loopback) and the Host header is the
    # caller's to write. Such a session must count as "not on this machine".
    address = non_loopback_ipv4()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to reach the app through")
    marker = tmp_path / "started"
    port = free_port("0.0.0.0")
    env = {k: v for k, v in __import__("os").environ.items() if k != "TOOLSEARCH_APP_TOKEN"}
    env["TOOLSEARCH_APP_TOKEN"] = "agent-test-token-4711"
    proc = start_app(port, "--server.address", "0.0.0.0", "--server.enableAgentApi", "true", env=env)
    url = f"http://{address}:{port}"
    try:
        wait_healthy(url, proc)
        host = f"localhost:{port}"
        sid = _agent(url, {"page": "live"}, host)["session_id"]
        _agent(url, {"session_id": sid, "widget_state": {
            "live_name": "touch", "live_command": PY, "live_args": f"-c \"open({str(marker)!r}, 'w').write('x')\""},
            "trigger": {"key": "live_add"}}, host)
        _agent(url, {"session_id": sid, "trigger": {"key": "live_connect"}}, host)
        refused = json.dumps(_agent(url, {"session_id": sid, "trigger": {"key": "live_start_connect"}}, host))
        time.sleep(1.0)
        assert not marker.exists()
        assert "Refused: nothing was started." in refused and "the app cannot tell where this browser" in refused
        # The token the app printed unlocks the same launch (the refusal is the guard's).
        _agent(url, {"session_id": sid, "widget_state": {"live_token_connect": "agent-test-token-4711"},
                     "trigger": {"key": "live_start_connect"}}, host)
        deadline = time.time() + 30
        while not marker.exists() and time.time() < deadline:
            time.sleep(0.2)
        assert marker.exists()
    finally:
        stop(proc)


# --- the confirmation step (AppTest) -----------------------------------------------------------------

def _page():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    return at


def _marker_config(marker: Path, workdir: Path) -> bytes:
    return json.dumps({"mcpServers": {
        "touch": {"command": PY, "args": ["-c", f"open({str(marker)!r}, 'w').write('x')", "--api-key", "k3y-s3cr3t-99"],
                  "env": {"TS_TOKEN": "env-s3cr3t-value"}, "cwd": str(workdir)},
        "local": {"command": PY, "args": [str(SERVER), "--name", "local"]}}}).encode()


def test_connect_shows_the_exact_launch_and_starts_only_on_start_with_the_token(tmp_path) -> None:
    marker = tmp_path / "started"
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", _marker_config(marker, tmp_path), "application/json"))
    at.run()
    assert not marker.exists()  # an upload alone starts nothing
    at.button(key="live_connect").click().run()
    assert not at.exception, at.exception
    assert not marker.exists() and "live_catalog" not in at.session_state
    codes = [c.value for c in at.code if c.language == "bash"]
    script = f"open({str(marker)!r}, 'w').write('x')"
    import shlex
    assert codes == [f"{shlex.quote(PY)} -c {shlex.quote(script)} --api-key {C.SECRET_MASK}",
                     f"{shlex.quote(PY)} {shlex.quote(str(SERVER))} --name local"]
    texts = [t.value for t in at.text]
    assert f"working directory: {tmp_path}" in texts
    assert f"environment added: TS_TOKEN={C.SECRET_MASK}" in texts
    page_text = "\n".join([*codes, *texts, *(m.value for m in at.markdown)])
    assert "k3y-s3cr3t-99" not in page_text and "env-s3cr3t-value" not in page_text
    at.run()  # a rerun starts nothing
    assert not marker.exists()
    # Start without the token: the guard cannot tell where this browser is, so it refuses.
    at.button(key="live_start_connect").click().run()
    assert not marker.exists() and "live_catalog" not in at.session_state
    assert any(e.value.startswith("Refused: nothing was started.") for e in at.error)
    at.text_input(key="live_token_connect").input("wrong-token").run()
    at.button(key="live_start_connect").click().run()
    assert not marker.exists()
    at.text_input(key="live_token_connect").input(launch_token()).run()
    assert not marker.exists()  # typing the token is not a launch
    at.button(key="live_start_connect").click().run()
    assert marker.exists()
    assert [s.name for s in at.session_state["live_catalog"].servers] == ["local"]
    # The launch was consumed: another rerun does not start the servers again.
    marker.unlink()
    at.run()
    assert not marker.exists() and "live_pending" not in at.session_state
    assert not at.button(key="live_connect").disabled
    # The server that exited at once is in the Overview's server table with its state and reason.
    from streamlit.testing.v1 import AppTest

    overview = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key in ("live_result", "live_catalog", "live_catalog_key"):
        overview.session_state[key] = at.session_state[key]
    overview.run()
    overview.selectbox(key="catalog").set_value("Live servers").run()
    assert not overview.exception, overview.exception
    # a Styler keeps its frame in .data; small tables are static, their reasons listed below them
    table = literal_tables(overview)["server_table"].set_index("server")
    assert table.loc["touch", "state"] == "failed" and table.loc["touch", "tools"] == "0"
    reasons = [m.value for m in overview.markdown if "the server process exited with status 0 before answering" in m.value]
    assert len(reasons) == 1 and reasons[0].count("touch") == 1
    assert table.loc["local", "tools"] == "7"


def test_an_uploaded_config_opens_no_env_file_for_a_browser_elsewhere(tmp_path) -> None:
    # The envFile would show the variable names of any dotenv file on this machine (and whether
    # it exists) to whoever can upload a config.
    dotenv = tmp_path / "private.env"
    dotenv.write_text("PRIVATE_NAME_XYZ=value-1234\n", encoding="utf-8")
    config = json.dumps({"mcpServers": {"s": {"command": PY, "envFile": str(dotenv), "env": {"SHOWN": "x-value-1"}}}})
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", config.encode(), "application/json"))
    at.run()
    assert not at.exception, at.exception
    table = literal_tables(at)["live_specs"]
    assert list(table["env / headers"]) == [f"SHOWN={C.SECRET_MASK}"]
    assert [w.value for w in at.warning if "envFile" in w.value] == [
        "mcp\\.json\\: mcpServers\\.s\\.envFile\\: not read\\: this browser is not on the machine that runs the "
        "app, so no file there is opened for it; put the variables under 'env' instead"]
    # The CLI, run by the user on this machine, still reads it.
    from toolsearch.live.mcpconfig import load_mcp_config

    path = tmp_path / "mcp.json"
    path.write_text(config, encoding="utf-8")
    assert load_mcp_config(path).servers[0].env == {"PRIVATE_NAME_XYZ": "value-1234", "SHOWN": "x-value-1"}


def test_cancel_drops_the_pending_launch(tmp_path) -> None:
    marker = tmp_path / "started"
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", _marker_config(marker, tmp_path), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    at.button(key="live_cancel_connect").click().run()
    assert "live_pending" not in at.session_state
    assert not [c for c in at.code if c.language == "bash"]
    assert not marker.exists()


def test_a_call_that_starts_a_server_needs_its_own_confirmation(tmp_path) -> None:
    at = _page()
    at.text_input(key="live_name").input("local")
    at.text_input(key="live_command").input(PY)
    at.text_input(key="live_args").input(f"{SERVER} --name local")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    # Calls go over the session Connect opened; once it is closed, a call has to start the server.
    at.button(key="live_disconnect").click().run()
    at.selectbox(key="live_tool").select("mcp__local__add").run()
    at.toggle(key="live_raw").set_value(True).run()
    at.text_area(key="live_arguments").input('{"a": 2, "b": 3}').run()
    at.button(key="live_call").click().run()
    assert at.session_state["live_last_call"] is None  # not called yet
    assert [c.value for c in at.code if c.language == "bash"][-1].endswith(" --name local")
    at.button(key="live_start_call").click().run()  # no token: refused
    assert at.session_state["live_last_call"] is None
    at.text_input(key="live_token_call").input(launch_token())
    at.button(key="live_start_call").click().run()
    assert not at.exception, at.exception
    outcome = at.session_state["live_last_call"]["outcome"]
    assert outcome["response"]["structuredContent"] == {"sum": 5}


@pytest.mark.parametrize("query", [{"pct": "nan"}, {"pct": "inf"}, {"pct": "-inf"}, {"ctxn": "0", "ctx": "custom"},
                                   {"limit": "100000"}])
def test_url_values_that_are_nan_inf_or_absurd_keep_the_defaults(query) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    state = at.session_state
    assert state["threshold_pct"] == C.THRESHOLD_PCT_DEFAULT
    assert state["listing_max_tokens"] == C.LISTING_MAX_TOKENS_DEFAULT
    assert state["ctx_custom"] == 64_000
    assert state["search_default_limit"] == C.SEARCH_DEFAULT_LIMIT_DEFAULT


@pytest.mark.parametrize(("query", "key", "used"), [({"pct": "1e300"}, "threshold_pct", C.THRESHOLD_PCT_MAX),
                                                    ({"cap": "999999999999"}, "listing_max_tokens", C.LISTING_MAX_TOKENS_MAX),
                                                    ({"cap": "-5"}, "listing_max_tokens", C.LISTING_MAX_TOKENS_MIN)])
def test_finite_url_values_out_of_range_are_clamped_as_the_harness_clamps_them(query, key, used) -> None:
    # a finite budget value out of range is clamped to the harness's range (as the command line does), with a
    # note, and the box shows the value the pages compute with
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state[key] == used
    other = "listing_max_tokens" if key == "threshold_pct" else "threshold_pct"
    default = C.LISTING_MAX_TOKENS_DEFAULT if key == "threshold_pct" else C.THRESHOLD_PCT_DEFAULT
    assert at.session_state[other] == default
    notes = " ".join(str(x.value) for x in [*at.warning, *at.info, *at.caption, *at.sidebar.caption,
                                             *at.sidebar.warning, *at.sidebar.info])
    assert "clamp" in notes or "outside" in notes, notes


def test_the_live_page_never_shows_what_a_hostile_server_echoes(tmp_path) -> None:
    secret_env, secret_arg = "envSECRET-app-1111", "argSECRET-app-2222"
    config = json.dumps({"mcpServers": {"hostile": {
        "command": PY, "args": [str(ROOT / "tests" / "hostile_mcp_server.py"), f"--token={secret_arg}"],
        "env": {"HOSTILE_SECRET": secret_env}}}}).encode()
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", config, "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    assert f"--token={C.SECRET_MASK}" in [c.value for c in at.code if c.language == "bash"][0]
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    at.selectbox(key="live_tool").select("mcp__hostile__echo").run()
    at.button(key="live_call").click().run()  # over the open session (nothing to start)
    assert not at.exception, at.exception
    assert at.session_state["live_last_call"]["reused"] is True
    shown = "\n".join(str(o.options) for o in [*at.selectbox, *at.multiselect])  # the form's choices
    assert "SECRET-app" not in shown and "\x1b" not in shown
    shown = "\n".join([*(c.value for c in at.code), *(t.value for t in at.text), *(m.value for m in at.markdown),
                       *(str(df.value.to_dict()) for df in at.dataframe), *(h.value.replace("<wbr>", "") for h in at.html),
                       *(str(x.value) for x in [*at.warning, *at.error, *at.success, *at.info])])
    assert "SECRET-app" not in shown
    assert "\x1b" not in shown and "\x07" not in shown
    outcome = at.session_state["live_last_call"]["outcome"]
    assert outcome["response"]["structuredContent"] == {"secret": f"{C.SECRET_MASK} {C.SECRET_MASK}",
                                                        "deep": [{"k": f"{C.SECRET_MASK} {C.SECRET_MASK}"}]}
    assert any("matches a secret from the config" in w.value for w in at.warning)
    # A JSON-RPC error message is server text: its markdown (a link, an image) is shown literally.
    at.selectbox(key="live_tool").select("mcp__hostile__fail").run()
    at.button(key="live_call").click().run()  # over the open session again
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("the server answered with error \\-32001\\: denied for •••• •••• ")
    # (a word holding a URL is a code span: its text is literal and never a link)
    assert "\\[the `docs](http://evil.example/t.png)`" in errors[0]
    assert "`![pixel](http://evil.example/p.png)`" in errors[0]
    assert "⟨U\\+001B⟩\\[31mred" in errors[0] and "SECRET-app" not in errors[0]


def test_a_command_that_holds_a_whole_command_line_shows_its_secret_options_masked() -> None:
    at = _page()
    config = json.dumps({"mcpServers": {"whole": {
        "command": f"{PY} -m server --token cmd-secret-4711 --api-key=cmd-secret-4712"}}}).encode()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", config, "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    assert not at.exception, at.exception
    shown = "\n".join([*(c.value for c in at.code), *(h.value.replace("<wbr>", "") for h in at.html)])
    assert "cmd-secret-47" not in shown
    assert f"-m server --token {C.SECRET_MASK} --api-key={C.SECRET_MASK}" in "\n".join(c.value for c in at.code)
    assert f"--token {C.SECRET_MASK} --api-key={C.SECRET_MASK}" in shown.replace('<span class="nb">', "").replace("</span>", "")
