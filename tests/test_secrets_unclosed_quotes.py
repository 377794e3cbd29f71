"""A command line of a config whose quote does not close (``mysql -p'my pw``, ``--password "a b``):
the secret after the open quote was cut at its first space, so the config views and the launch
confirmation showed the rest of it (``mysql -p•••• pw``), and a failure reason (``cannot start
"mysql -p'my pw"``) showed all of it, the value that was searched for (``'my``, with its quote) being
too short to search. Such a line is now read as if the quote closed at its end
(:func:`toolsearch.engine.secrets.split_command_line`): the whole quoted run is the value, masked in
its own word everywhere a command is shown, and searched for whole in what a server prints; a failure
reason quotes the command masked (:meth:`toolsearch.live.mcpconfig.ServerSpec.shown_command`)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from conftest import run_cli_process, write_json

from toolsearch.engine import constants as C
from toolsearch.engine.secrets import split_command_line
from toolsearch.live.mcpconfig import (
    mask_arguments,
    parse_config_data,
    secret_arguments,
)

ECHO = Path(__file__).resolve().parent / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
PY = sys.executable


@pytest.mark.parametrize(("line", "words"), [
    ("mysql -p'my pw", ["mysql", "-pmy pw"]),
    ('srv --password "a b', ["srv", "--password", "a b"]),
    ("env TOKEN='x y", ["env", "TOKEN=x y"]),
    ('srv --api-key="abc', ["srv", "--api-key=abc"]),
    ("srv --x 'a\"b c", ["srv", "--x", 'a"b c']),      # a double quote inside the open single quote
    ('srv --x "a\'b c', ["srv", "--x", "a'b c"]),
    ("srv --x ab\\", ["srv", "--x", "ab\\"]),         # a backslash that ends the line
    ('srv --x "ab\\', ["srv", "--x", "ab\\"]),        # ... inside an open double quote
    ("srv --x 'a b' c", ["srv", "--x", "a b", "c"]),  # quotes that close: as shlex reads them
])
def test_an_open_quote_runs_to_the_end_of_the_line(line: str, words: list[str]) -> None:
    assert split_command_line(line) == words


#: (command line as written, as every view shows it, the whole secret, pieces of it that must not show)
COMMANDS = [
    ("mysql -p'my Zq7pw", f"mysql -p{MASK}", "my Zq7pw", ["Zq7pw"]),
    ('/opt/srv --password "Wv Xk', f"/opt/srv --password {MASK}", "Wv Xk", ["Wv", "Xk"]),
    ("env TOKEN='Jh4 Qm /opt/srv", f"env TOKEN={MASK}", "Jh4 Qm /opt/srv", ["Jh4", "Qm"]),
    ('/opt/srv --api-key="Yb8key', f"/opt/srv --api-key={MASK}", "Yb8key", ["Yb8key"]),
    ('mysql -u root -p"Pq3 with spaces', f"mysql -u root -p{MASK}", "Pq3 with spaces", ["Pq3", "spaces"]),
    ('/opt/srv -H "Authorization: Bearer Ht5 Gz', f"/opt/srv -H 'Authorization: {MASK}'", "Bearer Ht5 Gz",
     ["Ht5", "Gz"]),
    ('curl -u "admin:Cu6 pw', f"curl -u admin:{MASK}", "Cu6 pw", ["Cu6"]),
]


@pytest.mark.parametrize(("written", "shown", "secret", "pieces"), COMMANDS)
def test_the_config_views_and_the_launch_confirmation_mask_the_whole_value(written, shown, secret, pieces) -> None:
    (spec,) = parse_config_data({"mcpServers": {"s": {"command": written}}}, "mcp.json").servers
    assert spec.redacted()["command"] == shown
    # the launch confirmation's command line: the command is one program name, shell-quoted as such
    assert shlex.split(spec.launch_preview()["command_line"]) == [shown]
    assert shlex.split(spec.launch_preview(expanded=False)["command_line"]) == [shown]
    assert secret in spec.own_secrets()
    # a server that echoes the command line shows no piece of it (the value is searched for whole)
    echoed = spec.scrub(f"echo: {written}")
    assert echoed.endswith(MASK) and not [piece for piece in pieces if piece in echoed], echoed


def test_a_script_argument_whose_quote_does_not_close() -> None:
    args = ["-c", "npx srv --token 'Tk9 Zz tail", "-c", 'mysql -p"My pw', "-lc", "run --api-key=\"Ak2"]
    assert mask_arguments(args, "bash") == ["-c", f"npx srv --token {MASK}", "-c", f"mysql -p{MASK}",
                                            "-lc", f"run --api-key={MASK}"]
    assert {"Tk9 Zz tail", "My pw", "Ak2"} <= set(secret_arguments(args, "bash"))
    # a script inside a script
    assert mask_arguments(["-c", "sh -c \"npx srv --token 'Tk9 Zz\""], "bash") == ["-c", f"sh -c \"npx srv --token {MASK}\""]


def test_an_apostrophe_that_is_no_quote_still_leaves_the_words_after_it_read() -> None:
    """An open quote may be an apostrophe in a path or a word: the words after it are read too, and
    the text before a secret stays as written."""
    for command, shown in [
        ("/home/o'brien/bin/srv --token Ob1tok", f"/home/o'brien/bin/srv --token {MASK}"),
        ("srv --name it's --api-key=Ky2x --password \"p q", f"srv --name it's --api-key={MASK} --password {MASK}"),
        ("bash -c 'npx --password \"a b", f"bash -c 'npx --password {MASK}"),
    ]:
        (spec,) = parse_config_data({"mcpServers": {"s": {"command": command}}}, "mcp.json").servers
        assert spec.redacted()["command"] == shown
        assert spec.shown_command() == shown
    assert mask_arguments(["-c", "/home/o'brien/srv --token Ob1tok"]) == ["-c", f"/home/o'brien/srv --token {MASK}"]
    assert "Ob1tok" in secret_arguments(["-c", "/home/o'brien/srv --token Ob1tok"])


def test_an_args_string_that_does_not_split_still_counts_its_whole_value() -> None:
    (spec,) = parse_config_data({"mcpServers": {"s": {"command": "srv", "args": "--password 'Wq Rt"}}},
                                "mcp.json").servers
    assert spec.invalid is not None
    assert "Wq Rt" in spec.own_secrets()


def test_no_piece_of_it_shows_in_any_output(tmp_path) -> None:
    servers = {f"bad{i}": {"command": written} for i, (written, *_rest) in enumerate(COMMANDS)}
    # a working server given a script whose quote does not close: it echoes it in its tools and on stderr
    echo = {"command": PY, "args": [str(ECHO), "npx srv --token 'Ec8 Lw tail"]}
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {**servers, "echo": echo}})
    only_echo = write_json(tmp_path / "echo.json", {"mcpServers": {"echo": echo}})
    pieces = [piece for *_rest, found in COMMANDS for piece in found] + ["Ec8", "Lw"]
    saved = tmp_path / "snap.yaml"
    runs = [run_cli_process("plan", config, "--timeout", "60"),
            run_cli_process("plan", config, "--json", "--timeout", "60"),
            run_cli_process("snapshot", config, "-o", saved, "--timeout", "60"),
            run_cli_process("check", only_echo, "--context-lengths", "32k", "--goal", "any", "--format", "markdown",
                            "--timeout", "60")]
    # snapshot exits 1 when a server failed (it still writes the file, with the failures)
    assert [done.returncode for done in runs] == [0, 0, 1, 0], [done.stderr for done in runs]
    for done in runs:
        out = done.stdout + done.stderr
        assert not [piece for piece in pieces if piece in out], out
    assert f"argument 0 is npx srv --token '{MASK}" in runs[0].stdout
    text = saved.read_text(encoding="utf-8")
    assert not [piece for piece in pieces if piece in text], text
    failed = yaml.safe_load(text)["snapshot"]["failed"]
    assert failed["bad0"] == f"cannot start 'mysql -p{MASK}': command not found"
    assert failed["bad1"] == f"cannot start '/opt/srv --password {MASK}': command not found"
    assert failed["bad5"] == f"cannot start \"/opt/srv -H 'Authorization: {MASK}'\": command not found"
    assert "mcp__echo__echo" in json.loads(runs[1].stdout)["tool_search_description"]


def test_a_recorded_command_masks_a_short_quoted_assignment_to_the_end_of_its_line() -> None:
    from toolsearch.analysis.sessions import mask_text

    assert mask_text("export TOKEN='x y\nls") == f"export TOKEN='{MASK}\nls"
    assert mask_text("TOKEN='x y' && run") == f"TOKEN='{MASK}' && run"
    assert mask_text('mysql -p"my pw') == f"mysql -p{MASK}"
    assert mask_text('run --password "a b') == f'run --password "{MASK}'
    assert mask_text("the key: the value") == "the key: the value"  # unquoted prose: 4 characters as before
