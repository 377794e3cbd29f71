"""Remote MCP servers through the proxy the standard variables name (``HTTP_PROXY``, ``HTTPS_PROXY``,
``ALL_PROXY``, ``NO_PROXY`` and their lowercase forms), against real servers and a real proxy.

The proxy (``tests/forward_proxy.py``) listens on 127.0.0.1 and counts the requests it gets. The
server URLs name ``mcp.example.test``, a host no resolver knows: only the proxy "resolves" it (to
the test server on 127.0.0.1), so a server listed under that name was reached through the proxy,
and one reached directly fails to resolve. A server on 127.0.0.1 or localhost is always reached
directly: the proxy sees no request for it.
"""

from __future__ import annotations

import base64
import importlib.util
import logging
import os
from pathlib import Path

import pytest
import yaml

from conftest import run_cli_process, write_json
from forward_proxy import ForwardProxy
from test_live import free_port, serve
from toolsearch.live.client import call_tool, connect_servers
from toolsearch.live.mcpconfig import spec_from_fields
from toolsearch.live.proxies import is_loopback_url, proxy_route

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent

HOST = "mcp.example.test"
OTHER = "tools.example.test"  # a second name the proxy alone resolves
USER, PASSWORD = "proxyuser", "Pr0xy-Passw0rd-77"
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "REQUEST_METHOD")


@pytest.fixture(autouse=True)
def no_proxy_variables(monkeypatch):
    """Each test sets the variables it means; none comes from the machine running the tests."""
    for name in list(os.environ):
        if name.upper() in PROXY_VARIABLES:
            monkeypatch.delenv(name)


@pytest.fixture(scope="module")
def remote_port():
    """The test server over Streamable HTTP on 127.0.0.1, also answering to the names the proxy resolves."""
    with serve("--name", "remote", "--allow-host", HOST, "--allow-host", OTHER) as port:
        yield port


@pytest.fixture(scope="module")
def sse_port():
    with serve("--name", "events", "--sse") as port:
        yield port


def config(tmp_path: Path, servers: dict) -> Path:
    return write_json(tmp_path / "mcp.json", {"mcpServers": servers})


def test_a_remote_server_is_listed_through_the_proxy_with_its_credentials(tmp_path, monkeypatch, remote_port) -> None:
    """The tools list arrives through the proxy (the only way to reach the name), the proxy gets the
    credentials of the proxy URL, and neither the snapshot nor the terminal shows them."""
    with ForwardProxy({HOST}, credentials=(USER, PASSWORD)) as proxy:
        monkeypatch.setenv("HTTP_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{proxy.port}")
        url = f"http://{HOST}:{remote_port}/mcp"
        out = tmp_path / "snapshot.yaml"
        done = run_cli_process("snapshot", config(tmp_path, {"remote": {"url": url}}), "-o", out)
        assert done.returncode == 0, done.stderr
        snapshot = yaml.safe_load(out.read_text(encoding="utf-8"))
        (server,) = snapshot["servers"]
        assert (server["name"], len(server["tools"])) == ("remote", 7)
        assert server["tools"][0]["name"] == "echo"
        assert proxy.targets() and set(proxy.targets()) == {url}
        expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        assert {auth for _, _, auth in proxy.requests} == {expected}
    for text in (done.stdout, done.stderr, out.read_text(encoding="utf-8")):
        assert PASSWORD not in text and expected.split()[1] not in text


def test_calls_and_sse_go_through_the_proxy_named_by_a_lowercase_variable(monkeypatch, remote_port, sse_port) -> None:
    with ForwardProxy({HOST}) as proxy:
        monkeypatch.setenv("http_proxy", f"127.0.0.1:{proxy.port}")  # no scheme: http:// as curl reads it
        monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # the lowercase form wins
        remote = spec_from_fields("remote", url=f"http://{HOST}:{remote_port}/mcp")
        events = spec_from_fields("events", url=f"http://{HOST}:{sse_port}/sse", transport="sse")
        route = proxy_route(remote.url)
        assert (route.variable, route.shown) == ("http_proxy", proxy.url)
        result = connect_servers([remote, events])
        assert [(s.name, s.state, s.tool_count) for s in result.statuses] == [("remote", "ok", 7), ("events", "ok", 7)]
        outcome = call_tool(remote, "add", {"a": 20, "b": 22})
        assert outcome.ok and outcome.response["structuredContent"] == {"sum": 42}
        targets = proxy.targets()
    assert f"http://{HOST}:{sse_port}/sse" in targets
    assert any(t.startswith(f"http://{HOST}:{sse_port}/messages/") for t in targets)
    assert targets.count(f"http://{HOST}:{remote_port}/mcp") >= 4  # two connects' initialize and list, a call


