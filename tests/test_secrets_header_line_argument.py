"""An argument that is one whole header line, ``"Authorization: Bearer x"`` or ``"X-Api-Key: x"``,
given without ``--header`` (a wrapper that takes headers as plain arguments, or a header option
toolsearch does not know): its value was neither masked where the command line is shown nor
scrubbed from what the server sends back, so a server that echoes its arguments showed the token in
a tool name and description. It is now a secret as a ``--header`` value is; a header line whose name
names no secret (``Content-Type: application/json``) stays as written. The server is
``tests/argv_echo_mcp_server.py``: it echoes its whole command line."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import run_cli_process, write_json
from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import mask_arguments, secret_arguments

ECHO = Path(__file__).resolve().parent / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
ARGS = ["Authorization: Bearer HdrLineS3cret-41a7", "X-Api-Key: HdrKeyS3cret-52b8", "Cookie: sid=HdrCookieS3cret-63c9",
        "Content-Type: application/json", "Authorization: Bearer ${UNSET_TOKEN_VAR}"]


def test_a_header_line_argument_is_masked_when_its_name_names_a_secret() -> None:
    assert mask_arguments(ARGS) == [f"Authorization: {MASK}", f"X-Api-Key: {MASK}", f"Cookie: {MASK}",
                                    "Content-Type: application/json", "Authorization: Bearer ${UNSET_TOKEN_VAR}"]
    found = secret_arguments(ARGS)
    assert {"Bearer HdrLineS3cret-41a7", "HdrLineS3cret-41a7", "HdrKeyS3cret-52b8"} <= set(found)
    assert "application/json" not in found


def test_plan_never_shows_a_header_line_argument_the_server_echoes(tmp_path: Path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": sys.executable, "args": [str(ECHO), *ARGS]}}})
    done = run_cli_process("plan", config, "--json", "--timeout", "60")
    assert done.returncode == 0, done.stderr
    assert "S3cret" not in done.stdout + done.stderr
    assert "Content-Type: application/json" in done.stdout


def test_the_two_argument_header_form_masks_the_value_not_the_name(tmp_path: Path) -> None:
    # mcp-proxy's form: `mcp-proxy --headers Authorization 'Bearer x' URL` (and -H NAME VALUE). The
    # name was masked as if it were the value, and the token after it was shown and not scrubbed.
    args = ["--headers", "Authorization", "Bearer TwoArgS3cret-74d0", "-H", "X-Api-Key", "TwoArgKeyS3cret-85e1",
            "https://mcp.example/sse"]
    assert mask_arguments(args) == ["--headers", "Authorization", MASK, "-H", "X-Api-Key", MASK,
                                    "https://mcp.example/sse"]
    assert {"Bearer TwoArgS3cret-74d0", "TwoArgS3cret-74d0", "TwoArgKeyS3cret-85e1"} <= set(secret_arguments(args))
    assert mask_arguments(["bash", "-c", "mcp-proxy --headers Authorization 'Bearer TwoArgS3cret-74d0' URL"]) == [
        "bash", "-c", f"mcp-proxy --headers Authorization '{MASK}' URL"]
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": sys.executable, "args": [str(ECHO), *args]}}})
    done = run_cli_process("plan", config, "--json", "--timeout", "60")
    assert done.returncode == 0, done.stderr
    assert "S3cret" not in done.stdout + done.stderr
