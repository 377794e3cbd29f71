"""Pieces shared by the command-line modules: the parser class (with "did you mean" hints), the
plan settings arguments and the config they make, live-connection progress, load warnings and the
terminal-safe JSON writer (:func:`print_json`).

Both :mod:`toolsearch.cli.commands` and the subcommand modules import these, so they live here
rather than in ``commands`` (which imports the subcommand modules).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import itertools
import os
import re
import stat
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..engine.invisible import json_text, marker, normalisation_note, quoted, reveal, reveal_line, shortened
from ..analysis.samples import SAMPLE_FOLDERS, samples_dir
from ..analysis.wording import agree, counted
from ..engine import constants as C
from ..engine.config import ToolSearchConfig, load_config, parse_config
from ..engine.errors import ConfigError, ToolsearchError
from ..engine.inspector import Inspector
from .textfmt import headroom_pct, reserve_pct  # noqa: F401 - the --headroom and --reserve types, re-exported for the commands
from .textfmt import RUNNER_ANYWHERE_COMMAND, github_command, one_line, runner_safe, parse_context_length, parse_listing_max_tokens, parse_seconds, parse_threshold_pct

if TYPE_CHECKING:
    from ..engine.scopes import Scope
    from ..live.config_agreement import ServerAgreement

#: Shipped sample paths that :func:`use_shipped_samples` put in place of an argument, each with
#: the argument as the user typed it (``docs/examples/diff-monday.yaml``), for output that names
#: the file.
_TYPED: dict[str, str] = {}


def as_typed(path: str) -> str:
    """``path`` as the user typed it: the argument it came from when it is a shipped sample put in
    its place (:func:`use_shipped_samples`), else ``path`` itself."""
    return _TYPED.get(path, path)


def gate_files(sources: Sequence[str], config_servers: Sequence[tuple[str, Sequence[str]]],
               config: str | None = None) -> dict[str, Any]:
    """The ``catalogs``, ``client_configs`` and ``config_file`` arguments of
    :func:`~toolsearch.analysis.recommend.export_block` for a command's ``sources``: the files as typed,
    the MCP client configs among them (``config_servers`` of
    :class:`~toolsearch.live.client.LoadedSources`), whose tools the block's ``# snapshot:`` line saves
    as the catalog its ``# gate:`` line reads, and the harness config the gate reads: the command's
    ``--config`` as typed (the file the block is merged into), else ``config.yaml``. ``recommend``
    and ``report`` take them from here."""
    return {"catalogs": [as_typed(source) for source in sources],
            "client_configs": [as_typed(path) for path, _ in config_servers],
            "config_file": as_typed(config) if config else "config.yaml"}


def use_shipped_samples(args: argparse.Namespace) -> None:
    """Point ``sample_catalogs/...``, ``sample_sessions/...``, ``sample_skills/...`` and
    ``docs/examples/...`` arguments (or one of those folders itself) that do not exist in the current folder at the shipped samples (the checkout's folders, or the
    copies an installed wheel carries), so the documented commands run from any folder; each one
    replaced is said on stderr. A path that exists here, or that no shipped sample has, is kept, and
    so is every file the command writes (``--output``, ``--export-queries``): never a shipped file."""
    _TYPED.clear()  # a previous command in this process (tests) is not this one's
    for key, value in vars(args).items():
        if key.startswith(("output", "export")):
            continue
        values = value if isinstance(value, list) else [value]
        replaced = []
        for item in values:
            folder = next((f for f in SAMPLE_FOLDERS if isinstance(item, str)
                           and (item.startswith(f + "/") or item == f)), None)  # a file in it, or the folder
            if folder is not None and not Path(item).exists():
                shipped = samples_dir(folder) / item[len(folder) + 1:]
                if shipped.exists():
                    print(f"toolsearch: {item} is not in this folder; reading the shipped sample {shipped}",
                          file=sys.stderr)
                    _TYPED[str(shipped)] = item
                    item = str(shipped)
            replaced.append(item)
        if replaced != values:
            setattr(args, key, replaced if isinstance(value, list) else replaced[0])


#: The arguments that name files to read (``args`` keys), which :func:`missing_sample_error` checks.
INPUT_FILE_KEYS = frozenset({"sources", "catalog", "baseline", "files", "test", "tune", "sessions",
                             "session_sources", "config", "config_a", "config_b", "events", "skills",
                             "query_file", "scope_file", "profile", "profile_a", "profile_b"})


def missing_sample_error(args: argparse.Namespace) -> str | None:
    """The error for an input file that does not exist and is a shipped sample misnamed, after
    :func:`use_shipped_samples`, else ``None``: a sample named without its folder
    (``team-workspace.yaml``, which the README calls the team-workspace catalog) says the path that
    reads it, and a misspelt one under a sample folder (``sample_catalogs/team-workspac.yaml``) the
    nearest shipped name. Other missing files are left to the reader's own message."""
    names_too = getattr(args, "command", None) in ("describe", "call")  # SOURCE... then tool names
    for key, value in vars(args).items():
        if key not in INPUT_FILE_KEYS:
            continue
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            if not isinstance(item, str) or not item or item == "-" or _exists_or_unnamable(item):
                continue
            if "/" not in item and os.sep not in item and _is_query_file(args, key, index, len(items)):
                queries = samples_dir("sample_catalogs") / "queries"
                if (queries / item).is_file():  # a query file shares its catalog's name
                    return (f"{item}: no such file in this folder; the shipped query file of that name is "
                            f"sample_catalogs/queries/{item} (that path reads it from any folder)")
            if names_too and key == "sources" and not item.startswith(SAMPLE_FOLDERS):
                continue
            folder = next((f for f in SAMPLE_FOLDERS if item.startswith(f + "/")), None)
            if folder is not None:  # use_shipped_samples found no shipped file of that name
                shipped = samples_dir(folder)
                names = sorted(p.relative_to(shipped).as_posix() for p in shipped.rglob("*") if p.is_file()) \
                    if shipped.is_dir() else []
                guess = nearest(item[len(folder) + 1:], names)
                if guess is not None:
                    return (f"{item}: no such file here, and no shipped sample of that name; "
                            f"did you mean {folder}/{guess}?")
            elif "/" not in item and os.sep not in item:
                for sample_folder in SAMPLE_FOLDERS:
                    if (samples_dir(sample_folder) / item).is_file():
                        return (f"{item}: no such file in this folder; the shipped sample of that name is "
                                f"{sample_folder}/{item} (that path reads it from any folder)")
    return None


def _exists_or_unnamable(item: str) -> bool:
    """Whether ``item`` names an existing path, or cannot name a file at all (too long for the file
    system, a NUL byte): either way, no shipped sample is meant, and the reader says what it is."""
    try:
        return Path(item).exists()
    except (OSError, ValueError):
        return True


def _is_query_file(args: argparse.Namespace, key: str, index: int, count: int) -> bool:
    """Whether the ``index``-th of ``count`` files under ``key`` is an ``eval`` query file: ``--test``,
    ``--tune``, or the last file without ``--test`` (``eval CATALOG... QUERIES``)."""
    if getattr(args, "command", None) != "eval":
        return False
    return key in ("test", "tune") or (key == "files" and not getattr(args, "test", None) and index == count - 1)


#: How :func:`stdout_onto_input_error` names an input file by the argument that gave it.
_INPUT_WORDS = {"sources": "catalog", "catalog": "catalog", "files": "catalog", "baseline": "--baseline",
                "sessions": "session", "session_sources": "session", "config": "--config"}


def stdout_onto_input_error(args: argparse.Namespace) -> str | None:
    """:func:`refuse_stdout_onto` for every file the command reads (:data:`INPUT_FILE_KEYS`): the
    message for the first one standard output is redirected onto (``recommend catalog.yaml --yaml >
    catalog.yaml``, which the shell emptied), else ``None``."""
    for key, value in vars(args).items():
        if key not in INPUT_FILE_KEYS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item and item != "-":
                try:
                    refuse_stdout_onto(item, _INPUT_WORDS.get(key, "input"))
                except ToolsearchError as exc:
                    return str(exc)
    return None


#: Words that stand for the user's files in the text toolsearch prints (the ``# gate:`` line of
#: ``recommend --yaml``, usage lines): given as they are, they name no file.
PLACEHOLDERS = ("CATALOG", "OLD_CATALOG", "SOURCE", "SOURCE...", "CATALOG...")


