"""The one reading layer for every YAML, JSON and JSONC file the product reads.

Catalogs, MCP client configs (files and uploads), harness configs, wording profiles, scope
files, query files, events files, skills' front matter and session files (whole JSON documents
and JSONL lines) all go through these functions, so the same limits apply everywhere:

* :data:`MAX_INPUT_BYTES`: a file or upload larger than this is refused before it is parsed;
* :data:`MAX_ALIAS_NODES`: YAML aliases (``*name``) may add at most this many nodes when
  expanded. The count is kept while the document is composed, before anything is expanded, so
  a "billion laughs" file (a few levels of anchors that each repeat the one above) is refused
  after reading a few hundred events. An alias that refers to the node it sits in (a
  recursive alias) is refused too;
* :data:`MAX_ALIAS_CHARS`: YAML aliases may add at most this many characters of text when
  expanded (a long string anchored once and aliased thousands of times adds few nodes but
  more text than the largest file holds, and every reader downstream walks each copy);
* :data:`MAX_NESTING_DEPTH`: mappings and lists nested deeper than this are refused (YAML while
  composing, JSON after parsing); a catalog file is read up to :data:`MAX_CATALOG_NESTING_DEPTH`
  instead, and the catalog reader holds each tool and the rest of the file to
  :data:`MAX_NESTING_DEPTH` on its own (a tool nested too deeply is skipped, not the file);
* :data:`MAX_JSONC_CHARS`: JSON with comments or trailing commas (JSONC) longer than this is not
  read as JSONC (its reader is slow): refused when it opens with a comment, else read as YAML.

Each refusal raises :class:`~toolsearch.engine.errors.InputLimitError` (also an instance of the
caller's own error class) with one line naming the file and the limit. Bad bytes and bad syntax
raise the caller's error class with the line and column: a file that is not UTF-8 names the
line, column and byte offset of the first bad byte; a YAML quoted string that is never closed is
reported at the line where it opens.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO

import yaml
from yaml.nodes import MappingNode, ScalarNode

from . import constants as C
from .errors import InputLimitError, ToolsearchError
from .invisible import quoted, quoted_short, shortened

# --- the limits (documented in docs/security.md, "Limits and processes") -------------------
#: Largest file or upload read, in bytes (64 MiB; the largest shipped sample is under 4 MB).
MAX_INPUT_BYTES = 64 * 1024 * 1024
#: Most nodes that YAML aliases may add to a document when expanded.
MAX_ALIAS_NODES = 1_000_000
#: Most characters of text (scalars, keys included) that YAML aliases may add to a document when
#: expanded: as much as the largest file may hold.
MAX_ALIAS_CHARS = MAX_INPUT_BYTES
#: Deepest nesting of mappings and lists in a YAML or JSON document (the root is level 1).
MAX_NESTING_DEPTH = 256
#: Deepest nesting of a whole catalog file (the root is level 1), which holds each tool's values and
#: the rest of the file to :data:`MAX_NESTING_DEPTH` itself (:mod:`toolsearch.engine.catalog`), so one
#: tool with a schema nested too deeply is skipped where the file is read. Python's JSON parser and
#: the loader's checks recurse once per level within the interpreter's recursion limit (1,000 by
#: default): past about 950 levels from the command line, fewer from a deeper stack (a Streamlit
#: page), JSON ends in ``RecursionError``; 640 leaves room for either.
MAX_CATALOG_NESTING_DEPTH = 640
#: Largest JSON text read with comments or trailing commas (JSONC), in characters (256 KiB). Its
#: reader, the ``json5`` library, is pure Python: a dense file (nothing but short numbers) reads at
#: about 26 KiB a second here (a 1 MiB one took 39 s), a 64 MiB file took over ten minutes, and a
#: large plain JSON file with one typo (and a ``//`` in a URL) took as long before its error.
#: VS Code's ``mcp.json`` files are a few kilobytes.
MAX_JSONC_CHARS = 256 * 1024

ErrorClass = type[ToolsearchError]


@lru_cache(maxsize=None)
def _limit_error_class(error: ErrorClass) -> type[InputLimitError]:
    """An :class:`InputLimitError` that is also ``error``, so callers' handlers still catch it."""
    if issubclass(error, InputLimitError) or issubclass(InputLimitError, error):
        return InputLimitError if issubclass(InputLimitError, error) else error
    return type(f"InputLimit{error.__name__}", (InputLimitError, error), {"__module__": __name__})


def limit_error(error: ErrorClass, message: str) -> InputLimitError:
    """Build the exception for a refused input: an :class:`InputLimitError` and an ``error``."""
    return _limit_error_class(error)(message)


# --- bytes and text ------------------------------------------------------------------------

def check_size(size: int, origin: str, error: ErrorClass = ToolsearchError) -> None:
    """Refuse an input of ``size`` bytes (or characters) above :data:`MAX_INPUT_BYTES`.

    Raises:
        InputLimitError: (also ``error``) naming ``origin`` and the limit.
    """
    if size > MAX_INPUT_BYTES:
        raise limit_error(error, f"{origin}: {size:,} bytes, over the {size_text(MAX_INPUT_BYTES)} limit for "
                                 "one input file; not read")


