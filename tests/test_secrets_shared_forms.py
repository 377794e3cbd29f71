"""The encoded forms of a config's secrets are worked out once per set of values, whatever order a
server lists them in: each server asks with its own values first and its peers' after, and every
order was a cache miss, so a config of 2,000 broken entries that each carried a secret took 11
minutes (176 s of CPU) to say why they failed, recomputing the same forms for every server."""

from __future__ import annotations

import json

from conftest import run_cli
from toolsearch.engine import secrets


def test_the_same_values_in_another_order_are_one_set() -> None:
    values = ["sk-first-0000000000", "sk-second-111111111", "sk-third-2222222222"]
    before = secrets._secret_list.cache_info().misses
    first = secrets.secret_list(values)
    again = secrets.secret_list([values[2], values[0], values[1], values[0], "ab"])  # "ab": too short to count
    assert first == again
    assert secrets._secret_list.cache_info().misses - before <= 1
    assert [len(f) for f in first] == sorted((len(f) for f in first), reverse=True)  # longest first


def test_a_config_of_many_broken_entries_with_secrets_works_out_their_forms_once(tmp_path) -> None:
    count = 300
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        f"s{i}": {"command": 5, "env": {"API_KEY": f"sk-secret-{i:06d}-abcdefgh"}} for i in range(count)}}),
        encoding="utf-8")
    before = secrets._secret_list.cache_info().misses
    done = run_cli("plan", str(config))
    assert done.returncode == 2, done.stderr[-2000:]  # nothing read: an error, not a failed check
    assert "sk-secret-" not in done.stderr + done.stdout
    assert f"{count} servers failed" in done.stderr
    # one set per server (its own values, for its own line) and the file's whole set once; the
    # old code worked the whole set out again for every server (about twice as many misses)
    assert secrets._secret_list.cache_info().misses - before <= count + 5