def placeholder_error(args: argparse.Namespace) -> str | None:
    """The error for a catalog argument that is a placeholder copied as it is (``toolsearch check
    CATALOG --config config.yaml ...`` from a ``# gate:`` line) and names no file, else ``None``."""
    for key in ("sources", "baseline", "catalog"):
        value = getattr(args, key, None)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item in PLACEHOLDERS and not Path(item).exists():
                return (f"{item}: no such file; {item} in a '# gate:' line or a usage line stands for your catalog "
                        "files: put their paths in its place")
    return None


#: How many servers a refusal names before it counts the rest (each failed server has its own line above it).
SERVERS_NAMED_MAX = 12


def first_names(names: Sequence[str], limit: int = SERVERS_NAMED_MAX) -> str:
    """``names`` joined with commas, the first ``limit`` of them and then ``"and N more"``:
    ``"a, b and 3 more"``; for refusals whose every name has a line of its own above."""
    return ", ".join(names[:limit]) + (f" and {len(names) - limit:,} more" if len(names) > limit else "")


def refuse_unlisted_servers(command: str, side: str, inspector: Inspector | None) -> None:
    """``check`` and ``recommend`` never judge a catalog that lacks a server because it failed to
    start or list its tools (an MCP client config's server that is down, misconfigured or timed
    out): the verdict or the settings would be about another catalog, and one with no tools at all
    passes every goal. ``side``: ``""`` or ``"--baseline: "``.

    Raises:
        ToolsearchError: naming the servers that failed (exit status 2).
    """
    from ..live.client import unlisted_servers  # noqa: PLC0415

    if inspector is None:
        return
    failed, saved = unlisted_servers(inspector.registration.problems, inspector.catalog.problems)
    if saved:
        raise ToolsearchError(f"{command}: {side}{counted(len(saved), 'server')} did not list "
                              f"{agree(saved, 'its', 'their')} tools when the snapshot was taken "
                              f"({first_names(saved)}; above), so the catalog lacks "
                              f"{agree(saved, 'it', 'them')}; take the snapshot again once "
                              f"{agree(saved, 'it lists its', 'they list their')} tools")
    if failed:
        raise ToolsearchError(f"{command}: {side}{counted(len(failed), 'server')} did not list "
                              f"{agree(failed, 'its', 'their')} tools ({first_names(failed)}; "
                              f"{agree(failed, 'the reason is', 'the reasons are')} above), so "
                              f"the catalog is incomplete; fix {agree(failed, 'the server', 'the servers')} or leave "
                              f"{agree(failed, 'it', 'them')} out of the config, or give a catalog toolsearch snapshot "
                              f"saved while {agree(failed, 'it listed its', 'they listed their')} tools (a snapshot "
                              f"taken now records {agree(failed, 'it', 'them')} as failed)")


def refuse_unread_items(command: str, inspector: Inspector) -> None:
    """``check`` and ``recommend`` never judge a catalog file that could not be read whole: a tool
    or server the reader skipped (a catalog error, such as a tool without a name or a server whose
    ``tools`` is not a list), or tools registration refuses (names that sanitize alike: none of them
    is registered), would be missing from the verdict or the settings, and a file whose
    every tool was skipped passes every goal. A catalog with no tools at all (``servers: []``, an
    empty ``tools`` list: an export step that wrote nothing) is refused the same way: it would pass
    every goal with nothing judged. Items repaired with a warning are still judged, and so is a
    ``check --baseline`` (the catalog before a change may be the one being fixed, or not exist yet).

    Raises:
        ToolsearchError: naming the first place and how many there are, or the files of an empty
            catalog (exit status 2).
    """
    from ..live.client import unread_count, unread_items  # noqa: PLC0415

    # the registration's problems hold the reader's and its own: tools whose names sanitize alike
    # ('read-file', 'read_file') are none of them registered, so the harness would lack them too
    unread = unread_items(inspector.registration.problems)
    if unread:
        count = unread_count(inspector.registration.problems)
        more = f" and {count - 1:,} more" if count > 1 else ""
        raise ToolsearchError(f"{command}: {counted(count, 'catalog error')} ({unread[0]}{more}; above): "
                              f"what was skipped would be missing from the {'verdict' if command == 'check' else 'settings'}; "
                              "fix the catalog file")
    refuse_empty_catalog(command, inspector, "every goal would hold with nothing judged")


def refuse_empty_catalog(command: str, inspector: Inspector, because: str) -> None:
    """Refuse a catalog with no tools at all (``servers: []``, every server's ``tools`` empty: an
    export step that wrote nothing): a verdict on it (``check``: every goal holds; ``lint``: no
    finding) would say nothing about the catalog the harness serves. ``because``: what the command
    would say of it (``"every goal would hold with nothing judged"``).

    Raises:
        ToolsearchError: naming the files of the empty catalog (exit status 2).
    """
    from ..analysis.quantities import inspector_empty_words  # noqa: PLC0415

    words = inspector_empty_words(inspector, because)
    if words:
        raise ToolsearchError(f"{command}: {words}")


def warn_empty_catalog(inspector: Inspector) -> None:
    """Say on stderr when the catalog has no tools at all, in the words of
    :func:`refuse_empty_catalog` (``toolsearch: warning: FILES: no tools, so every figure is for an
    empty catalog …``): a command that prints figures for it (``plan``) would otherwise show tier 0
    as if all were well."""
    from ..analysis.quantities import inspector_empty_words  # noqa: PLC0415

    words = inspector_empty_words(inspector)
    if words:
        print(one_line(f"toolsearch: warning: {words}"), file=sys.stderr)


def say_config_warning(warning: str) -> None:
    """One MCP client config warning on stderr (``toolsearch: warning: FILE: PLACE: MESSAGE``, on one
    line), said as soon as the file is read, before any of its servers starts: a URL whose host
    Python and Node programs read differently is named before the program that would reach it runs."""
    print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)


def load_sources(paths: Sequence[str], *, timeout: float | None = None, progress: Any = None,
                 keep_open: bool = False, option: str = "", refuse_configs: str | None = None) -> Any:
    """The SOURCE files of a command, read as every command reads them
    (:func:`toolsearch.live.client.load_sources`: catalog files, and MCP client config files whose
    servers are started and listed, each server's outcome on stderr as it ends; ``timeout``: seconds
    per server when its entry sets none). ``option``: the option the files were given to, for the
    message (``"--baseline"``; ``""`` for the command's SOURCE arguments). ``refuse_configs``: refuse
    an MCP client config before any server starts, with this reason (as the live loader takes it).
    The config files' warnings are said on stderr as each file is read, before any server starts
    (:func:`say_config_warning`), so the returned ``warnings`` holds none of them.

    A config file none of whose servers listed its tools (each one failed to start, connect or list)
    is an unreadable source, like a catalog file that cannot be read: the command would otherwise
    print its figures for an empty catalog as if all were well. The sources' warnings are said on
    stderr before it is refused (the command never gets to say them). A config where some server listed
    is kept, its failed servers warned about (their lines above) and shown where the command shows
    servers.

    Raises:
        ToolsearchError: an unreadable file (:func:`toolsearch.live.client.load_sources`), or a
            config file none of whose servers listed its tools, naming the file and its failed
            servers (exit status 2).
    """
    from ..live.client import is_connect_failure, load_sources as load_live  # noqa: PLC0415

    loaded = load_live(paths, timeout=timeout, progress=live_progress if progress is None else progress,
                       keep_open=keep_open, refuse_configs=refuse_configs, on_warning=say_config_warning)
    unlisted = loaded.unlisted_configs()
    if unlisted:
        if loaded.connections is not None:
            loaded.connections.close()
        # the config files' warnings were said before their servers started (a misspelt key or a
        # placeholder left unset is often why they failed); the catalog's problems are said here
        for problem in loaded.catalog.problems:
            if problem.severity != "info" and not is_connect_failure(problem):
                print(problem_line(problem), file=sys.stderr)
        path, failed = unlisted[0]
        names = first_names([quoted(name) for name in failed])  # each one's line is above
        more = f" (and {counted(len(unlisted) - 1, 'other config file')} likewise)" if len(unlisted) > 1 else ""
        raise ToolsearchError(f"{option + ': ' if option else ''}{path}: no server listed its tools "
                              f"({counted(len(failed), 'server')} failed: {names}; "
                              f"{agree(failed, 'the reason is', 'the reasons are')} above), so nothing was read "
                              f"from it{more}; fix {agree(failed, 'the server', 'the servers')}, or give a catalog "
                              "saved by toolsearch snapshot")
    return loaded