def size_text(size: int) -> str:
    """``size`` bytes for a message: ``"64 MiB"``, ``"1.5 MiB"`` from 1 MiB up, ``"256 KiB"`` for a
    whole number of KiB below that, else ``"1,234 bytes"``."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MiB".replace(".0 MiB", " MiB")
    if size >= 1024 and size % 1024 == 0:
        return f"{size // 1024:,} KiB"
    return f"{size:,} bytes"


def decode_bytes(data: bytes, origin: str, error: ErrorClass = ToolsearchError,
                 expected: str = "save the file as UTF-8") -> str:
    """UTF-8 text of ``data`` (a leading byte-order mark is dropped).

    Raises:
        InputLimitError: ``data`` is larger than :data:`MAX_INPUT_BYTES`.
        ``error``: a byte sequence is not UTF-8; the message names the line, the column (in
            bytes) and the byte offset of the first bad byte, then ``expected``.
    """
    check_size(len(data), origin, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        bad = data[start:exc.end].hex(" ")
        # what Windows PowerShell's '>' and Notepad's "Unicode" write: the mark says which encoding it is
        utf16 = ("; it starts with UTF-16's byte order mark: UTF-16 text"
                 if start == 0 and data[:2] in (b"\xff\xfe", b"\xfe\xff") else "")
        raise error(f"{origin}: line {line}, column {column} (byte {start}): not UTF-8 text "
                    f"(byte 0x{bad}{utf16}); {expected}") from None


def read_bytes(path: str | Path, error: ErrorClass = ToolsearchError, what: str = "file") -> bytes:
    """The bytes of a file, refusing one larger than :data:`MAX_INPUT_BYTES` before reading it.

    Raises:
        InputLimitError: the file is too large (also ``error``).
        ``error``: the file cannot be read (missing, a directory, no permission).
    """
    try:
        with open_input(path) as fh:
            return read_stream(fh, str(path), error)
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror or exc})") from None


#: The file name that stands for standard input (``git show main:catalog.yaml | toolsearch check -``).
STDIN_NAME = "-"
#: What standard input held, once read (:func:`open_input`; :func:`forget_stdin` empties it).
_STDIN: list[bytes] = []


def source_stem(path: str | Path) -> str:
    """The name a source file lends a catalog, server or query file: its stem (``catalog`` for
    ``catalog.json``), or ``stdin`` for standard input (:data:`STDIN_NAME`)."""
    return "stdin" if str(path) == STDIN_NAME else Path(path).stem


def forget_stdin() -> None:
    """Read standard input afresh at the next ``-`` (each command of a process reads its own)."""
    _STDIN.clear()


def open_input(path: str | Path) -> BinaryIO:
    """Open a file for reading in binary, without waiting for a writer: a named pipe (FIFO) that
    nothing writes to would otherwise block the open for ever. Reads block again once it is open,
    so a pipe that has a writer (shell process substitution, ``<(...)``) is read to its end, and
    :func:`read_stream` refuses one that has none. ``-`` (:data:`STDIN_NAME`) is standard input.

    Raises:
        OSError: as :func:`open` does.
    """
    if str(path) == STDIN_NAME:  # standard input, as most command-line tools read it
        if not _STDIN:  # read once (within the limit); a second '-' reads the same text
            with os.fdopen(os.dup(sys.stdin.fileno() if sys.stdin is not None else 0), "rb") as fh:
                _STDIN.append(fh.read(MAX_INPUT_BYTES + 1))
        return io.BytesIO(_STDIN[0])
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_stream(fh: BinaryIO, origin: str, error: ErrorClass = ToolsearchError) -> bytes:
    """Read a binary stream, refusing more than :data:`MAX_INPUT_BYTES` (a pipe or device too), and
    a named pipe that ends before anything was written to it (see :func:`open_input`).

    Returns:
        The bytes read (at most :data:`MAX_INPUT_BYTES`).

    Raises:
        InputLimitError: (also ``error``) the stream is larger than :data:`MAX_INPUT_BYTES`.
        ``error``: a named pipe that ended with nothing written to it, naming ``origin``.
    """
    try:
        stats = os.fstat(fh.fileno())
    except (OSError, AttributeError, ValueError):
        stats = None
    check_size(stats.st_size if stats is not None else 0, origin, error)
    data = fh.read(MAX_INPUT_BYTES + 1)
    check_size(len(data), origin, error)
    if not data and stats is not None and stat.S_ISFIFO(stats.st_mode):
        raise error(f"{origin}: a named pipe with nothing writing to it; expected a file")
    return data


def read_text(path: str | Path, error: ErrorClass = ToolsearchError, what: str = "file") -> str:
    """The UTF-8 text of a file, within :data:`MAX_INPUT_BYTES` (see :func:`decode_bytes`).

    Raises:
        InputLimitError: (also ``error``) the file is larger than :data:`MAX_INPUT_BYTES`.
        ``error``: the file cannot be read, or is not UTF-8 (naming the line, the column and the
            byte offset of the first bad byte).
    """
    return decode_bytes(read_bytes(path, error, what), str(path), error)


# --- YAML ----------------------------------------------------------------------------------

_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LoaderLimits:
    """The limits of :class:`LimitedSafeLoader`, for either of PyYAML's parsers (libyaml's or its
    own)."""

    origin = "input"
    limit_error: ErrorClass = ToolsearchError
    max_depth = MAX_NESTING_DEPTH

    def get_single_data(self) -> Any:
        """The document's value (``None`` for an empty stream), built only after the composed
        nodes pass the alias and nesting limits.

        Raises:
            InputLimitError: (also the loader's ``limit_error``) over a limit, naming the line
                and column.
        """
        node = self.get_single_node()
        if node is None:
            return None
        self._check_node(node)
        return self.construct_document(node)

    def _check_node(self, root: Any) -> None:
        # id -> (expanded size, height, expanded characters); (-1, -1, -1) while open
        seen: dict[int, tuple[int, int, int]] = {}
        scalars: set[int] = set()  # the scalar nodes met so far (an alias of one is the same node)
        unique = 0
        unique_chars = 0

        def visit(node: Any, depth: int) -> tuple[int, int, int]:
            nonlocal unique, unique_chars
            if node.__class__ is ScalarNode:
                unique += 1
                chars = len(node.value)
                if chars > 64 and id(node) not in scalars:  # a short one cannot add much text
                    scalars.add(id(node))
                    unique_chars += chars
                elif chars <= 64:
                    unique_chars += chars
                return 1, 0, chars
            known = seen.get(id(node))
            if known is not None:
                if known[0] < 0:
                    raise self._refuse(node, "an alias refers to a node that contains it (a recursive alias)")
                if depth + known[1] > self.max_depth:
                    raise self._refuse(node, f"nested more than {self.max_depth} levels deep (limit)")
                return known
            if depth > self.max_depth:
                raise self._refuse(node, f"nested more than {self.max_depth} levels deep (limit)")
            seen[id(node)] = (-1, -1, -1)
            unique += 1
            size, height, chars = 1, 0, 0
            if node.__class__ is MappingNode or isinstance(node, MappingNode):
                self._check_keys(node)
                children = [part for pair in node.value for part in pair]
            else:
                children = node.value
            for child in children:
                child_size, child_height, child_chars = visit(child, depth + 1)
                size += child_size
                chars += child_chars
                if child_height >= height:
                    height = child_height + 1
                if chars - unique_chars > MAX_ALIAS_CHARS:  # checked per child: one alias may add it all
                    raise self._refuse(child, f"YAML aliases would expand to more than {MAX_ALIAS_CHARS:,} "
                                              "characters of text (limit)")
            seen[id(node)] = (size, height, chars)
            if size - unique > MAX_ALIAS_NODES:
                raise self._refuse(node, f"YAML aliases would expand to more than {MAX_ALIAS_NODES:,} nodes (limit)")
            return size, height, chars

        visit(root, 1)

    def _check_keys(self, node: Any) -> None:
        """Refuse a mapping that gives one key twice: the parser would keep the last value and
        drop the first without a word (a second ``expected:`` or ``servers:``)."""
        seen: dict[Any, Any] = {}
        for key, _ in node.value:
            if key.__class__ is not ScalarNode or key.tag == "tag:yaml.org,2002:merge" or key.value == "<<":
                continue
            # A key that is not text is one Python key by its value: `1`, `0x1`, `1.0`, `true`
            # and `yes` are all the key 1, `~` and `null` both None, and the dict keeps only
            # the last of them.
            identity: Any = (key.tag, key.value)
            if key.tag != "tag:yaml.org,2002:str":
                try:
                    value = self.construct_object(key)
                    hash(value)
                except Exception:  # noqa: BLE001 - left for construction to report
                    pass
                else:
                    identity = ("value", value)
            first = seen.setdefault(identity, key)
            if first is not key:
                mark, at = key.start_mark, first.start_mark
                where = f"{self.origin}: line {mark.line + 1}, column {mark.column + 1}: the key {key.value!r}"
                if first.value == key.value:
                    raise self.limit_error(f"{where} is given twice in one mapping (first at line {at.line + 1}); "
                                           "expected each key once")
                raise self.limit_error(f"{where} reads as the same key as {first.value!r} at line {at.line + 1} "
                                       "of the same mapping, so one would be dropped; expected each key once "
                                       "(put text keys in quotes)")

    def construct_yaml_int(self, node: Any) -> int:
        """PyYAML's integer of ``node``.

        Raises:
            InputLimitError: (also the loader's ``limit_error``) more digits than Python reads
                (``sys.get_int_max_str_digits``), naming the line and column.
        """
        try:
            return _decimal_sized(super().construct_yaml_int(node))
        except ValueError:  # longer than Python reads or writes (sys.get_int_max_str_digits)
            raise self._refuse(node, _too_long_text(node.value)) from None

    def _refuse(self, node: Any, what: str) -> InputLimitError:
        mark = node.start_mark
        return limit_error(self.limit_error,
                           f"{self.origin}: line {mark.line + 1}, column {mark.column + 1}: {what}; not read")


class LimitedSafeLoader(_LoaderLimits, _BASE_LOADER):  # type: ignore[misc,valid-type]
    """A safe YAML loader (plain data only) that checks the composed document against
    :data:`MAX_ALIAS_NODES` and :data:`MAX_NESTING_DEPTH` before building any value.

    Composition keeps one node per anchor (an alias is the same node object again), so the
    composed document is small even when its expansion is not; :meth:`get_single_data` walks it
    once per distinct node, counting what every alias would add when expanded.
    """


class _PyLimitedSafeLoader(_LoaderLimits, yaml.SafeLoader):
    """:class:`LimitedSafeLoader` on PyYAML's own parser, for text libyaml refuses that PyYAML reads:
    an escaped lone surrogate (``"\\uD800"``), as PyYAML itself writes one (a snapshot of a server
    whose text holds one, as a JSON ``"\\ud800"`` spells it)."""


for _loader in (LimitedSafeLoader, _PyLimitedSafeLoader):
    _loader.add_constructor("tag:yaml.org,2002:int", _loader.construct_yaml_int)


def _too_long_text(number: str) -> str:
    limit = sys.get_int_max_str_digits()
    if not re.fullmatch(r"[-+]?(0|[1-9][0-9_]*)", number.strip()):  # 0x…, 0b…, 0…, 1:30:…: other digits
        return f"a number ({number.strip()[:12]}…) over the {limit:,}-digit limit once written in decimal"
    digits = sum(c.isdigit() for c in number)
    return f"a number {digits:,} digits long, over the {limit:,}-digit limit"


def _decimal_sized(value: int) -> int:
    """``value`` when Python can write it in decimal; else ``ValueError``. A hexadecimal, binary,
    octal or sexagesimal number (``0xfff…`` in YAML or JSONC) is read without the digit limit, and
    the first ``str()`` of it, in a table or in JSON output, failed with a traceback."""
    limit = sys.get_int_max_str_digits()
    if limit and value.bit_length() > 3 * limit:  # fewer bits than this never reach the limit
        str(value)  # ValueError past the limit, before any conversion work
    return value


class _NumberTooLong(ValueError):
    """A JSON integer longer than Python reads (``sys.get_int_max_str_digits``)."""

    def __init__(self, number: str) -> None:
        super().__init__(_too_long_text(number))
        self.number = number


def _parse_int(text: str, base: int = 10) -> int:
    """``parse_int`` for :func:`json.loads` and ``json5`` (which passes ``base=16`` for ``0x…``):
    ``int``, or :class:`_NumberTooLong`."""
    try:
        return _decimal_sized(int(text, base))
    except ValueError:
        raise _NumberTooLong(text) from None


def _constant_as_text(name: str) -> str:
    """``parse_constant`` for recorded data: ``NaN``, ``Infinity`` and ``-Infinity`` (which JSON
    does not have, but Python writes) are kept as that text."""
    return name


def _float_or_text(text: str) -> float | str:
    """``parse_float`` for recorded data: a number too large for a float (``1e999``) is kept as
    its text instead of becoming an infinity."""
    value = float(text)
    return value if value - value == 0 else text


#: ``json.loads`` keywords for data other programs recorded (sessions, call arguments): every
#: value it gives can be written back as JSON (no NaN or infinity), and an integer too long to
#: read is refused (:class:`_NumberTooLong`).
RECORDED_JSON = {"parse_constant": _constant_as_text, "parse_float": _float_or_text}


def _too_long(exc: _NumberTooLong, text: str, origin: str, error: ErrorClass) -> InputLimitError:
    """The refusal of a JSON number too long to read, at its line and column in ``text``."""
    place = json.JSONDecodeError("", text, max(text.find(exc.number), 0))
    return limit_error(error, f"{origin}: line {place.lineno}, column {place.colno}: {exc}; not read")


def load_yaml(text: str, origin: str, error: ErrorClass = ToolsearchError, what: str = "YAML", *,
              max_depth: int = MAX_NESTING_DEPTH) -> Any:
    """Parse one YAML document (JSON is YAML too) within the limits (``max_depth``: the nesting
    limit, :data:`MAX_NESTING_DEPTH` unless a caller checks deeper parts itself).

    Returns the plain data (``None`` for an empty document).

    Raises:
        InputLimitError: (also ``error``) the text is over a limit; the message names
            ``origin``, the place and the limit.
        ``error``: not valid YAML: ``"<origin>: line L, column C: not valid <what> (<problem>)"``;
            an unclosed quoted string is reported at the line where it opens.
    """
    check_size(len(text), origin, error)
    if text.lstrip()[:1] in ("{", "["):
        # JSON is YAML, but libyaml refuses the surrogate-pair escapes JSON writes for characters
        # past U+FFFF ("\\ud83d\\ude00", as json.dumps writes an emoji), and PyYAML's own parser
        # reads them as two lone surrogates: JSON text is read by the JSON parser.
        data = _json_or_none(text, origin, error, max_depth)
        if data is not None:
            return data
    try:
        return _load_limited(LimitedSafeLoader, text, origin, error, max_depth)
    except RecursionError:
        raise too_deep(error, origin, max_depth) from None
    except yaml.YAMLError as exc:
        if (_BASE_LOADER is not yaml.SafeLoader and "invalid Unicode character escape code" in str(exc)
                and _SURROGATE_ESCAPE.search(text)):
            try:  # what PyYAML writes for a lone surrogate, which libyaml refuses
                return _load_limited(_PyLimitedSafeLoader, text, origin, error, max_depth)
            except RecursionError:
                raise too_deep(error, origin, max_depth) from None
            except yaml.YAMLError:
                pass  # the first error is the one reported
        mark = getattr(exc, "problem_mark", None)
        if "maximum nesting depth" in str(getattr(exc, "problem", "")) and mark is not None:  # libyaml's own cap
            raise limit_error(error, f"{origin}: line {mark.line + 1}, column {mark.column + 1}: nested more than "
                                     f"{max_depth} levels deep (limit); not read") from None
        located = _located(text, exc)
        if isinstance(located, yaml.reader.ReaderError):  # its text is two lines, with a position
            raise error(f"{origin}: {_reader_error_text(text, located, what)}") from None
        raise error(f"{origin}: {yaml_error_text(located, what, text)}") from None


class _FaithfulDumper(yaml.SafeDumper):
    """PyYAML's safe dumper, with a string that holds NEL (U+0085) written double-quoted
    (``"\\N"``): PyYAML writes it raw in a single-quoted scalar, where it is a line break, and
    the reader folds it into a space, so a snapshot lost a control character a server sent."""


def _faithful_str(dumper: Any, value: str) -> Any:
    if "\x85" in value or _RUNNER_TEXT.search(value):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    return dumper.represent_str(value)


_FaithfulDumper.add_representer(str, _faithful_str)

#: Text a CI runner could read as a log command (:data:`~toolsearch.engine.constants.RUNNER_ANYWHERE_COMMANDS`
#: anywhere, :data:`~toolsearch.engine.constants.RUNNER_COMMAND_PREFIX` anywhere: a long value is
#: folded over lines, and a line of it may start there): such a string is written double-quoted.
_RUNNER_TEXT = re.compile("|".join(re.escape(form) for form in (*C.RUNNER_ANYWHERE_COMMANDS, C.RUNNER_COMMAND_PREFIX)))
#: In the YAML text, each command read anywhere, and ``::`` at a line's start after white space.
_RUNNER_IN_YAML = re.compile("|".join(re.escape(form) for form in C.RUNNER_ANYWHERE_COMMANDS)
                             + "|" + rf"^[ \t]*\\?[ \t]*{re.escape(C.RUNNER_COMMAND_PREFIX)}", re.MULTILINE)


def _runner_safe_yaml(text: str) -> str:
    """YAML text whose lines no CI runner reads as a log command, read back as the same values: a
    string holding one is double-quoted (:func:`_faithful_str`), where ``[`` may be written
    ``\\x5B`` and ``:`` ``\\x3A`` (``##\\x5B``, ``##vso\\x5B``, a line's leading ``::`` as
    ``\\x3A:``)."""
    def one(match: re.Match[str]) -> str:
        found = match.group()
        if found.endswith("["):
            return found[:-1] + "\\x5B"
        return found[:-len(C.RUNNER_COMMAND_PREFIX)] + "\\x3A:"
    return _RUNNER_IN_YAML.sub(one, text)


def dump_yaml(data: Any, width: int = 100) -> str:
    """``data`` as YAML text that :func:`load_yaml` reads back as the same values (keys in their
    order, non-ASCII text as it is): the catalog files the product writes (``snapshot``, a saved
    catalog, exported queries). No line of it is a CI runner's log command (``::error::…`` at a
    line's start, ``##[`` or ``##vso[`` anywhere): a string holding one is written double-quoted
    with the bracket or colon escaped (``##\\x5B``), which reads back as the same text."""
    return _runner_safe_yaml(yaml.dump(data, Dumper=_FaithfulDumper, sort_keys=False, allow_unicode=True,
                                       width=width))


#: A ``\uD800``–``\uDFFF`` escape in a double-quoted YAML scalar.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _load_limited(loader_class: Any, text: str, origin: str, error: ErrorClass,
                  max_depth: int = MAX_NESTING_DEPTH) -> Any:
    """One document of ``text`` read by ``loader_class`` (a :class:`_LoaderLimits` loader)."""
    loader = loader_class(text)
    loader.limit_error = error
    loader.origin = origin
    loader.max_depth = max_depth
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _reader_error_text(text: str, exc: yaml.reader.ReaderError, what: str) -> str:
    """``"line L, column C: not valid <what> (control character U+0007 is not allowed)"`` for a
    character YAML does not allow (PyYAML gives its position in ``text``)."""
    code = exc.character if isinstance(exc.character, int) else None
    position = exc.position if isinstance(exc.position, int) else -1
    if code is None or not 0 <= position < len(text) or ord(text[position]) != code:
        return f"top level: not valid {what} ({exc.reason})"
    before = text[:position]
    line, column = before.count("\n") + 1, position - before.rfind("\n")
    kind = "control character" if unicodedata.category(chr(code)) == "Cc" else "character"
    return f"line {line}, column {column}: not valid {what} ({kind} U+{code:04X} is not allowed)"


#: Broken YAML up to this size is composed again by the pure-Python parser for a better error
#: place (libyaml often points at the next line).
_LOCATE_ERRORS_MAX_CHARS = 200_000


def _located(text: str, exc: yaml.YAMLError) -> yaml.YAMLError:
    if _BASE_LOADER is yaml.SafeLoader or len(text) > _LOCATE_ERRORS_MAX_CHARS:
        return exc
    try:  # composing builds no values, so nothing is expanded
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as located:
        return located
    except RecursionError:
        pass
    return exc


#: PyYAML's and libyaml's words for a key or list item indented otherwise than the lines above
#: (a key between two levels, a key among a list's items): :func:`yaml_error_text` says it plainly.
_INDENTATION_PROBLEMS = ("expected <block end>, but found", "did not find expected key",
                         "did not find expected '-' indicator")
INDENTATION_WORDS = ("the indentation differs from the lines above: indent each key as the other keys of its "
                     "mapping, and each '-' item as the other items of its list")
#: For ``key: a: b``: the second ``: `` of a plain value.
QUOTE_WORDS = "a value containing ': ' must be quoted: write key: 'a: b', not key: a: b"
#: For a key indented deeper than the line above it: it reads as more of that line's value.
DEEPER_WORDS = ("the indentation differs from the lines above: this line is indented deeper than the one "
                "before it, so it reads as more of that value; indent a key as the other keys of its mapping, "
                "or quote a value containing ': '")


#: The line breaks YAML counts lines by (str.splitlines also breaks at a form feed and others).
_YAML_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _line_before(text: str | None, mark: Any) -> str | None:
    """The text of the marked line before the mark, or ``None`` when the text is not at hand."""
    if text is None or mark is None:
        return None
    lines = _YAML_LINE_BREAK.split(text)
    if not 0 <= mark.line < len(lines):
        return None
    return lines[mark.line][:mark.column]


def yaml_error_text(exc: yaml.YAMLError, what: str = "YAML", text: str | None = None) -> str:
    """``"line L, column C: not valid <what> (<problem>)"`` for a PyYAML error.

    PyYAML marks an unclosed quoted string where the input ends; the place given here is where
    the quote opens, and the message says so. The commonest problems are said in plain words rather
    than the parser's: a key or list item indented otherwise than the lines above
    (:data:`INDENTATION_WORDS`, :data:`DEEPER_WORDS`) and a plain value holding ``': '``
    (:data:`QUOTE_WORDS`: ``description: x: y``), told apart by the marked line of ``text`` (the
    document read).
    """
    mark = getattr(exc, "problem_mark", None)
    context = getattr(exc, "context", None) or ""
    context_mark = getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is not None and problem.startswith(_INDENTATION_PROBLEMS):
        return f"line {mark.line + 1}, column {mark.column + 1}: not valid {what} ({INDENTATION_WORDS})"
    if mark is not None and problem == "mapping values are not allowed here":
        before = _line_before(text, mark)
        if before is not None:  # the mark is at the colon; an earlier ': ' on its line is the key's own
            words = QUOTE_WORDS if ": " in before or before.endswith(":") else DEEPER_WORDS
            return f"line {mark.line + 1}, column {mark.column + 1}: not valid {what} ({words})"
    if context_mark is not None and "quoted scalar" in context and "end of stream" in problem:
        end = f" at line {mark.line + 1}" if mark is not None else ""
        return (f"line {context_mark.line + 1}, column {context_mark.column + 1}: not valid {what} "
                f"(a quoted string starts here and is not closed: {problem}{end})")
    if context_mark is not None and context in ("while parsing a flow sequence", "while parsing a flow mapping"):
        bracket = "[" if context.endswith("sequence") else "{"  # inside [...] or {...}
        if "<stream end>" in problem:  # never closed: PyYAML marks the end of the input, which says nothing
            end = f" at line {mark.line + 1}" if mark is not None else ""
            return (f"line {context_mark.line + 1}, column {context_mark.column + 1}: not valid {what} "
                    f"(a '{bracket}' opens here and is not closed: {problem}{end})")
        problem += f", inside the '{bracket}' that opens at line {context_mark.line + 1}, column {context_mark.column + 1}"
    place = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "top level"
    if context_mark is not None and "quoted scalar" in context:  # a bad escape inside a quoted string
        problem += f", in the quoted string that starts at line {context_mark.line + 1}, column {context_mark.column + 1}"
    if "'\\t'" in problem and "cannot start any token" in problem:  # a tab where YAML expects indentation
        problem += "; YAML allows no tab here: indent with spaces"
    return f"{place}: not valid {what} ({problem})"


def too_deep(error: ErrorClass, origin: str, max_depth: int = MAX_NESTING_DEPTH) -> InputLimitError:
    """The refusal for a document nested deeper than ``max_depth`` (no place known: its
    ``unplaced_depth`` attribute is true, for a caller that can find the place itself)."""
    exc = limit_error(error, f"{origin}: top level: nested more than {max_depth} levels deep (limit); not read")
    exc.unplaced_depth = True  # type: ignore[attr-defined]
    return exc


# --- JSON and JSONC ------------------------------------------------------------------------

def check_depth(data: Any, origin: str, error: ErrorClass = ToolsearchError,
                max_depth: int = MAX_NESTING_DEPTH) -> Any:
    """Return ``data`` unchanged, or refuse it when lists/objects nest deeper than ``max_depth``
    (:data:`MAX_NESTING_DEPTH` by default; an iterative walk; a shared object is walked once).

    Raises:
        InputLimitError: (also ``error``) nested too deeply, naming ``origin`` (:func:`too_deep`).
    """
    if not isinstance(data, (dict, list)):
        return data
    stack: list[tuple[Any, int]] = [(data, 1)]
    seen: set[int] = set()
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            raise too_deep(error, origin, max_depth)
        if id(value) in seen:
            continue
        seen.add(id(value))
        children = value.values() if isinstance(value, dict) else value
        for child in children:
            if isinstance(child, (dict, list)) and child:
                stack.append((child, depth + 1))
    return data


def nesting_exceeds(data: Any, limit: int) -> bool:
    """True when lists/dicts (parsed JSON/YAML, the root at level 1) nest more than ``limit``
    levels. Iterative, one level at a time with shared (aliased) nodes counted once per level, so
    YAML alias cycles (which nest without end) and alias fan-out stay cheap."""
    if not isinstance(data, (dict, list)):
        return False
    level, depth = [data], 1
    while level:
        if depth > limit:
            return True
        below: dict[int, Any] = {}
        for node in level:
            for child in (node.values() if type(node) is dict else node):
                if isinstance(child, (dict, list)):
                    below[id(child)] = child
        level, depth = list(below.values()), depth + 1
    return False


def data_nesting(data: Any) -> Iterator[tuple[bool, Any]]:
    """The lists and mappings of parsed ``data`` in document order, without recursion:
    ``(True, key)`` where one opens (``key``: the mapping key or list index it is the value of,
    ``None`` for the root), ``(False, None)`` where it closes. For finding where a document nests
    too deeply, with the path of keys to that place."""
    def children(value: Any) -> Iterator[tuple[Any, Any]]:
        return iter(value.items() if isinstance(value, Mapping) else enumerate(value))

    if not isinstance(data, (Mapping, list)):
        return
    yield True, None
    stack = [children(data)]
    while stack:
        for key, child in stack[-1]:
            if isinstance(child, (Mapping, list)):
                yield True, key
                stack.append(children(child))
                break
        else:
            stack.pop()
            yield False, None


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]')


def json_nesting(text: str) -> Iterator[tuple[bool, Any]]:
    """:func:`data_nesting` read from JSON ``text`` without building any value: for a document
    too deep for the parser (``RecursionError``), to name the place where it goes too deep. Best
    effort: text that is not JSON gives what its brackets and strings say."""
    stack: list[list[Any]] = []  # per open container: [is_object, index, key, expecting_key]
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        top = stack[-1] if stack else None
        if token[0] == '"':
            if top is not None and top[0] and top[3]:
                try:
                    top[2] = json.loads(token)
                except ValueError:
                    top[2] = token[1:-1]
            continue
        if token in "[{":
            key = None if top is None else (top[2] if top[0] else top[1])
            stack.append([token == "{", 0, None, token == "{"])
            yield True, key
        elif token in "]}":
            if stack:
                stack.pop()
                yield False, None
        elif top is None:
            continue
        elif token == ":":
            top[3] = False
        elif top[0]:  # ',' in an object: a key comes next
            top[2], top[3] = None, True
        else:
            top[1] += 1


#: Most parts of a path that :func:`place_text` names in full (past them: the first ones, "…", the last).
PLACE_PARTS = 10


def place_text(path: Any) -> str:
    """A path of keys and list indexes as problems name places: ``servers[0].tools[3].inputSchema``;
    a long one (a document nested hundreds of levels) is cut in the middle (``servers[0][0]…[0]``)."""
    parts = [f"[{key}]" if isinstance(key, int) and not isinstance(key, bool)
             else ("." if index else "") + shortened(str(key), 40) for index, key in enumerate(path)]
    if len(parts) > PLACE_PARTS:
        parts = [*parts[:PLACE_PARTS - 2], "…", parts[-1].lstrip(".")]
    return "".join(parts)


def placed_too_deep(events: Any, origin: str, error: ErrorClass,
                    max_depth: int = MAX_NESTING_DEPTH) -> InputLimitError | None:
    """The refusal of a document nested more than ``max_depth`` levels deep that names the path of
    keys where it first goes past them, from its :func:`data_nesting` or :func:`json_nesting`
    ``events`` (for one refused with no place known, :func:`too_deep`), or ``None`` when the events
    never go that deep."""
    path: list[Any] = []
    for opening, key in events:
        if not opening:
            path.pop()
            continue
        path.append(key)
        if len(path) > max_depth:
            return limit_error(error, f"{origin}: {place_text(path[1:])}: nested more than {max_depth} levels deep "
                                      "(limit); not read")
    return None


def _unique_keys(origin: str, error: ErrorClass) -> Any:
    """An ``object_pairs_hook`` that refuses an object giving one key twice (the parsers keep the
    last value and drop the first without a word)."""
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set[str] = set()
            key = next(k for k, _ in pairs if k in seen or seen.add(k))
            raise error(f"{origin}: the key {key!r} is given twice in one object; expected each key once")
        return out
    return hook


def load_json(text: str, origin: str, error: ErrorClass = ToolsearchError, what: str = "JSON") -> Any:
    """Parse JSON within the limits (size, nesting depth).

    Raises:
        InputLimitError: (also ``error``) over a limit, naming ``origin`` and the limit.
        ``error``: not valid JSON: ``"<origin>: line L, column C: not valid <what> (<problem>)"``.
    """
    check_size(len(text), origin, error)
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys(origin, error), parse_int=_parse_int)
    except RecursionError:
        raise too_deep(error, origin) from None
    except _NumberTooLong as exc:
        raise _too_long(exc, text, origin, error) from None
    except json.JSONDecodeError as exc:
        raise error(f"{origin}: line {exc.lineno}, column {exc.colno}: not valid {what} ({exc.msg})") from None
    return check_depth(data, origin, error)


def load_json_line(line: str, origin: str, error: ErrorClass = ToolsearchError) -> Any:
    """Parse one JSONL line within the limits (size in characters, nesting depth, digits of a number).

    Raises:
        InputLimitError: (also ``error``) the line is over a limit, naming ``origin``.
        json.JSONDecodeError: the line is not valid JSON; it passes through unchanged so a caller
            can report the line and go on.
    """
    check_size(len(line), origin, error)
    try:
        data = json.loads(line, parse_int=_parse_int, **RECORDED_JSON)
    except RecursionError:
        raise too_deep(error, origin) from None
    except _NumberTooLong as exc:
        raise _too_long(exc, line, origin, error) from None
    return check_depth(data, origin, error)


NOT_JSONC = object()


def load_jsonc(text: str, origin: str, error: ErrorClass = ToolsearchError, *, strict: bool = False,
               max_depth: int = MAX_NESTING_DEPTH) -> Any:
    """JSON with ``//`` and ``/* */`` comments and trailing commas (as VS Code's ``mcp.json``
    allows), read with the ``json5`` library within the limits.

    Returns :data:`NOT_JSONC` when the text has no comment or trailing comma, or (unless
    ``strict``) does not parse or is longer than :data:`MAX_JSONC_CHARS`.

    Raises:
        InputLimitError: (also ``error``) over a limit (``strict`` text longer than
            :data:`MAX_JSONC_CHARS` too).
        ``error``: ``strict`` and the text does not parse, naming ``origin``, line and column
            (``catalog.jsonc: line 3, column 1: not valid JSON with comments (unexpected end of
            input; is a /* comment left open?)``).
    """
    if not _jsonc_marked(text):
        return NOT_JSONC
    check_size(len(text), origin, error)
    if len(text) > MAX_JSONC_CHARS:  # json5 would take minutes
        if not strict:
            return NOT_JSONC
        raise limit_error(error, f"{origin}: {len(text):,} characters of JSON with comments or trailing commas, "
                                 f"over the {size_text(MAX_JSONC_CHARS)} limit for them; not read: remove the "
                                 "comments and trailing commas (plain JSON and YAML are read up to "
                                 f"{size_text(MAX_INPUT_BYTES)})")
    import json5  # noqa: PLC0415

    too_long: list[_NumberTooLong] = []  # json5 turns a hook's ValueError into its own, without the number

    def parse_int(number: str, base: int = 10) -> int:
        try:
            return _parse_int(number, base)
        except _NumberTooLong as exc:
            too_long.append(exc)
            raise

    try:
        data = json5.loads(text, object_pairs_hook=_unique_keys(origin, error), parse_int=parse_int)
    except RecursionError:
        raise too_deep(error, origin, max_depth) from None
    except ValueError as exc:
        if too_long:
            raise _too_long(too_long[0], text, origin, error) from None
        if not strict:
            return NOT_JSONC
        raise error(_jsonc_problem(str(exc), origin)) from None
    return check_depth(data, origin, error, max_depth)


def _jsonc_marked(text: str) -> bool:
    """Whether ``text`` may be JSONC: it holds ``//`` or ``/*`` or a comma before a closing bracket."""
    return "//" in text or "/*" in text or re.search(r",\s*[}\]]", text) is not None


def _jsonc_problem(message: str, origin: str) -> str:
    """json5's ``<string>:3 Unexpected end of input at column 1`` as this reader words errors."""
    found = re.fullmatch(r"<string>:(\d+) (.*?) at column (\d+)", message.strip(), re.DOTALL)
    if not found:
        return f"{origin}: not valid JSON with comments ({quoted(message.strip()[:200])})"
    line, what, column = found.groups()
    what = what[:1].lower() + what[1:]
    if what.startswith("unexpected end of input"):
        what += "; is a /* comment or a string left open?"
    return f"{origin}: line {line}, column {column}: not valid JSON with comments ({what})"


def _json_or_none(text: str, origin: str, error: ErrorClass, max_depth: int = MAX_NESTING_DEPTH) -> Any:
    """``text`` parsed as strict JSON within the limits, or ``None`` when it is not valid JSON.

    Raises:
        InputLimitError: (also ``error``) over a limit.
        ``error``: a key given twice in one object.
    """
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys(origin, error), parse_int=_parse_int)
    except RecursionError:
        raise too_deep(error, origin, max_depth) from None
    except _NumberTooLong as exc:
        raise _too_long(exc, text, origin, error) from None
    except ValueError:
        return None
    return check_depth(data, origin, error, max_depth)


