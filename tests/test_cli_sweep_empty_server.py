"""``toolsearch sweep``: a server that lists no tools is in no count (``servers_hidden`` included;
a warning names it), so its per-server column and ``states`` leave it out rather than call it
``hidden`` beside counts that say no server is hidden. A server hidden by the budget stays there."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

CATALOG = """servers:
  - name: alpha
    tools:
      - name: get_thing
        description: Get a thing by id.
        inputSchema: {type: object, properties: {id: {type: string}}}
  - name: empty
    tools: []
"""


def test_a_server_with_no_tools_has_no_state_its_counts_lack(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(CATALOG, encoding="utf-8")
    args = ("sweep", path, "--context-lengths", "1k,32k", "--threshold-pcts", "5")
    text = run_cli(*args)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[0].split() == [
        "context_length", "threshold_pct", "listing_max_tokens", "budget", "tier", "listing_form", "listing_tokens",
        "alpha"]
    assert "server 'empty' lists no tools" in text.stderr
    rows = json.loads(run_cli(*args, "--json").stdout)
    assert [row["states"] for row in rows] == [{"alpha": "full"}, {"alpha": "full"}]
    assert [row["counts"]["servers_hidden"] for row in rows] == [0, 0]
    # every "hidden" in states is one of counts.servers_hidden: at a budget too small to list anything
    tiny = json.loads(run_cli("sweep", path, "--context-lengths", "1k", "--threshold-pcts", "0.1", "--json").stdout)
    assert tiny[0]["states"] == {"alpha": "hidden"} and tiny[0]["counts"]["servers_hidden"] == 1
