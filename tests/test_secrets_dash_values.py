"""A secret option's value that starts with ``-`` (``--password -Xy9kQ2w8vT``, ``--token
-abc123def456``: a generated secret may begin with a dash) was shown in clear, and so was a
server's echo of it. A word after a secret option is now its value whatever it looks like
(:func:`toolsearch.engine.secrets.secret_option_value`: ``--password -hunter`` and ``--token --verbose``
too), unless it is ``--`` or an option whose own secret is read: ``--auth -u admin:pw`` keeps the
password of ``-u`` masked; ``--password -`` (read from the standard input) names no secret. The server is ``tests/argv_echo_mcp_server.py``: it
echoes its whole command line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from conftest import run_cli_process, write_json
from toolsearch.engine import constants as C
from toolsearch.engine.secrets import option_shaped
from toolsearch.live.mcpconfig import mask_arguments, parse_config_data, secret_arguments

ECHO = Path(__file__).resolve().parent / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
DASHED = ["-Xy9kQ2w8vT", "-abc123def456", "-Ab_c9dEf-GhIj", "-XyzkQwvTab", "-Xy9+kQ/w=="]
AUTH_PASSWORD = "Pw0rdAfterAuth9"
ENV_SECRET = "EnvAfterTok3n-77"
ARGS = ["--password", DASHED[0], "--token", DASHED[1], "--api-key", DASHED[2], "--client-secret", DASHED[3],
        "--accessToken", DASHED[4], "--auth", "-u", f"admin:{AUTH_PASSWORD}", "--token", f"-eAPI_KEY={ENV_SECRET}",
        "--secret", "--verbose", "--password", "-", "--api-key", "-hunter", "--token", "--", "-v"]
MASKED = ["--password", MASK, "--token", MASK, "--api-key", MASK, "--client-secret", MASK,
          "--accessToken", MASK, "--auth", "-u", f"admin:{MASK}", "--token", f"-eAPI_KEY={MASK}",
          "--secret", MASK, "--password", "-", "--api-key", MASK, "--token", "--", "-v"]
SECRETS = [*DASHED, AUTH_PASSWORD, ENV_SECRET, "--verbose", "-hunter"]
# A value that is a long option name (``--secret --verbose``) is masked in its place on the command line but
# not searched for in what a server prints (it would hide that option word everywhere):
# toolsearch.engine.secrets.free_text_secret. The echo shows it; every other value stays masked.
ECHOED = [s for s in SECRETS if s != "--verbose"]
ECHO_SHOWN = " ".join(MASKED).replace(f"--secret {MASK}", "--secret --verbose")


@pytest.mark.parametrize("word", ["-u", "-v", "-k", "-4", "-lc", "-p8080", "-O2", "-Xmx512m", "-token", "-insecure",
                                  "-listen-addr", "-Dfile.encoding", "--", "--verbose", "--flag=x",
                                  "--api-key", "--accessToken", "--http2-prior-knowledge", "--tls13-ciphers",
                                  "--oauth2-bearer", "--password=-Xy9kQ2w8vT"])
def test_words_that_read_as_the_next_option(word: str) -> None:
    assert option_shaped(word)


@pytest.mark.parametrize("word", ["-", "-1234", "-4500.0", "-Xy9kQ2w8vT", "-abc123def456", "-Ab_c9dEf-GhIj",
                                  "-XyzkQwvTab", "-Xy9+kQ/w==", "-Xy9kQ2w8vT=", "-pässwort", "--a8f3k2x9q",
                                  "-XX:+UseG1GC", "value", ""])
def test_words_that_read_as_a_value(word: str) -> None:
    assert not option_shaped(word)


def test_a_dashed_value_is_masked_and_the_options_around_it_are_read_as_before() -> None:
    assert mask_arguments(ARGS) == MASKED
    assert secret_arguments(ARGS) == SECRETS
    assert mask_arguments(["--password=-Xy9kQ2w8vT"]) == [f"--password={MASK}"]  # as before
    # the option after a secret option that has no value keeps its own value masked
    assert mask_arguments(["--auth", "-uadmin:Pw0rd", "--token", "--api-key", "Key0fApi", "--auth", "--oauth2token",
                           "T0kenOauth2"]) == ["--auth", f"-uadmin:{MASK}", "--token", "--api-key", MASK, "--auth",
                                               "--oauth2token", MASK]
    # a word of small letters only is the value too, and so is a long option: the program reads it as the value
    assert mask_arguments(["--password", "-hunter"]) == ["--password", MASK]
    assert mask_arguments(["--password=-hunter"]) == [f"--password={MASK}"]
    assert mask_arguments(["--auth", "--port", "8080"]) == ["--auth", MASK, "8080"]
    # Go-style single-dash options take it too
    assert mask_arguments(["-password", DASHED[0], "-v"]) == ["-password", MASK, "-v"]
    # inside a script, as on the command line
    assert mask_arguments(["-c", f"npx server --password {DASHED[0]} -v"]) == ["-c", f"npx server --password {MASK} -v"]


def test_every_view_of_the_launch_command_masks_it_and_the_servers_echo_of_it() -> None:
    (spec,) = parse_config_data({"mcpServers": {"db": {
        "command": "npx", "args": ["-y", "db-server", *ARGS]}}}, "mcp.json").servers
    assert spec.redacted()["args"] == ["-y", "db-server", *MASKED]
    line = spec.launch_preview()["command_line"]
    assert line == "npx -y db-server " + " ".join(MASKED)  # no word of it needs shell quotes
    assert not [s for s in SECRETS if s in line + repr(spec)]
    assert set(ECHOED) <= set(spec.secret_values()) and "--verbose" not in spec.secret_values()
    assert spec.scrub(f"login failed for {DASHED[0]} (token {DASHED[1]})") == f"login failed for {MASK} (token {MASK})"
    (whole,) = parse_config_data({"mcpServers": {"db": {
        "command": f"npx -y db-server --password {DASHED[0]} --verbose"}}}, "mcp.json").servers
    assert whole.redacted()["command"] == f"npx -y db-server --password {MASK} --verbose"
    assert DASHED[0] in whole.secret_values()


def test_plan_and_describe_never_show_it_when_the_server_echoes_its_command_line(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": sys.executable, "args": [str(ECHO), *ARGS]}}})
    planned = run_cli_process("plan", config, "--json", "--timeout", "60")
    assert planned.returncode == 0, planned.stderr
    described = run_cli_process("describe", config, "mcp__echo__echo", "--json", "--timeout", "60")
    assert described.returncode == 0, described.stderr
    for out in (planned.stdout + planned.stderr, described.stdout + described.stderr):
        assert not [s for s in ECHOED if s in out]
    description = json.loads(described.stdout)["tools"]["mcp__echo__echo"]["description"]
    assert ECHO_SHOWN in description, description


def test_a_failing_servers_stderr_and_the_snapshot_never_show_it(tmp_path) -> None:
    echo_and_fail = "import sys; print('started with', *sys.argv[1:], file=sys.stderr); sys.exit(3)"
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "db": {"command": sys.executable, "args": ["-c", echo_and_fail, *ARGS]}}})
    saved = tmp_path / "snap.yaml"
    done = run_cli_process("snapshot", config, "-o", saved, "--timeout", "60")
    out = done.stdout + done.stderr + saved.read_text(encoding="utf-8")
    assert not [s for s in ECHOED if s in out]
    reason = yaml.safe_load(saved.read_text(encoding="utf-8"))["snapshot"]["failed"]["db"]
    assert f"started with {ECHO_SHOWN}" in reason, reason


# --- recorded sessions: a command a model ran, masked by the same rule ---------------------------------------

COMMANDS = [f"mysql --password {DASHED[0]} -u root shop", f"deploy --api-key {DASHED[2]} --verbose",
            f"login --password=-{AUTH_PASSWORD}", f"deploy --verbose --password {ENV_SECRET}",
            f"deploy --token --api-key {AUTH_PASSWORD}x", "mysql --password - -u root shop", "deploy --token --verbose -hunter2",
            "curl --auth -u admin:Pw0rdCurl7 https://ci.example.com/api"]
SHOWN = [f"mysql --password {MASK} -u root shop", f"deploy --api-key {MASK} --verbose", f"login --password={MASK}",
         f"deploy --verbose --password {MASK}", f"deploy --token --api-key {MASK}", "mysql --password - -u root shop",
         f"deploy --token {MASK} -hunter2", f"curl --auth -u admin:{MASK} https://ci.example.com/api"]


def test_a_recorded_command_masks_a_dashed_value_and_reads_the_next_option_as_one() -> None:
    from toolsearch.analysis.sessions import mask_text
    assert [mask_text(command) for command in COMMANDS] == SHOWN


def test_sessions_never_show_a_dashed_value_a_model_passed(tmp_path) -> None:
    from test_sessions import tool_calls, write_store

    messages = [{"role": "user", "content": "Check the shop database."}]
    for i, command in enumerate(COMMANDS):
        messages.append({"role": "assistant", "content": "", "tool_calls": tool_calls(f"c{i}", "terminal",
                                                                                       {"command": command})})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "tool_name": "terminal", "content": "{\"ok\": true}"})
    db = write_store(tmp_path, {"sessions": [{"id": "s-dash", "model": "openai/gpt-5-mini", "messages": messages}]})
    catalog = Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    as_json = run_cli_process("sessions", db, "--catalog", catalog, "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert not [s for s in [*DASHED, AUTH_PASSWORD, ENV_SECRET, "Pw0rdCurl7"] if s in as_json.stdout + as_json.stderr]
    events = json.loads(as_json.stdout)["per_session"][0]["events"]
    assert [e["arguments"]["command"] for e in events if e["kind"] == "call"] == SHOWN