def load_data(text: str, origin: str, error: ErrorClass = ToolsearchError, what: str = "YAML or JSON", *,
              max_depth: int = MAX_NESTING_DEPTH) -> Any:
    """Parse YAML, JSON or JSONC text within the limits (the catalog and config reader;
    ``max_depth``: the nesting limit, :data:`MAX_CATALOG_NESTING_DEPTH` for a catalog).

    JSON-looking text goes through the JSON parser first (much faster on large files), then
    JSONC (comments, trailing commas); if both fail it is parsed as YAML, whose error names the
    line and column.

    Raises:
        InputLimitError: (also ``error``) over a limit.
        ``error``: not valid YAML or JSON, naming ``origin``, line and column.
    """
    check_size(len(text), origin, error)
    head = text.lstrip()
    if head[:1] in ("{", "[") or head[:2] in ("//", "/*"):
        try:
            data = json.loads(text, object_pairs_hook=_unique_keys(origin, error), parse_int=_parse_int)
        except RecursionError:
            raise too_deep(error, origin, max_depth) from None
        except _NumberTooLong as exc:
            raise _too_long(exc, text, origin, error) from None
        except ValueError:
            # Text that opens with a comment is JSONC or nothing (YAML comments start with '#').
            data = load_jsonc(text, origin, error, strict=head[:2] in ("//", "/*"), max_depth=max_depth)
            if data is not NOT_JSONC:
                return data
            if len(text) > MAX_JSONC_CHARS and _jsonc_marked(text):
                try:
                    return load_yaml(text, origin, error, what, max_depth=max_depth)
                except InputLimitError:
                    raise
                except ToolsearchError as exc:
                    # it was not read as JSONC: the error says so (it may have a comment or trailing comma)
                    raise type(exc)(f"{exc}; a file over {size_text(MAX_JSONC_CHARS)} is not read as JSON with "
                                    "comments or trailing commas; if it has some, remove them") from None
        else:
            return check_depth(data, origin, error, max_depth)
    return load_yaml(text, origin, error, what, max_depth=max_depth)