def test_an_https_server_goes_through_the_https_proxy(monkeypatch) -> None:
    """An ``https://`` URL asks ``HTTPS_PROXY`` for a tunnel (CONNECT); ``HTTP_PROXY`` is not used
    for it. The proxy here refuses the wrong credentials and opens no tunnel at all, and the reason
    names the proxy that refused."""
    with ForwardProxy({HOST}, credentials=(USER, PASSWORD)) as proxy, ForwardProxy({HOST}) as other:
        monkeypatch.setenv("HTTP_PROXY", other.url)
        monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:wrong-{PASSWORD}@127.0.0.1:{proxy.port}")
        specs = [spec_from_fields("remote", url=f"https://{HOST}/mcp"),
                 spec_from_fields("events", url=f"https://{HOST}/sse", transport="sse")]
        assert [s.reason for s in connect_servers(specs).statuses] == [
            f"the proxy http://••••@127.0.0.1:{proxy.port} (HTTPS_PROXY) did not open a connection to https://{HOST}/"
            f"{path}: 407 Proxy Authentication Required" for path in ("mcp", "sse")]
        monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{proxy.port}")
        (status,) = connect_servers(specs[:1]).statuses
        assert status.reason == (f"the proxy http://••••@127.0.0.1:{proxy.port} (HTTPS_PROXY) did not open a "
                                 f"connection to https://{HOST}/mcp: 502 Bad Gateway")
        assert set(proxy.targets()) == {f"{HOST}:443"} and {m for m, _, _ in proxy.requests} == {"CONNECT"}
        assert other.requests == []


def test_a_loopback_server_is_reached_directly_whatever_the_variables_say(monkeypatch, remote_port) -> None:
    with ForwardProxy({HOST, "127.0.0.1", "localhost"}) as proxy:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
            monkeypatch.setenv(name, proxy.url)
        specs = [spec_from_fields("ip", url=f"http://127.0.0.1:{remote_port}/mcp"),
                 spec_from_fields("name", url=f"http://localhost:{remote_port}/mcp")]
        result = connect_servers(specs)
        assert [(s.name, s.state, s.tool_count) for s in result.statuses] == [("ip", "ok", 7), ("name", "ok", 7)]
        # an unusable proxy URL does not matter to a server that uses no proxy
        monkeypatch.setenv("HTTP_PROXY", f"ftp://{USER}:{PASSWORD}@proxy.example.test:3128")
        result = connect_servers(specs[:1])
        assert (result.statuses[0].state, result.statuses[0].tool_count) == ("ok", 7)
        assert proxy.requests == []
    assert [is_loopback_url(u) for u in ("http://127.9.9.9:1/mcp", "http://[::1]:8000/mcp", "http://LOCALHOST./mcp",
                                         "http://[::ffff:127.0.0.1]/mcp", f"http://{HOST}/mcp", "http://10.0.0.1/mcp",
                                         "http://127.0.0.1.example.test/mcp")] == [True] * 4 + [False] * 3


def test_no_proxy_hosts_are_reached_directly(monkeypatch, remote_port) -> None:
    """``no_proxy`` names the host: the request goes straight to it (and fails to resolve, as the
    name is the proxy's alone), the proxy sees nothing for it, while a host it does not name is
    still listed through the proxy."""
    with ForwardProxy({HOST, OTHER}) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("no_proxy", f"unrelated.example, {HOST}")
        direct = spec_from_fields("direct", url=f"http://{HOST}:{remote_port}/mcp")
        proxied = spec_from_fields("proxied", url=f"http://{OTHER}:{remote_port}/mcp")
        assert proxy_route(direct.url) is None and proxy_route(proxied.url).variable == "HTTP_PROXY"
        result = connect_servers([direct])
        (status,) = result.statuses
        assert status.state == "failed"
        assert status.reason.startswith(f"cannot connect to {direct.url} (nothing listening, or the host is unreachable")
        assert "proxy" not in status.reason
        assert proxy.requests == []
        result = connect_servers([proxied])
        assert (result.statuses[0].state, result.statuses[0].tool_count) == ("ok", 7)
        assert set(proxy.targets()) == {proxied.url}


