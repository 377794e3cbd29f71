"""Every server of an MCP client config masks the secrets of every other server of the file. Each
server was given a tuple of the others' values of its own, which grew with the square of the
servers: a 2.7 MB config of 200,000 entries (an upload on the Live servers page parses it to show
its table) did not finish in five minutes. One tuple of the file's values is now shared."""

from __future__ import annotations

from toolsearch.live.mcpconfig import parse_config_data


def test_every_server_masks_every_secret_of_the_file_from_one_shared_tuple():
    n = 300
    servers = parse_config_data({"mcpServers": {f"s{i}": {"command": "npx", "args": ["server"],
                                                          "env": {"API_KEY": f"Heron-secret-{i:04d}"}}
                                                for i in range(n)}}, "mcp.json").servers
    assert len(servers) == n
    everyone = {f"Heron-secret-{i:04d}" for i in range(n)}
    for spec in (servers[0], servers[n // 2], servers[-1]):
        assert everyone <= set(spec.secret_values())
    assert len({id(spec.peer_secrets) for spec in servers}) == 1  # not one copy per server
    assert sorted(servers[0].peer_secrets) == sorted(everyone)
