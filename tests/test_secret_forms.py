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

from conftest import run_cli, write_json
from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import encoded_forms, scrub_text, secret_list

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile_mcp_server.py"
# "/", "+", "?", "=" and "~" make every encoding differ from the value and from each other.
ENV_SECRET = "envSECRET/5151+q??z=ab~"
ARG_SECRET = "argSECRET/7373+w?y=c>>?"
MASK = C.SECRET_MASK
FORMS = ("base64", "base64url", "percent", "hex", "split")


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
    half = len(secret) // 2
    return [secret, secret[:half], secret[half:]]  # neither half on its own line either


def _leaks(text: str, form: str) -> list[str]:
    return [piece for secret in (ENV_SECRET, ARG_SECRET) for piece in [secret, *_encoded(secret, form)]
            if piece in text]


def test_the_encoded_forms_differ_and_are_all_masked() -> None:
    for form in FORMS[:-1]:
        for piece in _encoded(ENV_SECRET, form):
            assert piece != ENV_SECRET
            assert scrub_text(f"<{piece}>", secret_list([ENV_SECRET])) == f"<{MASK}>"
    assert base64.b64encode(ENV_SECRET.encode()).decode() != base64.urlsafe_b64encode(ENV_SECRET.encode()).decode()
    assert "envSECRET%2f5151%2bq%3f%3fz%3dab~" in encoded_forms(ENV_SECRET)  # %2f as well as %2F
    assert ENV_SECRET.encode().hex().upper() in encoded_forms(ENV_SECRET)
    # Inside a longer base64 text, at each of the three byte alignments.
    for prefix in (b"Bearer ", b"Bearer  ", b"Bearer   "):
        blob = base64.b64encode(prefix + ENV_SECRET.encode() + b" tail").decode()
        scrubbed = scrub_text(blob, secret_list([ENV_SECRET]))
        assert MASK in scrubbed and base64.b64decode(blob).decode().count("envSECRET") == 1
        assert len(scrubbed) < len(blob) - 16
    # Cut by a line break (with the spaces around it), the lines are kept.
    assert scrub_text("key: envSECRET/51\n   51+q??z=ab~ done", secret_list([ENV_SECRET])) == f"key: {MASK}\n done"
    assert scrub_text("key: envSECRET/51\r\n51+q??z=ab~", secret_list([ENV_SECRET])) == f"key: {MASK}\r\n"
    # Ordinary text with line breaks is left alone.
    assert scrub_text("one\ntwo\n", secret_list([ENV_SECRET])) == "one\ntwo\n"


def _config(tmp_path: Path, form: str) -> Path:
    return write_json(tmp_path / "mcp.json", {"mcpServers": {
        "hostile": {"command": sys.executable, "args": [str(HOSTILE), f"--token={ARG_SECRET}", "--leak-form", form],
                    "env": {"HOSTILE_SECRET": ENV_SECRET}},
        "crash": {"command": sys.executable, "args": [str(HOSTILE), "--crash", f"--token={ARG_SECRET}",
                                                      "--leak-form", form],
                  "env": {"HOSTILE_SECRET": ENV_SECRET}}}})


@pytest.mark.parametrize("form", FORMS)
def test_the_cli_never_prints_a_secret_in_any_form(tmp_path, form) -> None:
    config = _config(tmp_path, form)
    plan = run_cli("plan", config, "--json")
    assert _leaks(plan.stdout + plan.stderr, form) == []
    crash = [line for line in plan.stderr.splitlines() if line.startswith("toolsearch: live: crash: failed")]
    assert len(crash) == 1 and "(stderr: hostile server starting with" in crash[0]  # the stderr tail is shown
    assert f"starting with {MASK}" in crash[0]
    assert "toolsearch: live: hostile: ok, 3 tools" in plan.stderr
    assert "flagged: 9 secret echo(es) masked" in plan.stderr  # info, titles, descriptions, defaults, enums
    assert json.loads(plan.stdout)["servers"][0]["tool_count"] == 3
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

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
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
                      *(str(df.value.to_dict()) for df in at.dataframe), *(h.value for h in at.html),
                      *(str(x.value) for x in [*at.warning, *at.error, *at.success, *at.info]),
                      *(str(o.options) for o in [*at.selectbox, *at.multiselect]),
                      *(str(j.value) for j in at.json)])