def load_embedded_json(text: str) -> Any:
    """JSON held inside a value (a tool call's ``arguments`` string, a result's text), parsed
    within :data:`MAX_NESTING_DEPTH`; NaN and infinities are kept as text (:data:`RECORDED_JSON`).

    Raises:
        ValueError: not valid JSON, or nested too deeply (a caller treats both as a bad value
            and keeps the text as it is).
    """
    return _value_within_depth(text, **RECORDED_JSON)


def _value_within_depth(text: str, **options: Any) -> Any:
    """``json.loads(text, **options)`` (large integers read as :func:`_parse_int` does), within
    :data:`MAX_NESTING_DEPTH`; raises ``ValueError`` for bad JSON and for too deep nesting alike."""
    try:
        data = json.loads(text, parse_int=_parse_int, **options)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_NESTING_DEPTH} levels deep") from None
    try:
        return check_depth(data, "value")
    except InputLimitError as exc:
        raise ValueError(str(exc)) from None


def _not_a_json_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number; write it as a number or as a string in quotes")


def _finite_float(text: str) -> float:
    value = float(text)
    if value - value != 0:
        raise ValueError(f"the number {text[:40]}{'…' if len(text) > 40 else ''} is too large for a JSON number "
                         "(it would be sent as an infinity, which JSON does not have)")
    return value


def _typed_unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ValueError(f"the key {quoted_short(key)} is given twice in one object (a parser keeps the last "
                         "value and drops the first); expected each key once")
    return out


def load_typed_json(text: str) -> Any:
    """JSON a user typed to be sent on (a tool call's arguments on the command line or in the app),
    parsed strictly within :data:`MAX_NESTING_DEPTH`: ``NaN``, ``Infinity``, a number too large for
    a float (``1e999``) and a key given twice are refused, where :func:`load_embedded_json` (for
    what other programs recorded) keeps the first two as text and the last value of the key; a
    call would otherwise be sent with a string or a value the user did not write.

    Raises:
        ValueError: not valid JSON, one of the above, or nested too deeply; the message says which.
    """
    return _value_within_depth(text, parse_constant=_not_a_json_number, parse_float=_finite_float,
                               object_pairs_hook=_typed_unique_keys)
