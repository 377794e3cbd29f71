"""Config secrets a server prints encoded (base64, URL-safe base64, percent, hex) or cut in two
by a line break never reach the CLI's output nor the Live servers page.

The hostile stdio server (``tests/hostile_mcp_server.py --leak-form FORM``) echoes both secrets of
its config in that form on stderr, in its server info, tool descriptions, schema defaults and
enums, tool results and JSON-RPC errors.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
import yaml

from conftest import literal_tables, run_cli_process as run_cli, write_json
from toolsearch.engine.invisible import quoted
from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import encoded_forms, scrub_text, secret_list

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile_mcp_server.py"
# "/", "+", "?", "=" and "~" make every encoding differ from the value and from each other.
ENV_SECRET = "envSECRET/5151+q??z=ab~"
ARG_SECRET = "argSECRET/7373+w?y=c>>?"
MASK = C.SECRET_MASK
FORMS = ("base64", "base64url", "percent", "hex", "json", "json-go", "json-dotnet", "html", "split")


def _encoded(secret: str, form: str) -> list[str]:
    """What must not appear for ``secret`` leaked in ``form`` (written here, not taken from the server)."""
    raw = secret.encode()
    if form == "base64":
        return [base64.b64encode(raw).decode(), base64.b64encode(raw).decode().rstrip("=")]
    if form == "base64url":
        return [base64.urlsafe_b64encode(raw).decode().rstrip("=")]
    if form == "percent":
        return [quote(secret, safe="")]
    if form == "hex":
        return [raw.hex()]
    if form == "json":  # PHP's json_encode writes "/" as "\/"
        return [secret.replace("/", "\\/")]
    if form == "json-go":  # Go's encoding/json writes ">" as "\u003e"
        return [secret.replace(">", "\\u003e")]
    if form == "json-dotnet":  # .NET's System.Text.Json writes "+" as "\u002B", ">" as "\u003E"
        return [secret.replace("+", "\\u002B").replace(">", "\\u003E")]
    if form == "html":
        return [secret.replace(">", "&gt;")]
    half = len(secret) // 2
    return [secret, secret[:half], secret[half:]]  # neither half on its own line either


def _leaks(text: str, form: str) -> list[str]:
    """The pieces of either secret in ``text``, also as ``--json`` output writes them (escaped)."""
    return [piece for secret in (ENV_SECRET, ARG_SECRET) for piece in [secret, *_encoded(secret, form)]
            if piece in text or json.dumps(piece)[1:-1] in text]


def test_the_encoded_forms_differ_and_are_all_masked() -> None:
    for form in FORMS[:-1]:
        secret = ARG_SECRET if form in ("json-go", "html") else ENV_SECRET  # ENV_SECRET has no ">"
        for piece in _encoded(secret, form):
            assert piece != secret
            assert scrub_text(f"<{piece}>", secret_list([secret])) == f"<{MASK}>"
    assert base64.b64encode(ENV_SECRET.encode()).decode() != base64.urlsafe_b64encode(ENV_SECRET.encode()).decode()
    assert "envSECRET%2f5151%2bq%3f%3fz%3dab~" in encoded_forms(ENV_SECRET)  # %2f as well as %2F
    assert ENV_SECRET.encode().hex().upper() in encoded_forms(ENV_SECRET)
    # Inside a longer base64 text, at each of the three byte alignments.
    for prefix in (b"Bearer ", b"Bearer  ", b"Bearer   "):
        blob = base64.b64encode(prefix + ENV_SECRET.encode() + b" tail").decode()
        scrubbed = scrub_text(blob, secret_list([ENV_SECRET]))
        assert MASK in scrubbed and base64.b64decode(blob).decode().count("envSECRET") == 1
        assert len(scrubbed) < len(blob) - 16
    # Inside JSON text a server returns (its settings, its environment), whichever way it escapes.
    odd = 'pa"ss\\w\u00f6rd/k<y>&z\''
    for dumped in (json.dumps({"KEY": odd}), json.dumps({"KEY": odd}, ensure_ascii=False),
                   json.dumps({"KEY": odd}).replace("/", "\\/").replace("\\u00f6", "\\u00F6"),
                   json.dumps({"KEY": odd}).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")):
        assert scrub_text(dumped, secret_list([odd])) == f'{{"KEY": "{MASK}"}}', dumped
    # .NET's System.Text.Json (the C# MCP SDK): non-ASCII and " ' + < > & ` as upper case \uXXXX.
    dotnet = 'pa\\u0022ss\\\\w\\u00F6rd/k\\u003Cy\\u003E\\u0026z\\u0027'
    assert scrub_text(f'{{"KEY": "{dotnet}"}}', secret_list([odd])) == f'{{"KEY": "{MASK}"}}'
    assert scrub_text("key=Ab\\u002Bc/d\\u002B\\u002B==", secret_list(["Ab+c/d++=="])) == f"key={MASK}"
    # HTML or XML, quotes as Python, Go (&#34; &#39;) or XML (&quot; &apos;) write them.
    for escaped in ("pa&#34;ss\\w\u00f6rd/k&lt;y&gt;&amp;z&#39;", "pa&quot;ss\\w\u00f6rd/k&lt;y&gt;&amp;z&apos;"):
        assert scrub_text(f"<p>{escaped}</p>", secret_list([odd])) == f"<p>{MASK}</p>"
    for escaped in ("pa&quot;ss\\w\u00f6rd/k&lt;y&gt;&amp;z&#x27;", "pa&quot;ss\\w\u00f6rd/k&lt;y&gt;&amp;z&#39;"):
        assert scrub_text(f"<p>{escaped}</p>", secret_list([odd])) == f"<p>{MASK}</p>"
    # Cut by a line break (with the spaces around it), the lines are kept.
    assert scrub_text("key: envSECRET/51\n   51+q??z=ab~ done", secret_list([ENV_SECRET])) == f"key: {MASK}\n done"
    assert scrub_text("key: envSECRET/51\r\n51+q??z=ab~", secret_list([ENV_SECRET])) == f"key: {MASK}\r\n"
    # Ordinary text with line breaks is left alone.
    assert scrub_text("one\ntwo\n", secret_list([ENV_SECRET])) == "one\ntwo\n"


def _servers(form: str, suffix: str = "") -> dict:
    """A hostile server and one that crashes at start-up, both leaking in ``form``."""
    return {f"hostile{suffix}": {"command": sys.executable,
                                 "args": [str(HOSTILE), f"--token={ARG_SECRET}", "--leak-form", form],
                                 "env": {"HOSTILE_SECRET": ENV_SECRET}},
            f"crash{suffix}": {"command": sys.executable,
                               "args": [str(HOSTILE), "--crash", f"--token={ARG_SECRET}", "--leak-form", form],
                               "env": {"HOSTILE_SECRET": ENV_SECRET}}}


def _config(tmp_path: Path, form: str) -> Path:
    return write_json(tmp_path / "mcp.json", {"mcpServers": _servers(form)})


@pytest.fixture(scope="module")
def plan_of_every_form(tmp_path_factory):
    """``toolsearch plan --json`` run once (its own process) over a config with the hostile and the
    crashing server of every form (``hostile-FORM``, ``crash-FORM``): one interpreter start and
    SDK import instead of one per form; each form's servers are checked on their own lines."""
    servers = {name: spec for form in FORMS for name, spec in _servers(form, f"-{form}").items()}
    config = write_json(tmp_path_factory.mktemp("forms") / "mcp.json", {"mcpServers": servers})
    return run_cli("plan", config, "--json")