def test_proxy_credentials_never_reach_the_terminal_or_the_snapshot(tmp_path, monkeypatch) -> None:
    """A proxy that is not there: the reason names the proxy with its credentials masked, on stderr
    and in the snapshot; and one that refuses the credentials."""
    dead = free_port()
    url = f"http://{HOST}:{dead}/mcp"
    path = config(tmp_path, {"remote": {"url": url}})
    monkeypatch.setenv("HTTP_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{dead}")
    out = tmp_path / "dead.yaml"
    done = run_cli_process("snapshot", path, "-o", out)
    assert done.returncode == 1
    assert ("toolsearch: live: remote: failed" in done.stderr
            and f"cannot connect to {url} through the proxy http://••••@127.0.0.1:{dead} (HTTP_PROXY): " in done.stderr)
    texts = [done.stdout, done.stderr, out.read_text(encoding="utf-8")]
    assert yaml.safe_load(texts[2])["snapshot"]["failed"]["remote"].startswith(
        f"cannot connect to {url} through the proxy http://••••@127.0.0.1:{dead} (HTTP_PROXY): ")
    with ForwardProxy({HOST}, credentials=(USER, "the-right-one")) as proxy:
        monkeypatch.setenv("HTTP_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{proxy.port}")
        (status,) = connect_servers([spec_from_fields("remote", url=url)]).statuses
        assert status.reason == (f"HTTP 407 Proxy Authentication Required from {url} "
                                 f"through the proxy http://••••@127.0.0.1:{proxy.port} (HTTP_PROXY)")
        assert proxy.targets() and set(proxy.targets()) == {url}
    for text in texts:
        assert PASSWORD not in text and "Traceback" not in text


def unusable(name: str, problem: str) -> str:
    """The reason for a proxy variable ``name`` that holds no usable proxy URL."""
    return (f"{name} is not a usable proxy URL ({problem}); expected http://HOST:PORT (or https://, socks5://, "
            "socks5h://), with USER:PASSWORD@ before the host if the proxy needs them; nothing was sent")


def test_an_unusable_proxy_url_is_one_line_naming_the_variable(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", f"ftp://{USER}:{PASSWORD}@proxy.example.test:3128")
    path = config(tmp_path, {"remote": {"url": f"https://{HOST}/mcp"}})
    done = run_cli_process("plan", path)
    assert done.returncode == 2 and done.stdout == ""
    reason = unusable("HTTPS_PROXY", "the scheme 'ftp' is none of http, https, socks5, socks5h")
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("toolsearch: live: remote: failed after ") \
        and lines[0].endswith(f" s: {reason}"), done.stderr
    assert lines[1].startswith(f"toolsearch: error: {path}: no server listed its tools")
    assert PASSWORD not in done.stderr and "Traceback" not in done.stderr
    assert f"\n  {reason}\n" in (ROOT / "docs" / "security.md").read_text(encoding="utf-8")  # the reason quoted there


@pytest.mark.parametrize(("name", "value", "problem"), [
    ("https_proxy", f"http://{USER}:{PASSWORD}@proxy.example.test:port", "it cannot be read as a URL"),
    ("ALL_PROXY", f"http://{USER}:{PASSWORD}@:3128", "it names no host"),
    ("HTTPS_PROXY", f"{USER}:{PASSWORD}@proxy.example.test:70000", "its port is not between 1 and 65535"),
])
def test_each_unusable_proxy_url_has_its_reason(monkeypatch, remote_port, name, value, problem) -> None:
    """The reason names what is wrong; a server whose requests use another variable is not held up."""
    monkeypatch.setenv(name, value)
    with ForwardProxy({HOST}) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        (failed, listed) = connect_servers([spec_from_fields("secure", url=f"https://{HOST}/mcp"),
                                            spec_from_fields("plain", url=f"http://{HOST}:{remote_port}/mcp")]).statuses
        assert proxy.targets() and set(proxy.targets()) == {f"http://{HOST}:{remote_port}/mcp"}
    assert failed.reason == unusable(name, problem)
    assert (listed.state, listed.tool_count) == ("ok", 7)


def test_a_socks_proxy_without_socksio_is_named(monkeypatch) -> None:
    if importlib.util.find_spec("socksio") is not None:
        pytest.skip("socksio is installed here, so SOCKS proxies can be used")
    monkeypatch.setenv("ALL_PROXY", f"socks5://{USER}:{PASSWORD}@127.0.0.1:1080")
    (status,) = connect_servers([spec_from_fields("remote", url=f"https://{HOST}/mcp")]).statuses
    assert status.reason == ("ALL_PROXY names a SOCKS proxy, which needs the socksio package (pip install socksio); "
                             "nothing was sent")


def test_the_live_servers_page_names_the_proxy_with_its_credentials_masked(monkeypatch) -> None:
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables
    from toolsearch.live.guard import launch_token

    dead = free_port()
    monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{dead}")
    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=120)
    at.run()
    at.radio(key="live_transport").set_value("http").run()
    at.text_input(key="live_name").input("remote")
    at.text_input(key="live_url").input(f"https://{HOST}/mcp")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    try:
        status = literal_tables(at)["live_status"]
        (reason,) = status["reason / flags"]
        assert reason.startswith(f"cannot connect to https://{HOST}/mcp through the proxy "
                                 f"http://••••@127.0.0.1:{dead} (HTTPS_PROXY): "), reason
        shown = repr([element.value for element in at.main if hasattr(element, "value")]) + repr(literal_tables(at))
        assert PASSWORD not in shown
    finally:
        connections = at.session_state["live_connections"] if "live_connections" in at.session_state else None
        if connections is not None:
            connections.close()


