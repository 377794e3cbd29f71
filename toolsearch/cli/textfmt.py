"""Small helpers shared by the command-line modules: argument types and plain-text tables."""

from __future__ import annotations

import argparse
import decimal
import difflib
import errno
import os
import re
import stat
import sys
import unicodedata
from dataclasses import dataclass
from typing import Any, Sequence

from wcwidth import wcswidth

from ..engine.invisible import mark_controls, marker, quoted, quoted_short, reveal, shortened
from ..engine import constants as C
from ..engine.wording import counted


def ascii_digits(text: str) -> str:
    """``text``, refused when it holds a digit other than 0-9: Python's ``int()`` and ``float()``
    read every Unicode decimal digit (Arabic-Indic ``١٢٠٠٠``, fullwidth ``１２``, Devanagari…) as
    one, so such a value would pass as a number the user may not have meant, while every output
    writes 0-9. Every number option of the command line goes through this first.

    Raises:
        argparse.ArgumentTypeError: naming the first such digit.
    """
    odd = next((char for char in text if not char.isascii() and char.isdecimal()), None)
    if odd is not None:
        raise argparse.ArgumentTypeError(
            f"expected a number written with the digits 0-9, got {quoted(text)} ({quoted(odd)} is "
            f"{unicodedata.name(odd, 'a digit of another script').lower()})")
    return text


#: Most decimal digits a whole-number option reads, as Python's ``int()`` reads a text (a larger
#: value is refused before it is turned into an integer: ``1e999999999`` would be a number a billion
#: digits long). A large count within it reaches the check that knows its limit (``--folds``: more
#: folds than task groups).
WHOLE_NUMBER_MAX_DIGITS = 4300
_SUFFIXES = {"k": 1_000, "m": 1_000_000}


def read_number(text: str, max_digits: int | None = WHOLE_NUMBER_MAX_DIGITS) -> tuple[decimal.Decimal, bool]:
    """The one reading of a number-of-things option on the command line (context lengths, token
    counts, counts, the seed): ``(value, scaled)``, read exactly (no binary fraction), ``scaled``
    when a suffix multiplied it. Accepted: the digits 0-9 (:func:`ascii_digits`), a sign, ``_`` and
    ``,`` as thousands separators (``4_000``, ``4,000``), a decimal point, exponent notation
    (``1e6``, ``1.5E3``) and the suffixes ``k`` (×1,000) and ``m`` (×1,000,000), in either case.
    Whether the value is whole and in range is for the caller (:func:`whole_number`).

    Raises:
        argparse.ArgumentTypeError: a digit other than 0-9 (:func:`ascii_digits`).
        ValueError: not a finite number, or more than ``max_digits`` digits before the decimal point
            (default :data:`WHOLE_NUMBER_MAX_DIGITS`; ``None``: any number of digits, for a value
            that is clamped, never converted whole).
    """
    value = ascii_digits(text).strip().lower().replace("_", "").replace(",", "")
    multiplier = _SUFFIXES.get(value[-1:], 1)
    if multiplier != 1:
        value = value[:-1]
    try:
        number = decimal.Decimal(value)
    except decimal.InvalidOperation:
        raise ValueError(text) from None
    if not number.is_finite() or (max_digits is not None and number and number.adjusted() >= max_digits):
        raise ValueError(text)
    return number * multiplier, multiplier != 1