_INVALID_CHOICE = re.compile(r"invalid choice: '?([^'(]*?)'? \(choose from (.*)\)")


def nearest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate closest to a misspelled ``word``: the one it equals but for case (``JSON`` for
    ``json``), else the closest by difflib's ratio (at least 0.6), or ``None``."""
    # the same name but for case, or for Unicode normalisation (é as one character or two)
    folded = unicodedata.normalize("NFC", word).casefold()
    same = [candidate for candidate in candidates if unicodedata.normalize("NFC", candidate).casefold() == folded]
    if same:
        return same[0]
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


#: How close a misspelt option must be to a real one to be named (difflib's ratio of the names
#: without their dashes, which every option shares: ``--rule`` is not near ``--profile``).
OPTION_CUTOFF = 0.7


def nearest_option(flag: str, options: Sequence[str]) -> str | None:
    """The option of ``options`` that a misspelt ``flag`` is near (``--jsn`` → ``--json``,
    ``--gaol`` → ``--goal``), compared without the leading dashes and at least
    :data:`OPTION_CUTOFF` alike, or ``None``."""
    bare = {option.lstrip("-"): option for option in options}
    found = difflib.get_close_matches(flag.lstrip("-"), list(bare), n=1, cutoff=OPTION_CUTOFF)
    return bare[found[0]] if found else None


def did_you_mean(message: str) -> str:
    """A "did you mean" hint for argparse's "invalid choice" message (a misspelled command or
    option value); ``""`` when there is nothing close."""
    match = _INVALID_CHOICE.search(message)
    if match is None:
        return ""
    choices = [c.strip().strip("'\"") for c in match.group(2).split(",")]
    guess = nearest(match.group(1), choices)
    return f"; did you mean '{guess}'?" if guess else ""


#: The output formats some command takes as a flag of its own or a ``--format`` value; given as a flag
#: to a command whose output ``--format`` lacks it, the message says what ``--format`` takes.
OUTPUT_FORMAT_WORDS = ("text", "markdown", "json", "yaml", "csv", "github")


def unrecognized(parser: argparse.ArgumentParser, extra: Sequence[str]) -> str:
    """The message for arguments ``parser`` does not know, naming the nearest option of ``parser``
    for each misspelled flag (``--jsn`` → ``--json``), and ``--format json`` for ``--json`` where the
    output format is ``--format``; for a word that is no option where the command takes files or
    names, that they go before the options (argparse ends a list of them at the first option), and
    how many it takes where that number is fixed."""
    options = [o for action in parser._actions for o in action.option_strings]  # noqa: SLF001 - argparse has no API
    formats = next((action.choices or () for action in parser._actions  # noqa: SLF001
                    if "--format" in action.option_strings), ())
    hints = []
    unknown = []  # flags near no option of the command
    for arg in extra:
        if arg.startswith("-") and not DASH_NUMBER.match(arg):
            flag = arg.split("=", 1)[0]
            if flag.startswith("--") and flag[2:] in formats:  # check --json: its output is --format json
                hints.append(f"did you mean '--format {flag[2:]}' for '{arg}'?")
                continue
            if "text" in formats and flag.startswith("--") and flag[2:] in OUTPUT_FORMAT_WORDS:
                # another command's output format (check --yaml, recommend --csv): the nearest
                # option by spelling (--goal for --yaml) would be no help
                hints.append(f"this command has no {flag[2:]} output: --format takes {', '.join(formats)}")
                continue
            guess = nearest_option(flag, options)
            if guess:
                hints.append(f"did you mean '{guess}' for '{arg}'?")
            elif flag not in unknown:
                unknown.append(flag)
    if unknown:
        names = ", ".join(f"'{flag}'" for flag in unknown)
        hints.append(f"{names} {agree(unknown, 'is not an option', 'are not options')} of {parser.prog} "
                     f"('{parser.prog} --help' lists its options)")
    positionals = [action for action in parser._actions  # noqa: SLF001
                   if not action.option_strings and not isinstance(action, argparse._SubParsersAction)]  # noqa: SLF001
    # a word right after an unknown option is taken for its value ("--listing off"), not a stray name
    stray = [arg for i, arg in enumerate(extra) if not arg.startswith("-")
             and not (i > 0 and extra[i - 1].startswith("-") and "=" not in extra[i - 1])]
    if positionals and stray:
        if parser.usage:  # the command's own short usage
            usage = " ".join(parser.format_usage().split()).removeprefix("usage: ")
        else:
            words = [(action.metavar or action.dest.upper()) + ("..." if action.nargs in ("+", "*") else "")
                     for action in positionals]
            usage = f"{parser.prog} {' '.join(words)} [options]"
        if all(action.nargs in (None, "?") for action in positionals):
            # A command of a fixed number of files: the stray word may be misplaced or one too many
            # (diff A B C), so both are said.
            hints.append(f"files and names go before the options, at most {len(positionals)} of them ({usage})")
        else:
            hints.append(f"files and names go before the options ({usage})")
    return f"unrecognized arguments: {' '.join(extra)}" + (f"; {'; '.join(hints)}" if hints else "")


#: What a command's file arguments are, by the argument's ``dest``, said when none is given.
EXPECTED_FILES = {
    "sources": "a catalog file (YAML/JSON) or an MCP client config",
    "files": "a catalog file (YAML/JSON) or an MCP client config",
    "catalog": "a catalog file (YAML/JSON)",
    "a": "a catalog file (YAML/JSON)",
    "b": "a catalog file (YAML/JSON)",
    "configs": "an MCP client config file",
    "sessions": "a session file (a Hermes state.db, a session export, a trajectory or a transcript)",
}

#: The commands whose ``--format github`` reports bad input as a workflow annotation.
GITHUB_FORMAT_COMMANDS = ("check", "lint")


#: A word that reads as a negative number (``-32k``, ``-5``, ``-1.5``, ``-5,000``, ``-32k,128k``): argparse
#: takes only ``-5`` and ``-1.5`` for a value, and says "expected one argument" for the rest, where the
#: option's own check says what it expects. No option of toolsearch starts with a dash and a digit.
DASH_NUMBER = re.compile(r"^-\.?\d[^\s]*$")


