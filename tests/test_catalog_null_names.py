"""A server or tool whose ``name`` key is there with no value says ``got null``, as a name of another
kind says what it got (a boolean, a number, a date); before, the message named no kind."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli


def test_a_null_name_says_got_null(tmp_path: Path) -> None:
    path = tmp_path / "nn.yaml"
    path.write_text("servers:\n- name:\n  tools: []\n- name: a\n  tools:\n  - name:\n    inputSchema: {type: object}\n"
                    "  - inputSchema: {type: object}\n  - name: ok\n    inputSchema: {type: object}\n")
    done = run_cli("plan", str(path))
    lines = done.stderr.splitlines()
    assert (f"toolsearch: catalog error: {path}: servers[0].name: expected the server name as a string, got null; "
            "server skipped") in lines, done.stderr
    assert (f"toolsearch: catalog error: {path}: servers[1].tools[0]: expected a non-empty string 'name', got null; "
            "tool skipped") in lines, done.stderr
    # a missing key stays as it was: nothing was there to name
    assert (f"toolsearch: catalog error: {path}: servers[1].tools[1]: expected a non-empty string 'name'; "
            "tool skipped") in lines, done.stderr
