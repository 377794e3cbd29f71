"""A Hermes harness ``config.yaml`` uploaded among the sidebar's catalog files was refused as "an MCP
client config … upload it on the app's Live servers page", and its ``tools.tool_search`` settings were
never read. The sidebar now says what the file is, reads its threshold_pct and listing_max_tokens into
the sidebar on request (with ``--config``'s reader, the file named as their source), and says where
its servers can be listed; nothing is started from the upload."""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from toolsearch.engine.config import config_from_text, load_config
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
#: The file's name as the sidebar writes it (a name from the user is escaped for Markdown).
NAME = common.md_escape("config.yaml")

HARNESS = {
    "model": {"default": "some-model"},
    "mcp_servers": {"time": {"command": "mcp-server-time"}, "docs": {"url": "https://example.invalid/mcp"}},
    "tools": {"tool_search": {"threshold_pct": 2.5, "listing_max_tokens": 2500, "listing": "on"}},
}


def _page(files: list[tuple[str, bytes]]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = files
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_reader_is_the_one_config_uses(tmp_path) -> None:
    text = yaml.safe_dump(HARNESS)
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    assert config_from_text(text, str(path)) == load_config(path)


def test_a_harness_config_upload_offers_its_settings_and_starts_nothing() -> None:
    sample = (ROOT / "sample_catalogs" / "five-servers.yaml").read_bytes()
    at = _page([("catalog.yaml", sample), ("config.yaml", yaml.safe_dump(HARNESS).encode())])
    errors = [e.value for e in at.error]
    assert not [e for e in errors if "config.yaml" in e], errors  # not refused as a catalog
    infos = [i.value for i in at.sidebar.info]
    assert (f"{NAME} is a harness config, not a catalog. Its tools.tool_search block sets "
            "threshold_pct 2.5%, listing_max_tokens 2,500.") in infos, infos
    captions = [c.value for c in at.sidebar.caption]
    assert "Its 2 MCP servers (mcp_servers) can be listed on the Live servers page: upload the file there. Nothing " \
           "is started from this upload." in captions, captions
    assert "It also sets listing, which this button does not read: set enabled and listing under Tool search " \
           "switches." in captions, captions
    assert "live_specs" not in at.session_state and at.session_state["catalog"] == common.UPLOAD
    assert (at.session_state["threshold_pct"], at.session_state["listing_max_tokens"]) == (5.0, 4000)
    button = at.sidebar.button(key="harness_settings_0")
    assert button.label == "Use its threshold_pct and listing_max_tokens"
    button.click().run()
    assert not at.exception, at.exception
    assert (at.session_state["threshold_pct"], at.session_state["listing_max_tokens"]) == (2.5, 2500)
    assert at.sidebar.button(key="harness_settings_0").disabled
    assert f"threshold_pct and listing_max_tokens from {NAME} (its tools.tool_search block)." in [
        c.value for c in at.sidebar.caption]
    # every page computes with them: the Overview's budget line is the file's cap
    assert any("Cap (`listing_max_tokens`): 2,500 tokens" in m.value for m in at.main.markdown)
    # moved away from the file's values, the sidebar no longer names the file as their source
    at.session_state["listing_max_tokens"] = 3000
    at.run()
    assert not [c.value for c in at.sidebar.caption if f"from {NAME}" in c.value]


def test_a_harness_config_without_a_block_and_a_clamped_value_are_said() -> None:
    plain = {"mcp_servers": {"time": {"command": "mcp-server-time"}}, "tools": {"enabled_toolsets": ["web"]}}
    at = _page([("config.yaml", yaml.safe_dump(plain).encode())])
    infos = [i.value for i in at.sidebar.info]
    assert any(i.startswith(f"{NAME} is a harness config, not a catalog. It has no tools.tool_search block")
               for i in infos), infos
    assert not [b for b in at.sidebar.button if b.key.startswith("harness_settings")]  # nothing to read
    wild = {"tools": {"tool_search": {"threshold_pct": 250, "listing_max_tokens": 4000}}}
    at = _page([("config.yaml", yaml.safe_dump(wild).encode())])
    warnings = [w.value for w in at.sidebar.warning]
    assert any("config.yaml: line 4: tools.tool_search.threshold_pct: 250 is outside" in w.replace("\\", "") for w in warnings), warnings
    at.sidebar.button(key="harness_settings_0").click().run()
    assert at.session_state["threshold_pct"] == 100.0


def test_a_catalog_with_its_tools_as_a_mapping_keeps_its_own_error() -> None:
    """Its ``tools`` is a mapping, as a harness config's is, but of tool definitions: read as a
    harness config it was called one "with no tools.tool_search block" and the catalog's own error
    was never shown."""
    from toolsearch.ui.harness_upload import harness_upload

    assert harness_upload('{"name": "x", "tools": {"a": {"description": "d"}}}', "cat.json") is None
    found = harness_upload("tools:\n  tool_search:\n    threshold_pct: 3\n", "config.yaml")
    assert found is not None and found.config is not None and found.config.threshold_pct == 3
    bare = harness_upload("tools:\n  terminal:\n    timeout: 30\nmcp_servers: {}\n", "config.yaml")
    assert bare is not None and bare.config is None