def test_proxy_credentials_are_in_no_log_record(caplog, monkeypatch, remote_port) -> None:
    """Every logger at DEBUG (the MCP SDK's, httpx's, httpcore's) while a server is listed through a
    proxy that takes the credentials and one that is not there."""
    url = f"http://{HOST}:{remote_port}/mcp"
    caplog.set_level(logging.DEBUG)
    with ForwardProxy({HOST}, credentials=(USER, PASSWORD)) as proxy:
        for port in (proxy.port, free_port()):
            monkeypatch.setenv("HTTP_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{port}")
            connect_servers([spec_from_fields("remote", url=url)])
        assert set(proxy.targets()) == {url}
    assert "HTTP Request: POST" in caplog.text  # httpx's own records were captured
    token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    assert PASSWORD not in caplog.text and token not in caplog.text


def test_proxy_line_says_how_each_server_is_reached(monkeypatch) -> None:
    from toolsearch.live.proxies import proxy_line

    monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{PASSWORD}@proxy.example.test:3128")
    monkeypatch.setenv("NO_PROXY", OTHER)
    assert proxy_line(f"https://{HOST}/mcp") == "http://••••@proxy.example.test:3128 (HTTPS_PROXY)"
    assert proxy_line("https://127.0.0.1:9/mcp") == "direct (a server on this machine)"
    assert proxy_line(f"https://{OTHER}/mcp") == ("direct (no proxy variable for this URL's scheme, "
                                                  "or NO_PROXY names the host)")
    assert proxy_line(f"http://{HOST}/mcp").startswith("direct (")  # no HTTP_PROXY, no ALL_PROXY
    monkeypatch.setenv("HTTPS_PROXY", f"ftp://{USER}:{PASSWORD}@proxy.example.test:3128")
    bad = proxy_line(f"https://{HOST}/mcp")
    assert bad.startswith("the connection will fail: HTTPS_PROXY is not a usable proxy URL (the scheme 'ftp'"), bad
    assert PASSWORD not in bad and USER not in bad


def test_the_live_servers_confirmation_says_which_proxy_a_remote_server_goes_through(monkeypatch) -> None:
    """Before anything connects, the confirmation names the proxy (credentials masked) for a
    browser that may see the app's environment, and says nothing of it to one that may not."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    monkeypatch.setenv("HTTPS_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:3128")
    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=120)
    at.run()
    at.radio(key="live_transport").set_value("http").run()
    for name, url in (("remote", f"https://{HOST}/mcp"), ("local", "http://127.0.0.1:9/mcp")):
        at.text_input(key="live_name").input(name)
        at.text_input(key="live_url").input(url)
        at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    assert not at.exception, at.exception

    def proxy_texts() -> list[str]:
        return [t.value for t in at.text if t.value.startswith("proxy: ")]

    assert proxy_texts() == []  # a browser elsewhere, without the launch token: not told
    at.text_input(key="live_token_connect").input(launch_token()).run()
    assert proxy_texts() == ["proxy: http://••••@127.0.0.1:3128 (HTTPS_PROXY)", "proxy: direct (a server on this machine)"]
    assert PASSWORD not in repr([getattr(element, "value", None) for element in at.main])
