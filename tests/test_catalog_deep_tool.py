"""One tool whose schema nests past the nesting limit is skipped with a word naming its place, and
the rest of its catalog file is read (CLI and the app's upload, which reads with ``load_text``); the
rest of the file is still held to the limit, the whole file to a larger one, and a refusal names
the place where the file goes too deep rather than "top level"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli
from toolsearch.engine import readers
from toolsearch.engine.catalog import load_text
from toolsearch.engine.errors import CatalogError, InputLimitError

ROOT = Path(__file__).resolve().parent.parent
LIMIT = readers.MAX_NESTING_DEPTH
FILE_LIMIT = readers.MAX_CATALOG_NESTING_DEPTH


def _json_nest(levels: int) -> str:
    """A JSON object ``levels`` levels deep (``{"a": {"a": … {}}}``)."""
    return '{"a": ' * (levels - 1) + "{}" + "}" * (levels - 1)


def _catalog(schema: str) -> str:
    return ('{"servers": [{"name": "s", "tools": [{"name": "deep", "inputSchema": %s}, '
            '{"name": "fine", "description": "Still here.", "inputSchema": {"type": "object"}}]}]}' % schema)


def _skipped(where: str) -> str:
    return f"toolsearch: catalog error: {where}: nested more than {LIMIT} levels deep (limit); tool skipped\n"


def test_the_limits_are_what_the_docs_say() -> None:
    assert (LIMIT, FILE_LIMIT) == (256, 640)
    text = (ROOT / "docs" / "catalog-format.md").read_text(encoding="utf-8")
    assert f"may nest {LIMIT} levels of mappings and lists" in text
    assert f"may nest {LIMIT} levels from the top, and the whole file {FILE_LIMIT}" in text
    security = " ".join((ROOT / "docs" / "security.md").read_text(encoding="utf-8").split())
    assert (f"{LIMIT} levels of mappings and lists; a catalog file {FILE_LIMIT} levels as a whole, with each of a "
            f"tool's values and the rest of the file at most {LIMIT}") in security


def test_a_deep_schema_skips_its_tool_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(_catalog(_json_nest(LIMIT + 1)), encoding="utf-8")
    done = run_cli("plan", path, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == _skipped(f"{path}: servers[0].tools[0].inputSchema")
    servers = json.loads(done.stdout)["servers"]
    assert [(s["name"], s["tool_count"]) for s in servers if s["kind"] == "mcp"] == [("s", 1)]
    # exactly at the limit the tool is read
    path.write_text(_catalog(_json_nest(LIMIT)), encoding="utf-8")
    done = run_cli("plan", path, "--json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert [s["tool_count"] for s in json.loads(done.stdout)["servers"] if s["name"] == "s"] == [2]


@pytest.mark.parametrize("text, where", [
    # YAML, as the app's upload reads it
    ("servers: [{name: s, tools: [{name: fine}, {name: deep, outputSchema: %s}]}]\n"
     % ("{a: " * LIMIT + "{}" + "}" * LIMIT), "up.yaml: servers[0].tools[1].outputSchema"),
    # a tools/list result, a flat MCP list and a function array
    ('{"tools": [{"name": "fine"}, {"name": "deep", "inputSchema": %s}]}' % _json_nest(300),
     "up.yaml: tools[1].inputSchema"),
    ('[{"server": "s", "name": "fine", "inputSchema": {}}, {"server": "s", "name": "deep", "inputSchema": %s}]'
     % _json_nest(300), "up.yaml: [1].inputSchema"),
    ('[{"type": "function", "function": {"name": "fine"}}, '
     '{"type": "function", "function": {"name": "deep", "parameters": %s}}]' % _json_nest(300),
     "up.yaml: [1].function.parameters"),
], ids=["yaml", "tools-list", "flat", "functions"])
def test_every_shape_skips_the_deep_tool_only(text: str, where: str) -> None:
    catalog = load_text(text, "up.yaml")
    assert [tool.name for server in catalog.servers for tool in server.tools] == ["fine"]
    assert [(p.severity, p.where, p.message) for p in catalog.problems] == [
        ("error", where, f"nested more than {LIMIT} levels deep (limit); tool skipped")]


def test_deep_outside_the_tools_refuses_the_file_naming_the_place(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"servers": [{"name": "s", "info": %s, "tools": []}]}' % _json_nest(300), encoding="utf-8")
    done = run_cli("plan", path)
    assert done.returncode == 2
    # the example docs/security.md gives
    assert done.stderr == (f"toolsearch: error: {path}: servers[0].info.a.a.a.a.a…a: nested more than {LIMIT} "
                           "levels deep (limit); not read\n")
    assert "deep.json: servers[0].info.a.a.a.a.a…a: nested more than 256 levels deep (limit); not read" in (
        ROOT / "docs" / "security.md").read_text(encoding="utf-8")


def test_past_the_file_limit_the_place_is_named(tmp_path: Path) -> None:
    # too deep for the file even inside a tool: JSON past what the parser reads names the keys
    path = tmp_path / "deeper.json"
    path.write_text(_catalog(_json_nest(5000)), encoding="utf-8")
    done = run_cli("plan", path)
    assert done.returncode == 2
    assert done.stderr == (f"toolsearch: error: {path}: servers[0].tools[0].inputSchema.a.a.a…a: nested more than "
                           f"{FILE_LIMIT} levels deep (limit); not read\n")
    # YAML names the line and column
    with pytest.raises(InputLimitError) as info:
        load_text("servers: [{name: s, tools: [{name: deep, inputSchema: %s}]}]\n" % ("[" * 700 + "]" * 700),
                  "up.yaml")
    assert isinstance(info.value, CatalogError)
    assert str(info.value).startswith("up.yaml: line 1, column ")
    assert str(info.value).endswith(f"nested more than {FILE_LIMIT} levels deep (limit); not read")


def test_an_mcp_client_config_is_still_held_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {"a": {"command": "x", "env": %s}}}' % _json_nest(300), encoding="utf-8")
    for command in ("plan", "snapshot"):  # read as a source, and by the config reader
        done = run_cli(command, path)
        assert done.returncode == 2
        assert done.stderr == (f"toolsearch: error: {path}: mcpServers.a.env.a.a.a.a.a…a: nested more than {LIMIT} "
                               "levels deep (limit); not read\n")


def test_the_app_upload_skips_the_deep_tool_only() -> None:
    from toolsearch.ui.common import Upload, _load_uploads

    data = _catalog(_json_nest(300)).encode("utf-8")
    catalog, errors, harnesses = _load_uploads("deep-upload", (Upload("deep.json", "deep.json", data),))
    assert (errors, harnesses) == ([], [])
    assert [tool.name for server in catalog.servers for tool in server.tools] == ["fine"]
    assert [(p.where, p.message) for p in catalog.problems] == [
        ("deep.json: servers[0].tools[0].inputSchema", f"nested more than {LIMIT} levels deep (limit); tool skipped")]
