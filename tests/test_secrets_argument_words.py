"""More secret forms on a server's command line: ``--sig x``, ``--hmac=x``, ``--oauth x`` and
``--oauth-token x``; JSON given to an environment option (``--env '{"API_KEY": "x"}'``, ``-e``);
a URL's matrix parameters (``/app;jsessionid=x``); a Telegram-style bot key in a URL's path
(``/bot123456:<key>/``). Each was shown in clear, and echoed back by a server in clear.

Options whose values are not secrets keep them (``--signal TERM``, ``--signature-format pem``,
``--hmac-algorithm sha256``, ``--oauth-flow pkce``, ``--sig-version 2``). The server is
``tests/argv_echo_mcp_server.py``: it echoes its whole command line.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from conftest import run_cli_process, write_json
from toolsearch.engine import constants as C
from toolsearch.engine.secrets import redact_url, secret_key_name
from toolsearch.live.mcpconfig import mask_arguments, parse_config_data, secret_arguments

ECHO = Path(__file__).resolve().parent / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
TELEGRAM_KEY = "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"  # the shape of a bot key; its 35 characters hold no "S3cret"
SECRETS = ["SigS3cret-1a2b", "HmacS3cret-3c4d", "OauthS3cret-5e6f", "OauthTokS3cret-7a8b", "EnvJsonS3cret-9c0d",
           "EJsonS3cret-1e2f", "EqJsonS3cret-3a4b", "MatrixS3cret-5c6d", TELEGRAM_KEY]
ARGS = ["--sig", SECRETS[0], f"--hmac={SECRETS[1]}", "--oauth", SECRETS[2], "--oauth-token", SECRETS[3],
        "--env", json.dumps({"API_KEY": SECRETS[4], "DEBUG": "1"}), "-e", json.dumps({"GITHUB_TOKEN": SECRETS[5]}),
        "--env=" + json.dumps({"db_password": SECRETS[6], "REGION": "eu-west"}),
        f"https://app.example.net/portal;jsessionid={SECRETS[7]}/home",
        f"https://api.telegram.org/bot123456:{TELEGRAM_KEY}/sendMessage"]
MASKED = ["--sig", MASK, f"--hmac={MASK}", "--oauth", MASK, "--oauth-token", MASK,
          "--env", json.dumps({"API_KEY": MASK, "DEBUG": "1"}, ensure_ascii=False),
          "-e", json.dumps({"GITHUB_TOKEN": MASK}, ensure_ascii=False),
          "--env=" + json.dumps({"db_password": MASK, "REGION": "eu-west"}, ensure_ascii=False),
          f"https://app.example.net/portal;jsessionid={MASK}/home",
          f"https://api.telegram.org/bot123456:{MASK}/sendMessage"]
CONTROLS = ["--signal", "TERM", "--signature-format", "pem", "--hmac-algorithm", "sha256", "--oauth-flow", "pkce",
            "--sig-version", "2", "--author", "pat", "-e", "PASS_THROUGH", "--env", "LOG_LEVEL_NAME",
            "https://app.example.net/portal;view=full/home2"]


def test_the_new_forms_are_masked_and_their_neighbours_are_not() -> None:
    assert mask_arguments(ARGS + CONTROLS) == MASKED + CONTROLS[:-1] + ["https://app.example.net/portal;view=••••/home2"]
    found = secret_arguments(ARGS + CONTROLS)
    assert set(SECRETS) <= set(found)
    assert not {"TERM", "pem", "sha256", "pkce", "pat", "PASS_THROUGH", "1", "eu-west"} & set(found), found


def test_matrix_parameters_and_bot_keys_in_a_remote_servers_url() -> None:
    (spec,) = parse_config_data({"mcpServers": {"bot": {
        "url": f"https://api.telegram.org/bot123456:{TELEGRAM_KEY}/mcp;session={SECRETS[7]}?x=1"}}},
        "mcp.json").servers
    shown = f"https://api.telegram.org/bot123456:{MASK}/mcp;session={MASK}?x={MASK}"
    assert spec.redacted()["url"] == shown and spec.launch_preview()["url"] == shown
    assert {TELEGRAM_KEY, SECRETS[7]} <= set(spec.own_secrets())
    assert spec.scrub(f"echo: {SECRETS[7]} and 123456:{TELEGRAM_KEY}") == f"echo: {MASK} and 123456:{MASK}"
    assert redact_url("https://h.example/a;jsessionid=abc;v=/b;x=1") == f"https://h.example/a;jsessionid={MASK};v=/b;x={MASK}"


def test_key_names_follow_the_same_words() -> None:
    assert [secret_key_name(k) for k in ("sig", "oauth", "webhook_hmac", "HMAC", "signal", "config", "author",
                                         "oauth_flow")] == [True, True, True, True, False, False, False, False]


def test_plan_never_shows_them_when_the_server_echoes_its_command_line(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": sys.executable, "args": [str(ECHO), *ARGS, *CONTROLS]}}})
    done = run_cli_process("plan", config, "--json", "--timeout", "60")
    assert done.returncode == 0, done.stderr
    for secret in SECRETS:
        assert secret not in done.stdout + done.stderr, secret
    described = run_cli_process("describe", config, "mcp__echo__echo", "--json", "--timeout", "60")
    assert described.returncode == 0, described.stderr
    for secret in SECRETS:
        assert secret not in described.stdout + described.stderr, secret
    description = json.loads(described.stdout)["tools"]["mcp__echo__echo"]["description"]
    for shown in ("--sig ••••", "--hmac=••••", "--oauth ••••", "--oauth-token ••••", '{"API_KEY": "••••", "DEBUG": "1"}',
                  f"bot123456:{MASK}/sendMessage", f"portal;jsessionid={MASK}/home", "--signal TERM",
                  "--signature-format pem", "--hmac-algorithm sha256", "--oauth-flow pkce", "--sig-version 2"):
        assert shown in description, (shown, description)


OWNED = ["--server-token", "ServerTokS3cret-1", "--provider-api-key", "ProvKeyS3cret-22", "--host-key=HostKeyS3cret-3",
         "--refresh-token", "RefreshS3cret-44", "--id-token", "IdTokS3cret-55"]
NOT_SECRETS = ["--token-file", "/run/token", "--key-id", "k-77", "--max-token", "512", "--no-auth", "yes",
               "--cache-token", "true", "--token-endpoint", "https://idp.example/token", "--auth-type", "bearer",
               "--token-refresh-interval", "300", "--refresh-token-file", "/run/refresh"]


def test_a_word_naming_whose_secret_it_is_does_not_exempt_it() -> None:
    """``--server-token x`` was shown: ``server`` (like ``file`` or ``url``) made any option about
    something else. Before the last secret word such a word names whose secret it is; after it
    (``--token-file``) or as a count or switch anywhere (``--max-token``, ``--no-auth``) it still
    exempts the option."""
    masked = mask_arguments(OWNED + NOT_SECRETS)
    assert masked[:len(OWNED)] == ["--server-token", MASK, "--provider-api-key", MASK, f"--host-key={MASK}",
                                   "--refresh-token", MASK, "--id-token", MASK]
    assert masked[len(OWNED):] == NOT_SECRETS
    found = secret_arguments(OWNED + NOT_SECRETS)
    assert {"ServerTokS3cret-1", "ProvKeyS3cret-22", "HostKeyS3cret-3", "RefreshS3cret-44", "IdTokS3cret-55"} <= set(found)
    assert not {"/run/token", "k-77", "512", "bearer", "300"} & set(found), found


def test_plan_never_shows_a_servers_own_token(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": sys.executable, "args": [str(ECHO), *OWNED, *NOT_SECRETS]}}})
    described = run_cli_process("describe", config, "mcp__echo__echo", "--json", "--timeout", "60")
    assert described.returncode == 0, described.stderr
    for secret in ("ServerTokS3cret-1", "ProvKeyS3cret-22", "HostKeyS3cret-3", "RefreshS3cret-44", "IdTokS3cret-55"):
        assert secret not in described.stdout + described.stderr, secret
    description = json.loads(described.stdout)["tools"]["mcp__echo__echo"]["description"]
    for shown in ("--server-token ••••", "--token-file /run/token", "--key-id k-77", "--max-token 512"):
        assert shown in description, (shown, description)


SCRIPT_SECRET = "ScriptKeyS3cret-8d9e"


def test_the_options_inside_a_shell_script_argument_are_read_as_a_command_line(tmp_path) -> None:
    # bash -lc "npx server --api-key x", sh -c, cmd /c: the script is one argument, so its options
    # were not read as options, and the launch confirmation and the config table showed the key.
    script = ["-lc", f"npx -y server --api-key {SCRIPT_SECRET} --port 3 -H 'Authorization: Bearer {SCRIPT_SECRET}x'"]
    assert mask_arguments(script) == ["-lc", f"npx -y server --api-key {MASK} --port 3 -H 'Authorization: {MASK}'"]
    assert {SCRIPT_SECRET, SCRIPT_SECRET + "x"} <= set(secret_arguments(script))
    plain = ["-c", "npx server --max-tokens 5 --signal TERM --token-file /run/t"]
    assert mask_arguments(plain) == plain and secret_arguments(plain) == []
    (spec,) = parse_config_data({"mcpServers": {"s": {"command": "bash", "args": script}}}, "mcp.json").servers
    assert SCRIPT_SECRET not in json.dumps(spec.launch_preview()) + json.dumps(spec.redacted())
    # a server started through sh -c that echoes its command line
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"echo": {
        "command": "sh", "args": ["-c", f"exec '{sys.executable}' '{ECHO}' --api-key {SCRIPT_SECRET} --port 3"]}}})
    described = run_cli_process("describe", config, "mcp__echo__echo", "--json", "--timeout", "60")
    assert described.returncode == 0, described.stderr
    assert SCRIPT_SECRET not in described.stdout + described.stderr
    assert "--api-key ••••" in json.loads(described.stdout)["tools"]["mcp__echo__echo"]["description"]
    # a short token is masked where it stands as a word, not inside other words of the script
    assert mask_arguments(["-c", "npx server --token x"]) == ["-c", f"npx server --token {MASK}"]


def test_the_options_of_a_script_inside_a_script_are_read_too(tmp_path) -> None:
    # bash -c "sh -c 'npx server --api-key x'": the inner script is a word of the outer one, and its
    # options were not read, so the key was shown in the config table and the launch confirmation.
    deep = "DeepScriptS3cret-2f"
    two = ["-c", f"sh -c 'npx server --api-key {deep} --port 3'"]
    assert mask_arguments(two) == ["-c", f"sh -c 'npx server --api-key {MASK} --port 3'"]
    three = ["-c", f"""sh -c "bash -lc 'npx server -H \\"Authorization: Bearer {deep}\\"'" """]
    assert deep not in " ".join(mask_arguments(three)) and deep in secret_arguments(three)
    (spec,) = parse_config_data({"mcpServers": {"s": {"command": "bash", "args": three}}}, "mcp.json").servers
    assert deep not in json.dumps(spec.launch_preview()) + json.dumps(spec.redacted())
    written = parse_config_data({"mcpServers": {"s": {"command": f"""bash -c "sh -c 'npx --token {deep}'" """}}},
                                "mcp.json").servers[0]
    assert deep not in json.dumps(written.launch_preview()) + json.dumps(written.redacted())
    # a script nested deeper than the reader goes is still read as far as it goes, without error
    nested = f"npx --token {deep}"
    for _ in range(12):
        nested = f"sh -c {shlex.quote(nested)}"
    assert secret_arguments(["-c", nested]) == []
    # a server started through sh -c whose script starts another shell, and echoes its command line
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"echo": {"command": "sh", "args": [
        "-c", f"""exec sh -c "exec '{sys.executable}' '{ECHO}' --api-key {deep} --port 3" """]}}})
    described = run_cli_process("describe", config, "mcp__echo__echo", "--json", "--timeout", "60")
    assert described.returncode == 0, described.stderr
    assert deep not in described.stdout + described.stderr
    assert "--api-key ••••" in json.loads(described.stdout)["tools"]["mcp__echo__echo"]["description"]


def test_a_json_number_under_a_secret_key_is_masked_and_counted():
    """``--env '{"API_KEY": 123456789}'`` showed the number: only JSON strings under secret keys were
    read. A number is the value as the program reads it; other keys' numbers stay."""
    mask = MASK
    args = ["--env", json.dumps({"API_KEY": 123456789, "DEBUG": 1}),
            "--config", json.dumps({"password": 98765432109871, "port": 8080, "secret": -4.5e3})]
    assert mask_arguments(args) == ["--env", f'{{"API_KEY": {mask}, "DEBUG": 1}}',
                           "--config", f'{{"password": {mask}, "port": 8080, "secret": {mask}}}']
    assert {"123456789", "98765432109871", "-4500.0"} <= set(secret_arguments(args))
    assert "8080" not in secret_arguments(args)
    (spec,) = parse_config_data({"mcpServers": {"e": {"command": "srv", "args": args}}}, "mcp.json").servers
    assert "123456789" not in spec.launch_preview()["command_line"]
    assert spec.scrub("got 123456789 and 98765432109871 on 8080") == f"got {mask} and {mask} on 8080"


def test_each_generated_cookie_value_is_a_secret_on_its_own():
    """A server that sends back one cookie of a cookie header (``sid=…`` alone) showed it: only the
    whole header value was searched for. A value that looks generated is searched for alone too;
    a setting such as ``lang=en-GB`` is not (it would mask that word everywhere)."""
    header, option = parse_config_data({"mcpServers": {
        "h": {"url": "https://mcp.example/sse", "headers": {"Cookie": 'a=CK1secretA; b="CK2secretB"; theme=dark'}},
        "o": {"command": "srv", "args": ["--header", "Cookie: session=CK3secretC; lang=en-GB"]},
    }}, "mcp.json").servers
    assert header.scrub("echo a=CK1secretA b=CK2secretB. theme dark") == f"echo a={MASK} b={MASK}. theme dark"
    assert option.scrub("session=CK3secretC lang=en-GB") == f"session={MASK} lang=en-GB"
    assert {"CK1secretA", "CK2secretB"} <= set(header.own_secrets()) and "CK3secretC" in option.own_secrets()
