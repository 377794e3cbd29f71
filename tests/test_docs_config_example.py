"""docs/reference.md §26.3 points to an example of the harness's ``mcp_servers`` block: the file it
names exists, reads as an MCP client config with that block (nothing started) and as a harness config
(its ``tools.tool_search`` block), and is the one the page describes."""

from __future__ import annotations

import re
from pathlib import Path

from toolsearch.engine.config import load_config
from toolsearch.live.mcpconfig import load_mcp_config

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")


def _section(number: str) -> str:
    return REFERENCE.split(f"\n### {number} ", 1)[1].split("\n#", 1)[0]


def test_the_examples_the_section_names_exist_and_hold_an_mcp_servers_block() -> None:
    named = re.findall(r"`([\w./-]+\.(?:yaml|json))`", _section("26.3"))
    assert named == ["docs/examples/hermes-config.yaml"]
    path = ROOT / named[0]
    config = load_mcp_config(path, environ={})
    assert config.kind == "mcp_servers" and config.warnings == ()
    servers = {s.name: s for s in config.servers}
    assert sorted(servers) == ["filesystem", "github", "linear"]
    # what the section says it shows: placeholders left as written, a remote server, one switched off
    assert servers["github"].transport == "stdio" and servers["github"].unresolved == ("GITHUB_TOKEN",)
    assert servers["linear"].transport == "http" and servers["linear"].unresolved == ("LINEAR_API_KEY",)
    assert servers["filesystem"].enabled is False
    assert all(s.invalid is None for s in config.servers)
    harness = load_config(path)
    assert (harness.threshold_pct, harness.listing_max_tokens, harness.warnings) == (5.0, 4000, ())


def test_no_section_points_to_a_folder_without_a_config() -> None:
    """sample_catalogs/ holds catalogs, none of them a client config."""
    assert "sample_catalogs/" not in _section("26.3")
