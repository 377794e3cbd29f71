"""An OAuth refresh token or an ID token on a server's command line is a credential:
``--refresh-token x``, ``--refreshToken=x``, ``--id-token x`` and ``GOOGLE_REFRESH_TOKEN=x`` were
shown in clear, because ``refresh`` and ``id`` also name options about something else
(``--token-refresh-interval 30``, ``--key-id k1``), which keep their values."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import toolsearch_command, write_json
from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import mask_arguments, secret_arguments

ECHO = Path(__file__).resolve().parent / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
SECRETS = ["RefreshS3cret-1a2b", "CamelS3cret-3c4d", "IdTokS3cret-5e6f", "EnvRefS3cret-7a8b"]
ARGS = ["--refresh-token", SECRETS[0], f"--refreshToken={SECRETS[1]}", "--id-token", SECRETS[2],
        f"GOOGLE_REFRESH_TOKEN={SECRETS[3]}"]
CONTROLS = ["--token-refresh-interval", "30", "--refresh-token-file", "/etc/rt", "--key-id", "k1", "--token-id", "t1",
            "--refresh", "5", "--id", "7", "--max-tokens", "5"]


def test_refresh_and_id_tokens_are_secret_options_and_their_neighbours_are_not():
    assert mask_arguments(ARGS + CONTROLS) == [
        "--refresh-token", MASK, f"--refreshToken={MASK}", "--id-token", MASK, f"GOOGLE_REFRESH_TOKEN={MASK}",
        *CONTROLS]
    assert sorted(secret_arguments(ARGS + CONTROLS)) == sorted(SECRETS)


def test_plan_never_shows_them_when_the_server_echoes_its_command_line(tmp_path):
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": sys.executable, "args": [str(ECHO), *ARGS, *CONTROLS]}}})
    done = subprocess.run([*toolsearch_command(), "plan", str(config), "--json", "--timeout", "30"],
                          capture_output=True, text=True, encoding="utf-8", timeout=180)
    assert done.returncode == 0, done.stderr
    for secret in SECRETS:
        assert secret not in done.stdout + done.stderr
    listing = json.loads(done.stdout)["listing"]
    assert f"--refreshToken={MASK}" in listing and "--token-refresh-interval" in listing, listing
