"""Command-line manners: --version, usage lines, help on every option, two examples per command,
and the nearest command or flag named when one is misspelled."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from conftest import inspector_of, run_cli, run_cli_process, toolsearch_command
from toolsearch.cli.commands import build_parser

ROOT = Path(__file__).resolve().parent.parent
PARSER = build_parser()
SUBCOMMANDS = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction)).choices
OUTPUT_FLAGS = {"-o", "--output", ">"}
FILE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl", ".db", ".md", ".csv", ".html")


def test_version_is_the_package_version():
    done = run_cli("--version")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert (done.returncode, done.stdout.strip()) == (0, f"toolsearch {version}")


@pytest.mark.parametrize("command, usage", [("describe", "usage: toolsearch describe SOURCE... NAME... [options]"),
                                            ("call", "usage: toolsearch call SOURCE... NAME [-a JSON] [options]")])
def test_usage_shows_where_the_names_go(command, usage):
    done = run_cli(command, "--help")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == usage


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_every_option_has_help_and_the_help_ends_with_two_examples(command):
    parser = SUBCOMMANDS[command]
    missing = [a.option_strings or a.dest for a in parser._actions
               if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()]
    assert missing == []
    lines = parser.format_help().rstrip("\n").splitlines()
    assert lines[-3] == "examples:", lines[-4:]
    examples = [line.strip() for line in lines[-2:]]
    for example in examples:
        words = shlex.split(example.split(" > ")[0])
        assert words[:2] == ["toolsearch", command], example
        args, extra = PARSER.parse_known_args(words[1:])  # the example parses as written
        assert args.command == command and (extra == [] or command == "app"), example
        for before, word in zip(words, words[1:]):
            # every file read is shipped, so the example runs as written from the checkout's root
            # (check's read new.yaml --baseline old.yaml); snapshot's CONFIG is the user's own MCP
            # client config: a shipped one would start servers this machine may not have
            if before not in OUTPUT_FLAGS and (word.startswith(("sample_", "docs/")) or (
                    word.endswith(FILE_SUFFIXES) and command != "snapshot")):
                assert (ROOT / word).exists(), f"{example}: {word} is not a shipped file"
    assert examples[0] != examples[1]


def test_call_help_says_the_exit_status_its_second_example_returns():
    """call's second example (a wrong argument type, required ones missing) exits 1; its help did
    not say what 1 means."""
    help_text = " ".join(run_cli("call", "--help").stdout.split())
    assert ("Exit status 0 when the call passes (and the real tool succeeds), 1 when the bridge refuses it (the "
            "response says why) or the tool reports an error, 2 for bad input.") in help_text
    example = shlex.split(SUBCOMMANDS["call"].format_help().rstrip("\n").splitlines()[-1])
    done = run_cli(*example[1:], cwd=ROOT)
    assert done.returncode == 1 and "The tool was NOT invoked." in json.loads(done.stdout)["error"]


def test_a_misspelled_command_flag_or_value_names_the_nearest():
    done = run_cli("pln", "x.yaml")
    assert done.returncode == 2 and "did you mean 'plan'?" in done.stderr
    done = run_cli("plan", ROOT / "sample_catalogs" / "five-servers.yaml", "--jsn")
    assert done.returncode == 2
    assert done.stderr.strip() == "toolsearch: error: unrecognized arguments: --jsn; did you mean '--json' for '--jsn'?"
    done = run_cli("check", "x.yaml", "--context-lengths", "1k", "--goal", "namez")
    assert done.returncode == 2 and "did you mean 'names'?" in done.stderr
    done = run_cli("recommend", "x.yaml", "--context-lengths", "1k,1m", "--goal", "NAMES,1m=Full")
    assert done.returncode == 2 and done.stderr.strip().endswith("'NAMES': expected a goal (full, names, listed, "
                                                                 "any) or LENGTH=GOAL such as 200k=full; did you mean "
                                                                 "'names'?")
    done = run_cli("recommend", "x.yaml", "--context-lengths", "1k,1m", "--goal", "names,1m=Full")
    assert done.returncode == 2 and done.stderr.strip().endswith("did you mean 'full'?")
    done = run_cli("check", "x.yaml", "--context-lengths", "1k", "--goal", "any", "--markdown")
    assert done.returncode == 2
    assert done.stderr.strip() == ("toolsearch: error: unrecognized arguments: --markdown; did you mean "
                                   "'--format markdown' for '--markdown'?")
    done = run_cli("PLAN", "x.yaml")  # capitals: the choice it equals but for case
    assert done.returncode == 2 and done.stderr.strip().endswith("did you mean 'plan'?")
    done = run_cli("check", "x.yaml", "--context-lengths", "1k", "--goal", "any", "--format", "JSON")
    assert done.returncode == 2 and done.stderr.strip().endswith("did you mean 'json'?")
    done = run_cli("plan", "x.yaml", "--tokenizer", "O200K_BASE")
    assert done.returncode == 2 and done.stderr.strip().endswith("did you mean 'o200k_base'?")
    done = run_cli("qwertyuiop")
    assert done.returncode == 2 and "did you mean" not in done.stderr  # nothing close: no guess
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_misspelled_required_flag_is_named_not_only_reported_missing():
    """argparse reports a required option as missing before it reports the unknown flag the user
    typed for it, so the message names the typo and the option it is close to."""
    done = run_cli("recommend", "x.yaml", "--context-lenghts", "32k", "--goal", "names")
    assert done.returncode == 2
    assert done.stderr.strip() == ("toolsearch recommend: error: the following arguments are required: "
                                   "--context-lengths; '--context-lenghts' is not an option of this command: "
                                   "did you mean '--context-lengths'?")
    done = run_cli("check", "x.yaml", "--context-lengths", "32k", "--gaol=names")
    assert done.returncode == 2
    assert done.stderr.strip() == ("toolsearch check: error: the following arguments are required: --goal; "
                                   "'--gaol' is not an option of this command: did you mean '--goal'?")
    done = run_cli("check", "x.yaml", "--context-lengths", "32k")  # nothing misspelt: argparse's words alone
    assert done.stderr.strip() == "toolsearch check: error: the following arguments are required: --goal"


def test_another_commands_output_format_says_what_format_takes():
    """``check --yaml`` (recommend's block) was answered "did you mean '--goal'", the nearest flag by
    spelling; a format the command lacks now gets the formats its ``--format`` takes."""
    done = run_cli("check", "x.yaml", "--context-lengths", "32k", "--goal", "names", "--yaml")
    assert done.returncode == 2
    assert done.stderr.strip() == ("toolsearch: error: unrecognized arguments: --yaml; this command has no yaml "
                                   "output: --format takes text, markdown, json, github")
    done = run_cli("recommend", "x.yaml", "--context-lengths", "32k", "--goal", "names", "--csv")
    assert done.stderr.strip() == ("toolsearch: error: unrecognized arguments: --csv; this command has no csv "
                                   "output: --format takes text, markdown, json, yaml")
    # sessions' --format names the files' format, not the output's: no such hint there
    done = run_cli("sessions", "x.db", "--catalog", "y.yaml", "--yaml")
    assert done.stderr.strip() == ("toolsearch: error: unrecognized arguments: --yaml; '--yaml' is not an option of "
                                   "toolsearch sessions ('toolsearch sessions --help' lists its options)")


def test_check_takes_json_as_every_other_command_does():
    """``check --json`` prints what ``check --format json`` prints; both together are refused."""
    catalog = ROOT / "sample_catalogs" / "team-workspace.yaml"
    args = ("check", catalog, "--context-lengths", "32k,200k", "--goal", "names")
    by_flag, by_format = run_cli(*args, "--json"), run_cli(*args, "--format", "json")
    assert by_flag.returncode == by_format.returncode and by_flag.returncode in (0, 1), by_flag.stderr
    assert json.loads(by_flag.stdout) == json.loads(by_format.stdout)
    both = run_cli(*args, "--json", "--format", "markdown")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr, both.stderr


def test_readme_sample_paths_work_from_any_folder(tmp_path):
    """The README's commands name ``sample_catalogs/...`` and ``sample_sessions/...``; run from a
    folder that has no such path (an installed copy, a scratch folder), the shipped sample is read
    and stderr says so, instead of "No such file or directory"."""
    result = run_cli("plan", "sample_catalogs/five-servers.yaml", "--context-length", "32k", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    shipped = ROOT / "sample_catalogs" / "five-servers.yaml"
    assert result.stderr == (f"toolsearch: sample_catalogs/five-servers.yaml is not in this folder; "
                             f"reading the shipped sample {shipped}\n")
    assert result.stdout == run_cli("plan", shipped, "--context-length", "32k").stdout
    missing = run_cli("plan", "sample_catalogs/no-such.yaml", cwd=tmp_path)  # not shipped: the usual error
    assert missing.returncode == 2 and "sample_catalogs/no-such.yaml: cannot read file" in missing.stderr


def test_readme_docs_examples_work_from_any_folder(tmp_path):
    """The README's "few runs on shipped files" include a diff of two ``docs/examples/`` catalogs;
    from a folder without them (an installed copy) the shipped copies are read, as for the samples."""
    result = run_cli("diff", "docs/examples/diff-monday.yaml", "docs/examples/diff-tuesday.yaml", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # 1: the prompt cache breaks between the two, as documented
    assert "prompt cache: MISS" in result.stdout
    assert (f"toolsearch: docs/examples/diff-monday.yaml is not in this folder; reading the shipped sample "
            f"{ROOT / 'docs' / 'examples' / 'diff-monday.yaml'}\n") in result.stderr
    # the report names the files as typed, not the shipped copies' folder
    assert result.stdout.startswith("A: docs/examples/diff-monday.yaml · "), result.stdout
    assert "\nB: docs/examples/diff-tuesday.yaml · " in result.stdout
    assert str(ROOT) not in result.stdout


def test_the_readme_names_every_folder_that_falls_back_to_the_shipped_samples():
    """The README said only ``sample_catalogs/`` and ``sample_sessions/`` paths fall back to the
    shipped copies, while ``docs/examples/`` (which the helps' examples use) and ``sample_skills/`` do
    too: the sentence lists exactly the code's folders."""
    from toolsearch.analysis.samples import SAMPLE_FOLDERS  # noqa: PLC0415

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    sentence = re.search(r"a path under (.*?) that is not in the current folder reads the shipped sample", readme)
    assert sentence, "the README's sentence about the shipped samples"
    listed = re.findall(r"`([^`]+)/`", sentence.group(1))
    assert sorted(listed) == sorted(SAMPLE_FOLDERS)
    assert "docs/examples/" in run_cli("check", "--help").stdout  # a help example relies on the fallback


def test_a_shipped_sample_folder_named_alone_works_from_any_folder(tmp_path):
    """``strategies --help``'s examples pass the folder itself (``--skills sample_skills``), not a
    file in it; from a folder without it (an installed copy) the shipped folder is read."""
    result = run_cli("strategies", "sample_catalogs/team-workspace.yaml", "--skills", "sample_skills", "--json",
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: sample_skills is not in this folder; reading the shipped sample "
            f"{ROOT / 'sample_skills'}\n") in result.stderr
    assert result.stdout == run_cli("strategies", ROOT / "sample_catalogs" / "team-workspace.yaml",
                                    "--skills", ROOT / "sample_skills", "--json").stdout


@pytest.mark.parametrize("args", [
    ("report", "sample_catalogs/five-servers.yaml", "-o", ""),
    ("synth", "--tools", "3", "-o", ""),
    ("snapshot", "mcp.json", "-o", ""),
    ("sessions", "sample_sessions/state.db", "--catalog", "sample_catalogs/team-workspace.yaml", "--export-queries", ""),
])
def test_an_empty_output_file_name_is_refused(args, tmp_path):
    """``-o "$OUT"`` with OUT unset: report said ": cannot write the report: Is a directory", synth
    printed the catalog to standard output and sessions exported nothing, all without naming why."""
    done = run_cli(*args, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    flag = "--export-queries" if "--export-queries" in args else "-o/--output"
    assert done.stderr == f"toolsearch {args[0]}: error: argument {flag}: expected a file name, got ''\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ("report", "sample_catalogs/five-servers.yaml", "-o", "-"),
    ("synth", "--tools", "3", "-o", "-"),
    ("sessions", "sample_sessions/state.db", "--catalog", "sample_catalogs/team-workspace.yaml", "--export-queries", "-"),
])
def test_an_output_file_named_dash_is_refused(args, tmp_path):
    """'-' reads standard input where a file is read; as -o it wrote a file called '-' (report:
    4.8 MB of HTML in a file a shell can hardly name)."""
    done = run_cli(*args, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    flag = "--export-queries" if "--export-queries" in args else "-o/--output"
    assert done.stderr == (f"toolsearch {args[0]}: error: argument {flag}: expected a file name, got '-' (snapshot "
                           "and synth write to standard output without -o; ./- names a file called '-')\n")
    assert list(tmp_path.iterdir()) == []


def test_synth_without_output_refuses_a_terminal(tmp_path):
    """``toolsearch synth`` alone (every option has a default) printed 33 MB of JSON onto the
    terminal with exit status 0; at a terminal it is now one line and status 2, while a redirect
    or a pipe still gets the catalog."""
    import pty  # noqa: PLC0415
    import threading  # noqa: PLC0415

    leader, follower = pty.openpty()
    shown = bytearray()

    def drain() -> None:  # read the terminal, so a regression fails instead of blocking on a full pty
        try:
            while chunk := os.read(leader, 65536):
                shown.extend(chunk)
        except OSError:  # the process is gone and the follower closed
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:  # this checkout's code, whichever copy the console script was installed from
        done = subprocess.run([sys.executable, "-m", "toolsearch", "synth"], stdout=follower,
                              stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        os.close(follower)
        reader.join(timeout=10)
        os.close(leader)
    assert (done.returncode, bytes(shown)) == (2, b"")
    assert done.stderr == ("toolsearch: error: synth: standard output is a terminal; write the catalog with "
                           "-o FILE (or redirect it: > FILE)\n")
    piped = run_cli("synth", "--tools", "2", "--servers", "1", cwd=tmp_path)  # not a terminal: the catalog
    assert piped.returncode == 0 and json.loads(piped.stdout)["servers"][0]["tools"][1]["name"]
    assert list(tmp_path.iterdir()) == []


def test_shipped_samples_are_read_never_written(tmp_path, monkeypatch):
    """Only inputs go to the shipped samples: an output path is kept as given, even one named like
    a shipped sample (writing there would overwrite the package's own file)."""
    from toolsearch.cli.common import use_shipped_samples

    monkeypatch.chdir(tmp_path)
    args = argparse.Namespace(sources=["sample_catalogs/five-servers.yaml"], output="sample_catalogs/five-servers.yaml",
                              export_queries="sample_catalogs/team-workspace.yaml")
    use_shipped_samples(args)
    assert args.sources == [str(ROOT / "sample_catalogs" / "five-servers.yaml")]
    assert (args.output, args.export_queries) == ("sample_catalogs/five-servers.yaml", "sample_catalogs/team-workspace.yaml")


@pytest.mark.parametrize("args", [
    ["plan", "catalog.yaml", "--bogus", "\x1b[2J\u202eabc"],   # an unknown option quoted back
    ["plan", "catalog.yaml", "--context-length", "\x1b]0;x\x07"],  # a bad value quoted back
    ["pla\x1b[31mn"],                                            # an unknown command quoted back
])
def test_a_usage_error_quotes_the_arguments_with_controls_escaped(args) -> None:
    """argparse quotes what was typed; that text reaches the terminal as every other output does:
    escape sequences and bidi overrides as markers (``⟨U+001B⟩``, as the app shows them), on one line."""
    done = run_cli(*args)
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr and "\u202e" not in done.stderr, done.stderr
    assert done.stderr.startswith("toolsearch") and "error:" in done.stderr
    assert "⟨U+001B⟩" in done.stderr and "\\x1b" not in done.stderr
    if "\u202e" in "".join(args):
        assert "⟨U+202E⟩" in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("args,usage", [
    (["describe", "catalog.yaml", "--sent", "mcp__github__create_issue"],
     "toolsearch describe SOURCE... NAME... [options]"),
    (["search", "catalog.yaml", "-q", "github", "extra.yaml"], "toolsearch search SOURCE... [options]"),
])
def test_a_name_after_an_option_is_told_to_go_before_the_options(args, usage) -> None:
    """argparse ends a command's list of files and names at the first option, so a name typed after
    one is 'unrecognized': the message says where it goes, with the command's short usage."""
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr == (f"toolsearch: error: unrecognized arguments: {args[-1]}; files and names go before the "
                           f"options ({usage})\n")


def test_a_command_of_a_fixed_number_of_files_says_how_many_it_takes() -> None:
    """diff takes two catalogs: given a third (as plan and search take several), the third is the
    stray word, and "go before the options" alone sent the user looking for an option there is
    none of. The message says how many. (eval took one catalog and its query file and said this
    too; it now takes several catalogs before the query file, see test_eval_several_catalogs.py.)"""
    done = run_cli("diff", "sample_catalogs/team-workspace.yaml", "sample_catalogs/five-servers.yaml",
                   "sample_catalogs/github-full.yaml")
    assert done.returncode == 2
    assert done.stderr == ("toolsearch: error: unrecognized arguments: sample_catalogs/github-full.yaml; "
                           "files and names go before the options, at most 2 of them (toolsearch diff A B "
                           "[options])\n")


def test_a_file_after_evals_options_is_told_to_go_before_them() -> None:
    """eval takes its catalog files and then its query file before the options; a file after an
    option is a stray word, and the message gives eval's usage (no fixed number of files)."""
    done = run_cli("eval", "sample_catalogs/team-workspace.yaml", "--json", "sample_catalogs/queries/team-workspace.yaml")
    assert done.returncode == 2
    assert done.stderr == ("toolsearch: error: unrecognized arguments: sample_catalogs/queries/team-workspace.yaml; "
                           "files and names go before the options (toolsearch eval CATALOG... [QUERIES] [options])\n")


def test_the_value_of_an_unknown_option_is_not_taken_for_a_stray_name() -> None:
    done = run_cli("recommend", "catalog.yaml", "--listing", "off", "--context-lengths", "32k", "--goal", "names")
    assert done.returncode == 2
    assert done.stderr == ("toolsearch: error: unrecognized arguments: --listing off; '--listing' is not an option of "
                           "toolsearch recommend ('toolsearch recommend --help' lists its options)\n")


def _with_stdout_closed(*args: str) -> subprocess.CompletedProcess:
    """Run ``toolsearch ARGS`` as a process whose standard output is a pipe nobody reads any more
    (``| head`` that has its lines, a job step that stopped reading): every write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([*toolsearch_command(), *args], stdout=write, stderr=subprocess.PIPE, text=True,
                              cwd=ROOT, timeout=120, check=False)
    finally:
        os.close(write)


@pytest.mark.parametrize("args, status", [
    (("check", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k", "--goal", "full", "--json"), 1),
    (("check", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k", "--goal", "full",
      "--format", "markdown"), 1),
    (("check", "sample_catalogs/team-workspace.yaml", "--context-lengths", "200k", "--goal", "full"), 0),
    (("recommend", "sample_catalogs/cloudflare-flat.yaml", "--context-lengths", "32k", "--goal", "names"), 1),
    (("diff", "docs/examples/diff-monday.yaml", "docs/examples/diff-tuesday.yaml"), 1),
    (("lint", "sample_catalogs/hard-cases.yaml", "--json"), 1),
], ids=["check-json", "check-markdown", "check-passes", "recommend", "diff", "lint"])
def test_a_reader_that_stops_early_does_not_change_the_verdict(args, status):
    """``toolsearch check ... | head`` under ``set -o pipefail``: a failed gate whose output is cut
    short still exits 1 (it exited 0 on the broken pipe: a false pass), and a passing one 0."""
    done = _with_stdout_closed(*args)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == status, done.stderr


def _with_stdout(stdout: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``toolsearch ARGS`` as a process whose standard output is ``closed`` (``>&-``) or
    ``full`` (``> /dev/full``: every write fails with "No space left on device")."""
    command = shlex.join([*toolsearch_command(), *args]) + (" >&-" if stdout == "closed" else " > /dev/full")
    return subprocess.run(["bash", "-c", command], stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120,
                          check=False)


@pytest.mark.parametrize("stdout, reason", [("closed", "it is closed"), ("full", "No space left on device")])
@pytest.mark.parametrize("args", [
    ("check", "sample_catalogs/team-workspace.yaml", "--context-lengths", "200k", "--goal", "full", "--json"),
    ("check", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k", "--goal", "full",
     "--format", "markdown"),
    ("costs", "sample_catalogs/five-servers.yaml", "--csv"),
], ids=["check-passes", "check-fails", "costs"])
def test_output_that_cannot_be_written_is_one_line_and_status_2(args, stdout, reason):
    """A job that writes the verdict to a file on a full disk, or runs with standard output closed,
    gets one line saying so and status 2, never a traceback, and never 1 (the gate's "goal missed")
    or 0 (a pass whose table was lost)."""
    if stdout == "full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    done = _with_stdout(stdout, *args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.endswith(f"toolsearch: error: cannot write standard output ({reason}); "
                                "the output is incomplete\n"), done.stderr
    assert "Traceback" not in done.stderr


def test_a_closed_standard_output_does_not_hide_the_input_error():
    done = _with_stdout("closed", "check", "no-such-catalog.yaml", "--context-lengths", "32k", "--goal", "names")
    assert (done.returncode, done.stderr) == (
        2, "toolsearch: error: no-such-catalog.yaml: cannot read file (No such file or directory)\n")


def test_a_closed_standard_error_keeps_the_status():
    done = subprocess.run(["bash", "-c", shlex.join([*toolsearch_command(), "check", "no-such-catalog.yaml",
                                                     "--context-lengths", "32k", "--goal", "names"]) + " 2>&-"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "")


def test_a_dash_reads_the_catalog_or_the_config_from_standard_input():
    catalog = (ROOT / "sample_catalogs" / "five-servers.yaml").read_text(encoding="utf-8")
    gate = ("--context-lengths", "32k,200k", "--goal", "names", "--json")
    from_file = run_cli("check", "sample_catalogs/five-servers.yaml", *gate, cwd=ROOT)  # the reference output
    from_stdin = subprocess.run([*toolsearch_command(), "check", "-", *gate], input=catalog,
                                capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert (from_stdin.returncode, from_stdin.stderr) == (from_file.returncode, from_file.stderr)
    assert json.loads(from_stdin.stdout) == json.loads(from_file.stdout)
    # the config from standard input, and a baseline of the same standard input: read once, used twice
    config = "tools:\n  tool_search:\n    threshold_pct: 1\n    listing_max_tokens: 900\n"
    done = subprocess.run([*toolsearch_command(), "check", "sample_catalogs/five-servers.yaml", "--config", "-",
                           "--strict", *gate], input=config, capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=False)
    result = json.loads(done.stdout)
    assert (result["threshold_pct"], result["listing_max_tokens"]) == (1, 900), done.stderr
    done = subprocess.run([*toolsearch_command(), "check", "-", "--baseline", "-", *gate], input=catalog,
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == from_file.returncode, done.stderr
    assert all(c["baseline"]["cache_hit"] for c in json.loads(done.stdout)["contexts"])


def test_a_harness_config_given_as_a_source_says_its_settings_need_config(tmp_path):
    """A Hermes config.yaml holds its servers and its tools.tool_search block. Given as a source,
    its servers are listed but its block is not read: without a word, `check config.yaml` gated
    the defaults, not the settings in the file. (The server is the raw stdio one, started by each
    of the fifteen runs: the SDK's takes about a second of CPU to start.)"""
    import sys

    config = tmp_path / "config.yaml"
    config.write_text(json.dumps({"mcp_servers": {"local": {"command": sys.executable,
                                                            "args": [str(ROOT / "tests" / "wide_tool_mcp_server.py"),
                                                                     "3"]}},
                                 "tools": {"tool_search": {"threshold_pct": 1, "listing_max_tokens": 900}}}),
                      encoding="utf-8")
    gate = ("--context-lengths", "32k", "--goal", "any", "--json")
    done = run_cli("check", "config.yaml", *gate, cwd=tmp_path)
    assert json.loads(done.stdout)["threshold_pct"] == 5, done.stderr  # the defaults
    note = ("toolsearch: note: config.yaml holds a tools.tool_search block, but a file given as a source only lends "
            "its servers: this run uses the default settings; add --config config.yaml to use the block\n")
    assert note in done.stderr
    done = run_cli("check", "config.yaml", "--config", "./config.yaml", *gate, cwd=tmp_path)
    assert json.loads(done.stdout)["threshold_pct"] == 1, done.stderr
    assert "note:" not in done.stderr
    done = run_cli("plan", "config.yaml", "--context-length", "32k", cwd=tmp_path)
    assert done.returncode == 0 and note in done.stderr, done.stderr
    # the commands with their own loading say it too
    sessions = str(ROOT / "sample_sessions" / "hermes-export.jsonl")
    for args in (("harnesses", "config.yaml", "--context-lengths", "32k"), ("strategies", "config.yaml"),
                 ("sessions", sessions, "--catalog", "config.yaml"), ("lint", "config.yaml"),
                 ("collapse", "config.yaml"), ("diff", "config.yaml", "config.yaml")):
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 0 and note in done.stderr, (args, done.stderr)
        done = run_cli(*args, "--config", "config.yaml", cwd=tmp_path)
        assert done.returncode == 0 and "note:" not in done.stderr, (args, done.stderr)


def test_standard_input_lends_the_name_stdin_not_a_dash():
    """A catalog, server or live catalog read from ``-`` is named ``stdin`` (it was ``-``)."""
    import sys

    functions = '[{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}]'
    done = subprocess.run([*toolsearch_command(), "plan", "-", "--json"], input=functions, capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)
    assert [s["name"] for s in json.loads(done.stdout)["servers"]] == ["stdin"], done.stdout[:500]
    done = subprocess.run([*toolsearch_command(), "plan", "-"], input=functions, capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)
    assert done.stdout.startswith("catalog: stdin (1 tool)\n"), done.stdout[:200]
    config = json.dumps({"mcpServers": {"t": {"command": sys.executable,
                                              "args": [str(ROOT / "tests" / "mcp_test_server.py")]}}})
    done = subprocess.run([*toolsearch_command(), "snapshot", "-"], input=config, capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.startswith("name: stdin\n"), (done.stdout[:200], done.stderr)


def test_a_dash_reads_a_session_file_from_standard_input_but_not_a_store():
    catalog, sessions = "sample_catalogs/team-workspace.yaml", ROOT / "sample_sessions"
    from_file = run_cli("sessions", "sample_sessions/hermes-export.jsonl", "--catalog", catalog, "--json",
                        cwd=ROOT)  # the reference output
    from_stdin = subprocess.run([*toolsearch_command(), "sessions", "-", "--catalog", catalog, "--json"],
                                input=(sessions / "hermes-export.jsonl").read_text(encoding="utf-8"),
                                capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert from_file.returncode == from_stdin.returncode == 0, from_stdin.stderr
    named = re.sub(r'"-(:\d+)?"', lambda m: f'"sample_sessions/hermes-export.jsonl{m.group(1) or ""}"',
                   from_stdin.stdout)  # each session's origin names the source
    assert named == from_file.stdout and named != from_stdin.stdout
    store = subprocess.run([*toolsearch_command(), "sessions", "-", "--catalog", catalog],
                           input=(sessions / "state.db").read_bytes(), capture_output=True, cwd=ROOT, timeout=120,
                           check=False)
    assert (store.returncode, store.stderr.decode()) == (
        2, "toolsearch: error: -: standard input holds a SQLite session store; give the store's path instead "
           "(a store is read where it is)\n")


def test_output_redirected_onto_the_config_it_reads_is_refused(tmp_path):
    """``toolsearch recommend ... --config config.yaml --yaml > config.yaml``: the shell empties the
    harness config before toolsearch starts; it read an empty file, warned "no tools key" and wrote
    the block over the user's config with exit 0. Now it stops (exit 2) and says what happened;
    appending (``>>``) keeps the file and is not refused."""
    config = tmp_path / "config.yaml"
    config.write_text("mcp_servers: {}\ntools:\n  tool_search:\n    threshold_pct: 3\n", encoding="utf-8")
    args = [*toolsearch_command(), "recommend", "sample_catalogs/team-workspace.yaml", "--config", str(config),
            "--context-lengths", "200k", "--goal", "names", "--yaml"]
    with config.open("w", encoding="utf-8") as out:  # what "> config.yaml" does
        done = subprocess.run(args, stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 2 and config.read_text(encoding="utf-8") == ""
    assert done.stderr == (f"toolsearch: error: {config}: standard output is redirected onto this --config file, so "
                           "the shell emptied it before it could be read; restore it (from version control or a "
                           "backup) and write the output to another file\n")
    config.write_text("tools:\n  tool_search:\n    threshold_pct: 3\n", encoding="utf-8")
    with config.open("a", encoding="utf-8") as out:  # ">> config.yaml"
        done = subprocess.run(args, stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert config.read_text(encoding="utf-8").startswith("tools:\n  tool_search:\n    threshold_pct: 3\n# toolsearch")


def test_output_redirected_onto_the_catalog_it_reads_is_refused(tmp_path):
    """``toolsearch recommend catalog.yaml ... --yaml > catalog.yaml`` (or a harness ``config.yaml``
    given as the catalog): the shell empties the file first, and the command said only "got an empty
    document". It now says what happened, as for ``--config``."""
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text((ROOT / "sample_catalogs" / "five-servers.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    args = [*toolsearch_command(), "recommend", str(catalog), "--context-lengths", "200k", "--goal", "names", "--yaml"]
    with catalog.open("w", encoding="utf-8") as out:  # what "> catalog.yaml" does
        done = subprocess.run(args, stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 2 and catalog.read_text(encoding="utf-8") == ""
    assert done.stderr == (f"toolsearch: error: {catalog}: standard output is redirected onto this catalog file, so "
                           "the shell emptied it before it could be read; restore it (from version control or a "
                           "backup) and write the output to another file\n")


def test_the_gate_line_copied_with_its_placeholder_says_what_to_put_there(tmp_path):
    """The ``# gate:`` line of the block the app exports (it has no file name for a sample or an
    upload) names the catalog ``CATALOG``; run as it is, it said only "CATALOG: cannot read file (No
    such file or directory)"."""
    from toolsearch.analysis.recommend import export_block, recommend_for_contexts
    from toolsearch.analysis.sweep import listing_ladder
    from toolsearch.engine.config import parse_config

    inspector = inspector_of([ROOT / "sample_catalogs" / "five-servers.yaml"])
    rec = recommend_for_contexts(listing_ladder(inspector.planner, parse_config({})), parse_config({}), [200_000], "names")
    block = export_block(rec, parse_config({}), catalog_name=inspector.catalog.name, fingerprint="0" * 16, version="0")
    (tmp_path / "config.yaml").write_text(block, encoding="utf-8")
    gate = next(line for line in block.splitlines() if line.startswith("# gate: "))[len("# gate: "):]
    argv = shlex.split(gate)
    assert argv[:3] == ["toolsearch", "check", "CATALOG"]
    done = run_cli(*argv[1:], cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("toolsearch: error: CATALOG: no such file; CATALOG in a '# gate:' line or a usage line "
                           "stands for your catalog files: put their paths in its place\n")
    argv[2] = str(ROOT / "sample_catalogs" / "five-servers.yaml")
    assert run_cli(*argv[1:], cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("args, option", [
    (("check", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k", "--context-lengths", "1m",
      "--goal", "full"), "--context-lengths"),
    (("check", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,1m", "--goal", "full",
      "--goal", "any"), "--goal"),
    (("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k", "--context-lengths", "1m",
      "--goal", "names"), "--context-lengths"),
    (("sweep", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k", "--context-lengths", "1m"),
     "--context-lengths"),
    (("report", "sample_catalogs/team-workspace.yaml", "-o", "r.html", "--context-lengths", "32k",
      "--context-lengths", "1m", "--goal", "names"), "--context-lengths"),
])
def test_an_option_given_twice_is_refused_not_cut_to_the_last(args, option, tmp_path):
    """``check --context-lengths 32k --context-lengths 1m`` gated 1M alone and passed, where 32K
    fails: argparse keeps the last value of a repeated option without a word."""
    done = run_cli(*args, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    hint = f" (one list: {option} {'N,N,...' if option == '--context-lengths' else 'GOAL|LENGTH=GOAL,...'})"
    assert done.stderr == (f"toolsearch {args[0]}: error: argument {option}: given more than once, where only the "
                           f"last would count; give it once{hint}\n")
    assert not (tmp_path / "r.html").exists()


def test_config_given_twice_is_refused(tmp_path):
    done = run_cli("check", ROOT / "sample_catalogs" / "five-servers.yaml", "--config", "a.yaml", "--config", "b.yaml",
                   "--context-lengths", "200k", "--goal", "any", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == ("toolsearch check: error: argument --config: given more than once, where only the last "
                           "would count; give it once\n")


FIVE = str(ROOT / "sample_catalogs" / "five-servers.yaml")
TEAM = str(ROOT / "sample_catalogs" / "team-workspace.yaml")
SESSIONS = str(ROOT / "sample_sessions" / "state.db")


@pytest.mark.parametrize("args, option", [
    (("lint", FIVE, "--config", "a.yaml", "--config", "b.yaml"), "--config"),
    (("eval", TEAM, str(ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml"), "--config", "a.yaml",
      "--config", "b.yaml"), "--config"),
    (("sessions", SESSIONS, "--catalog", FIVE, "--config", "a.yaml", "--config", "b.yaml"), "--config"),
    (("harnesses", FIVE, "--context-lengths", "32k", "--config", "a.yaml", "--config", "b.yaml"), "--config"),
    (("strategies", FIVE, "--config", "a.yaml", "--config", "b.yaml"), "--config"),
    (("diff", FIVE, FIVE, "--config", "a.yaml", "--config", "b.yaml"), "--config"),
    (("diff", FIVE, FIVE, "--config-b", "a.yaml", "--config-b", "b.yaml"), "--config-b"),
    (("check", FIVE, "--baseline", FIVE, "--baseline-config", "a.yaml", "--baseline-config", "b.yaml",
      "--context-lengths", "200k", "--goal", "any"), "--baseline-config"),
])
def test_a_config_file_option_given_twice_is_refused_by_every_command(args, option, tmp_path):
    """As ``check --config a.yaml --config b.yaml``: argparse would read b.yaml alone without a word
    (and ``--baseline-config`` sits beside ``--baseline``, whose files combine)."""
    done = run_cli(*args, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolsearch {args[0]}: error: argument {option}: given more than once, where only the "
                           "last would count; give it once\n")


@pytest.mark.parametrize("args, option, metavar", [
    (("harnesses", FIVE, "--context-lengths", "32k", "--context-lengths", "1m"), "--context-lengths", "N,N,..."),
    (("sessions", SESSIONS, "--catalog", FIVE, "--context-lengths", "32k", "--context-lengths", "1m"),
     "--context-lengths", "N,N,..."),
    (("sweep", FIVE, "--threshold-pcts", "1", "--threshold-pcts", "5"), "--threshold-pcts", "P,P,..."),
    (("sweep", FIVE, "--listing-max-tokens", "1000", "--listing-max-tokens", "5000"), "--listing-max-tokens",
     "M[,M...]"),
])
def test_a_list_option_given_twice_is_refused_by_every_command(args, option, metavar, tmp_path):
    """``harnesses --context-lengths 32k --context-lengths 1m`` answered for 1M alone."""
    done = run_cli(*args, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolsearch {args[0]}: error: argument {option}: given more than once, where only the "
                           f"last would count; give it once (one list: {option} {metavar})\n")


def test_sessions_catalog_given_twice_combines_its_files():
    """``sessions S --catalog a.yaml --catalog b.yaml`` replayed against b.yaml alone; the files
    combine, as they do after one ``--catalog``."""
    japanese = str(ROOT / "sample_catalogs" / "japanese.yaml")
    once = run_cli("sessions", SESSIONS, "--catalog", TEAM, japanese, "--json")
    twice = run_cli("sessions", SESSIONS, "--catalog", TEAM, "--catalog", japanese, "--json")
    assert once.returncode == twice.returncode == 0
    assert json.loads(twice.stdout) == json.loads(once.stdout)
    text = run_cli("sessions", SESSIONS, "--catalog", TEAM, "--catalog", japanese).stdout
    assert text.startswith("sessions: 7 (hermes-db); catalog Team workspace + Japanese servers (220 deferred tools")


def test_snapshot_never_writes_over_the_config_it_reads(tmp_path):
    """``toolsearch snapshot config.yaml -o config.yaml`` replaced the harness config (its
    mcp_servers) with the catalog and exited 0; ``> config.yaml`` failed with "got null". Both are
    refused before any server starts, the first with the file left as it was."""
    config = tmp_path / "config.yaml"
    text = "mcp_servers:\n  gone:\n    command: toolsearch-no-such-command-xyz\n"
    config.write_text(text, encoding="utf-8")
    done = run_cli("snapshot", "config.yaml", "-o", "./config.yaml", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("toolsearch: error: ./config.yaml: -o: that file is a config this snapshot reads; write "
                           "the catalog to another file (e.g. -o catalog.yaml)\n")
    assert config.read_text(encoding="utf-8") == text
    with config.open("w", encoding="utf-8") as out:  # what "> config.yaml" does
        done = subprocess.run([*toolsearch_command(), "snapshot", "config.yaml"], stdout=out, stderr=subprocess.PIPE,
                              text=True, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("toolsearch: error: config.yaml: standard output is redirected onto this config "
                                  "file, so the shell emptied it"), done.stderr


def test_lint_says_where_the_docs_pages_it_cites_are(tmp_path):
    """lint's findings cite ``docs/reference.md §21.5`` and the like; run outside the folder that
    holds ``docs/`` (an installed copy), the last line says where the pages are, as the help does."""
    away = run_cli("lint", ROOT / "sample_catalogs" / "hard-cases.yaml", cwd=tmp_path)
    assert away.returncode == 1 and "(docs/reference.md §21.5)" in away.stdout
    assert away.stdout.endswith(f"\n\nThe docs/ pages named above are in {ROOT / 'docs'}\n"), away.stdout[-300:]
    here = run_cli("lint", "sample_catalogs/hard-cases.yaml", cwd=ROOT)
    assert "The docs/ pages named above" not in here.stdout
    assert away.stdout.startswith(here.stdout.rstrip("\n"))


@pytest.mark.parametrize("args", [
    ("search", FIVE, "-q", ""),
    ("describe", FIVE, "mcp__nowhere__nothing"),
    ("call", FIVE, "mcp__github__create_issue", "-a", '{"title": 3}'),
    ("recommend", FIVE, "--context-lengths", "1k", "--goal", "full"),
    ("check", TEAM, "--context-lengths", "32k,200k", "--goal", "full"),
    ("lint", str(ROOT / "sample_catalogs" / "hard-cases.yaml")),
    ("diff", TEAM, TEAM, "--context-length-a", "200k", "--context-length-b", "32k"),
    ("snapshot", "mcp.json", "-o", "snapshot.yaml"),
], ids=lambda args: args[0])
def test_a_command_that_can_exit_1_says_when_in_its_help_and_the_readme(args, tmp_path):
    """A CI step reads status 1 as its command's verdict: each command that returns it says when, in
    its own --help, in the command list of toolsearch --help, and in the README's table."""
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"down": {"command": str(tmp_path / "absent")}}}),
                                       encoding="utf-8")
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    own = " ".join(run_cli(args[0], "--help").stdout.split())
    assert re.search(r"\bexit (status )?(0 when [^.]*?, )?1 when", own, re.IGNORECASE), own
    summaries: dict[str, str] = {}  # the command list: "    NAME  help", continued deeper indented
    for line in run_cli("--help").stdout.split("positional arguments:", 1)[1].split("options:", 1)[0].splitlines():
        if re.match(r"    \S", line):
            name, _, text = line.strip().partition(" ")
            summaries[name] = text
        elif line.startswith("      ") and summaries:
            summaries[name] += " " + line.strip()
    assert "exit 1" in " ".join(summaries[args[0]].split()), summaries[args[0]]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith(f"| `{args[0]}` |"))
    assert "exit 1" in row, row
    if args[0] == "snapshot":
        assert "down" in yaml.safe_load((tmp_path / "snapshot.yaml").read_text(encoding="utf-8"))["snapshot"]["failed"]


def test_a_shipped_example_read_from_another_folder_gets_no_docs_pages_note(tmp_path):
    """``docs/examples/diff-tuesday.yaml`` run from another folder is read from the shipped copy, and
    the line saying so names its full path; it is a catalog, not a page: the command used to end with
    "the docs/ pages named above are in …" though no page was named. A warning that cites a page
    (docs/reference.md §26.2) still gets the note."""
    done = run_cli("check", "docs/examples/diff-tuesday.yaml", "--context-lengths", "32k", "--goal", "any",
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("toolsearch: docs/examples/diff-tuesday.yaml is not in this folder; reading the shipped "
                           f"sample {ROOT / 'docs' / 'examples' / 'diff-tuesday.yaml'}\n")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"gone": {"command": str(tmp_path / "absent"),
                                                          "args": ["${TOOLSEARCH_UNSET_VAR}"]}}}), encoding="utf-8")
    cited = run_cli("snapshot", "mcp.json", "-o", "out.yaml", cwd=tmp_path)
    assert "(docs/reference.md §26.2)" in cited.stderr, cited.stderr
    assert cited.stderr.endswith(f"toolsearch: note: the docs/ pages named above are in {ROOT / 'docs'}\n")


@pytest.mark.parametrize("output, reason", [
    ("out", "a folder, not a file"),
    ("missing/catalog.yaml", "the folder 'missing' does not exist"),
    ("mcp.json/catalog.yaml", "'mcp.json' is a file, not a folder"),
], ids=["folder", "missing-folder", "file-as-folder"])
def test_snapshot_refuses_an_output_it_cannot_write_before_starting_a_server(output, reason, tmp_path):
    """``snapshot CONFIG -o ci/catalog.yaml`` with no ``ci/`` folder started every server (with its
    secrets), listed their tools, and only then said it could not write the file: the file to write
    is judged first, and no server starts."""
    (tmp_path / "out").mkdir()
    marker = tmp_path / "started"
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"demo": {
        "command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}}}), encoding="utf-8")
    done = run_cli_process("snapshot", "mcp.json", "-o", output, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolsearch: error: {output}: cannot write file ({reason}); no server was started\n"
    assert not marker.exists()