class Parser(argparse.ArgumentParser):
    """argparse with usage errors on one stderr line (DESIGN.md: one-line message, exit 2), and the
    nearest command or value named when one is misspelled. A word that reads as a negative number
    (:data:`DASH_NUMBER`) is the value of the option before it, so the option's check refuses it
    in its own words."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # argparse's own pattern, widened: it decides which words are values, not options
        self._negative_number_matcher = DASH_NUMBER

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        # kept for error(): which words a list option took (a subcommand's parser gets its own)
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):  # type: ignore[override]
        commands = self._commands_list(message)
        if commands is not None:  # bare "toolsearch": what it takes, as --help lists it
            self.exit(2, f"{self.prog}: error: expected a COMMAND, one of:\n{commands}"
                         f"Run '{self.prog} COMMAND --help' for a command's options and examples.\n")
        swallowed = self._swallowed_files(message)
        # one line whatever the arguments held: a newline in an unknown argument is a marker
        line = (f"{reveal_line(message + (swallowed or self._expected_files(message)))}"
                f"{reveal_line(self._misspelt_required(message))}{did_you_mean(message)}")
        title = self._github_title()
        if title is not None:  # as for every other bad input of check/lint --format github
            self._print_message(github_command("error", line, title=title) + "\n", sys.stdout)
        self.exit(2, f"{self.prog}: error: {line}\n")

    def _github_title(self) -> str | None:
        """The annotation title (``toolsearch check: bad input``) when the words given ask ``check``
        or ``lint`` for ``--format github``: a usage error (an unknown goal, a missing option) then
        annotates the pull request too, as the commands' other bad input does. ``None`` otherwise."""
        given = getattr(self, "_given", [])
        words = self.prog.split()
        command = words[1] if len(words) > 1 else next((w for w in given if not w.startswith("-")), None)
        if command not in GITHUB_FORMAT_COMMANDS or "--json" in given:  # --json too: two formats, refused as such
            return None
        for index, word in enumerate(given):
            if word == "--format=github" or (word == "--format" and given[index + 1:index + 2] == ["github"]):
                return f"toolsearch {command}: bad input"
        return None

    def _commands_list(self, message: str) -> str | None:
        """For "the following arguments are required: COMMAND" (no command given): the commands with
        their one-line summaries, formatted as ``--help`` lists them. ``None`` for any other message."""
        if message != "the following arguments are required: COMMAND":
            return None
        subparsers = next((action for action in self._actions  # noqa: SLF001 - argparse has no API
                           if isinstance(action, argparse._SubParsersAction)), None)  # noqa: SLF001
        if subparsers is None:
            return None
        formatter = self._get_formatter()
        formatter._indent()  # noqa: SLF001 - as --help indents them under its heading
        formatter.add_arguments(subparsers._get_subactions())  # noqa: SLF001
        return formatter.format_help()

    def _expected_files(self, message: str) -> str:
        """For "the following arguments are required: SOURCE": what SOURCE is (``; expected SOURCE: a
        catalog file (YAML/JSON) or an MCP client config``), from :data:`EXPECTED_FILES` by the
        argument's name. ``""`` when no file or name argument is missing."""
        required = "the following arguments are required: "
        if not message.startswith(required):
            return ""
        wanted: dict[str, list[str]] = {}
        for name in (name.strip() for name in message[len(required):].split(",")):
            action = next((a for a in self._actions if not a.option_strings and a.metavar == name), None)
            if action is None:
                continue
            what = EXPECTED_FILES.get(action.dest)
            if what is not None:
                if "NAME" in name:  # describe and call: the files, then the tool names
                    what += ", then the tool names"
                wanted.setdefault(what, []).append(name)
        return "".join(f"; expected {' and '.join(names)}: {'each ' if len(names) > 1 else ''}{what}"
                       for what, names in wanted.items())

    def _misspelt_required(self, message: str) -> str:
        """For "the following arguments are required: --context-lengths" when the words given hold
        a flag this command does not know that is close to the missing one (``--context-lenghts``):
        argparse reports the missing option before the unknown one, so the typo itself would go
        unsaid. ``""`` otherwise."""
        required = "the following arguments are required: "
        if not message.startswith(required):
            return ""
        missing = [name.strip() for name in message[len(required):].split(",") if name.strip().startswith("-")]
        if not missing:
            return ""
        known = {o for action in self._actions for o in action.option_strings}
        hints = []
        for word in getattr(self, "_given", []):
            flag = word.split("=", 1)[0]
            if not flag.startswith("--") or flag in known:
                continue
            if self.allow_abbrev and any(option.startswith(flag) for option in known):
                continue  # an abbreviation argparse accepts
            guess = nearest_option(flag, missing)
            if guess:
                hints.append(f"'{flag}' is not an option of this command: did you mean '{guess}'?")
        return f"; {'; '.join(hints)}" if hints else ""

    def _swallowed_files(self, message: str) -> str:
        """For "the following arguments are required: SOURCE" after a list option (``--sessions
        state.db catalog.yaml``): that option took every word up to the next option, the files
        meant as SOURCE included, which the bare argparse message leaves unsaid. ``""`` otherwise."""
        required = "the following arguments are required: "
        if not message.startswith(required):
            return ""
        # a missing file or name (SOURCE), not a missing option (--goal): that is what a list option takes
        missing = next((name.strip() for name in message[len(required):].split(",")
                        if not name.strip().startswith("-")), None)
        if missing is None:
            return ""
        given = getattr(self, "_given", [])
        for action in self._actions:
            if not action.option_strings or action.nargs not in ("+", "*"):
                continue
            for index, word in enumerate(given):
                if word not in action.option_strings:
                    continue
                taken = list(itertools.takewhile(lambda w: not w.startswith("-"), given[index + 1:]))
                if len(taken) > 1:
                    return (f"; {word} takes every file after it up to the next option, so it took "
                            f"{', '.join(taken)}: give {missing} before {word}")
        return ""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's "invalid choice" check, with the value quoted as every message quotes typed or
        untrusted text (:func:`~toolsearch.engine.invisible.quoted`: ``'pla⟨U+001B⟩n'``), where
        argparse's ``repr`` would write ``'pla\\x1bn'``."""
        if action.choices is not None and value not in action.choices:
            shown = quoted(value) if isinstance(value, str) else repr(value)
            raise argparse.ArgumentError(action, f"invalid choice: {shown} (choose from "
                                                 f"{', '.join(map(repr, action.choices))})")

    def format_help(self) -> str:
        """The help, and where the ``docs/`` pages it names are when they are not in the current
        folder (an installed wheel carries them inside the package)."""
        text = super().format_help()
        return text + docs_note() if cites_docs_page(text) else text


#: A documentation page as help texts, warnings and findings cite it (``docs/reference.md``); a
#: shipped example under ``docs/examples/`` is a file to read, named with its full path where it is.
DOCS_PAGE = re.compile(r"\bdocs/[a-z0-9-]+\.md\b")


def cites_docs_page(text: str) -> bool:
    """Whether ``text`` names a ``docs/`` page (:data:`DOCS_PAGE`), so :func:`docs_note` applies."""
    return "docs/" in text and DOCS_PAGE.search(text) is not None


def docs_note() -> str:
    """One line saying where the ``docs/`` pages are, for a help that names one, or ``""`` in the
    folder that holds them (a checkout) and when they were not installed."""
    from ..analysis.samples import docs_elsewhere  # noqa: PLC0415

    folder = docs_elsewhere()
    return f"\nThe docs/ pages named above are in {folder}\n" if folder else ""


class Once(argparse.Action):
    """Store an option's value, refusing it given twice: argparse would keep the last one without a
    word, and ``check --context-lengths 32k --context-lengths 1m`` would gate 1M alone. A list
    option's refusal says to give one comma-separated list."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if getattr(namespace, self.dest, None) is not self.default:
            hint = f" (one list: {self.option_strings[-1]} {self.metavar})" if "," in str(self.metavar) else ""
            parser.error(f"argument {option_string}: given more than once, where only the last would count; "
                         f"give it once{hint}")
        setattr(namespace, self.dest, values)


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the plan settings (context length, threshold_pct, listing_max_tokens, listing, enabled,
    planning tokenizer) to a subcommand parser; :func:`config_from_args` reads them."""
    parser.add_argument("--context-length", type=parse_context_length, default=None, metavar="N",
                        help="model context length in tokens (e.g. 200000, 200k) or 'unknown' (default)")
    parser.add_argument("--threshold-pct", type=parse_threshold_pct, metavar="P",
                        help=f"percent of context for the listing (0-100, default {C.THRESHOLD_PCT_DEFAULT:g})")
    parser.add_argument("--listing-max-tokens", type=parse_listing_max_tokens, metavar="M",
                        help=f"listing budget cap ({C.LISTING_MAX_TOKENS_MIN:,}-{C.LISTING_MAX_TOKENS_MAX:,}, "
                             f"default {C.LISTING_MAX_TOKENS_DEFAULT:,})")
    parser.add_argument("--listing", choices=C.TRI_STATE_VALUES,
                        help="embed the listing of deferred tools in the tool_search description: auto and on do "
                             "(the default), off sends the bridge tools with no listing")
    parser.add_argument("--enabled", choices=C.TRI_STATE_VALUES,
                        help="tool search itself: auto and on defer what can be deferred (the default), off sends "
                             "every tool with its full schema")
    parser.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER,
                        help="tokenizer that decides whether the listing fits (chars4 = the reference's estimate)")


def add_timeout_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--timeout`` (alias ``--connect-timeout``) to a command that reads SOURCE files: seconds
    per live server for start-up + handshake + listing when its config entry sets none, as ``plan``
    takes it; :func:`load_sources` gets it as ``timeout`` (``args.timeout``, ``None`` when not given).
    Adds ``--no-servers`` too (:func:`add_no_servers_argument`)."""
    parser.add_argument("--timeout", "--connect-timeout", dest="timeout", type=parse_seconds, default=None,
                        metavar="SECONDS", help=f"live servers: seconds per server for start-up + handshake + listing "
                                                f"when the config sets no connect_timeout "
                                                f"(default {C.LIVE_CONNECT_TIMEOUT_DEFAULT:g}), as in plan")
    add_no_servers_argument(parser)


#: what ``--no-servers`` says in every command's help
NO_SERVERS_HELP = ("read catalog files only and start no program: an MCP client config given as a catalog is "
                   "refused (exit 2) before any of its servers starts; for jobs that read files a pull request "
                   "may change")


def add_no_servers_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-servers`` (``args.no_servers``) to a command that reads SOURCE files; the command
    passes :func:`server_refusal` of its arguments to :func:`load_sources`."""
    parser.add_argument("--no-servers", action="store_true", help=NO_SERVERS_HELP)


