"""``toolsearch check --format github``: GitHub Actions workflow commands, one ``::error`` per failure
line (``::warning`` for a change worse than the baseline that ``--fail-on-worse`` does not gate,
``::notice`` for the settings that would pass), then one summary line; exit status as for text.
The output is read here line by line the way the runner reads it: a server name holding ``::``,
``%``, CR or LF never makes a second command or breaks one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import run_cli
from toolsearch.cli.textfmt import github_data

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
MONDAY = ROOT / "docs" / "examples" / "diff-monday.yaml"
TUESDAY = ROOT / "docs" / "examples" / "diff-tuesday.yaml"
EVIL = "x::error title=forged::forged 100%\r\n::warning::second\nok %0A::error::third %3A,"
#: the name as the decoded message shows it: one line, its CR and LF as markers, its own %0A as written
EVIL_SHOWN = "x::error title=forged::forged 100%⟨U+000D⟩⟨U+000A⟩::warning::second⟨U+000A⟩ok %0A::error::third %3A,"
COMMAND = re.compile(r"^::(error|warning|notice)(?: ([^:]*))?::(.*)$")


def _unescape(text: str, prop: bool = False) -> str:
    """What the runner decodes (its ActionCommand unescaping, data and property)."""
    pairs = [("%0D", "\r"), ("%0A", "\n")] + ([("%3A", ":"), ("%2C", ",")] if prop else []) + [("%25", "%")]
    for code, char in pairs:
        text = text.replace(code, char)
    return text


def _read(stdout: str) -> tuple[list[tuple[str, dict[str, str], str]], list[str]]:
    """The commands (name, properties, message) and the other lines, as the runner tells them apart."""
    commands, other = [], []
    assert "\r" not in stdout
    for line in stdout.split("\n")[:-1]:
        if not line.startswith("::"):
            other.append(line)
            continue
        match = COMMAND.match(line)
        assert match, f"a broken command line: {line!r}"
        props = {}
        for item in (match.group(2) or "").split(","):
            key, _, value = item.partition("=")
            assert key and "=" not in value, item
            props[key] = _unescape(value, prop=True)
        commands.append((match.group(1), props, _unescape(match.group(3))))
    return commands, other


def _catalog(path: Path, names: list[str]) -> Path:
    path.write_text(json.dumps({"servers": [{"name": name, "tools": [
        {"name": f"t{i}", "description": f"Do thing number {i} with a long enough description to take room in the "
                                         "listing.", "inputSchema": {"type": "object"}} for i in range(40)]}
        for name in names]}), encoding="utf-8")
    return path


def test_hostile_server_names_make_no_command_of_their_own(tmp_path: Path) -> None:
    old = _catalog(tmp_path / "old.json", [EVIL])
    new = _catalog(tmp_path / "new,a:b%2C.json", [EVIL, "b", "c", "d"])  # ',', ':' and '%' in file= too
    done = run_cli("check", new, "--baseline", old, "--context-lengths", "16k", "--goal", "names", "--fail-on-worse",
                   "--format", "github")
    assert done.returncode == 1, done.stderr
    commands, other = _read(done.stdout)
    assert [(name, props["title"]) for name, props, _ in commands] == [
        ("error", "toolsearch check: goal missed"), ("error", "toolsearch check: worse than the baseline"),
        ("notice", "toolsearch check: settings")]
    assert commands[0][1]["file"] == str(new) and commands[1][1]["file"] == str(new)
    assert commands[0][2].startswith("at 16K: the listing is mixed · 3 of 4 servers named (120 tools), ")
    assert commands[0][2].endswith(f"(collapsed to a summary line: {EVIL_SHOWN})")
    assert commands[1][2] == (f"at 16K: worse than the baseline: server listed worse: {EVIL_SHOWN} "
                              "(names → summary)")
    assert commands[2][2].startswith("settings that reach it at 16K: threshold_pct ")
    assert other == [("toolsearch check failed (2 conditions missed): goal missed and worse than the baseline · checked "
                      "every server at names or better; no worse than the baseline at 16K; "
                      "threshold_pct 5%, listing_max_tokens 4,000, planning tokenizer chars4")]


def test_a_hostile_tool_name_in_a_kept_server_and_the_worse_change_stays_in_its_command(tmp_path: Path) -> None:
    """The --keep sentence names the server given on the command line; --except and a goal per
    length do not change the reading either."""
    old = _catalog(tmp_path / "old.json", [EVIL])
    new = _catalog(tmp_path / "new.json", [EVIL, "b", "c", "d"])
    done = run_cli("check", new, "--baseline", old, "--context-lengths", "16k,8k", "--goal", "any", "--keep", EVIL,
                   "--format", "github")
    assert done.returncode == 1
    commands, other = _read(done.stdout)
    kinds = [(name, props["title"]) for name, props, _ in commands]
    assert kinds[0] == ("error", "toolsearch check: a server to keep collapsed")
    assert ("warning", "toolsearch check: worse than the baseline") in kinds  # not gated: a warning
    assert f"{EVIL_SHOWN} must stay named but is collapsed to a summary line" in commands[0][2]
    assert len(other) == 1 and other[0].startswith("toolsearch check failed (1 condition missed): ")


def test_exit_status_as_for_text() -> None:
    passed = run_cli("check", TEAM, "--context-lengths", "200k,1m", "--goal", "full", "--format", "github")
    assert passed.returncode == 0
    commands, other = _read(passed.stdout)
    assert commands == []
    assert other == [("toolsearch check passed: every tool with its short description (form full) at 200K, 1M; "
                      "threshold_pct 5%, listing_max_tokens 4,000, planning tokenizer chars4")]
    failed = run_cli("check", TEAM, "--context-lengths", "32k,200k", "--goal", "full", "--format", "github")
    assert failed.returncode == 1
    commands, other = _read(failed.stdout)
    assert [(c[0], c[1]["title"], c[1].get("file")) for c in commands] == [
        ("error", "toolsearch check: goal missed", str(TEAM)), ("notice", "toolsearch check: settings", None)]
    assert commands[0][2] == ("at 32K: the listing is names · 9 of 9 servers named (178 tools), tier 1, "
                              "within a budget of 1,600 tokens; the goal needs full")
    assert other[0].startswith("toolsearch check failed (1 condition missed): ")
    bad = run_cli("check", TEAM, "--context-lengths", "32k", "--goal", "sometimes", "--format", "github")
    assert bad.returncode == 2  # bad input: one annotation, as every exit 2 of --format github
    assert bad.stdout.startswith("::error title=toolsearch check%3A bad input::argument --goal: 'sometimes'")


def test_a_worse_change_is_a_warning_without_the_option_and_an_error_with_it() -> None:
    args = ("check", TUESDAY, "--baseline", MONDAY, "--context-lengths", "4600,200k", "--goal", "any",
            "--threshold-pct", "2", "--format", "github")
    line = "at 4,600 tokens: worse than the baseline: server listed worse: slack (names → summary)"
    warned = run_cli(*args)
    assert warned.returncode == 0
    commands, other = _read(warned.stdout)
    assert [(c[0], c[2]) for c in commands] == [("warning", line)]
    assert other[0].startswith("toolsearch check passed: ")
    gated = run_cli(*args, "--fail-on-worse")
    assert gated.returncode == 1
    commands, other = _read(gated.stdout)
    assert [(c[0], c[2]) for c in commands] == [("error", line)]
    assert other[0].startswith("toolsearch check failed (1 condition missed): ")


def test_no_file_property_for_several_catalogs_or_standard_input() -> None:
    done = run_cli("check", TEAM, MONDAY, "--context-lengths", "32k", "--goal", "full", "--format", "github")
    commands, _ = _read(done.stdout)
    assert commands and all("file" not in props for _, props, _ in commands)


def test_bad_input_is_an_error_annotation_too(tmp_path):
    """A pull request that breaks ``catalog.yaml`` (a YAML syntax error, a server the snapshot
    recorded as failed) made ``check --format github`` exit 2 with its one line on stderr and no
    annotation: the pull request showed a failed check and no reason. The same line is
    now also one ``::error`` command on standard output (the message escaped as every annotation's),
    and stderr is as before."""
    broken = tmp_path / "catalog.yaml"
    broken.write_text("servers:\n  - name: x\n    tools: [\n", encoding="utf-8")
    message = "catalog.yaml: line 4, column 1: not valid YAML or JSON (expected the node content, but found '<stream end>')"
    done = run_cli("check", "catalog.yaml", "--context-lengths", "32k", "--goal", "names", "--format", "github",
                   cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == f"toolsearch: error: {message}\n"
    assert done.stdout == f"::error title=toolsearch check%3A bad input::{message}\n"
    match = COMMAND.match(done.stdout.rstrip("\n"))
    assert match and _unescape(match.group(3)) == message
    # the other formats print nothing on standard output for bad input
    text = run_cli("check", "catalog.yaml", "--context-lengths", "32k", "--goal", "names", cwd=tmp_path)
    assert (text.returncode, text.stdout, text.stderr) == (2, "", done.stderr)


@pytest.mark.parametrize("command, args, message", [
    ("check", ("--context-lengths", "32k", "--goal", "namez", "--format", "github"),
     "argument --goal: 'namez': expected a goal (full, names, listed, any) or LENGTH=GOAL such as 200k=full; "
     "did you mean 'names'?"),
    ("check", ("--context-lengths", "32k", "--format=github"), "the following arguments are required: --goal"),
    ("check", ("--context-lengths", "32k", "--goal", "names", "--format", "github", "--hedroom", "3"),
     "unrecognized arguments: --hedroom 3; did you mean '--headroom' for '--hedroom'?"),
    ("lint", ("--format", "github", "--severty", "error"),
     "unrecognized arguments: --severty error; did you mean '--severity' for '--severty'?"),
])
def test_a_usage_error_is_an_error_annotation_too(command, args, message):
    """A workflow whose gate command has a wrong goal or a misspelt option exited 2 with the line on
    stderr and no annotation, unlike every other bad input of ``--format github``: the pull request
    showed a failed check and no reason. The usage error is now one ``::error`` too."""
    done = run_cli(command, TEAM, *args)
    assert done.returncode == 2
    assert done.stdout == f"::error title=toolsearch {command}%3A bad input::{github_data(message)}\n"
    assert done.stderr.endswith(f"error: {message}\n")
    text = run_cli(command, TEAM, *[a for a in args if "github" not in a and a != "--format"])
    assert (text.returncode, text.stdout) == (2, "")  # the other formats: standard output stays empty
