"""A YAML catalog's schema key that YAML reads as something other than text (``null:``, ``on:``,
``5:``) is the property JSON would name ``null``, ``true`` or ``5``, said in a warning with its
place: registration named it ``None`` or ``True`` (Python's spelling), so ``describe --sent``
showed one name as sent and another as received, and a "renamed" entry that is no rename."""

from __future__ import annotations

import json

from conftest import run_cli

SCHEMA = """servers:
  - name: s
    tools:
      - name: t
        description: does things
        inputSchema:
          type: object
          properties:
            null: {type: string}
            on: {type: boolean}
            5: {type: string}
            plain: {type: string}
"""


def test_keys_that_are_not_text_are_named_as_json_writes_them(tmp_path):
    path = tmp_path / "cat.yaml"
    path.write_text(SCHEMA, encoding="utf-8")
    done = run_cli("describe", path, "mcp__s__t", "--sent", "--json")
    assert done.returncode == 0, done.stderr
    tool = json.loads(done.stdout)["tools"]["mcp__s__t"]
    names = ["null", "true", "5", "plain"]
    assert list(tool["sent"]["properties"]) == names
    assert list(tool["received"]["properties"]) == names
    assert tool["renamed"] == {}
    assert done.stderr == (f"toolsearch: catalog warning: {path}: servers[0].tools[0].inputSchema.properties: a key read "
                           "as null (YAML reads an unquoted null and ~ so) is taken as the text 'null', as JSON writes "
                           "it (and 2 more such keys); put keys in quotes to keep them as written\n")


def test_one_boolean_key_is_said_as_yaml_read_it(tmp_path):
    path = tmp_path / "cat.yaml"
    path.write_text("servers:\n  - name: s\n    tools:\n      - name: t\n        inputSchema:\n"
                    "          type: object\n          properties: {off: {type: boolean}}\n", encoding="utf-8")
    done = run_cli("describe", path, "mcp__s__t")
    assert done.returncode == 0, done.stderr
    assert "a key read as the boolean false (YAML reads an unquoted false, no and off so) is taken as the text " \
           "'false', as JSON writes it; put keys in quotes" in done.stderr, done.stderr
    assert '"false"' in done.stdout and "False" not in done.stdout


def test_a_key_that_would_be_given_twice_in_json_skips_its_tool_only(tmp_path):
    path = tmp_path / "cat.yaml"
    path.write_text("servers:\n  - name: s\n    tools:\n      - name: t\n        inputSchema:\n"
                    "          type: object\n          properties:\n            5: {type: string}\n"
                    "            '5': {type: integer}\n      - name: u\n        description: kept\n", encoding="utf-8")
    done = run_cli("plan", path, "--json")
    assert done.returncode == 0, done.stderr
    assert (f"toolsearch: catalog error: {path}: servers[0].tools[0].inputSchema.properties: the key 5 is given "
            "twice, once as text and once unquoted") in done.stderr, done.stderr
    assert "tool skipped" in done.stderr
    plan = json.loads(done.stdout)
    assert [(s["name"], s["tool_count"]) for s in plan["servers"]] == [("s", 1)]  # u kept, t skipped
    assert [p["severity"] for p in plan["problems"]].count("error") == 1, plan["problems"]
    listing = run_cli("plan", path).stdout
    assert "mcp__s__u" in listing and "mcp__s__t" not in listing


def test_a_date_key_is_read_as_its_iso_text(tmp_path):
    """A date key made ``describe --sent`` write JSON with a key JSON has no text for."""
    path = tmp_path / "cat.yaml"
    path.write_text("servers:\n  - name: s\n    tools:\n      - name: u\n        inputSchema: {type: object, "
                    "properties: {2024-01-01: {type: string}}}\n", encoding="utf-8")
    done = run_cli("describe", path, "mcp__s__u", "--sent", "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert list(json.loads(done.stdout)["tools"]["mcp__s__u"]["received"]["properties"]) == ["2024-01-01"]
    assert "a key read as the date 2024-01-01 is taken as the text '2024-01-01'" in done.stderr, done.stderr