def server_refusal(args: argparse.Namespace, option: str = "") -> str | None:
    """Why an MCP client config among a command's files is refused before any server starts
    (``refuse_configs`` of :func:`load_sources`), or ``None`` when servers may start: given
    ``--no-servers``, the end of the exit-2 message (which names the file). ``option``: the option
    the files were given to (``"--baseline"``), ``""`` for the command's SOURCE arguments."""
    if getattr(args, "no_servers", False):
        return (f"--no-servers starts no program: give {option + ' ' if option else ''}the catalog "
                f"'toolsearch snapshot' saves from it instead")
    return None


GOAL_HELP = ("full: every tool with its short description; names: every server at names or better; listed: tier 1 "
             "(tool names listed); any: some listing. One goal for every length, or one per length: "
             "32k=names,200k=full,1m=full; a goal first applies to the lengths not named: names,1m=full")
#: ``--reserve``'s help, the same on ``recommend`` and ``check``.
RESERVE_HELP = ("keep at least PCT %% of every context length free of the tools array, for the system prompt, the "
                "conversation and the reply (0 to 90; default 0: the tools array may take the whole context); a "
                "setting whose request leaves less is not recommended, and check fails it")


def refuse_stdout_onto(path: str | Path, option: str) -> None:
    """Refuse an input file that standard output is redirected onto (``--config config.yaml >
    config.yaml``): the shell emptied it before the command could read it, so the command would
    read nothing and write its output over the user's file without a word. (Appending with ``>>``
    leaves the file as it was, and is not refused.)

    Raises:
        ToolsearchError: standard output is ``path`` (exit status 2).
    """
    try:
        out, given = os.fstat(sys.__stdout__.fileno()), os.stat(path)
    except (OSError, AttributeError, ValueError):  # no real stdout (tests), or no such file: read as usual
        return
    same = stat.S_ISREG(out.st_mode) and (out.st_dev, out.st_ino) == (given.st_dev, given.st_ino)
    if same and given.st_size == 0:  # ">>" keeps the file: the command reads it, and appends
        raise ToolsearchError(f"{path}: standard output is redirected onto this {option} file, so the shell emptied "
                              "it before it could be read; restore it (from version control or a backup) and write "
                              "the output to another file")


def input_written_over(output: str | Path | None, inputs: Sequence[tuple[str, str | Path]]) -> str | None:
    """What ``output`` (an ``-o``-style file) would write over among ``inputs`` (``(what, path)``,
    e.g. ``("the catalog", "team.yaml")``): the ``what`` of the first input that is the same file
    (a link or another spelling of the path included); ``None`` when it is none of them, or does
    not exist yet."""
    if not output or not Path(output).exists():
        return None
    for what, path in inputs:
        try:
            if Path(path).exists() and Path(output).samefile(path):
                return what
        except OSError:
            continue
    return None


def load_harness_config(path: str | Path) -> ToolSearchConfig:
    """:func:`~toolsearch.engine.config.load_config` of ``path``, with the secrets of the MCP servers
    the same file configures (Hermes' ``config.yaml`` holds ``mcp_servers`` beside
    ``tools.tool_search``) masked in its warnings: a warning quotes a value it could not use, and a
    token pasted into the wrong place of the file is still that server's token.

    Raises:
        ConfigError: as :func:`~toolsearch.engine.config.load_config`.
    """
    config = load_config(path)
    if not config.warnings:
        return config
    from ..live.client import config_file_secrets  # noqa: PLC0415
    from ..engine.secrets import scrub_text  # noqa: PLC0415

    secrets = config_file_secrets(path)
    if not secrets:
        return config
    # a warning quotes a value with its invisible characters as markers: a secret holding one is
    # searched for in that form too
    secrets = [*secrets, *(shown for shown in dict.fromkeys(map(reveal_line, secrets)) if shown not in secrets)]
    return dataclasses.replace(config, warnings=tuple(scrub_text(warning, secrets) for warning in config.warnings))


def config_from_args(args: argparse.Namespace) -> ToolSearchConfig:
    """The ``tools.tool_search`` settings: ``--config``'s block (else the defaults) with the flags
    given on top.

    Raises:
        ConfigError: an unreadable or invalid config file or flag value.
    """
    if args.config:
        refuse_stdout_onto(args.config, "--config")
    try:
        config = load_harness_config(args.config) if args.config else parse_config({})
    except ConfigError as exc:
        if not args.config or Path(args.config).exists():
            raise
        # the gate line recommend prints names the harness config.yaml, which holds the block only
        # once it is merged: say what the file is, not only that it is missing
        raise ConfigError(f"{exc}; --config takes the harness config (config.yaml, with the tools.tool_search "
                          "block merged in) or the file `recommend --yaml` wrote") from None
    overrides = {key: getattr(args, key, None) for key in ("threshold_pct", "listing_max_tokens", "listing", "enabled")}
    if isinstance(overrides.get("listing_max_tokens"), list):
        overrides["listing_max_tokens"] = None
    return with_flags(config, overrides)


def with_flags(config: ToolSearchConfig, overrides: dict, options: Mapping[str, str] | None = None) -> ToolSearchConfig:
    """``config`` with the settings flags ``overrides`` (``None``: not given) on top. The config
    file's warnings still hold, except those about a key a flag replaced; the flags' own warnings
    follow them, naming the option as typed (``--threshold-pct 150 is outside 0..100, …``), not a
    config key the user never wrote. ``options``: the option of each key, when not ``--KEY`` with
    ``-`` for ``_`` (``diff``'s ``--threshold-pct-a``)."""
    if not any(v is not None for v in overrides.values()):
        return config
    given = [key for key, value in overrides.items() if value is not None]
    # The file's warnings still hold, except those about a key a flag replaced.
    # (the file's warnings start with its name and line: "config.yaml: line 3: tools.tool_search.KEY: ...")
    kept = [(w.text, (w.file, w.line) if w.file is not None else None) for w in config.located_warnings()
            if not any(w.text.startswith(f"tools.tool_search.{key}:") or f": tools.tool_search.{key}:" in w.text
                       for key in given)]
    overridden = config.with_overrides(**overrides)
    flagged = [(flag_warning(w, overrides, options), None) for w in overridden.warnings]  # a flag has no file
    merged: dict[str, Any] = {}
    for warning, place in [*kept, *flagged]:
        merged.setdefault(warning, place)  # each warning once, with the place it was first said at
    return dataclasses.replace(overridden, warnings=tuple(merged), warning_places=tuple(merged.values()),
                               read_as_default=tuple(key for key in config.read_as_default if key not in given))


def flag_warning(warning: str, overrides: Mapping[str, Any], options: Mapping[str, str] | None = None) -> str:
    """A warning the config parser gave a flag's value (``tools.tool_search.KEY: 'VALUE' …``), as
    the option the user typed (``--KEY VALUE …``); any other warning as it is. ``overrides``: the
    flags' values by key (``None``: not given); ``options``: the option of a key when not ``--KEY``
    with ``-`` for ``_``."""
    from ..engine.config import shown_value  # noqa: PLC0415

    for key, value in overrides.items():
        head = f"tools.tool_search.{key}: {shown_value(value)} "
        if value is not None and warning.startswith(head):
            option = (options or {}).get(key) or "--" + key.replace("_", "-")
            typed = getattr(value, "typed", None)  # the text as typed (read_budget_value), cut when long
            typed = (shortened(typed.strip()) if typed is not None else
                     f"{value:g}" if isinstance(value, float) else typed_whole(value))
            return f"{option} {typed} {warning[len(head):]}"
    return warning


def typed_whole(value: Any) -> str:
    """A whole-number option's value (an ``int`` or its digits, as ``--listing-max-tokens`` hands
    them on) as a warning names it: as written up to 15 digits
    (``60000``), past that in exponent form (``1e+400``: a value given as ``1e400`` is not
    repeated as 401 digits)."""
    digits = str(value).lstrip("-")
    if not isinstance(value, bool) and digits.isdigit() and digits.isascii() and len(digits) > 15:
        from decimal import Context  # noqa: PLC0415

        return format(Context(prec=6).create_decimal(value).normalize(), "g")
    return str(value)


