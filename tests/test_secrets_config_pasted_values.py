"""A value pasted into the wrong place of an MCP client config: an ``env`` variable written as one
``"API_KEY=value"`` key, a header written as one ``"Authorization: Bearer value"`` key, a token
pasted under ``type`` or ``timeout``. The reason the server cannot be used quoted the key or the
value in full, the credential with it, on stderr and in a snapshot's ``failed`` list. It now names
such a key up to its ``=`` or ``:`` (the rest as ``••••``) and masks known credential shapes in a
quoted value, as a harness config's warnings do."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write_json

SECRET = "Kestrel-secret-5519"
GITHUB = "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


def _reasons(stderr: str) -> list[str]:
    return sorted(line.split(" s: ", 1)[1] for line in stderr.splitlines() if line.startswith("toolsearch: live: "))


def test_a_value_pasted_into_a_name_or_a_setting_is_not_quoted(tmp_path: Path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "envkey": {"command": "server-that-is-not-started", "env": {f"API_KEY={SECRET}": "x"}},
        "envlist": {"command": "server-that-is-not-started", "env": {f"API_KEY={SECRET}": ["x"]}},
        "header": {"url": "https://mcp.example/mcp", "headers": {f"Authorization: Bearer {SECRET}": ""}},
        "headerlist": {"url": "https://mcp.example/mcp", "headers": {f"Authorization: Bearer {SECRET}": ["x"]}},
        "typed": {"url": "https://mcp.example/mcp", "type": f"Bearer {GITHUB}"},
        "slow": {"url": "https://mcp.example/mcp", "timeout": GITHUB},
        "words": {"url": "https://mcp.example/mcp", "timeout": "30s"},
    }})
    snapshot = tmp_path / "snapshot.yaml"
    done = run_cli("snapshot", config, "-o", snapshot)
    assert done.returncode == 1, done.stderr
    shown = done.stdout + done.stderr + snapshot.read_text(encoding="utf-8")
    assert "Kestrel" not in shown and "ghp_" not in shown, shown
    assert _reasons(done.stderr) == [
        f"{config}: mcpServers.envkey.env: the variable 'API_KEY=••••' has an empty name, a '=' in its name or a NUL "
        "character (U+0000); no program can be started with it",
        f"{config}: mcpServers.envlist.env.API_KEY=••••: expected a string, got a list",
        f"{config}: mcpServers.header.headers: expected header names of letters, digits and !#$%&'*+-.^_`|~, "
        "got 'Authorization: ••••'",
        f"{config}: mcpServers.headerlist.headers.Authorization: ••••: expected a string, got a list",
        f"{config}: mcpServers.slow.timeout: expected a number of seconds, got '••••'",
        f"{config}: mcpServers.typed.type: expected stdio, http or sse, got 'Bearer ••••'",
        f"{config}: mcpServers.words.timeout: expected a number of seconds, got '30s'",
    ]


def _all_text(at) -> str:
    """Every string the Live servers page put on screen (labels, messages, tables)."""
    from google.protobuf.message import Message

    def strings(msg) -> list[str]:
        out: list[str] = []
        for _, val in msg.ListFields():
            for v in (list(val) if hasattr(val, "extend") else [val]):
                if isinstance(v, str):
                    out.append(v)
                elif isinstance(v, Message):
                    out.extend(strings(v))
        return out

    def walk(node) -> list[str]:
        found = strings(node.proto) if getattr(node, "proto", None) is not None else []
        for child in (getattr(node, "children", None) or {}).values():
            found += walk(child)
        return found

    tables = [t.value.to_csv() for t in at.dataframe] + [t.value.to_csv() for t in at.table]
    return "\n".join(walk(at._tree) + tables)


def test_the_live_page_names_a_pasted_key_without_its_value(tmp_path: Path) -> None:
    import json

    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parent.parent
    config = json.dumps({"mcpServers": {
        "envkey": {"command": "server-that-is-not-started", "env": {f"API_KEY={SECRET}": "x"}},
        "header": {"url": "https://mcp.example/mcp", "headers": {f"Authorization: Bearer {SECRET}": ""}},
        "typed": {"url": "https://mcp.example/mcp", "type": f"Bearer {GITHUB}"},
    }})
    at = AppTest.from_file(str(root / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", config.encode(), "application/json"))
    at.run()
    assert not at.exception, at.exception
    from conftest import literal_tables

    shown = _all_text(at)
    assert "Kestrel" not in shown and "ghp_" not in shown
    problems = " ".join(literal_tables(at)["live_specs"]["problem"])
    assert "the variable 'API_KEY=••••'" in problems and "got 'Authorization: ••••'" in problems, problems
    assert "got 'Bearer ••••'" in problems, problems