@pytest.mark.parametrize("form", FORMS)
def test_the_cli_never_prints_a_secret_in_any_form(tmp_path, form, plan_of_every_form) -> None:
    plan = plan_of_every_form
    assert _leaks(plan.stdout + plan.stderr, form) == []
    crash = [line for line in plan.stderr.splitlines() if line.startswith(f"toolsearch: live: crash-{form}: failed")]
    assert len(crash) == 1 and "(stderr: hostile server starting with" in crash[0]  # the stderr tail is shown
    assert f"starting with {MASK}" in crash[0]
    ok = [line for line in plan.stderr.splitlines() if line.startswith(f"toolsearch: live: hostile-{form}: ok")]
    assert len(ok) == 1 and ok[0].startswith(f"toolsearch: live: hostile-{form}: ok, 3 tools"), ok
    assert ok[0].endswith("flagged: 9 secret echoes masked"), ok  # info, titles, descriptions, defaults, enums
    servers = {server["name"]: server for server in json.loads(plan.stdout)["servers"]}
    assert servers[f"hostile-{form}"]["tool_count"] == 3
    config = _config(tmp_path, form)
    echo = run_cli("call", config, "mcp__hostile__echo", "-a", '{"text": "hi"}', "--json")
    assert _leaks(echo.stdout + echo.stderr, form) == []
    response = json.loads(echo.stdout)["response"]
    secret = response["structuredContent"]["secret"]
    assert secret.replace("\n", "") == f"{MASK} {MASK}"
    fail = run_cli("call", config, "mcp__hostile__fail")
    assert _leaks(fail.stdout + fail.stderr, form) == []
    assert f"denied for {MASK}" in fail.stdout + fail.stderr


