"""An ``envFile`` path that cannot be read was named as written in the config's warning, which the
command line prints on stderr before any server starts: a token pasted into the path
(``/run/ghp_…``) was printed. It is named with credential shapes masked, as other config values are."""

from __future__ import annotations

from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import parse_config_data

TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"


def test_an_unreadable_env_files_path_is_named_with_its_token_masked(tmp_path) -> None:
    path = tmp_path / TOKEN / "x.env"
    config = parse_config_data({"mcpServers": {"s": {"command": "srv", "envFile": str(path)}}}, "mcp.json",
                               environ={})
    assert config.warnings == (
        f"mcp.json: mcpServers.s.envFile: cannot read {tmp_path}/{C.SECRET_MASK}/x.env (No such file or directory); "
        "ignored",)