def empty_query_warning(queries: Sequence[str], option: str = "-q") -> str | None:
    """One warning line (without the ``toolsearch: warning:`` prefix) for the queries of ``option``
    that are empty after trimming, which ``tool_search`` drops without a word (docs/reference.md
    §6): each named with its place; when every query is empty, that the bridge answers with an
    error instead. ``None`` when no query is empty."""
    blank = [(number, query) for number, query in enumerate(queries, 1) if not query.strip()]
    if not blank:
        return None
    named = ", ".join(f"{option} {quoted(query)} (query {number} of {len(queries)})" for number, query in blank)
    if len(blank) == len(queries):
        return (f"skipped empty {'query' if len(blank) == 1 else 'queries'}: {named}: tool_search drops a query that is "
                "empty after trimming (docs/reference.md §6), and with none left it answers with an error")
    left = len(queries) - len(blank)
    return (f"skipped empty {'query' if len(blank) == 1 else 'queries'}: {named}: tool_search drops a query that is "
            f"empty after trimming (docs/reference.md §6) and searched the other {counted(left, 'query', 'queries')}")


def problem_line(problem: Any, label: str = "", prefix: str = "toolsearch: ") -> str:
    """One catalog problem as stderr says it, ``toolsearch: catalog SEVERITY LABEL: WHERE: MESSAGE``,
    on one line (:func:`~toolsearch.cli.textfmt.one_line`): the place names the file, and a file
    name may hold a line break (git keeps one), which would start a line of its own, such as a CI
    runner's ``::error::`` command. ``label`` (e.g. ``" (A)"``) follows the severity."""
    return one_line(f"{prefix}catalog {problem.severity}{label}: {problem.where}: {problem.message}")


def report_loaded(warnings: Sequence[str], config: ToolSearchConfig | None, inspector: Inspector) -> None:
    """Config and catalog warnings on stderr (live connect failures were reported as they happened).
    ``config``: ``None`` when its warnings were said already (a second catalog read with the same
    settings, such as ``check --baseline``)."""
    for warning in [*warnings, *(config.warnings if config is not None else ())]:
        print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
    for problem in reported_problems(inspector):
        print(problem_line(problem), file=sys.stderr)


def reported_problems(inspector: Inspector) -> list[Any]:
    """The catalog problems :func:`report_loaded` says: not the ``info`` ones, nor live connect
    failures (reported as they happened)."""
    from ..live.client import is_connect_failure  # noqa: PLC0415

    return [p for p in inspector.registration.problems if p.severity != "info" and not is_connect_failure(p)]


def note_unused_settings(settings_files: Sequence[str], config_path: str | None) -> None:
    """Say on stderr when a source is a harness config that holds a ``tools.tool_search`` block
    and ``--config`` does not name it: its servers are listed, but its settings are not read, so
    the figures are for the defaults (or another file's settings) and a gate would check those."""
    for path in settings_files:
        if config_path is not None and Path(config_path).resolve() == Path(path).resolve():
            continue
        used = f"the settings of {config_path}" if config_path else "the default settings"
        print(f"toolsearch: note: {path} holds a tools.tool_search block, but a file given as a source only "
              f"lends its servers: this run uses {used}; add --config {path} to use the block", file=sys.stderr)


def scopes_reach(agreement: ServerAgreement, inspector: Inspector, scopes: Sequence[Scope]) -> frozenset[str] | None:
    """The servers any of ``scopes`` reaches, among the catalog's (``inspector``'s whole catalog,
    zero-tool servers included) and the servers ``agreement``'s config starts that the catalog lacks
    (read as MCP servers, which is what a config starts); ``None`` for no scope (every server)."""
    if not scopes:
        return None
    kinds = {**{name: "mcp" for name in agreement.not_in_catalog}, **inspector.full_registration.server_kinds}
    return frozenset().union(*(scope.server_names(kinds) for scope in scopes))


def agreement_in_scope(agreement: ServerAgreement, inspector: Inspector,
                       scopes: Sequence[Scope] | None = None) -> ServerAgreement:
    """``agreement`` about the servers the session scopes reach only (``scopes``; by default the
    scope of ``inspector``, none for the whole catalog): a scoped answer is not about the others.
    Unchanged without a scope."""
    if scopes is None:
        scopes = [inspector.scope] if inspector.scope is not None else []
    reached = scopes_reach(agreement, inspector, scopes)
    return agreement if reached is None else agreement.within(reached.__contains__)


def _scope_names(scopes: Sequence[Scope]) -> str:
    """``scope 'support'`` or ``scopes 'support', 'ops'``, for a line about the scopes in use."""
    return f"scope{'s' if len(scopes) > 1 else ''} " + ", ".join(quoted(scope.name) for scope in scopes)


def config_servers_said(config_path: str | None, inspector: Inspector, *, empty: bool = True,
                        scopes: Sequence[Scope] = ()) -> ServerAgreement:
    """How the MCP servers the harness config ``--config`` sets up agree with the catalog's
    (:func:`toolsearch.live.config_agreement.server_agreement`: servers the catalog lacks, servers
    set up otherwise than the catalog was listed with, MCP servers the config does not configure),
    each way they disagree said on stderr in one warning line: the figures are for servers the
    harness does not run as counted, and ``check --strict`` refuses to gate on them. The catalog's
    servers with no tools (:func:`empty_servers`, with or without ``--config``) get a warning of
    their own after the first (servers the catalog lacks), for the same reason: they are in the
    catalog but take no room (``empty=False``: not said, for ``lint``, whose ``server-empty`` finding
    says it). Without ``--config`` the agreement is empty.

    With session ``scopes`` (``--scope``), the figures are the scopes' own: the warnings name and
    count only the servers a scope reaches (:func:`scopes_reach`), and one note counts the servers
    outside them that a warning would have named. Returns the whole catalog's agreement either way
    (callers narrow it to their scope with :func:`agreement_in_scope`)."""
    from ..live.config_agreement import server_agreement  # noqa: PLC0415

    agreement = server_agreement(config_path, inspector.scoped(None).catalog)
    reached = scopes_reach(agreement, inspector, scopes)
    shown = agreement if reached is None else agreement.within(reached.__contains__)
    said = shown.sentences()
    if shown.not_in_catalog:
        print(one_line(f"toolsearch: warning: {said.pop(0)}"), file=sys.stderr)
    no_tools = empty_servers(inspector) if empty else []
    if not inspector.scoped(None).registration.tools:  # no tools at all: the commands say that instead
        no_tools = []
    no_tools_shown = [name for name in no_tools if reached is None or name in reached]
    if no_tools_shown:
        print(one_line(f"toolsearch: warning: {empty_server_words(no_tools_shown, config_path)}"), file=sys.stderr)
    for sentence in said:
        print(one_line(f"toolsearch: warning: {sentence}"), file=sys.stderr)
    if reached is not None:
        named = {*agreement.not_in_catalog, *(name for name, _ in agreement.set_up_otherwise),
                 *agreement.not_in_config, *no_tools}
        outside = len(named - reached)
        if outside:
            print(one_line(f"toolsearch: note: the warnings about servers are for the servers {_scope_names(scopes)} "
                           f"{'reach' if len(scopes) > 1 else 'reaches'}; {counted(outside, 'more server')} outside "
                           f"{'them' if len(scopes) > 1 else 'it'} {'has' if outside == 1 else 'have'} warnings of "
                           "the whole catalog (run without --scope to see them)"), file=sys.stderr)
    return agreement


def with_server_agreement(rec: Any, agreement: ServerAgreement | None, inspector: Inspector | None = None,
                          config: ToolSearchConfig | None = None) -> Any:
    """``rec`` (a :class:`~toolsearch.analysis.recommend.MultiRecommendation`) saying how the harness
    config's MCP servers disagree with the catalog's (``agreement`` from :func:`config_servers_said`):
    its ``config_servers`` sentences and why ``check --strict`` refuses its gate line
    (``gate_refused``), wherever the answer is read (text, ``--yaml``, markdown, ``--json``, the
    report). ``config``: the settings ``--config`` was read as; a warning about that file (a
    misspelt key) makes ``check --strict`` refuse the gate too, and ``gate_refused`` then says so
    after any server disagreement (:func:`~toolsearch.analysis.config_gate.config_warning_gate_words`).
    For a session scope (``inspector.scope``) only the servers the scope reaches are said
    (:func:`agreement_in_scope`), and there is no gate line, so no ``gate_refused``; nor when the goal
    is not reached (no gate line either). ``rec`` unchanged (``None`` too) when they agree, there is
    no agreement and the config file has no warning."""
    from ..analysis.config_gate import config_warning_gate_words  # noqa: PLC0415

    if rec is None:
        return rec
    scope = inspector.scope if inspector is not None else None
    gated = rec.reached and scope is None  # gate_lines writes a gate command only then
    if agreement is not None and inspector is not None:
        agreement = agreement_in_scope(agreement, inspector)
    if agreement is not None and not agreement.agrees:
        rec = dataclasses.replace(rec, config_servers=tuple(agreement.sentences()),
                                  gate_refused=agreement.gate_words if gated else "")
    warned = config_warning_gate_words(config) if config is not None and gated else ""
    if warned:
        rec = dataclasses.replace(rec, gate_refused="; and ".join(filter(None, (rec.gate_refused, warned))))
    return rec