@pytest.mark.parametrize("form", FORMS)
def test_the_live_page_never_shows_a_secret_in_any_form(tmp_path, form) -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(
        ("mcp.json", _config(tmp_path, form).read_bytes(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    try:
        at.selectbox(key="live_tool").select("mcp__hostile__echo").run()
        at.button(key="live_call").click().run()
        assert not at.exception, at.exception
        outcome = at.session_state["live_last_call"]["outcome"]
        assert outcome["response"]["structuredContent"]["secret"].replace("\n", "") == f"{MASK} {MASK}"
        seen = _page_text(at)
        at.selectbox(key="live_tool").select("mcp__hostile__fail").run()
        at.button(key="live_call").click().run()
        assert not at.exception, at.exception
        seen += _page_text(at)
        assert _leaks(seen, form) == []
        assert "hostile server starting with" in seen  # the crashed server's stderr tail is on the page
        assert "denied for" in seen
    finally:
        connections = at.session_state["live_connections"] if "live_connections" in at.session_state else None
        if connections is not None:
            connections.close()


def _page_text(at) -> str:
    return "\n".join([*(c.value for c in at.code), *(t.value for t in at.text), *(m.value for m in at.markdown),
                      *(str(df.value.to_dict()) for df in at.dataframe), *(h.value.replace("<wbr>", "") for h in at.html),
                      *(str(x.value) for x in [*at.warning, *at.error, *at.success, *at.info]),
                      *(str(o.options) for o in [*at.selectbox, *at.multiselect]),
                      *(str(j.value) for j in at.json)])


# --- stray stdout lines ----------------------------------------------------------------------

def _fragments(secret: str) -> set[str]:
    """Every 4-character piece of ``secret`` in each form a server may print it in."""
    raw = secret.encode()
    forms = [secret, base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode(), quote(secret, safe=""),
             raw.hex()]
    return {form[i:i + 4] for form in forms for i in range(len(form) - 3)}


FRAGMENTS = _fragments(ENV_SECRET) | _fragments(ARG_SECRET)


def _fragments_in(text: str) -> list[str]:
    text = text.replace("HOSTILE_SECRET", "")  # the env variable's name (shown as HOSTILE_SECRET=••••)
    return sorted(piece for piece in FRAGMENTS if piece in text)


def _stray_error(line: str) -> Exception:
    """What the MCP SDK's stdio transport hands the session for a stdout line that is not JSON-RPC."""
    from mcp_types import jsonrpc_message_adapter

    with pytest.raises(ValueError) as caught:
        jsonrpc_message_adapter.validate_json(line)
    return caught.value


def _stray_tap():
    from toolsearch.live.client import _Tap
    from toolsearch.live.mcpconfig import spec_from_fields

    spec = spec_from_fields("s", command="srv", args=[f"--token={ARG_SECRET}"], env={"HOSTILE_SECRET": ENV_SECRET})
    return _Tap(spec.scrub, spec.secret_values())


def _form(secret: str, form: str) -> str:
    raw = secret.encode()
    return {"plain": secret, "base64": base64.b64encode(raw).decode(),
            "base64url": base64.urlsafe_b64encode(raw).decode().rstrip("="), "percent": quote(secret, safe=""),
            "hex": raw.hex()}[form]


def test_a_secret_split_across_stray_stdout_lines_is_masked_at_every_split_point() -> None:
    checked = 0
    for form in ("plain", "base64", "base64url", "percent", "hex"):
        for secret in (ENV_SECRET, ARG_SECRET):
            encoded = _form(secret, form)
            for at in range(1, len(encoded)):
                for pad in (0, 110):  # 110: the secret straddles the 120-character cut
                    tap = _stray_tap()
                    for line in ("." * pad + "log: key " + encoded[:at], "  " + encoded[at:] + " loaded"):
                        tap.observe(_stray_error(line))
                    assert tap.bad_lines == 2
                    assert _fragments_in(tap.last_bad) == [], (form, at, tap.last_bad)
                    if len(encoded) - at >= 4:  # the second line shows where its secret part was
                        assert tap.last_bad == quoted(f"{MASK} loaded"), (form, at, tap.last_bad)
                    # The first line as it was shown before the second came: its cut-off start masked.
                    first = _stray_tap()
                    first.observe(_stray_error("." * pad + "log: key " + encoded[:at]))
                    assert _fragments_in(first.last_bad) == [], (form, at, first.last_bad)
                    checked += 1
    assert checked == 2 * sum(len(_form(s, f)) - 1 for s in (ENV_SECRET, ARG_SECRET)
                              for f in ("plain", "base64", "base64url", "percent", "hex"))


def test_a_secret_split_over_three_stray_lines_is_masked_on_each() -> None:
    encoded = _form(ENV_SECRET, "base64")
    for a, b in ((3, 9), (10, 11), (1, 25), (16, 20)):
        tap = _stray_tap()
        shown = []
        for line in ("log: " + encoded[:a], encoded[a:b], encoded[b:] + " end"):
            tap.observe(_stray_error(line))
            shown.append(tap.last_bad)
        assert [_fragments_in(text) for text in shown] == [[], [], []], shown
        assert shown[-1] == repr(f"{MASK} end")


def test_a_stray_line_that_reads_as_json_does_not_hide_a_split_secret() -> None:
    encoded = _form(ENV_SECRET, "hex")
    assert encoded[:5] == "656e7" and json.loads(encoded[:5]) == 6.56e9  # valid JSON, but not as written
    for first, second in ((encoded[:5], encoded[5:] + " end"), (encoded[:12], encoded[12:] + " end")):
        tap = _stray_tap()
        tap.observe(_stray_error(first))
        tap.observe(_stray_error(second))
        assert tap.last_bad == quoted(f"{MASK} end"), (first, tap.last_bad)


def test_a_stray_line_is_scrubbed_before_it_is_cut_and_shown_literally() -> None:
    tap = _stray_tap()
    tap.observe(_stray_error("." * 110 + ENV_SECRET + " tail"))
    assert tap.last_bad == quoted(("." * 110 + MASK + " tail")[:120])
    tap.observe(_stray_error("ordinary \x1b[31mlog\x1b[0m line"))  # no secret: as it was, ESC as its marker
    assert tap.last_bad == quoted("ordinary \x1b[31mlog\x1b[0m line") == "'ordinary ⟨U+001B⟩[31mlog⟨U+001B⟩[0m line'"
    tap.observe(_stray_error("[1, 2]"))  # JSON but not JSON-RPC: named by its error
    assert tap.last_bad == "ValidationError" and tap.bad_lines == 3


def test_a_very_long_stray_line_shows_the_same_masked_start_and_joins_the_next_line_by_its_end() -> None:
    """A stray line up to the 16 MiB message limit is scrubbed by its start and its end only: what
    is shown, and a secret split from its end onto the next line, are as for a short line."""
    long_pad = "x" * 3_000_000
    tap = _stray_tap()
    tap.observe(_stray_error("." * 100 + ENV_SECRET + long_pad))
    assert tap.last_bad == quoted(("." * 100 + MASK + long_pad)[:120])
    # back-to-back secrets: the shown start stands for far more of the line than 120 characters
    tap.observe(_stray_error(ENV_SECRET * 200 + long_pad))
    assert tap.last_bad == quoted(MASK * 30)
    # a secret at or across the 120-character end of what is shown: as for a short line
    for start in (110, 117, 119, 120, 121):
        short, long = _stray_tap(), _stray_tap()
        short.observe(_stray_error("." * start + ENV_SECRET + "x" * 200))
        long.observe(_stray_error("." * start + ENV_SECRET + long_pad))
        assert long.last_bad == short.last_bad and _fragments_in(long.last_bad) == [], (start, long.last_bad)
    # a long line that ends with the start of a secret; the next line ends it
    for at in (1, 7, len(ENV_SECRET) - 1):
        tap = _stray_tap()
        tap.observe(_stray_error(long_pad + " key " + ENV_SECRET[:at]))
        assert tap.last_bad == quoted(long_pad[:120])
        tap.observe(_stray_error(ENV_SECRET[at:] + " loaded"))
        assert tap.last_bad == quoted(f"{MASK} loaded"), (at, tap.last_bad)
    # without any secret: the start, as it is
    from toolsearch.live.client import _Tap

    plain = _Tap()
    plain.observe(_stray_error("\x1b" + long_pad))
    assert plain.last_bad == quoted(("\x1b" + long_pad)[:120])


def test_a_cut_off_start_or_end_of_a_secret_is_masked() -> None:
    from toolsearch.engine.secrets import mask_leading_suffix, mask_trailing_prefix

    secrets = secret_list([ENV_SECRET])
    assert mask_trailing_prefix("key envSECR", secrets) == f"key {MASK}"
    assert mask_trailing_prefix("key envSECR  \n", secrets) == f"key {MASK}  \n"
    assert mask_trailing_prefix("key en\n  vSEC", secrets) == f"key {MASK}\n"  # line breaks stay
    assert mask_trailing_prefix("key env", secrets) == "key env"  # under 4 characters: ordinary text
    assert mask_trailing_prefix("key envelope", secrets) == "key envelope"
    assert mask_leading_suffix("  =ab~ done", secrets) == f"  {MASK} done"
    assert mask_leading_suffix("ab~ done", secrets) == "ab~ done"
    b64 = base64.b64encode(ENV_SECRET.encode()).decode()
    assert mask_trailing_prefix(f"blob {b64[:9]}", secrets) == f"blob {MASK}"


STRAY_CASES = [("plain", "split", None), ("plain", "split", "4"), ("plain", "split", "-4"), ("base64", "split", None),
               ("base64url", "split", "5"), ("percent", "split", None), ("hex", "split", "-6"), ("plain", "long", None),
               ("hex", "long", None), ("plain", "cut", "12"), ("base64", "cut", None)]


def _stray_config(tmp_path: Path, form: str, mode: str, at: str | None) -> Path:
    extra = ["--leak-form", "plain" if form == "plain" else form, "--stdout-leak", mode]
    extra += ["--split-at", at] if at is not None else []
    return write_json(tmp_path / "mcp.json", {"mcpServers": {
        "hostile": {"command": sys.executable, "args": [str(HOSTILE), f"--token={ARG_SECRET}", *extra],
                    "env": {"HOSTILE_SECRET": ENV_SECRET}}}})


def _expected_last(form: str, mode: str) -> str:
    if mode == "split":
        return f"(last: '{MASK} and no more')"
    if mode == "long":
        return f"(last: '{('server log: ' + '.' * 98 + MASK + ' loaded')[:120]}')"
    return f"(last: 'server log: key {MASK}')"


@pytest.fixture(scope="module")
def snapshot_of_every_stray_case(tmp_path_factory):
    """``toolsearch snapshot`` run once (its own process) over a config with one hostile server per
    stray-line case (``hostile-N``, N its index in :data:`STRAY_CASES`); each server's warning is
    checked on its own. Returns the finished process and the catalog it wrote."""
    tmp = tmp_path_factory.mktemp("stray")
    servers = {}
    for index, (form, mode, at) in enumerate(STRAY_CASES):
        (spec,) = json.loads(_stray_config(tmp, form, mode, at).read_text(encoding="utf-8"))["mcpServers"].values()
        servers[f"hostile-{index}"] = spec
    config = write_json(tmp / "mcp.json", {"mcpServers": servers})
    out = tmp / "snapshot.yaml"
    snap = run_cli("snapshot", config, "-o", out)
    return snap, out.read_text(encoding="utf-8") if out.exists() else ""


@pytest.mark.parametrize(("form", "mode", "at"), STRAY_CASES)
def test_the_cli_never_shows_a_secret_split_across_stray_stdout_lines(snapshot_of_every_stray_case, form, mode,
                                                                      at) -> None:
    snap, written = snapshot_of_every_stray_case
    server = f"hostile-{STRAY_CASES.index((form, mode, at))}"
    assert snap.returncode == 0, snap.stderr
    assert _fragments_in(snap.stdout + snap.stderr + written) == []
    stray = [line for line in snap.stderr.splitlines()
             if "were not JSON-RPC messages" in line and f"server '{server}'" in line]
    lines = {"split": 3, "long": 2, "cut": 2}[mode]
    assert stray == [f"toolsearch: catalog warning: live: server '{server}': {lines} lines on the server's stdout "
                     f"were not JSON-RPC messages {_expected_last(form, mode)}"]
    problems = yaml.safe_load(written)["snapshot"]["problems"]  # the snapshot keeps the warning
    assert [p for p in problems if "not JSON-RPC messages" in p and f"server '{server}'" in p] == \
        [stray[0].split("catalog ", 1)[1]]


@pytest.mark.parametrize(("form", "mode", "at"), [("plain", "split", "4"), ("hex", "split", "-6"), ("base64", "cut", None)])
def test_the_live_page_never_shows_a_secret_split_across_stray_stdout_lines(tmp_path, form, mode, at) -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    at_ = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at_.run()
    at_.file_uploader(key="live_config_upload").set_value(
        ("mcp.json", _stray_config(tmp_path, form, mode, at).read_bytes(), "application/json"))
    at_.run()
    at_.button(key="live_connect").click().run()
    at_.text_input(key="live_token_connect").input(launch_token())
    at_.button(key="live_start_connect").click().run()
    assert not at_.exception, at_.exception
    try:
        seen = _page_text(at_)
        assert _fragments_in(seen) == [], [line for line in seen.splitlines() if _fragments_in(line)]
        lines = {"split": 3, "cut": 2}[mode]
        table = literal_tables(at_)["live_flagged"]  # the page's "Flagged while listing" problem table
        flagged = [f"{r['severity']} · {r['where']}: {r['message']}" for r in table.to_dict("records")
                   if "not JSON-RPC messages" in r["message"]]
        assert flagged == [f"warning · live: server 'hostile': {lines} lines on the server's stdout were not "
                           f"JSON-RPC messages {_expected_last(form, mode)}"]
    finally:
        connections = at_.session_state["live_connections"] if "live_connections" in at_.session_state else None
        if connections is not None:
            connections.close()


def test_a_library_user_sees_no_secret_from_stray_stdout_lines_in_the_log(tmp_path) -> None:
    """The MCP SDK logs every stray stdout line with its text; without a logging setup (as under
    ``streamlit run``) Python prints such records on stderr, so they must not carry the line."""
    import subprocess

    config = _stray_config(tmp_path, "plain", "split", None)
    script = ("import sys\n"
              "from toolsearch.live.client import connect_servers\n"
              "from toolsearch.live.mcpconfig import load_mcp_config\n"
              "result = connect_servers(load_mcp_config(sys.argv[1]).enabled)\n"
              "print([p.message for p in result.catalog.problems if 'JSON-RPC' in p.message])\n")
    run = subprocess.run([sys.executable, "-c", script, str(config)], capture_output=True, text=True,
                         encoding="utf-8", timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == repr([f"3 lines on the server's stdout were not JSON-RPC messages "
                                       f"{_expected_last('plain', 'split')}"])
    assert _fragments_in(run.stdout + run.stderr) == [], run.stderr


CUT_FORMS, CUT_CHARS = ("as-is", "base64", "hex"), (4, 9, 14)


@pytest.fixture(scope="module")
def plan_of_every_stderr_cut(tmp_path_factory):
    """``toolsearch plan --json`` run once (its own process) over a config with one crashing server
    per case (``crash-CHARS-FORM``), each dying ``CHARS`` characters into a secret on stderr."""
    config = write_json(tmp_path_factory.mktemp("cuts") / "mcp.json", {"mcpServers": {
        f"crash-{chars}-{form}": {"command": sys.executable,
                                  "args": [str(HOSTILE), "--crash", "--stderr-cut", str(chars),
                                           *(["--leak-form", form] if form != "as-is" else [])],
                                  "env": {"HOSTILE_SECRET": ENV_SECRET}}
        for form in CUT_FORMS for chars in CUT_CHARS}})
    return run_cli("plan", config, "--json")


@pytest.mark.parametrize("form", CUT_FORMS)
@pytest.mark.parametrize("chars", CUT_CHARS)
def test_a_stderr_that_ends_inside_a_secret_shows_no_part_of_it(plan_of_every_stderr_cut, form, chars) -> None:
    """A server that dies while printing a secret leaves its start at the end of stderr: the
    failure's stderr tail masks that start (and the line is still shown)."""
    plan = plan_of_every_stderr_cut
    (line,) = [line for line in plan.stderr.splitlines()
               if line.startswith(f"toolsearch: live: crash-{chars}-{form}: failed")]
    shown = ENV_SECRET if form == "as-is" else _encoded(ENV_SECRET, form)[0]
    assert f"last words: {MASK}" in line, line
    assert shown[:chars] not in line and shown[:4] not in line.split("last words:")[1], line


def test_the_sdk_log_records_are_masked_for_a_library_user(tmp_path) -> None:
    """Once a server has been started, the MCP SDK's own log records (it logs SSE event names,
    redirect and discovery URLs, exceptions) carry none of its secrets, even with no logging setup
    (Python then prints warnings on stderr, as under ``streamlit run``)."""
    import subprocess

    config = _config(tmp_path, "base64")
    encoded = base64.b64encode(ENV_SECRET.encode()).decode()
    script = ("import logging, sys\n"
              "from toolsearch.live.client import connect_servers\n"
              "from toolsearch.live.mcpconfig import load_mcp_config\n"
              "connect_servers(load_mcp_config(sys.argv[1]).enabled)\n"
              "secret, encoded = sys.argv[2], sys.argv[3]\n"
              "logging.getLogger('mcp.client.streamable_http').warning('Unknown SSE event: %s', secret)\n"
              "logging.getLogger('mcp.client.streamable_http').warning(\n"
              "    'GET stream not opened: https://user:pw@h.example/mcp?token=' + encoded)\n"
              "try:\n"
              "    raise RuntimeError('bad line ' + secret)\n"
              "except RuntimeError:\n"
              "    logging.getLogger('mcp.client.streamable_http').exception('Reading failed')\n")
    run = subprocess.run([sys.executable, "-c", script, str(config), ENV_SECRET, encoded], capture_output=True,
                         text=True, encoding="utf-8", timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"Unknown SSE event: {MASK}" in run.stderr
    assert "GET stream not opened: https://" in run.stderr and "h.example/mcp?token=" in run.stderr
    assert "Reading failed" in run.stderr and f"RuntimeError: bad line {MASK}" in run.stderr
    assert ENV_SECRET not in run.stderr and encoded not in run.stderr and "user:pw" not in run.stderr


def test_a_config_with_more_values_than_the_forms_cache_encodes_each_value_once() -> None:
    # Scrubbing asks for the secret list for every string a server sends. With more values than
    # _encoded_forms keeps (1,024), each ask encoded every value again: a config with 6,000 env
    # values took 24 s to list three tools, with the event loop held (no timeout could fire).
    from toolsearch.engine import secrets as S
    from toolsearch.live.mcpconfig import parse_server

    env = {f"K{i}": f"value-{i:05d}-Heron" for i in range(3000)}
    spec = parse_server("s", {"command": "srv", "env": env}, "mcpServers", "mcpServers.s", environ={})
    S._encoded_forms.cache_clear()
    first = spec.secret_values()
    misses = S._encoded_forms.cache_info().misses
    for _ in range(5):
        assert spec.secret_values() == first
    assert S._encoded_forms.cache_info().misses == misses  # no value encoded again
    assert "value-01234-Heron" in first and spec.scrub("x value-01234-Heron y") == "x •••• y"


def test_a_secret_of_digits_sent_back_as_a_json_number_is_masked(tmp_path: Path) -> None:
    # A PIN or an account number in env: a server that returns it as a number (a schema default,
    # an enum, a structured result) printed it, and wrote it into the snapshot, as it was.
    pin = "84736251"
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"pins": {
        "command": sys.executable, "args": [str(HOSTILE), "--number"], "env": {"HOSTILE_SECRET": pin}}}})
    described = run_cli("describe", config, "mcp__pins__echo", "--json")
    assert described.returncode == 0, described.stderr
    schema = json.loads(described.stdout)["tools"]["mcp__pins__echo"]["parameters"]["properties"]["pin"]
    assert schema["default"] == MASK and schema["enum"] == [MASK, 1]
    called = run_cli("call", config, "mcp__pins__echo", "-a", '{"text": "hi"}', "--json")
    assert called.returncode == 0, called.stderr
    assert '"pin": "••••"' in called.stdout and '"pin_half": "••••.5"' in called.stdout
    snapshot = tmp_path / "snapshot.yaml"
    written = run_cli("snapshot", config, "-o", snapshot)
    assert written.returncode == 0, written.stderr
    assert "default: ••••" in snapshot.read_text(encoding="utf-8")
    for result in (described, called, written):
        assert pin not in result.stdout + result.stderr
    assert pin not in snapshot.read_text(encoding="utf-8")