def whole_number(text: str, expected: str, least: int | None = None, most: int | None = None,
                 not_whole: str | None = None, unit: str = "") -> int:
    """A whole-number option's value (:func:`read_number`: ``4000``, ``4_000``, ``4k``, ``4e3``
    all give 4000), the one parser every whole-number option of the command line goes through.

    Args:
        expected: what the option takes, for the message (``"expected a whole number of tokens
            from 200 to 60,000"``); the message ends in ``, got '<text>'`` (argparse puts the
            option's name in front).
        least, most: the accepted range (``None``: no bound).
        not_whole: the message's first part for a number with a fraction (``128000.5``, ``1.5e-1``;
            default ``expected``); a value written with a suffix or an exponent also says which
            number it is (in ``unit``, e.g. ``"tokens"``).

    Raises:
        argparse.ArgumentTypeError: not a number, not whole, or out of range.
    """
    try:
        number, scaled = read_number(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{expected}, got {quoted_short(text)}") from None
    if number != number.to_integral_value():
        written = scaled or "e" in text.lower()
        spelled = f"{number.normalize():f}"
        if len(spelled) > 24:  # 1e-400 is not spelled out as 400 zeros
            spelled = f"{number.normalize():e}"
        which = f", which is {spelled}{' ' + unit if unit else ''}" if written else ""
        raise argparse.ArgumentTypeError(f"{not_whole or expected}, got {quoted_short(text)}{which}")
    value = int(number)
    if (least is not None and value < least) or (most is not None and value > most):
        raise argparse.ArgumentTypeError(f"{expected}, got {quoted_short(text)}")
    return value


def list_items(text: str, what: str, one: str) -> list[str]:
    """The comma-separated items of a list option (``--context-lengths``, ``--threshold-pcts``…),
    each as written. ``what``: the items in the plural (``"context lengths"``); ``one``: one item
    with an example (``"a context length such as 32000 or 32k"``).

    Raises:
        argparse.ArgumentTypeError: no item at all (``,,,``); a number written with a thousands
            separator among the items where a group starts with 0 (``2,4,000``, ``1,050``:
            :data:`THOUSANDS_ZERO_GROUP`), naming it, as it would be read as several values; or an
            empty item among others (``8000,,32000``, a comma at either end), naming its position:
            it would be skipped without a word, and the list would lack a value the user meant to give.
    """
    parts = text.split(",")
    if not any(part.strip() for part in parts):
        raise argparse.ArgumentTypeError(f"expected comma-separated {what}, got {quoted_short(text)}")
    match = re.search(THOUSANDS_ZERO_GROUP, text)
    if match:  # 4,000 or 1,050 among the items: a thousands separator, never a value written 000 or 050
        number = match.group(0)
        raise argparse.ArgumentTypeError(
            f"{quoted_short(number)} reads as {' and '.join(number.split(','))}, as a comma separates {what}; "
            "write each value without a thousands separator")
    for position, part in enumerate(parts, 1):
        if not part.strip():
            raise argparse.ArgumentTypeError(
                f"item {position} of {quoted_short(text)} is empty: expected {one} between each two commas "
                "(two commas in a row, or a comma at an end, leave an item out)")
    return parts


def context_length_items(text: str) -> list[str]:
    """The items of a list of context lengths on the command line: a thousands separator refused
    (:func:`split_context_lengths`), then every item present (:func:`list_items`).

    Raises:
        argparse.ArgumentTypeError: as those two do.
    """
    split_context_lengths(text)
    return list_items(text, "context lengths", "a context length such as 32000 or 32k")


def context_lengths_with_repeats(text: str) -> tuple[list[int | None], list[str]]:
    """Comma-separated context lengths (:func:`parse_context_length` each; ``unknown`` allowed),
    a length given more than once counted once, order kept, and one note per such length naming
    its spellings as written: ``"32000 repeats 32k (32,000 tokens); counted once"``, ``"32k is
    given twice (32,000 tokens); counted once"``, ``"none repeats unknown; counted once"``. The
    command line prints the notes as warnings (:func:`parse_context_lengths`), the app under its
    field, so no length is dropped without a word.

    Raises:
        argparse.ArgumentTypeError: as :func:`context_length_items` and :func:`parse_context_length` do.
    """
    spellings: dict[int | None, list[str]] = {}
    for part in context_length_items(text):
        spellings.setdefault(parse_context_length(part.strip()), []).append(part.strip())
    return list(spellings), [_repeat_note(n, written) for n, written in spellings.items() if len(written) > 1]


def _repeat_note(n: int | None, written: list[str]) -> str:
    first, later = written[0], list(dict.fromkeys(written[1:]))
    size = "" if n is None else f" ({counted(n, 'token')})"
    if later == [first]:
        times = "twice" if len(written) == 2 else f"{len(written):,} times"
        return f"{first} is given {times}{size}; counted once"
    said = later[0] if len(later) == 1 else ", ".join(later[:-1]) + " and " + later[-1]
    return f"{said} {'repeats' if len(later) == 1 else 'repeat'} {first}{size}; counted once"


def parse_context_lengths(text: str) -> list[int | None]:
    """argparse type for ``--context-lengths``: :func:`context_lengths_with_repeats`'s lengths
    (a repeated length counted once, order kept, as the app), each repeat said in one warning line
    on standard error (``toolsearch: warning: --context-lengths: 32000 repeats 32k (32,000 tokens);
    counted once``).

    Raises:
        argparse.ArgumentTypeError: as :func:`context_length_items` and :func:`parse_context_length` do.
    """
    lengths, repeats = context_lengths_with_repeats(text)
    for note in repeats:
        print(one_line(f"toolsearch: warning: --context-lengths: {note}"), file=sys.stderr)
    return lengths


def parse_context_length(text: str) -> int | None:
    """argparse type for a context length in tokens: ``200000``, ``200k``, ``1m`` or ``unknown``.

    Returns ``None`` for unknown. Raises :class:`argparse.ArgumentTypeError` (argparse names the
    flag) for anything else: not a number, ``inf``/``nan``, fewer than one token, a part of a token
    (``128000.5``; ``1.5k`` is 1,500 tokens, read exactly, not as a binary fraction), or more than
    ``CONTEXT_LENGTH_ARG_MAX`` tokens; the message gives the accepted range. Written as every
    whole-number option takes it (:func:`whole_number`: ``1e6`` and ``1_000_000`` too).
    """
    if text.strip().lower() in ("unknown", "none", ""):
        return None
    return whole_number(
        text, f"expected a positive number of tokens from 1 to {C.CONTEXT_LENGTH_ARG_MAX:,} (e.g. 200000, 200k, 1m) "
              "or 'unknown'", least=1, most=C.CONTEXT_LENGTH_ARG_MAX,
        not_whole="expected a whole number of tokens (e.g. 128000, 128k, 1.5k)", unit="tokens")


#: A number written with thousands separators in a comma-separated list (``32,000``; ``1,000,000``),
#: wherever it stands: first, or after other items (``2000,4,000`` is 2000 and 4,000, not the three
#: values 2000, 4 and 0).
THOUSANDS = r"(?<![\d._])\d{1,3}(?:,\d{3})+(?![\d._kKmM])"
#: The same where only a group that starts with 0 shows it (``4,000``, ``12,050``): in a list of
#: listing_max_tokens values ``100,300`` is two of them, and no one writes a value as ``000`` or ``050``.
THOUSANDS_ZERO_GROUP = r"(?<![\d._])\d{1,3}(?:,\d{3})*,0\d{2}(?:,\d{3})*(?![\d._kKmM])"


def split_context_lengths(text: str, what: str = "context lengths", one: str = "length",
                          pattern: str = THOUSANDS) -> list[str]:
    """The items of a comma-separated list of context lengths (blank items dropped). Raises
    :class:`argparse.ArgumentTypeError` for a number written with thousands separators, such as
    ``32,000`` (the way toolsearch prints lengths): the comma separates lengths, so it would read as
    32 tokens and 0 tokens. A comma followed by a space (``32, 128``) separates two lengths.
    ``what`` and ``one`` name the items for another list of token counts (``sweep
    --listing-max-tokens 4,000`` read as 4 and 0 tokens), ``pattern`` what is refused."""
    match = re.search(pattern, text)
    if match:
        number = match.group(0)
        digits = number.replace(",", "")
        example = (f"{digits} or {_k_form(int(digits))}" if int(digits) <= C.CONTEXT_LENGTH_ARG_MAX
                   else "32000, 128k, 1m")
        raise argparse.ArgumentTypeError(
            f"{quoted_short(number)} reads as {' and '.join(number.split(','))} tokens, as a comma separates {what}; "
            f"write each {one} without a thousands separator, e.g. {example}")
    return [part for part in text.split(",") if part.strip()]


def _k_form(value: int) -> str:
    if value and value % 1_000_000 == 0:
        return f"{value // 1_000_000}m"
    return f"{value / 1_000:g}k"


#: A budget value of larger magnitude is handed on as this, with its sign: it is outside both
#: ranges and clamped the same, and no surface turns a 5,000-digit number into an int or a float.
BUDGET_VALUE_BOUND = 10**15


class TypedPercent(str):
    """``--threshold-pct``'s value as handed to the config parser (the number as text, without
    ``%``), with ``typed``: the text as typed, which a warning names (``--threshold-pct 1e400 is
    outside 0..100, …``)."""

    typed: str


class TypedFloat(float):
    """A ``--threshold-pcts`` item as a number (percent), with ``typed``: the item as typed, which a
    clamp warning names (``--threshold-pcts value 1e400 is outside 0..100, …``)."""

    typed: str


def typed_float(percent: "TypedPercent") -> TypedFloat:
    """``percent`` (:func:`read_budget_value`'s reading of a ``threshold_pct``) as a number that keeps
    the text as typed."""
    number = TypedFloat(float(percent))
    number.typed = percent.typed
    return number


class TypedTokens(int):
    """``--listing-max-tokens``'s value (tokens), with ``typed``: the text as typed, which a
    warning names (``--listing-max-tokens 1e400 is outside 200..60,000, …``)."""

    typed: str


def read_budget_value(key: str, text: str) -> TypedPercent | TypedTokens:
    """The one reading of a ``threshold_pct`` (percent) or ``listing_max_tokens`` (tokens) value
    written by hand: the command line's ``--threshold-pct`` / ``--listing-max-tokens`` (and their
    list forms) and the app's link (``?pct=``, ``?cap=``) all read it here.

    The rule: a number written out (digits, a decimal point, an exponent: ``150``, ``2.5e1``,
    ``1e400``; for tokens also ``4_000``, ``4,000``, ``4k``) is read exactly, however large, and
    later clamped to the key's range (0–100, 200–60,000) with a warning, as the harness clamps a
    config value; a value past ±:data:`BUDGET_VALUE_BOUND` is handed on as that bound, which clamps
    alike. ``listing_max_tokens`` must be whole (``4000.5`` is refused). Text that is not a finite
    number (``abc``, ``inf``, ``nan``) is refused. The value keeps the text as typed in ``typed``.

    Raises:
        argparse.ArgumentTypeError: not a number (or, for tokens, not a whole number)."""
    if key == "threshold_pct":
        value = ascii_digits(text).strip().removesuffix("%").strip()
        try:
            number = decimal.Decimal(value)  # as float() reads it (1_0, 2.5e1), but exact: 1e400 is no infinity
        except decimal.InvalidOperation:
            number = decimal.Decimal("nan")
        if not number.is_finite():
            raise argparse.ArgumentTypeError(
                f"expected a number of percent from {C.THRESHOLD_PCT_MIN:g} to {C.THRESHOLD_PCT_MAX:g} "
                f"(values outside are clamped), got {quoted_short(text)}")
        if abs(number) > BUDGET_VALUE_BOUND:
            value = str(BUDGET_VALUE_BOUND if number > 0 else -BUDGET_VALUE_BOUND)
        percent = TypedPercent(value)
        percent.typed = text
        return percent
    expected = (f"expected a whole number of tokens from {C.LISTING_MAX_TOKENS_MIN:,} to "
                f"{C.LISTING_MAX_TOKENS_MAX:,} (values outside are clamped)")
    try:
        number, _scaled = read_number(text, max_digits=None)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{expected}, got {quoted_short(text)}") from None
    bounded = max(-BUDGET_VALUE_BOUND, min(BUDGET_VALUE_BOUND, number))
    if number == bounded:  # in bounds: whole or refused, in whole_number's words
        tokens = TypedTokens(whole_number(text, expected, unit="tokens"))
    else:
        tokens = TypedTokens(int(bounded))
    tokens.typed = text
    return tokens


def parse_threshold_pct(text: str) -> TypedPercent:
    """argparse type for ``--threshold-pct``: any finite number (``5``, ``2.5``, ``5%``, ``1e400``),
    read by :func:`read_budget_value`.

    Returns the text as given (without a trailing ``%``), so the config parser clamps it to
    ``THRESHOLD_PCT_MIN``..``THRESHOLD_PCT_MAX`` as the reference clamps a harness config, with
    its warning line. Raises :class:`argparse.ArgumentTypeError` for text that is not a number.
    """
    return read_budget_value("threshold_pct", text)


def parse_listing_max_tokens(text: str) -> TypedTokens:
    """argparse type for ``--listing-max-tokens``: a whole number of tokens, written as every
    whole-number option takes it (:func:`whole_number`: ``4000``, ``4_000``, ``4k``, ``4e3``), of
    any size (``1e5000``), read by :func:`read_budget_value`.

    Returns the number, so the config parser clamps it to
    ``LISTING_MAX_TOKENS_MIN``..``LISTING_MAX_TOKENS_MAX`` as the reference does, with its warning
    line. Raises :class:`argparse.ArgumentTypeError` for anything that is not a whole number.
    """
    return read_budget_value("listing_max_tokens", text)


def output_file(text: str) -> str:
    """argparse type for a file to write (``-o``, ``--export-queries``): any path but an empty one.
    An empty value (``-o "$OUT"`` with ``OUT`` unset) would name the current folder, or fall back
    to standard output without a word. Raises :class:`argparse.ArgumentTypeError`."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file name, got {quoted(text)}")
    if text == "-":  # it reads as standard input, so a file named '-' would surprise
        raise argparse.ArgumentTypeError("expected a file name, got '-' (snapshot and synth write to standard "
                                         "output without -o; ./- names a file called '-')")
    return text


#: Why an existing ``-o`` target that is not a regular file is refused (by ``stat`` file type).
_NOT_WRITTEN = {stat.S_IFBLK: "a block device, not a file", stat.S_IFSOCK: "a socket, not a file",
                stat.S_IFDIR: "a folder, not a file"}

#: The reason :func:`write_output_file` gives for a named pipe nobody reads.
NO_READER = "a named pipe with no reader: start the program that reads it first"


def output_problem(path: str) -> str | None:
    """Why the file an output option names (``-o``) cannot be written, as far as that can be told
    without creating or opening anything, so a command whose work is slow or starts servers
    refuses it first: an existing folder, socket or block device (the reasons
    :func:`write_output_file` gives), a folder in the path that does not exist, or a file standing
    where a folder should be. ``None`` when nothing is wrong yet (a named pipe is judged when
    written, since opening it would disturb its reader)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        parent = os.path.dirname(path) or "."
        if not os.path.lexists(parent):
            return f"the folder {quoted(parent)} does not exist"
        return None
    except NotADirectoryError:
        folder = os.path.dirname(path)
        while folder and not os.path.isfile(folder):  # the nearest part of the path that is a file
            folder = os.path.dirname(folder)
        return f"{quoted(folder)} is a file, not a folder" if folder else "a part of the path is not a folder"
    except OSError:
        return None  # said when the file is written
    return _NOT_WRITTEN.get(stat.S_IFMT(mode))


def write_output_file(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to the file an output option names (``-o``, ``--export-queries``).

    A regular file is created or replaced. A character device (``/dev/stdout``, ``/dev/null``, a
    terminal) and a pipe that something already reads (``-o >(gzip > out.gz)``, ``-o /dev/stdout``
    into a pipe) are written as they are. A named pipe with no reader is refused at once rather
    than waited on (a plain ``open`` would block until a reader comes, forever if none does), as
    are a socket, a block device and a folder.

    Raises:
        OSError: the file cannot be written; ``strerror`` is one line a user can act on
            (:data:`NO_READER` for a named pipe nobody reads).
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None  # a new file (or a path the open below reports on)
    if mode is not None and stat.S_IFMT(mode) in _NOT_WRITTEN:
        raise OSError(errno.EINVAL, _NOT_WRITTEN[stat.S_IFMT(mode)], path)
    try:
        # O_NONBLOCK: opening a named pipe for writing fails with ENXIO when nobody reads it,
        # instead of waiting; on a regular file or a device it changes nothing.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENXIO and mode is not None and stat.S_ISFIFO(mode):
            raise OSError(errno.ENXIO, NO_READER, path) from None
        raise
    os.set_blocking(fd, True)  # a reader that reads slowly is waited for, as with any pipe
    with os.fdopen(fd, "wb") as out:
        out.write(text.encode("utf-8"))


def parse_seconds(text: str) -> float:
    """argparse type for a positive number of seconds."""
    try:
        value = float(ascii_digits(text))
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {quoted(text)}")
    return value


def _cell(value: Any) -> str:
    """A table cell: whole numbers with thousands separators (``32,000``, as every other surface
    writes a token count), anything else as ``str``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def terminal_safe(text: str) -> str:
    """Tool text is untrusted: control characters (ANSI/OSC escapes…) written as the marker every
    surface uses (``⟨U+001B⟩``, :func:`toolsearch.engine.invisible.mark_controls`); newline and
    tab are kept."""
    return mark_controls(text)


def one_line(text: str) -> str:
    """``text`` for a place that is one line (a table cell, a line naming the catalog): controls
    as :func:`terminal_safe` writes them, and newline, tab and U+2028/U+2029 too (``⟨U+000A⟩``…), so
    a name holding a newline cannot split a table row or start a line of its own."""
    return mark_controls(str(text), one_line=True)


#: A line that starts with this (after white space) is a CI runner command (``::error::…``).
RUNNER_COMMAND_PREFIX = C.RUNNER_COMMAND_PREFIX
#: The log commands a CI runner reads anywhere in a line (``##[`` and ``##vso[``).
RUNNER_ANYWHERE_COMMANDS = C.RUNNER_ANYWHERE_COMMANDS
#: Any of :data:`RUNNER_ANYWHERE_COMMANDS`.
RUNNER_ANYWHERE_COMMAND = re.compile("|".join(re.escape(form) for form in RUNNER_ANYWHERE_COMMANDS))


def legacy_command_safe(text: str) -> str:
    """``text`` with each log command a CI runner reads anywhere in a line
    (:data:`RUNNER_ANYWHERE_COMMANDS`: ``##[`` and ``##vso[``) written with its second ``#`` as the
    marker every surface uses for a dangerous character, ``#⟨U+0023⟩[``, ``#⟨U+0023⟩vso[``; anything
    else unchanged. Every line the command prints as text goes through it (``TerminalSafeStream``),
    and so does every CSV cell, so a sentence naming a server, a tool or a session (a note, a warning, a
    lint finding) cannot forge an annotation or set a pipeline variable either; JSON writes the bracket
    as ``\\u005b`` instead (:func:`toolsearch.cli.common.dumps_json`), which parses back to the same value."""
    if "##" not in text:
        return text
    return RUNNER_ANYWHERE_COMMAND.sub(lambda m: "#" + marker("#") + m.group()[2:], text)


def runner_safe(text: str) -> str:
    """``text`` with a leading ``::`` (after leading whitespace) written with its first colon as the
    marker every surface uses for a dangerous character, ``⟨U+003A⟩:error::…``: a name that begins a
    line (a table's first column, a listing's group heading) cannot make that line a runner command
    in a CI log. Indenting would not do: the runner trims leading whitespace before it looks. The
    forms ``##[`` and ``##vso[`` are commands anywhere in a line, so each is written ``#⟨U+0023⟩[``,
    ``#⟨U+0023⟩vso[`` (:func:`legacy_command_safe`).
    Anything else is returned unchanged."""
    text = legacy_command_safe(text)
    stripped = text.lstrip()
    if not stripped.startswith(RUNNER_COMMAND_PREFIX):
        return text
    at = len(text) - len(stripped)
    return text[:at] + marker(":") + text[at + 1:]


def name_cell(name: str) -> str:
    """A server, tool or task name as a text table's cell shows it: whole up to
    :data:`~toolsearch.engine.constants.SHOWN_NAME_MAX_CHARS` characters, a longer one cut with ``…``
    and its length (:func:`toolsearch.engine.invisible.shortened`: a 100,000-character server name
    made every row of the table as wide). ``--json`` and ``--csv`` keep the whole name."""
    return shortened(name) if isinstance(name, str) else name


def shown_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: 2 for a wide (CJK) character, 0 for a combining mark."""
    width = wcswidth(text)
    return width if width >= 0 else len(text)


def text_table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> str:
    """Left-aligned columns separated by two spaces, a dashed rule under the header, no trailing
    spaces; whole numbers written with thousands separators (CSV and JSON keep plain numbers).

    Cells are written as the terminal stream shows them (controls escaped, invisible characters
    as markers such as ``⟨U+200B⟩``), and columns are aligned by the width the terminal gives each
    character, so a marker or a wide character does not push the columns after it. A cell that
    starts with ``::`` shows its first colon as a marker (:func:`runner_safe`), so no row can be
    read as a GitHub Actions runner command. Names are shortened by the caller (:func:`name_cell`)."""
    cells = [[runner_safe(reveal(one_line(_cell(x)))) for x in row] for row in rows]
    head = [runner_safe(reveal(one_line(str(h)))) for h in header]
    widths = [max(shown_width(x) for x in col) for col in zip(head, *cells)]

    def line(row: Sequence[str]) -> str:
        return runner_safe("  ".join(x + " " * (w - shown_width(x)) for x, w in zip(row, widths)).rstrip())

    return "\n".join([line(head), "  ".join("-" * w for w in widths), *(line(row) for row in cells)])


@dataclass(frozen=True)
class GoalArgument:
    """``--goal`` of ``recommend`` and ``check``: one goal for every context length (``names``), a
    goal per length (``32k=names,200k=full,1m=full``), or both (``names,200k=full``: names wherever
    no length is named).

    Attributes:
        goal: the goal for lengths not named (``None``: every length must be named).
        by_length: ``{context length or None (unknown): goal}`` in the order given.
    """

    goal: str | None
    by_length: dict[int | None, str]

    def resolve(self, context_lengths: Sequence[int | None]) -> tuple[str, dict[int | None, str]]:
        """``(goal, per-length goals)`` for :func:`toolsearch.analysis.recommend.recommend_for_contexts`
        and :func:`toolsearch.analysis.check.check_catalog`.

        Raises:
            ValueError: a length named here is not among ``context_lengths``, or a length has no goal.
        """
        from ..analysis.quantities import length_label  # noqa: PLC0415  (a length in prose: 32K, 12,345 tokens)

        lengths = list(context_lengths)
        stray = [c for c in self.by_length if c not in lengths]
        if stray:
            it, its = ("it", "its goal") if len(stray) == 1 else ("them", "their goals")
            raise ValueError(f"a goal is given for {', '.join(length_label(c) for c in stray)}, which is not among "
                             f"--context-lengths ({', '.join(length_label(c) for c in lengths)}); add {it} to "
                             f"--context-lengths, or leave {its} out of --goal")
        missing = [c for c in lengths if c not in self.by_length]
        if self.goal is None and missing:
            raise ValueError(f"no goal for {', '.join(length_label(c) for c in missing)}: name every length "
                             f"(e.g. 32k=names,200k=full) or put one goal first for the lengths not named "
                             f"(e.g. names,200k=full)")
        goal = self.goal if self.goal is not None else self.by_length[lengths[0]]
        return goal, dict(self.by_length)


def goal_argument(text: str, empty_items: bool = False) -> GoalArgument:
    """argparse type of ``--goal`` (:class:`GoalArgument`): comma-separated items, each a goal
    (``full``, ``names``, ``listed``, ``any``; at most one bare goal) or ``LENGTH=GOAL`` (a context
    length as ``--context-lengths`` takes it, at most once each). An empty item is refused naming
    its position, as in every list option (:func:`list_items`); ``empty_items`` skips it instead
    (the app's text field, which skips blank items as its context lengths field does).

    Raises:
        argparse.ArgumentTypeError: an unknown goal, a bad length, a length or bare goal given twice,
            an empty item (``names,,200k=full``, a comma at either end), or nothing at all.
    """
    from ..analysis.recommend import GOALS  # noqa: PLC0415

    choices = ", ".join(GOALS)
    goal: str | None = None
    by_length: dict[int | None, str] = {}
    first: dict[int | None, str] = {}  # the item that gave each length its goal
    split_context_lengths(text)  # 32,000=full: the comma separates items, say how to write the length
    if not empty_items and text.strip(" ,"):  # nothing at all gets the message below
        list_items(text, "goals", f"a goal ({choices}) or LENGTH=GOAL such as 200k=full")
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        length_text, sep, value = part.rpartition("=")
        value = value.strip()
        if value not in GOALS:
            close = difflib.get_close_matches(value.casefold(), GOALS, n=1, cutoff=0.6)  # NAMES, Full too
            raise argparse.ArgumentTypeError(f"{quoted_short(part)}: expected a goal ({choices}) or LENGTH=GOAL such as 200k=full"
                                             + (f"; did you mean '{close[0]}'?" if close else ""))
        if not sep:
            if goal is not None:
                raise argparse.ArgumentTypeError(f"two goals for the lengths not named ({goal}, {value}); give one, "
                                                 f"and LENGTH=GOAL for the others")
            goal = value
            continue
        if not length_text.strip():  # parse_context_length reads blank as unknown
            raise argparse.ArgumentTypeError(f"{quoted_short(part)}: no length before '='; write LENGTH=GOAL such as 200k=full "
                                             f"(unknown=GOAL for an unknown context length)")
        try:
            length = parse_context_length(length_text.strip())
        except argparse.ArgumentTypeError as exc:
            # 'names;1m=full', 'names 1m=full': a goal and LENGTH=GOAL run together read as one length
            joined = next((g for g in GOALS if re.search(rf"(?i)(?<![a-z]){g}(?![a-z])", length_text)), None)
            if joined is not None:
                commas = re.sub(r"[;|\s]+", ",", part)
                raise argparse.ArgumentTypeError(
                    f"{quoted_short(part)}: expected LENGTH=GOAL such as 200k=full, got a goal ('{joined}') in the length; "
                    f"separate the items with commas ({quoted_short(commas)})") from None
            raise argparse.ArgumentTypeError(f"{quoted_short(part)}: {exc}") from None
        if length in by_length:
            raise argparse.ArgumentTypeError(f"{quoted_short(part)}: {quoted_short(first[length])} already gives that length a goal")
        by_length[length] = value
        first[length] = part
    if goal is None and not by_length:
        raise argparse.ArgumentTypeError(f"expected a goal ({choices}) or LENGTH=GOAL items, got {quoted_short(text)}")
    return GoalArgument(goal, by_length)


# --- GitHub Actions workflow commands ----------------------------------------------------------

def github_data(text: str) -> str:
    """``text`` as the message of a GitHub Actions workflow command (``::error ...::MESSAGE``): one
    line, with ``%``, CR and LF percent-encoded as the runner decodes them (``%25``, ``%0D``,
    ``%0A``), so no text can end the command or start another. Line breaks, controls and invisible
    characters (bidi controls, zero-width characters) are first shown as markers, as in every
    one-line output (:func:`one_line`, :func:`~toolsearch.engine.invisible.reveal`)."""
    return reveal(one_line(text)).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """``text`` as a property value of a workflow command (``title=VALUE``, ``file=VALUE``):
    :func:`github_data`, and ``:`` and ``,`` encoded too (``%3A``, ``%2C``), which would otherwise end
    the value or the properties."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(command: str, message: str, **properties: str) -> str:
    """One workflow command line: ``::error title=T,file=F::message`` (properties in the order given)."""
    props = ",".join(f"{key}={github_property(value)}" for key, value in properties.items())
    return f"::{command}{' ' + props if props else ''}::{github_data(message)}"


def _percentage(text: str, highest: float) -> float:
    """A percentage from 0 to ``highest`` (``10`` or ``10%``) with at most two decimals (a finer one means
    nothing for a token budget and prints badly), as ``--headroom`` and ``--reserve`` take it.

    Raises:
        argparse.ArgumentTypeError: not a number, outside 0 to ``highest``, or finer than 0.01.
    """
    written = ascii_digits(text).strip().removesuffix("%").strip()
    try:
        number = decimal.Decimal(written)  # exact: 1e-400 is not 0, and 12.345 has three decimals
    except decimal.InvalidOperation:
        number = decimal.Decimal("nan")
    if not number.is_finite():  # "abc", "50%%", "nan", "inf"
        raise argparse.ArgumentTypeError(f"expected a percentage such as 10 or 10%, got {quoted_short(text)}")
    if not 0 <= number <= highest:
        raise argparse.ArgumentTypeError(f"expected 0 to {highest:g} (%), got {quoted_short(text)}")
    if number != number.quantize(decimal.Decimal("0.01"), rounding=decimal.ROUND_DOWN):
        raise argparse.ArgumentTypeError(f"expected a percentage with at most two decimals, such as 12.5, got {quoted_short(text)}")
    return float(number) + 0.0  # -0 is 0


def headroom_pct(text: str) -> float:
    """argparse type of ``--headroom``: a percentage from 0 to 1000 (``10`` or ``10%``), with at
    most two decimals.

    Raises:
        argparse.ArgumentTypeError: not a number, outside 0 to 1000, or finer than 0.01.
    """
    return _percentage(text, C.HEADROOM_PCT_MAX)


def reserve_pct(text: str) -> float:
    """argparse type of ``--reserve``: the share of every context length kept free of the tools array,
    a percentage from 0 to 90 (``50`` or ``50%``) with at most two decimals.

    Raises:
        argparse.ArgumentTypeError: not a number, outside 0 to 90, or finer than 0.01.
    """
    return _percentage(text, C.RESERVE_PCT_MAX)