def empty_servers(inspector: Inspector) -> list[str]:
    """The catalog's servers that register no tools (a snapshot whose ``tools/list`` came back
    empty, ``tools: []``), in catalog order: such a server takes no room in the listing and no goal
    counts it, so a figure or a gate would say nothing about it unless told. A server whose tools
    the config's include/exclude leaves out is not one (its list is not empty), nor one whose tool
    entries the reader skipped (``Server.skipped``: a catalog error line says what is missing there)."""
    from ..analysis.quantities import servers_without_tools  # noqa: PLC0415

    return list(servers_without_tools(inspector))


def empty_server_words(empty: Sequence[str], config_path: str | None = None) -> str:
    """What :func:`config_servers_said` says of :func:`empty_servers`, without the ``toolsearch:
    warning:`` prefix."""
    from ..live.client import config_file_servers  # noqa: PLC0415

    one = len(empty) == 1
    names = ", ".join(quoted(name) for name in empty)
    # the snapshot hint names --config only when that file starts the servers; a settings-only file
    # (just tools.tool_search) lists nothing, so the hint says what kind of file would
    configured = set(config_file_servers(config_path)) if config_path else set()
    if config_path and set(empty) <= configured:
        hint = f"toolsearch snapshot {config_path} -o CATALOG"
    elif config_path:
        why = ("configures no MCP server" if not configured
               else f"does not configure {'it' if one else 'them all'}")
        hint = (f"toolsearch snapshot CONFIG -o CATALOG, CONFIG being the harness or MCP client config that "
                f"starts {'it' if one else 'them'}: {config_path} {why}")
    else:
        hint = "toolsearch snapshot CONFIG -o CATALOG"
    return (f"{'server ' + names + ' lists' if one else f'{len(empty):,} servers list'} no tools in the catalog"
            f"{'' if one else f' ({names})'}: {'it takes' if one else 'they take'} no room in the listing and no goal "
            f"counts {'it' if one else 'them'}; if {'it has' if one else 'they have'} tools, list them into the catalog "
            f"again ({hint})")


#: The stream the last progress line went to, and that line's width (see rewrite_progress_line).
_progress_line: list = [None, 0]


def rewrite_progress_line(text: str, end: str = "") -> None:
    """Rewrite the current line of stderr with ``text`` (a carriage return, then the text), then
    ``end``. The carriage return reaches the terminal even through the command's terminal-safe
    stream, which shows every other control character as a marker (``⟨U+001B⟩``). A text shorter than the one
    it replaces is padded with spaces, so no tail of the longer one stays on the screen
    ("no-gate 1/18 tasks" after "reference 18/18 tasks" read "no-gate 1/18 taskssks")."""
    previous = _progress_line[1] if _progress_line[0] is sys.stderr else 0
    _progress_line[:] = [sys.stderr, 0 if "\n" in end else len(text)]
    text = text.ljust(previous)
    rewrite = getattr(sys.stderr, "rewrite_line", None)  # the CLI's terminal-safe stream
    if callable(rewrite):
        rewrite(text)
    else:
        sys.stderr.write("\r" + text)
    print(end, end="", file=sys.stderr, flush=True)


def live_progress(status) -> None:
    """Final per-server lines on stderr while servers connect."""
    if status.done:
        print(f"toolsearch: live: {status.summary()}", file=sys.stderr, flush=True)


def dumps_json(value: Any, indent: int | None = 2) -> str:
    """``value`` as JSON text that is safe to print on a terminal
    (:func:`toolsearch.engine.invisible.json_text`: invisible characters, controls and lone
    surrogates as ``\\uXXXX`` escapes; ``json.loads`` gives back ``value`` exactly). A ``##[`` or
    ``##vso[`` inside a string (a CI runner's command anywhere in a line of its log,
    :data:`~toolsearch.cli.textfmt.RUNNER_ANYWHERE_COMMANDS`) is written ``##\\u005b``,
    ``##vso\\u005b``: the same value parsed, not a command in the log."""
    # '#' is only ever inside a string, and a string's '[' may be written as \u005b
    return RUNNER_ANYWHERE_COMMAND.sub(lambda m: m.group()[:-1] + "\\u005b", json_text(value, indent))


#: What a spreadsheet reads as the start of a formula when a cell begins with it (or a tab or
#: carriage return before one).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def write_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Write ``header`` and ``rows`` as CSV on stdout (:func:`write_data`). A text cell (or column name) from a
    catalog has its invisible characters written as the markers every other surface shows
    (:func:`toolsearch.engine.invisible.reveal`: a bidi control as ``⟨U+202E⟩``, which a spreadsheet
    would otherwise obey and show the cell reordered, a zero-width character as ``⟨U+200B⟩``, TAG text
    decoded, a control character as ``⟨U+001B⟩``, a carriage return and the line and paragraph separators
    U+2028/U+2029 as ``⟨U+2028⟩``…; newline and tab are kept, CSV quotes them) and each
    ``##[`` or ``##vso[`` in it as ``#⟨U+0023⟩[``, ``#⟨U+0023⟩vso[`` (a CI runner's command
    anywhere in a line, :func:`~toolsearch.cli.textfmt.legacy_command_safe`), a ``::`` that starts one
    of its lines as ``⟨U+003A⟩:`` (:func:`~toolsearch.cli.textfmt.runner_safe`: a line break kept in a
    quoted cell starts a line of the log), and one that a
    spreadsheet would run as a formula (``=HYPERLINK(…)``, ``@SUM(…)``, ``+1``, ``-1+1``) gets a
    leading ``'``, which spreadsheets read as "this is text"; numbers are written as they are."""
    import csv  # noqa: PLC0415
    import io  # noqa: PLC0415

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    def cell(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        # ESC as ⟨U+001B⟩ and U+202E as ⟨U+202E⟩, as every surface writes them (a spreadsheet obeys a
        # bidi control and shows the cell reordered); '##vso[' as '#⟨U+0023⟩vso[': a CSV printed
        # into a CI log is lines of that log, and an Azure agent has no way to turn its commands off.
        # A line break CSV keeps inside a quoted cell starts a log line too: each line's leading '::'
        # is marked as a text line's is (a cell's first line may start a row)
        # U+2028/U+2029 are line breaks only to some readers (a spreadsheet shows none, an editor
        # breaks the line there): marked, as the text output and --json mark them; newline and tab stay
        value = reveal(value).replace("\u2028", marker("\u2028")).replace("\u2029", marker("\u2029"))
        value = "\n".join(runner_safe(line) for line in value.split("\n"))
        return "'" + value if value.startswith(_FORMULA_START) else value

    writer.writerow([cell(name) for name in header])  # a server's name heads its column in sweep
    writer.writerows([cell(value) for value in row] for row in rows)
    write_data(out.getvalue())


def write_data(text: str) -> None:
    """Write data meant for a file or a program (CSV, a catalog) on stdout: controls are escaped
    but format characters are kept as they are (``TerminalSafeStream.write_data`` in
    :mod:`toolsearch.cli.commands`; a plain stream writes ``text`` as is)."""
    getattr(sys.stdout, "write_data", sys.stdout.write)(text)


#: The exit status the running command decided before printing its output (:func:`decided`).
_DECIDED = [0]


def decided(status: int) -> int:
    """Record ``status``, the exit status a command has decided before it prints its output, and
    return it. A reader that stops early (``| head``, a job that closes the pipe) then cuts the
    output short but not the verdict: the command still exits with ``status``
    (:func:`broken_pipe_status`), so a gate that failed never exits 0 for it."""
    _DECIDED[0] = status
    return status


def broken_pipe_status() -> int:
    """The exit status of a command whose standard output was closed while it printed: the status
    it decided (:func:`decided`) before printing, else 0."""
    return _DECIDED[0]


def forget_decided_status() -> None:
    """Start a command with no decided status (tests run several commands in one process)."""
    _DECIDED[0] = 0


def print_json(value: Any, indent: int | None = 2) -> None:
    """Print :func:`dumps_json` of ``value`` on stdout (every ``--json`` output goes through this)."""
    print(dumps_json(value, indent))


def goal_for(command: str, args: argparse.Namespace, inspector: Inspector) -> tuple[str, tuple]:
    """The goal of ``args`` (``--goal``, ``--context-lengths``, ``--except``, ``--keep``) checked
    against the catalog: ``(goal, per-length goals)`` as
    :func:`toolsearch.analysis.recommend.recommend_for_contexts` takes them.

    Raises:
        ToolsearchError: a server of ``--except`` / ``--keep`` that the catalog lacks, a server
            given to both, a server of ``--keep`` with no tools registered, or a per-length goal
            for a length not listed (exit status 2); each message starts with ``command``.
    """
    known = [server.name for server in inspector.catalog.servers]
    whole = set(inspector.full_registration.server_kinds) | {t.server for t in inspector.full_registration.tools}
    for option, names in (("--except", args.except_servers), ("--keep", args.keep_servers)):
        for name in names:
            if name not in known and inspector.scope is not None and name in whole:
                # the catalog has it, the session does not: say so, not "no server named"
                reach = ", ".join(known) or "no server"
                raise ToolsearchError(f"{command}: {option}: server {quoted(name)} is outside the session scope "
                                      f"{quoted(inspector.scope.name)} (it reaches {reach}); give the scope's servers only")
            if name not in known:
                shown = ", ".join(known[:12]) + (f" and {len(known) - 12} more" if len(known) > 12 else "")
                parts = [part.strip() for part in name.split(",")]
                # "--keep github,slack" reads as one name: each option takes one server
                one_each = (f"; one server per {option}: {' '.join(f'{option} {part}' for part in parts)}"
                            if len(parts) > 1 and all(part in known for part in parts) else "")
                # a misspelt name gets the nearest one, which the list may not show (12 at most)
                guess = nearest(name, known)
                near = f"; did you mean {quoted(guess)}?" if guess and len(parts) == 1 else ""
                if near and normalisation_note(name, guess):  # the two would print alike
                    near += f" {normalisation_note(name, guess)}"
                raise ToolsearchError(f"{command}: {option}: no server named {quoted(name)} in the catalog (servers: "
                                      f"{shown}){one_each}{near}")
    both = sorted(set(args.except_servers) & set(args.keep_servers))
    if both:
        raise ToolsearchError(f"{command}: {', '.join(both)}: a server cannot be given to both --except and --keep "
                              "(--except lets it collapse, --keep keeps it named); give it to the one you mean")
    registered = {t.server for t in inspector.registration.tools}
    for name in args.keep_servers:
        if name not in registered:  # nothing of it reaches the model: "kept named" would hold with nothing named
            raise ToolsearchError(f"{command}: --keep: server {quoted(name)} has no tools in this catalog, so no listing "
                                  "names it; fix the server (a missing key or permission often empties its list) "
                                  f"or drop --keep {name}")
    try:
        return args.goal.resolve(args.context_lengths)
    except ValueError as exc:
        raise ToolsearchError(f"{command}: --goal: {exc}") from None


def keep_for(command: str, args: argparse.Namespace, inspector: Inspector,
             evidence: SessionEvidence | None) -> tuple[list[str], Any]:
    """The servers the goal keeps named: ``--keep``, and with ``--keep-called`` every server whose
    deferred tools the sessions of ``--sessions`` called (:func:`toolsearch.analysis.recommend.keep_called`
    on ``evidence``, the called tools ``called_listed`` counts). Returns ``(keep servers,
    KeepCalled or None)``; the called tools no server of this catalog can be kept for are said on
    stderr, one line: the only warning that names them (:func:`read_session_evidence` leaves them
    to it), each tool once, with why it is not counted and its server.

    Raises:
        ToolsearchError: ``--keep-called`` without ``--sessions`` (exit status 2).
    """
    from ..analysis.recommend import keep_called  # noqa: PLC0415

    if not getattr(args, "keep_called", False):
        return list(args.keep_servers), None
    if evidence is None:
        raise ToolsearchError(f"{command}: --keep-called: needs --sessions SRC: the servers it keeps named are those "
                              "whose tools the recorded sessions called")
    kept = keep_called(evidence.called, evidence.uncounted, [s.name for s in inspector.scoped(None).catalog.servers],
                       args.keep_servers, args.except_servers, evidence.sessions_read)
    said = kept.not_keepable_words()
    if said:
        print(one_line(f"toolsearch: warning: --keep-called: {said}"), file=sys.stderr)
    return list(kept.keep_servers(args.keep_servers)), kept


@dataclasses.dataclass(frozen=True)
class SessionEvidence:
    """What ``--sessions`` read, for ``recommend`` and ``report``: the deferred tools the sessions
    called (:func:`toolsearch.analysis.sessions.called_tools`), the called names the session does
    not defer and why (:func:`toolsearch.analysis.sessions.uncounted_calls`: outside the session
    scope, or not deferred by this catalog), how many sessions were read, the catalog drift check,
    what it means that sessions were recorded by the released Hermes Agent (empty when none was),
    and each session's recorded context length (:func:`toolsearch.analysis.sessions.recorded_lengths`)."""

    called: list
    uncounted: Any
    sessions_read: int
    drift: Any
    note: str = ""
    lengths: Any = None


def read_session_evidence(sources: Sequence[str], inspector: Inspector, config: ToolSearchConfig,
                          secrets: Sequence[str] = (), keep_called: bool = False) -> SessionEvidence:
    """Read recorded sessions as evidence for a recommendation on ``inspector``'s catalog; every
    session skipped, a catalog drift and the called tools the catalog does not defer are said on
    stderr, one line each (the same lines for every command that takes ``--sessions``), tool names
    as shown (:func:`toolsearch.analysis.sessions.shown_name`). ``secrets``: the values of the MCP
    client config the catalog was listed from (:meth:`toolsearch.live.client.LoadedSources.secret_values`),
    masked in the sessions (:func:`toolsearch.analysis.sessions.scrub_sessions`). With
    ``keep_called`` (``--keep-called``) the called tools the catalog does not defer are not said
    here: :func:`keep_for` says them in its one warning, with their servers (one warning, each tool
    named once).

    Raises:
        ToolsearchError: a source that cannot be read at all (exit status 2).
    """
    from ..analysis.recommend import session_drift_words  # noqa: PLC0415
    from ..analysis.sessions import (called_tools, catalog_drift, load_sessions,  # noqa: PLC0415
                                     recorded_lengths, released_hermes_sessions, released_hermes_words,
                                     scrub_sessions, uncounted_calls)

    loaded = scrub_sessions(load_sessions(sources), secrets, keep=inspector.full_registration.by_name())
    for problem in loaded.problems:
        print(one_line(f"toolsearch: skipped: {problem}"), file=sys.stderr)
    if not loaded.sessions:  # an empty store, or the store of another Hermes home: say so, not "called nothing"
        print(one_line(f"toolsearch: warning: no session in {', '.join(map(str, sources))}: --sessions adds no "
                       "evidence"), file=sys.stderr)
    released = released_hermes_sessions(loaded.sessions)
    note = released_hermes_words(released, len(loaded.sessions)) if released else ""
    if note:
        print(f"toolsearch: note: {note}", file=sys.stderr)
    called, not_in_catalog = called_tools(loaded.sessions, inspector, config)
    # The same drift check as `sessions` and the Sessions page: the evidence describes this catalog.
    drift = catalog_drift(loaded.sessions, inspector)
    said = session_drift_words(drift, inspector.catalog.name)
    if said:
        print(one_line(f"toolsearch: warning: catalog drift: {said}"), file=sys.stderr)  # a name can hold a line break
    uncounted = uncounted_calls(not_in_catalog, inspector, config)  # outside the scope, or not deferred at all
    for sentence in () if keep_called else uncounted.sentences():
        print(one_line(f"toolsearch: warning: {sentence}"), file=sys.stderr)
    return SessionEvidence(called, uncounted, len(loaded.sessions), drift, note, recorded_lengths(loaded.sessions))
