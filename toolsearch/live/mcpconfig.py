"""MCP client config files → :class:`ServerSpec` lists (docs/reference.md §26, §29).

Accepted shapes (detected from the top level, see :func:`config_kind`):

* ``{"mcpServers": {name: {...}}}``: Claude Desktop, Claude Code (``.mcp.json``,
  ``~/.claude.json``), Cursor (``mcp.json``), Windsurf (``mcp_config.json``: a remote entry's URL
  under ``serverUrl``), Gemini CLI (``settings.json``: under ``httpUrl``), Agent Plugins ``mcp.json``;
* ``{"servers": {name: {...}}, "inputs": [...]}``: VS Code ``.vscode/mcp.json`` (``servers`` is a
  *mapping*; a catalog's ``servers`` is a list). A VS Code ``settings.json`` with
  ``{"mcp": {"servers": {...}}}`` is read the same way;
* ``mcp_servers: {name: {...}}``: the Hermes ``config.yaml`` block (docs/reference.md §26.1).

Every string value of a server entry is interpolated as docs/reference.md §26.2 says (``${VAR}``,
``${env:VAR}``, ``${userHome}``, ``${workspaceFolder}``, ``${workspaceFolderBasename}``,
``${pathSeparator}``, ``${/}``); an unset or empty variable leaves the placeholder as it is, and
the spec records it in :attr:`ServerSpec.unresolved`. ``mcpServers`` files also get Claude
Code's ``${VAR:-default}`` (docs/reference.md §29.2); Hermes and VS Code files keep it literal.

Secrets: env values (``envFile`` ones included), header values, every value a ``${VAR}``
reference resolved to (wherever it lands: command, args, cwd, any part of the url, headers) and
the values of secret-looking arguments (:func:`secret_arguments`: ``--token=x``, ``--accessToken x``,
``-e NAME=x``, ``--header "Authorization: Bearer x"``…) are secrets. :meth:`ServerSpec.redacted`
is the view meant for display or logs; it shows them as ``••••`` and shows command, args, cwd and
url as written in the file (placeholders, not the values they resolved to; URL userinfo and query
values masked). ``repr()`` uses it too. :meth:`ServerSpec.launch_preview` shows what would run,
every resolved value as ``••••``. :meth:`ServerSpec.scrub` (and :func:`scrub_text`) masks them in
any message.

One bad server entry does not make the file unusable: :func:`parse_config_data` records it as a
spec with :attr:`ServerSpec.invalid` set (the reason), which a connect reports as that server's
failure. Only a file that cannot be read or parsed, or whose top level has no servers map, raises
:class:`~toolsearch.engine.errors.ConfigError`.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from collections.abc import Mapping  # not typing.Mapping: isinstance on it is much slower (once per value read)
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

from ..engine import constants as C
from ..engine import readers
from ..engine.errors import ConfigError
from ..engine.invisible import mark_controls, yaml_kind, yaml_spelled
from ..engine.config import shown_value
from ..engine.registration import parse_bool_like
# The masking itself lives in the engine layer (analysis masks session text with it too); the
# names stay importable from here.
from ..engine.secrets import (  # noqa: F401
    _BASE64_PIECE_MIN_CHARS, _LINE_BREAK, _PLAIN_WORD, _URL_IN_TEXT, SECRET_MIN_CHARS, _encoded_forms, _mask_query,
    _scrub_across_lines, credential_shapes, encoded_forms, mask_credential_shapes, matrix_values, redact_url, scrub_data,
    mask_token_shapes, scrub_text, secret_list)
from ..engine.secrets import ENV_OPTIONS as _ENV_OPTIONS  # the options whose values are read for a secret
from ..engine.secrets import HEADER_OPTIONS as _HEADER_OPTIONS
from ..engine.secrets import USERINFO_OPTIONS as _USERINFO_OPTIONS
from ..engine.secrets import (GLUED_ONLY_PROGRAMS, PROGRAM_SECRET_OPTIONS, WRAPPER_PROGRAMS, SecretIndex, SecretValues,
                              program_name, secret_index, secret_key_name, secret_option_value, shell_words,
                              split_command_line)
from .urlreading import host_disagreement

_PLACEHOLDER = re.compile(r"\$\{([^}]+)\}")
_ENV_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)


def _is_secret_option(name: str) -> bool:
    """True for a long option (``--name``, or Go-style ``-name``) whose name says its value is a secret
    (:func:`~toolsearch.engine.secrets.secret_key_name`, the rule config keys, variables and header
    names are read by too: ``--api-key``, ``--accessToken``, ``-clientSecret``; not ``--max-tokens``
    or ``--token-file``). A one-letter option (``-p``, ``-k``) is never one by its name: what it takes
    depends on the program (:data:`PROGRAM_SECRET_OPTIONS`)."""
    if not name.startswith("-") or name.startswith("---") or len(name) < 3 or name[1:2].isdigit():
        return False
    return secret_key_name(name)


def _names_no_secret(value: str) -> bool:
    """True when ``value`` is only ``${VAR}`` placeholders (and an auth scheme word), or ``-`` (the
    standard input: ``--password -``): it names where a secret comes from, not the secret."""
    if value == "-":
        return True
    rest = _PLACEHOLDER.sub("", value).strip()
    return bool(_PLACEHOLDER.search(value)) and rest.rstrip(":").strip().lower() in ("", "bearer", "basic", "token")


def _argument_secret(kind: str, value: str) -> str:
    """The secret part of an option value: the whole value (a secret option), the value of
    ``NAME=VALUE`` (an env option; ``""`` when the value is only a name to pass through), the
    part after ``Name:`` (a header option; the whole value without a colon) or the part after
    ``user:`` (a user option; ``""`` without a colon)."""
    if kind == "userinfo":
        return value.partition(":")[2]
    if kind == "env":
        match = _ENV_ASSIGNMENT.fullmatch(value)
        return match.group(2) if match else ""
    if kind == "header":
        name, colon, rest = value.partition(":")
        return rest.strip() if colon and name.strip() and " " not in name.strip() else value
    return value


def _masked_value(kind: str, value: str) -> str:
    """``value`` shown with its secret part (:func:`_argument_secret`) as ``••••``; a value that
    only names placeholders is kept as written."""
    secret = _argument_secret(kind, value)
    if not secret or _names_no_secret(secret) or _PLACEHOLDER.fullmatch(secret):
        return value
    if kind == "env":
        return f"{_ENV_ASSIGNMENT.fullmatch(value).group(1)}={C.SECRET_MASK}"  # type: ignore[union-attr]
    if kind == "header" and secret != value:
        return f"{value.partition(':')[0]}: {C.SECRET_MASK}"
    if kind == "userinfo":
        return f"{value.partition(':')[0]}:{C.SECRET_MASK}"
    return C.SECRET_MASK


def _option_kind(name: str) -> str | None:
    """``"secret"``, ``"env"``, ``"header"``, ``"userinfo"`` or ``None`` for an option name (the part
    before ``=``)."""
    if name in _ENV_OPTIONS:
        return "env"
    if name in _USERINFO_OPTIONS:
        return "userinfo"
    if name in _HEADER_OPTIONS:
        return "header"
    return "secret" if _is_secret_option(name) else None


def _glued_kind(arg: str) -> str | None:
    """The secret kind of an option glued to its value (``-eNAME=x``: docker's ``"env"``;
    ``-H"Authorization: Bearer x"``: curl's ``"header"``; ``-uadmin:pw``: curl's ``"userinfo"``), else ``None``."""
    if arg.startswith("-e") and not arg.startswith("--") and _ENV_ASSIGNMENT.fullmatch(arg[2:]):
        return "env"
    if arg.startswith("-H") and not arg.startswith("--") and ":" in arg[2:]:
        return "header"
    if arg[:2] in ("-u", "-U") and ":" in arg[2:]:
        return "userinfo"
    return None


#: An option name as written on a command line: one or two dashes, then letters, digits, ``_``, ``.``
#: and ``-`` (``--api-key``, ``-apiKey``, ``-Dfile.encoding``); ``-uadmin:pw`` is no option name.
_OPTION_NAME = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9_.\-]*")


def _dashed_secret_option(arg: str) -> bool:
    """Whether ``arg`` is a single-dash option name (no ``=``) that says its value is a secret
    (``-apiKey``, ``-clientSecret``): taken as the value of a secret option before it, the next
    word may be its own value."""
    return (arg.startswith("-") and not arg.startswith("--") and "=" not in arg
            and _OPTION_NAME.fullmatch(arg) is not None and _option_kind(arg) == "secret")


def _takes_as_value(pending: str, arg: str) -> bool:
    """Whether ``arg`` is the value of the option before it, whose kind is ``pending``
    (:func:`_option_kind`). A header option takes the next argument whatever it is. A secret
    option (``--password``, ``-password``, ``sshpass -p``) takes it whatever it looks like, as a
    program that reads the word after such an option as its value does: ``--password -hunter``,
    ``--password -Xy9kQ2w8vT`` and ``--token --verbose`` are values (a switch whose name says secret,
    ``--auth --verbose``, has the next option masked with it: that loses a name, showing a secret
    would lose the secret). It does not take ``--`` (the end of the options) or an option whose own
    value is read here: a word is never taken at the cost of the next option's secret
    (``--auth -u admin:pw``, ``--auth -uadmin:pw``, ``--token -eKEY=x``, ``--auth --oauth2token x``).
    Environment and user options take one that does not start with ``-`` (``python -u -m server``:
    no user name follows ``-u`` there)."""
    if pending in ("header", "header value"):
        return True
    if pending != "secret" or not arg.startswith("-"):
        return not arg.startswith("-")
    return secret_option_value(arg)


def _argument_parts(args: list[str], program: str = "") -> list[tuple[str, str | None, str]]:
    """Each argument as ``(prefix, kind, value)``: ``kind`` is ``None`` for an argument shown as it
    is (then ``value`` is the whole argument), else the secret kind of the option it is the value of
    (``--token=x`` → ``("--token=", "secret", "x")``; ``-eNAME=x`` → ``("-e", "env", "NAME=x")``; the
    argument after ``--api-key`` → ``("", "secret", "x")``).

    ``program`` is the command that gets ``args``; it, or a later word that names one of
    :data:`PROGRAM_SECRET_OPTIONS` (``docker exec db mysql -pX``, a script's first word), makes
    that program's one-letter secret option read as one from there on (``mysql -pX`` →
    ``("-p", "secret", "X")``)."""
    out: list[tuple[str, str | None, str]] = []
    pending: str | None = None
    context = program_name(program) if program else ""
    for arg in args:
        if pending is not None and _takes_as_value(pending, arg):
            if pending == "header" and _HEADER_NAME.fullmatch(arg) and _is_secret_option("--" + arg):
                # mcp-proxy's two-argument form, `--headers Authorization "Bearer x"`: the name as
                # written, the next argument its value
                out.append(("", None, arg))
                pending = "header value"
                continue
            # An env option's value that is not NAME=VALUE (`--env '{"API_KEY": "x"}'`, JSON) is read as
            # text: the values under its secret-named keys (:func:`_secret_pairs`), URL credentials.
            env_text = pending == "env" and not _ENV_ASSIGNMENT.fullmatch(arg)
            out.append(("", None if env_text else "header" if pending == "header value" else pending, arg))
            # A value that is also a Go-style secret option (`--token -apiKey X`) may be either: masked as
            # the value, and the word after it masked too if it is that option's value.
            pending = "secret" if pending == "secret" and _dashed_secret_option(arg) else None
            continue
        pending = None
        if program_name(arg) in PROGRAM_SECRET_OPTIONS:
            context = program_name(arg)
        elif context in WRAPPER_PROGRAMS and not arg.startswith("-"):
            context = ""  # `sshpass -p X ssh -p 2222 host`: the command it runs, whose -p is its own
        short = PROGRAM_SECRET_OPTIONS.get(context)
        if short is not None and arg == short and context not in GLUED_ONLY_PROGRAMS:
            out.append(("", None, arg))  # sshpass -p S3cret, redis-cli -a S3cret
            pending = "secret"
            continue
        if short is not None and arg.startswith(short) and len(arg) > len(short):
            out.append((short, "secret", arg[len(short):]))  # mysql -pS3cret
            continue
        name, eq, value = arg.partition("=")
        # only a word shaped like an option name is one: `-uadmin:MySecret1` is curl's -u glued to its
        # value (its password's "Secret" made it read as a secret option, shown whole)
        kind = _option_kind(name) if _OPTION_NAME.fullmatch(name) else None
        if kind == "env" and eq and not _ENV_ASSIGNMENT.fullmatch(value):
            out.append(("", None, arg))  # `--env={"API_KEY": "x"}`: JSON, read as text (its secret-named keys)
        elif kind is not None and eq:
            out.append((name + "=", kind, value))
        elif kind is not None:
            out.append(("", None, arg))
            pending = kind
        elif (glued := _glued_kind(arg)) is not None:
            out.append((arg[:2], glued, arg[2:]))  # -eNAME=x, -H"Authorization: Bearer x", -uadmin:pw
        elif _ENV_ASSIGNMENT.fullmatch(arg) and _is_secret_option("--" + arg.partition("=")[0]):
            out.append(("", "env", arg))  # `env API_KEY=value cmd`: a variable whose name says it is a secret
        else:
            out.append(("", None, arg))
    return out


#: ``name=value`` inside an argument, after its start, a ``;``, a ``&`` or a space: the pairs of a
#: connection string (``Server=db;User Id=sa;Password=x;``).
_PAIR_IN_TEXT = re.compile(r"(?:^|(?<=[;&\s]))([A-Za-z_][A-Za-z0-9_.\-]{0,63})([ \t]*=[ \t]*)([^;&\s]+)")


#: ``"name": "value"`` inside an argument: a JSON object given on the command line, as Smithery's
#: ``@smithery/cli run SERVER --config '{"braveApiKey":"…"}'`` passes a server its keys.
_JSON_PAIR_IN_TEXT = re.compile(r'"([A-Za-z_][A-Za-z0-9_.\-]{0,63})"\s*:\s*"((?:[^"\\]|\\.)*)"')
#: ``"name": 123456789`` inside an argument: a JSON number under a key (a PIN, an account number,
#: a numeric key: ``--env '{"API_KEY": 123456789}'``); the value as the program reads it is its text.
_JSON_NUMBER_PAIR_IN_TEXT = re.compile(r'"([A-Za-z_][A-Za-z0-9_.\-]{0,63})"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)'
                                       r'(?![\d.eE])')


#: An argument that is one whole HTTP header line, ``Authorization: Bearer x`` (a header given
#: without ``--header``, or to a program whose header option toolsearch does not know).
_HEADER_LINE = re.compile(r"[ \t]*([A-Za-z][A-Za-z0-9\-]{0,63})[ \t]*:[ \t]*([^\s/][^\r\n]*?)[ \t]*")


def _header_line(text: str) -> tuple[int, int, str] | None:
    """``(start, end, value)`` of the value when ``text`` is one header line whose name says the
    value is a secret (``Authorization``, ``X-Api-Key``, ``Cookie``: the rule of option names), a
    value that is only ``${VAR}`` placeholders aside; else ``None``."""
    m = _HEADER_LINE.fullmatch(text or "")
    if m is None or not _is_secret_option("--" + m.group(1)) or _names_no_secret(m.group(2)):
        return None
    return m.start(2), m.end(2), m.group(2)


def _secret_pairs(text: str) -> list[tuple[int, int, str]]:
    """The ``name=value`` pairs, and the ``"name": "value"`` pairs of JSON text, in ``text`` whose
    name says the value is a secret (the rule of option names: ``Password``, ``API_KEY``,
    ``AccountKey``, ``braveApiKey``; not ``Server`` or ``MAX_TOKENS``), a value that is only
    ``${VAR}`` placeholders aside: ``(start, end, value)`` per pair, the value's place in ``text``
    and the value as the program reads it (a JSON string decoded), in order of place."""
    found = [(m.start(3), m.end(3), m.group(3)) for m in _PAIR_IN_TEXT.finditer(text or "")
             if _is_secret_option("--" + m.group(1))]
    # the spans taken so far, sorted and never overlapping: a span overlaps one of them exactly when
    # it overlaps the last one starting before its end (a list searched per pair took the square of
    # the pairs: 4,000 pairs in one JSON argument, half a minute)
    starts = [a for a, _, _ in found]
    ends = [b for _, b, _ in found]

    def free(start: int, end: int) -> bool:
        at = bisect.bisect_left(starts, end) - 1
        return at < 0 or ends[at] <= start

    def take(start: int, end: int, value: str) -> None:
        at = bisect.bisect_left(starts, start)
        starts.insert(at, start)
        ends.insert(at, end)
        found.append((start, end, value))

    for m in _JSON_PAIR_IN_TEXT.finditer(text or ""):
        if _is_secret_option("--" + m.group(1)) and free(m.start(2), m.end(2)):
            try:
                value = json.loads(f'"{m.group(2)}"')
            except ValueError:
                value = m.group(2)
            take(m.start(2), m.end(2), value)
    for m in _JSON_NUMBER_PAIR_IN_TEXT.finditer(text or ""):
        if _is_secret_option("--" + m.group(1)) and free(m.start(2), m.end(2)):
            take(m.start(2), m.end(2), m.group(2))
    line = _header_line(text)
    if line is not None and free(line[0], line[1]):
        found.append(line)
    return sorted((a, b, v) for a, b, v in found if v and v != C.SECRET_MASK and not _names_no_secret(v))


#: A piece of config text that is one whole URL (a scheme and ``//``, no space in it): a program
#: given it as one argument reads all of it as the URL, its user part up to the last ``@`` before
#: the host whatever characters it holds (``https://u:pa(ss@host``), as :func:`redact_url` reads it.
#: An option's ``--url=`` or a variable's ``DATABASE_URL=`` before it counts as not part of it; a tab or
#: line break in the scheme counts as part of it (both readers drop them), and ``https:`` with no
#: slash after it too (WHATWG readers take ``https:host`` for ``https://host``).
_WHOLE_URL = re.compile(r"(?:-{1,2}[A-Za-z0-9][A-Za-z0-9_.\-]*=|[A-Za-z_][A-Za-z0-9_]*=)?"
                        r"((?:[A-Za-z][A-Za-z0-9+.\-\t\r\n]*:[\t\r\n]*/[\t\r\n]*/|(?i:https?|wss?|ftp):)[^ \f\v]*)",
                        re.DOTALL)


def _mask_free_text(text: str) -> str:
    """``text`` with the secrets of :func:`free_text_secrets` masked (a whole URL as
    :func:`redact_url` reads it, :data:`_WHOLE_URL`)."""
    whole = _WHOLE_URL.fullmatch(text or "")
    if whole:
        text = text[:whole.start(1)] + redact_url(whole.group(1))
    pieces, done = [], 0
    for start, end, _ in _secret_pairs(text):  # in order of place, never overlapping
        pieces += [text[done:start], C.SECRET_MASK]
        done = end
    text = "".join(pieces) + text[done:]
    return mask_url_path_keys(mask_credential_shapes(text))


#: A part of a URL's path that is a key rather than a name: a UUID, or 20+ letters, digits, ``-``
#: and ``_`` with a run of 16 that mixes letters and digits (the hosted MCP endpoints that put the
#: key in the path: ``https://mcp.pipedream.net/<uuid>/github``, a Slack webhook's last part). A
#: part is also read piece by piece between colons: Telegram's bot API puts ``bot<id>:<key>`` in the
#: path, of which the piece after the colon is the key.
_PATH_KEY = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
                       r"|[A-Za-z0-9_\-]{20,}")


def _path_keys(url: str) -> list[str]:
    """The parts of ``url``'s path (after the host), and the pieces of a part between colons
    (``bot123456:<key>``), that :data:`_PATH_KEY` takes for keys."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return []
    found = []
    for part in re.split(r"[/:]", path):
        if not _PATH_KEY.fullmatch(part) or part == C.SECRET_MASK:
            continue
        if "-" in part and len(part) == 36 and part.count("-") == 4:
            found.append(part)  # a UUID
        elif any(len(run) >= 16 and re.search(r"\d", run) and re.search(r"[A-Za-z]", run)
                 for run in re.split(r"[-_]", part)):
            found.append(part)
    return found


def mask_url_path_keys(text: str) -> str:
    """``text`` with the keys in the paths of its URLs (:func:`_path_keys`) shown as ``••••``
    (``https://api.telegram.org/bot123456:••••/getMe``)."""
    def one(match: re.Match[str]) -> str:
        url = match.group(0)
        for key in sorted(set(_path_keys(url)), key=len, reverse=True):
            url = url.replace("/" + key, "/" + C.SECRET_MASK).replace(":" + key, ":" + C.SECRET_MASK)
        return url
    return _URL_IN_TEXT.sub(one, text) if "://" in text else text


def free_text_secrets(text: str) -> list[str]:
    """The secrets inside a piece of config text that no option names: the credentials and query
    values of every URL in it (``postgresql://user:pw@host/db``: ``user`` and ``pw``), the known
    credential shapes (``ghp_…``, ``sk-…``: :func:`~toolsearch.engine.secrets.credential_shapes`),
    which also count in a URL's path (``https://host/mcp/sk-…/sse``), and the value of each
    ``name=value`` pair or JSON ``"name": "value"`` pair whose name says it is a secret (a
    connection string's ``Password=x``, a ``--config '{"apiKey": "x"}'`` argument), and of a text
    that is one header line whose name says so (``Authorization: Bearer x``: ``Bearer x`` and ``x``)."""
    values = [value for match in _URL_IN_TEXT.finditer(text or "") for value in _url_secrets(match.group(0))]
    whole = _WHOLE_URL.fullmatch(text or "")
    if whole:  # read whole, as the program given it does
        values += _url_secrets(whole.group(1))
    line = _header_line(text)  # "Authorization: Bearer x": the token on its own too, as a header option's
    return (values + credential_shapes(text or "") + [value for _, _, value in _secret_pairs(text)]
            + (line[2].split()[1:] if line is not None else []))


def secret_arguments(args: Iterable[str], program: str = "") -> list[str]:
    """The secret values in a command line: of secret-looking options (``--token=abc``,
    ``--api-key abc``, ``--accessToken abc``, ``--client_secret=abc``: the name has a word like
    token, key, secret, password, auth, oauth, credential, sig, hmac, and none like max, file, url,
    type), of environment options (``-e NAME=abc``, ``--env NAME=abc``: ``abc``; given JSON,
    ``--env '{"API_KEY": "abc"}'``, the values under its secret-named keys), of header options
    (``--header "Authorization: Bearer abc"``, ``-H``: ``Bearer abc`` and ``abc``) and of user
    options (``-u admin:abc``, ``--user``, ``--proxy-user``: ``abc``); in any other
    argument, those of :func:`free_text_secrets` (URL credentials and query values, known
    credential shapes). A secret option's value is the word after it (or after its ``=``), whatever
    it looks like (:func:`_takes_as_value`: ``--password -hunter``, ``--token --verbose``). ``program``
    is the command that gets ``args``: a one-letter option that takes a secret in that program
    (``mysql -pabc``, ``sshpass -p abc``: :data:`PROGRAM_SECRET_OPTIONS`) is read as one."""
    out: list[str] = []
    for _, kind, value in _argument_parts(list(args), program):
        if kind is None:
            out.extend(free_text_secrets(value))
            out.extend(_script_secrets(value))
            continue
        out.extend(_option_secret(kind, value))
    return [v for v in out if v]


def _option_secret(kind: str, value: str) -> list[str]:
    """The secret of one option value of ``kind`` (:func:`_argument_parts`): none for a value that
    names no secret or is only an unset ``${VAR}`` left as written; a header's token on its own too."""
    secret = _argument_secret(kind, value)
    if not secret or _names_no_secret(secret) or _PLACEHOLDER.fullmatch(secret):
        return []
    if kind == "header" and _COOKIE_HEADER.fullmatch(value.partition(":")[0].strip()):
        return [secret, *cookie_values(secret)]  # "Cookie: sid=x; theme=y": each value on its own too
    return [secret, *(secret.split()[1:] if kind == "header" else [])]  # "Bearer xyz": the token on its own too


#: Header names whose value is ``name=value`` pairs separated by ``;`` (a server may echo one cookie).
_COOKIE_HEADER = re.compile(r"(?i)(?:set-)?cookie2?")


#: The attributes of a ``Set-Cookie`` header (its settings, not cookie values).
_COOKIE_ATTRIBUTES = frozenset({"expires", "max-age", "domain", "path", "samesite", "secure", "httponly", "priority",
                                "partitioned", "version", "comment"})


def cookie_values(header_value: str) -> list[str]:
    """The values of a cookie header's ``name=value`` pairs that look generated (8 characters or
    more with a digit in them, or 16 or more: ``sid=3f9a…``), each a secret on its own, as a server
    may send back one cookie alone; a setting such as ``theme=dark`` or ``lang=en-GB`` is not
    searched for alone (it would mask that word in everything the server sends)."""
    out = []
    for pair in header_value.split(";"):
        name, equals, value = pair.partition("=")
        value = value.strip().strip('"')
        if name.strip().lower() in _COOKIE_ATTRIBUTES:
            continue  # Set-Cookie's own settings (a date, a path), not a value
        if equals and name.strip() and (len(value) >= 16 or (len(value) >= 8 and any(c.isdigit() for c in value))):
            out.append(value)
    return out


#: How many scripts deep :func:`_script_secrets` reads (``bash -c "sh -c 'npx --token x'"`` is two).
_SCRIPT_DEPTH = 4


def _script_secrets(text: str, depth: int = _SCRIPT_DEPTH) -> list[str]:
    """The secrets of the options inside one argument that holds a whole command line (white space
    in it): the script of ``bash -lc "npx server --api-key x"``, ``sh -c``, ``cmd /c``, a wrapper's
    command. Its words are read as arguments, and a word of it that is a script in turn
    (``bash -c "sh -c 'npx server --token x'"``) likewise, up to ``depth`` scripts deep."""
    return [value for _, value in _script_items(text, depth)]


def _script_items(text: str, depth: int) -> list[tuple[str, str]]:
    """:func:`_script_secrets` of ``text``, each as ``(glued, secret)``: ``glued`` is the one-letter
    option of :data:`PROGRAM_SECRET_OPTIONS` written right before it (``mysql -pX``: ``("-p", "X")``),
    else ``""``."""
    if depth <= 0 or text.split() == [text]:
        return []
    out: list[tuple[str, str]] = []
    for prefix, kind, value in (part for words in _command_readings(text) for part in _argument_parts(words)):
        if kind is None:
            whole = _WHOLE_URL.fullmatch(value)
            if whole:  # a word that is one URL, read as the program given it reads it
                out.extend(("", secret) for secret in _url_secrets(whole.group(1)))
            out.extend(_script_items(value, depth - 1))
        else:
            glued = prefix if kind == "secret" and prefix and not prefix.endswith("=") else ""
            out.extend((glued, secret) for secret in _option_secret(kind, value))
    return out


def _mask_script(text: str, depth: int = _SCRIPT_DEPTH) -> str:
    """One argument as written with its free-text secrets (:func:`_mask_free_text`) and, when it
    holds a whole command line, its options' secrets (:func:`_script_secrets`) shown as ``••••``, each
    in its own word (:func:`_mask_words`), up to ``depth`` scripts deep."""
    if depth > 0 and text.split() != [text]:
        text = _mask_words(text, depth, program_first=False)
    return _mask_free_text(text)


def _line_words(line: str, plain: bool = False) -> list[tuple[int, int, str]]:
    """The words of a whole command line as :func:`_command_words` reads them, each with its place in
    ``line``: ``(start, end, word)``; with ``plain``, the words between white space as written."""
    if not plain:
        spans = [(a, b, v) for a, b, v in shell_words(line, separators=False) if v is not None]
        if [v for _, _, v in spans] == _command_words(line):
            return spans
    return [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"\S+", line)]


def _mask_words(line: str, depth: int, program_first: bool, plain: bool = False) -> str:
    """``line``, a whole command line, with the secret of each word masked in that word's own place
    (:func:`_argument_parts`; a word that is a script in turn, :func:`_mask_script`, ``depth - 1``
    deep), not wherever its text occurs: in ``npx -y pkg --auth -y`` only the last ``-y`` is the
    secret. A changed word is written shell-quoted (``-p'quoted pw'`` as ``-p••••``,
    ``-H "Authorization: Bearer x"`` as ``-H 'Authorization: ••••'``); the rest stays as written.
    ``program_first``: the first word names the program the others are given to (a ``command``
    written as a whole command line), else every word is read as an argument (a script).

    A line whose quote does not close is read both ways (:func:`_command_readings`): with the open
    quote running to the end (``mysql -p'my pw`` → ``mysql -p••••``), then, ``plain``, word by word
    at white space (an apostrophe in a path, ``/home/o'brien/srv --token x``, is no quote)."""
    spans = _line_words(line, plain)
    words = [word for _, _, word in spans]
    if program_first and words:
        parts = [("", None, words[0]), *_argument_parts(words[1:], words[0])]
    else:
        parts = _argument_parts(words)
    out: list[str] = []
    done = 0
    for (start, end, word), (prefix, kind, value) in zip(spans, parts):
        if kind is not None:
            shown = prefix + _masked_value(kind, value)
        elif depth > 1 and value.split() != [value] and (opened := _open_quote_at(line[start:end])) is not None:
            # the rest of the line after a quote that does not close, read as a script: its secrets are
            # masked there and the text before them stays as written (``/home/o'brien/srv --token ••••``)
            written = line[start:end]
            rest = _mask_words(written[opened + 1:], depth - 1, program_first=False)
            out += [line[done:start], written[:opened + 1], rest]
            done = end
            continue
        elif depth > 1 and value.split() != [value]:
            shown = _mask_words(value, depth - 1, program_first=False)
        elif (whole := _WHOLE_URL.fullmatch(value)) is not None:
            # a word that is one URL, read as the program given it reads it: its secrets where they stand in it
            written = line[start:end]
            for secret in sorted(set(_url_secrets(whole.group(1))), key=len, reverse=True):
                written = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(secret)}(?![A-Za-z0-9_])", C.SECRET_MASK, written)
            out += [line[done:start], written]
            done = end
            continue
        else:
            continue  # its free-text secrets are masked in the whole line (:func:`_mask_free_text`)
        if shown != word:
            out += [line[done:start], _requote(line[start:end], shown)]
            done = end
    masked = "".join(out) + line[done:]
    if not plain and len(_command_readings(masked)) > 1:
        masked = _mask_words(masked, depth, program_first, plain=True)
    return masked


def _open_quote_at(word: str) -> int | None:
    """Where in ``word`` (a shell word as written) the quote that does not close opens, or ``None``
    when every quote closes: ``-p'my pw`` → 2, ``"a b"c'd e`` → 6."""
    state, opened, escaped = "", None, False
    for at, ch in enumerate(word):
        if escaped:
            escaped = False
        elif ch == "\\" and state != "'":
            escaped = True
        elif not state and ch in "'\"":
            state, opened = ch, at
        elif ch == state:
            state, opened = "", None
    return opened


def _requote(written: str, shown: str) -> str:
    """``shown``, the masked value of the word ``written``, written for a shell: in the quotes
    ``written`` is in when it is one quoted string (``'Bearer x'`` as ``'••••'``), else shell-quoted
    where it needs quotes (:func:`shlex.quote`: ``-p'a b'`` as ``-p••••``)."""
    quote = written[:1]
    if (len(written) >= 2 and quote in ("'", '"') and written.endswith(quote) and quote not in shown
            and not (quote == '"' and any(ch in shown for ch in "\\$`"))
            and _command_words(written) == [written[1:-1]]):
        return quote + shown + quote
    return _shell_line([shown])


def _command_words(command: str) -> list[str]:
    """The words of a ``command`` that holds a whole command line (``npx server --token x``), split
    as a shell would; a quote that does not close runs to the end (:func:`split_command_line`:
    ``mysql -p'my pw`` → ``-pmy pw``, so the whole value is masked, not its first word only)."""
    return split_command_line(command)


def _command_readings(command: str) -> list[list[str]]:
    """The ways to read a whole command line for its secrets: as :func:`_command_words` reads it and,
    when a quote does not close, also word by word at white space, as before: an open quote may be
    a value cut off (``mysql -p'my pw``: the rest of the line is the secret) or an apostrophe in a
    path or a word (``/home/o'brien/srv --token x``: ``x`` is), and a secret of either reading is one."""
    try:
        return [shlex.split(command)]
    except ValueError:
        return [_command_words(command), command.split()]


def command_secrets(command: str) -> list[str]:
    """The secrets in a ``command``: those of :func:`free_text_secrets`, and when the command holds
    a whole command line (white space in it: no program of that name is found, but the text is
    shown and a failure names it), those of its words as arguments (:func:`secret_arguments`:
    ``--token x``, ``--api-key=x``, ``-e NAME=x``)."""
    found = free_text_secrets(command)
    if command.split() != [command]:
        for words in _command_readings(command):
            found += secret_arguments(words[1:], words[0] if words else "")
    return found


def _mask_command(command: str) -> str:
    """``command`` as written with its secrets (:func:`command_secrets`) shown as ``••••``, an
    option's in that option's own place when it holds a whole command line (:func:`_mask_words`)."""
    if command.split() != [command]:
        command = _mask_words(command, _SCRIPT_DEPTH + 1, program_first=True)
    return _mask_free_text(command)


def mask_arguments(args: Iterable[str], program: str = "") -> list[str]:
    """``args`` with the secret values of :func:`secret_arguments` shown as ``••••`` (``NAME=••••``
    for an environment option, ``Name: ••••`` for a header option); a value that is only
    ``${VAR}`` placeholders is kept as written (it names no secret). In any other argument, URL
    credentials and query values and known credential shapes are masked
    (:func:`~toolsearch.engine.secrets.mask_credential_shapes`), and so are the options' secrets of an
    argument that holds a whole command line (``bash -lc "npx server --api-key x"``). ``program`` is
    the command that gets ``args`` (``mysql``: ``-pabc`` is shown ``-p••••``, see :func:`secret_arguments`)."""
    return [prefix + (_mask_script(value) if kind is None else _masked_value(kind, value))
            for prefix, kind, value in _argument_parts(list(args), program)]

#: Top-level shapes, in detection order: (kind, key path).
CONFIG_KINDS = ("mcpServers", "mcp_servers", "servers", "mcp.servers")

_TRANSPORT_ALIASES = {
    "stdio": "stdio", "local": "stdio",
    "http": "http", "streamable-http": "http", "streamable_http": "http", "streamablehttp": "http",
    "streamable": "http", "remote": "http",
    "sse": "sse",
}
_PROTOCOLS = {"auto": "auto", "legacy": "legacy", "handshake": "legacy",
              "stateless": "modern", "modern": "modern", "2026-07-28": "modern"}


#: Stands for the mask while a command line is shell-quoted (shell-safe characters only, so
#: ``--token=••••`` is not quoted because of the mask).
_MASK_STAND_IN = "MASK0x2022x2022MASK"


def _shell_line(words: Iterable[str]) -> str:
    """``words`` shell-quoted (:func:`shlex.quote`) and joined, the mask counting as a safe word."""
    return " ".join(shlex.quote(word.replace(C.SECRET_MASK, _MASK_STAND_IN)) for word in words
                    ).replace(_MASK_STAND_IN, C.SECRET_MASK)


@dataclass(frozen=True)
class ServerSpec:
    """How to start or reach one MCP server.

    Attributes:
        name: the server name (the key in the config).
        transport: ``stdio`` | ``http`` (Streamable HTTP) | ``sse``.
        command, args, env, cwd: stdio launch (``env`` is added on top of the SDK's safe
            baseline environment); values after interpolation.
        url, headers: remote endpoint and request headers, after interpolation.
        timeout: seconds for one tool call (Hermes ``timeout``); ``None`` = the default.
        connect_timeout: seconds for connect + handshake + listing (Hermes ``connect_timeout``);
            ``None`` = the default.
        enabled: ``False`` servers are not started (docs/reference.md §25.2).
        tools: the per-server ``tools`` block (``include``, ``exclude``, ``resources``,
            ``prompts``; docs/reference.md §25.1, §24.2), used at registration.
        protocol: ``auto`` (probe, then fall back to the handshake), ``legacy`` or ``modern``.
        origin: ``file: key.name`` of the entry, for messages.
        unresolved: placeholders left as written because their variable is unset or empty.
        display: the entry's command/args/cwd/url as written in the file (before
            interpolation), for :meth:`redacted`.
        interpolated: the values ``${VAR}`` references resolved to (secrets: never shown).
        preview: the entry's command/args/cwd/url after interpolation with every variable's
            value as ``••••`` (the launch confirmation shows these).
        invalid: why the entry cannot be used (a bad config entry), or ``None``. A connect
            reports such a spec as a failed server without starting anything.
        peer_secrets: the secret values of every server of the same config file (this one's
            included): a value from the config is masked in what this server sends back too (a
            token that two servers hold, one of them echoing it). :func:`parse_config_data` gives
            every server of a file the same :class:`~toolsearch.engine.secrets.SecretValues`, so
            the file's :class:`~toolsearch.engine.secrets.SecretIndex` is built once for all of them.
        written_secrets: for an :attr:`invalid` entry, the secret values its parts hold as
            far as they can be read (env and header values, secret arguments, URL credentials,
            what ``${VAR}`` references resolved to): the entry is never used, but its values
            are masked wherever the config's secrets are.
        counted_only: an :attr:`invalid` entry past the first
            :data:`~toolsearch.engine.catalog.MAX_NAMED_PROBLEMS` problems of its file: it fails as
            every broken entry does, but is not named on a line of its own (no progress call when
            connecting); its file's warnings end with the line that counts such entries
            (:func:`parse_config_data`).
        url_notes: for a stdio entry, ``"args[2]: …"`` per argument (or ``"command: …"``) holding a
            URL whose host Python programs and Node programs read differently
            (:func:`~toolsearch.live.urlreading.host_disagreement`): the masked URL shows Python's
            host, while a Node program such as ``mcp-remote`` reaches the other one. Shown with the
            launch confirmation (:meth:`launch_preview`) and among the file's warnings.
    """

    name: str
    transport: str = "stdio"
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float | None = None
    connect_timeout: float | None = None
    enabled: bool = True
    tools: Mapping[str, Any] = field(default_factory=dict)
    protocol: str = "auto"
    origin: str = ""
    unresolved: tuple[str, ...] = ()
    display: Mapping[str, Any] = field(default_factory=dict)
    interpolated: tuple[str, ...] = ()
    invalid: str | None = None
    preview: Mapping[str, Any] = field(default_factory=dict)
    peer_secrets: tuple[str, ...] = ()
    written_secrets: tuple[str, ...] = ()
    counted_only: bool = False
    url_notes: tuple[str, ...] = ()

    def __repr__(self) -> str:  # never show secrets, even in a traceback or a debugger
        return f"ServerSpec({self.redacted()!r})"

    __str__ = __repr__

    def redacted(self) -> dict[str, Any]:
        """A display-safe view: env and header values as ``••••``, other values as written.

        Returns a plain dict with ``name``, ``transport``, ``enabled`` and, where set,
        ``command``, ``args``, ``cwd``, ``env``, ``url``, ``headers``, ``timeout``,
        ``connect_timeout``, ``tools``, ``unresolved``.
        """
        shown = self.display
        out: dict[str, Any] = {"name": self.name, "transport": self.transport, "enabled": self.enabled}
        if self.transport == "stdio":
            out["command"] = _mask_command(shown.get("command", self.command) or "")
            out["args"] = mask_arguments(shown.get("args", self.args), shown.get("command", self.command) or "")
            if self.cwd is not None:
                out["cwd"] = shown.get("cwd", self.cwd)
            if self.env:
                out["env"] = {key: C.SECRET_MASK for key in self.env}
        else:
            out["url"] = mask_url_path_keys(mask_credential_shapes(redact_url(shown.get("url", self.url) or "")))
            if self.headers:
                out["headers"] = {key: C.SECRET_MASK for key in self.headers}
        if self.timeout is not None:
            out["timeout"] = self.timeout
        if self.connect_timeout is not None:
            out["connect_timeout"] = self.connect_timeout
        if self.tools:
            out["tools"] = dict(shown.get("tools", self.tools))
        if self.unresolved:
            out["unresolved"] = list(self.unresolved)
        if self.invalid:
            out["invalid"] = self.invalid
        return out

    def shown_command(self) -> str:
        """The ``command`` (after interpolation) safe to quote in a message: with the secrets of a
        whole command line masked in their own words (:func:`_mask_command`: ``mysql -p'pw`` as
        ``mysql -p••••``, a value of any length) and every other secret of this spec (:meth:`scrub`)."""
        return self.scrub(_mask_command(self.command or ""))

    def secret_values(self) -> list[str]:
        """Values to scrub from messages, longest first: env and header values, every value a
        ``${VAR}`` reference resolved to, URL credentials and query values, each also in the
        encodings of :func:`encoded_forms` (percent, hex, base64)."""
        return list(self.secret_index().secrets)

    def secret_index(self) -> SecretIndex:
        """:meth:`secret_values` as a :class:`~toolsearch.engine.secrets.SecretIndex`: when this
        server's own values are among its :attr:`peer_secrets` (every server of a file parsed by
        :func:`parse_config_data`), the one index of the file, built once for all its servers;
        else one for this server's values (built once per set of values)."""
        own = self.own_secrets()
        peers = self.peer_secrets
        if isinstance(peers, SecretValues) and peers.holds(own):
            return peers.index()
        return secret_index([*own, *peers])

    def own_secrets(self) -> list[str]:
        """This entry's secret values as they are (no encodings, no :attr:`peer_secrets`)."""
        values = [*self.env.values(), *self.headers.values(), *self.interpolated, *secret_arguments(self.args, self.command or ""),
                  *command_secrets(self.command or ""), *self.written_secrets]
        for name, header in self.headers.items():  # "Bearer xyz": scrub the token on its own too
            values += cookie_values(header) if _COOKIE_HEADER.fullmatch(name.strip()) else header.split()[1:]
        if self.url:
            values += _url_secrets(self.url)
        return values

    def scrub(self, text: str) -> str:
        """``text`` with every secret value of this spec replaced by ``••••`` and URLs in it
        redacted (:func:`redact_url`)."""
        return scrub_text(text, self.secret_index(), urls=[u for u in (self.url, self.display.get("url")) if u])

    def _scrub_all(self, texts: Iterable[str]) -> list[str]:
        """:meth:`scrub` of each of ``texts``, this spec's secrets gathered once for all of them."""
        index = self.secret_index()
        urls = [u for u in (self.url, self.display.get("url")) if u]
        return [scrub_text(text, index, urls=urls) for text in texts]

    def launch_preview(self, expanded: bool = True) -> dict[str, Any]:
        """What starting this server would do, safe to show: ``{"transport", "command_line"``
        (stdio: the command and arguments, shell-quoted), ``"cwd"`` (or ``None`` = the app's
        working directory), ``"env"`` ({key: ``••••``}), or for remote servers ``"url"`` and
        ``"headers"`` ({name: ``••••``})}``, and ``"warnings"``: for each argument (or the command)
        holding a URL whose host Python and Node programs read differently, ``"args[2]: …"``
        (:func:`~toolsearch.live.urlreading.host_disagreement`; a remote server with such a URL is
        not used at all).

        Every value a ``${VAR}`` reference resolved to is ``••••`` wherever it lands (command,
        arguments, working directory, any part of the URL); the values of secret-looking
        arguments (:func:`mask_arguments`), URL credentials and query values are masked, and
        any other secret of this spec (:meth:`scrub`) too.

        Args:
            expanded: ``False`` shows command, arguments, working directory and URL as written
                in the file (placeholders, set or not), so the view does not tell which
                variables the process has (for a browser on another machine).
        """
        fields = self.preview if expanded else self.display
        if self.transport == "stdio":
            command = fields.get("command", self.command) or ""
            args = fields.get("args", self.args)
            line = _shell_line([_mask_command(command), *mask_arguments(args, command)])
            cwd = fields.get("cwd", self.cwd) if self.cwd is not None else None
            return {"transport": "stdio", "command_line": self.scrub(line),
                    "cwd": self.scrub(cwd) if cwd is not None else None,
                    "env": {key: C.SECRET_MASK for key in self.env},
                    "warnings": self._scrub_all(self.url_notes)}
        url = fields.get("url", self.url) or ""
        return {"transport": self.transport, "url": self.scrub(redact_url(url)),
                "headers": {key: C.SECRET_MASK for key in self.headers}, "warnings": []}

    def registration_config(self) -> dict[str, Any]:
        """The per-server registration settings for :class:`~toolsearch.engine.catalog.Server`.config."""
        return {"tools": dict(self.tools)} if self.tools else {}


@dataclass(frozen=True)
class McpConfig:
    """A parsed MCP client config file.

    Attributes:
        kind: which shape it had (one of :data:`CONFIG_KINDS`).
        servers: every entry in file order (disabled ones included, ``enabled=False``).
        origin: the file name.
        warnings: things that were odd but did not stop parsing (``file: place: message``).
        has_tool_search: the file also has a ``tools.tool_search`` key (a Hermes ``config.yaml``
            holds its servers and its tool search settings), which only ``--config`` reads.
    """

    kind: str
    servers: tuple[ServerSpec, ...]
    origin: str
    warnings: tuple[str, ...] = ()
    has_tool_search: bool = False

    @property
    def enabled(self) -> tuple[ServerSpec, ...]:
        """The servers that would be started."""
        return tuple(s for s in self.servers if s.enabled)


# --- secrets -------------------------------------------------------------------------------

def secrets_of(specs: Iterable[ServerSpec]) -> set[str]:
    """Every secret of ``specs`` (:meth:`ServerSpec.secret_values`, encoded forms included), each
    :meth:`ServerSpec.secret_index` read once: the servers of a file share one, so a copy of the
    file's secrets per server grew with the square of the servers."""
    indexes = {id(index): index for index in (spec.secret_index() for spec in specs)}
    return {value for index in indexes.values() for value in index.secrets}


def _url_secrets(url: str) -> list[str]:
    """A URL's credentials, query values (and ``name=value`` fragment values), the values of the
    matrix parameters in its path (``;jsessionid=…``: :func:`~toolsearch.engine.secrets.matrix_values`),
    the known credential shapes in it (a key in the path: ``https://host/mcp/sk-…/sse``) and the parts of
    its path that look like keys (:func:`_path_keys`: a UUID, a long random part). The user name
    counts only without a password (``https://TOKEN@host``): beside one it is a name such as
    ``postgres`` or ``admin``, which would mask that word in everything the server sends (the
    URL itself is shown with its whole ``user:password@`` masked either way)."""
    try:
        parts = urlsplit(url)
        found = [v for v in (parts.password or parts.username,) if v] + credential_shapes(url) + _path_keys(url)
        found += matrix_values(parts.path)
    except ValueError:
        return credential_shapes(url)
    for text in (parts.query, parts.fragment if "=" in parts.fragment else ""):
        for item in re.split(r"[&;]", text):
            value = item.partition("=")[2] if "=" in item else ("" if _PLAIN_WORD.fullmatch(item) else item)
            if value:
                found.append(value)
    return found


# --- detection -----------------------------------------------------------------------------

#: The config shapes VS Code writes (``.vscode/mcp.json``, ``settings.json``): a SOURCE file with one
#: of them starts servers only when its name ends in one of :data:`VSCODE_SUFFIXES`, so a YAML file
#: that looks like a catalog never starts the commands its ``servers`` mapping names.
VSCODE_KINDS = ("servers", "mcp.servers")
#: File name endings a VS Code config is read from (case-insensitive).
VSCODE_SUFFIXES = (".json", ".jsonc")


def misplaced_vscode_config(kind: str | None, path: str | Path) -> str:
    """The error for a VS Code config shape (``kind`` in :data:`VSCODE_KINDS`, from
    :func:`config_kind`) in a file whose name does not end in one of :data:`VSCODE_SUFFIXES`
    (naming the file and the key), or ``""`` when the file may be read as a config."""
    if kind not in VSCODE_KINDS or Path(path).suffix.lower() in VSCODE_SUFFIXES:
        return ""
    return (f"{path}: {kind}: expected a list of servers (a catalog); a mapping of server names to "
            "commands is a VS Code MCP config, read only from a .json or .jsonc file (nothing was started)")

def config_kind(data: Any) -> str | None:
    """Which MCP client config shape ``data`` has, or ``None`` when it is not one.

    ``mcpServers`` / ``mcp_servers`` count whenever present (a value that is not a mapping is
    an error for :func:`parse_config_data`); ``servers`` only as a mapping (a catalog's
    ``servers`` is a list).
    """
    if not isinstance(data, Mapping):
        return None
    for key in ("mcpServers", "mcp_servers"):
        if key in data:  # any value: a wrong type is reported by parse_config_data, not read as a catalog
            return key
    if isinstance(data.get("servers"), Mapping):
        return "servers"
    mcp = data.get("mcp")
    if isinstance(mcp, Mapping) and isinstance(mcp.get("servers"), Mapping):
        return "mcp.servers"
    return None


def is_mcp_config(data: Any) -> bool:
    """True when ``data`` (parsed YAML/JSON) is an MCP client config, not a catalog."""
    return config_kind(data) is not None


def sniff_file(path: str | Path) -> bool:
    """True when the file parses and is an MCP client config. Never raises.

    Callers that go on to use the file should parse it once instead (:func:`parse_text`, then
    :func:`is_mcp_config` and :func:`parse_config_data`), as :func:`toolsearch.live.client.load_sources` does.
    """
    try:
        data = parse_text(readers.read_text(path, ConfigError), str(path))
    except ConfigError:
        return False
    return is_mcp_config(data)




#: Deeper documents (or recursive YAML aliases) are refused (configs here, any SOURCE in
#: :func:`toolsearch.live.client.read_source`): the recursive schema code
#: downstream would hit Python's recursion limit. Real catalogs nest fewer than 30 levels.
NESTING_MAX = readers.MAX_NESTING_DEPTH


#: True when lists/dicts nest more than ``limit`` levels (:func:`toolsearch.engine.readers.nesting_exceeds`).
nesting_exceeds = readers.nesting_exceeds


def parse_text(text: str, origin: str) -> Any:
    """JSON, JSONC or YAML text → data, fast (:mod:`json` for JSON-looking text, libyaml for the
    rest), within the reading limits of :mod:`toolsearch.engine.readers` (size, YAML alias
    expansion, nesting depth).

    Raises:
        ConfigError: not valid JSON or YAML (names the line and column), or over a limit (then
            also an :class:`~toolsearch.engine.errors.InputLimitError`).
    """
    try:
        return readers.load_data(text, origin, ConfigError, "JSON or YAML")
    except readers.InputLimitError as exc:
        placed = (readers.placed_too_deep(readers.json_nesting(text), origin, ConfigError)
                  if getattr(exc, "unplaced_depth", False) and text.lstrip()[:1] in ("{", "[") else None)
        if placed is None:
            raise
        raise placed from None  # the path of keys where it goes too deep, as a catalog's refusal names it


# --- interpolation (docs/reference.md §26.2) ----------------------------------------------------------------

def context_values(workspace: str | Path | None = None) -> dict[str, str]:
    """The context names of docs/reference.md §26.2 (``userHome``, ``workspaceFolder``…) for ``workspace``
    (default: the process working directory)."""
    folder = Path(workspace) if workspace is not None else Path.cwd()
    return {"userHome": str(Path.home()), "workspaceFolder": str(folder),
            "workspaceFolderBasename": folder.name, "pathSeparator": os.sep, "/": os.sep}


def interpolate(value: str, environ: Mapping[str, str], context: Mapping[str, str],
                defaults: bool = False, resolved: list[str] | None = None,
                masked: bool = False) -> tuple[str, list[str]]:
    """Replace ``${…}`` placeholders in one string (docs/reference.md §26.2).

    Args:
        value: the text.
        environ: variables (usually ``os.environ``).
        context: context names (:func:`context_values`), matched exactly, before variables.
        defaults: honour ``${VAR:-default}`` (Claude Code); otherwise that whole body is a name.
        resolved: when given, collects the values variables resolved to (secrets; context
            names and ``:-`` defaults, which are written in the file, are not collected).
        masked: put ``••••`` where a variable's value would go (the text safe to show).

    Returns:
        ``(text, unresolved)``: the text, and the placeholder bodies that stayed as written
        (unset or empty variables).
    """
    unresolved: list[str] = []

    def replace(match: re.Match[str]) -> str:
        body = match.group(1).strip()
        if body in context:
            return context[body]
        name, fallback = body, None
        if defaults and ":-" in body:
            name, fallback = body.split(":-", 1)
        if name.startswith("env:"):
            name = name[len("env:"):]
        found = environ.get(name)
        if found:
            if resolved is not None:
                resolved.append(found)
            return C.SECRET_MASK if masked else found
        if fallback is not None:
            return fallback
        unresolved.append(body)
        return match.group(0)

    return _PLACEHOLDER.sub(replace, value), unresolved


def _interpolate_deep(value: Any, environ: Mapping[str, str], context: Mapping[str, str],
                      defaults: bool, unresolved: list[str], resolved: list[str] | None = None,
                      masked: bool = False) -> Any:
    """Every string value at any depth (keys are not interpolated); ``masked``: see :func:`interpolate`."""
    if isinstance(value, str):
        text, missing = interpolate(value, environ, context, defaults, resolved, masked)
        unresolved.extend(missing)
        return text
    if isinstance(value, Mapping):
        return {k: _interpolate_deep(v, environ, context, defaults, unresolved, resolved, masked)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_interpolate_deep(v, environ, context, defaults, unresolved, resolved, masked) for v in value]
    return value


# --- parsing -------------------------------------------------------------------------------

def _got(value: Any) -> str:
    """``value`` as an error message quotes what it got: a scalar as written (``'30s'``, ``-1``), a
    mapping or list by its kind only (``a mapping``). Such an entry holds the settings of a server (a ``transport``
    object with ``headers`` and ``env``, as the MCP registry's ``server.json`` writes one), whose
    values would otherwise be printed in full, credentials included."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return shown_value(value)
    return yaml_kind(value)


def shown_name(name: Any) -> str:
    """An ``env`` variable's or a header's name as an error message names it: up to its first ``=``
    or ``:`` as written, the rest as ``••••``, and known credential shapes masked. A name that is not
    one (``"API_KEY=sk-…"`` or ``"Authorization: Bearer …"`` written as the key, the value pasted
    into it) would otherwise print the value, which is a secret.

    Args:
        name: the key as the config wrote it.

    Returns:
        the name as it is safe to show (not quoted).
    """
    text = str(name)
    cut = re.search(r"[=:]", text)
    if cut is not None:
        rest = text[cut.end():]
        text = text[:cut.end()] + (" " if rest.startswith(" ") else "") + (C.SECRET_MASK if rest.strip() else "")
    return mask_token_shapes(text)


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def _string_map(raw: Any, where: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a mapping of names to strings, got {yaml_kind(raw)}")
    out = {}
    for key, value in raw.items():
        text = _scalar_text(value)
        if text is None:
            raise ConfigError(f"{where}.{shown_name(key)}: expected a string, got {yaml_kind(value)}")
        out[str(key)] = text
    return out


#: An HTTP field name (a "token": RFC 9110 §5.1) and a value an HTTP client sends (visible ASCII,
#: spaces and tabs: RFC 9110 §5.5; a line break would start another header).
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_VALUE = re.compile(r"[\x20-\x7e\t]*")


def _check_headers(headers: Mapping[str, str], where: str) -> None:
    """Raise :class:`ConfigError` for a header an HTTP client cannot send: a name that is not an
    HTTP token, or a value with a line break, a control or a non-ASCII character. The message
    names the header and what is wrong, never the value (every header value is a secret)."""
    for name, value in headers.items():
        if not _HEADER_NAME.fullmatch(name):
            raise ConfigError(f"{where}: expected header names of letters, digits and !#$%&'*+-.^_`|~, got {shown_name(name)!r}")
        bad = next((ch for ch in value if not _HEADER_VALUE.fullmatch(ch)), None)
        if bad is not None:
            kind = ("a line break" if bad in "\r\n" else "a control character" if ord(bad) < 0xA0
                    else "a lone surrogate" if _LONE_SURROGATE.match(bad) else "a non-ASCII character")
            raise ConfigError(f"{where}.{name}: the value holds {kind} (U+{ord(bad):04X}), which HTTP cannot send; "
                              "expected printable ASCII (the value is not shown: header values are secrets)")


#: Half of a UTF-16 surrogate pair on its own (a JSON file's ``"\ud800"`` escape): no encoding
#: holds it, so no program can be started with it and no HTTP request can carry it.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_error(place: str, char: str, cannot: str, expected: str = "text") -> ConfigError:
    """The error for a lone surrogate ``char`` at ``place`` (``file: mcpServers.x.args[1]``): what
    it is, what ``cannot`` be done with it, what was expected. Never the value (it may be a secret)."""
    return ConfigError(f"{place}: holds a lone surrogate (U+{ord(char):04X}, half of a UTF-16 pair), which {cannot}; expected "
                       f"{expected} without a lone surrogate (U+D800–U+DFFF) (the value is not shown: it may be a secret)")


def _launch_surrogate(parts: Iterable[tuple[str, str]], where: str, written: bool) -> None:
    """Raise :class:`ConfigError` for the first of ``parts`` (place under ``where``, text) that a
    program cannot be started with because of a lone surrogate: any one when ``written`` (the text
    as the file wrote it), else one the system cannot encode (the text with its variables filled
    in: a variable of this system's environment may hold a byte that is not UTF-8, which Python
    keeps as U+DC80–U+DCFF and gives back as that byte)."""
    for place, text in parts:
        found = _LONE_SURROGATE.search(text)
        if found is None:
            continue
        if not written:
            try:
                os.fsencode(text)
                continue
            except UnicodeError:
                pass
        raise _surrogate_error(f"{where}.{place}", found.group(), "no program can be started with")


def _written_launch_parts(raw: Mapping[str, Any], where: str) -> list[tuple[str, str]]:
    """The texts of a stdio entry as the file wrote them, by place: ``command``, ``args[i]``, ``cwd``,
    and each ``env`` variable's name (``env``) and value (``env.NAME``). Parts of the wrong type are
    left to the checks that follow (they name them)."""
    parts: list[tuple[str, str]] = []
    if isinstance(raw.get("command"), str):
        parts.append(("command", raw["command"]))
    try:
        parts += [(f"args[{i}]", a) for i, a in enumerate(_args(raw.get("args"), f"{where}.args"))]
    except ConfigError:
        pass
    if isinstance(raw.get("cwd"), str):
        parts.append(("cwd", raw["cwd"]))
    env = raw.get("env")
    for key, value in env.items() if isinstance(env, Mapping) else ():
        place = f"env.{shown_name(mark_controls(str(key), one_line=True))}"
        parts.append((f"{place} (its name)", str(key)))
        text = _scalar_text(value)
        if text is not None:
            parts.append((place, text))
    return parts


def _args(raw: Any, where: str) -> list[str]:
    """A list of strings; a JSON-list or shell-style string is split (docs/reference.md §26.1 ``args``)."""
    if raw is None:
        return []
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("["):
            try:
                parsed = json.loads(text)
            except (ValueError, RecursionError):
                parsed = None
            if isinstance(parsed, list):
                raw = parsed
        if isinstance(raw, str):
            try:
                return shlex.split(raw)
            except ValueError as exc:
                raise ConfigError(f"{where}: cannot split the args string ({exc})") from None
    if not isinstance(raw, list):
        raise ConfigError(f"{where}: expected a list of strings, got {yaml_kind(raw)}")
    out = []
    for index, item in enumerate(raw):
        text = _scalar_text(item)
        if text is None:
            raise ConfigError(f"{where}[{index}]: expected a string, got {yaml_kind(item)}")
        out.append(text)
    return out


def _seconds(raw: Any, where: str) -> float | None:
    if raw is None:
        return None
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: expected a number of seconds, got {_got(raw)}") from None
    if not value > 0 or value != value:
        raise ConfigError(f"{where}: expected a positive number of seconds, got {_got(raw)}")
    return value


def read_env_file(path: str | Path, warnings: list[str] | None = None) -> dict[str, str]:
    """``KEY=VALUE`` lines of a dotenv file (``#`` comments, optional ``export``, quotes stripped).

    A line that is neither blank, a comment nor ``KEY=VALUE`` (with a name: ``=value`` has none) is
    skipped; when ``warnings`` is given, one message per such line is appended to it, naming the
    file and the line number (never the line's text, which may hold a secret).

    Read as every input is, within :data:`~toolsearch.engine.readers.MAX_INPUT_BYTES`: a device
    (``/dev/zero``) or a named pipe nothing writes to is refused, not read for ever.

    Raises:
        OSError: the file cannot be read.
        UnicodeDecodeError: it is not UTF-8.
        ConfigError: it is over the size limit, or a named pipe with nothing writing to it.
    """
    values: dict[str, str] = {}
    with readers.open_input(path) as fh:
        data = readers.read_stream(fh, str(path), ConfigError)
    for number, line in enumerate(data.decode("utf-8-sig").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            if warnings is not None:
                warnings.append(f"{path}: line {number}: expected KEY=VALUE, got a line without '='; skipped")
            continue
        key, _, value = line.partition("=")
        key = key.strip()
        if key.startswith("export "):
            key = key[len("export "):].strip()
        if not key or "\x00" in key:  # no program can be started with it: the line, not the server, is dropped
            if warnings is not None:
                warnings.append(f"{path}: line {number}: expected a variable name before '=', got "
                                + ("none" if not key else "one with a NUL character (U+0000)") + "; skipped")
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values



#: The keys of a ``mcpServers`` entry that hold a remote server's URL, in the order they are read when
#: an entry has more than one: Gemini CLI's ``httpUrl`` (Streamable HTTP; Gemini CLI reads it before
#: its ``url``), Windsurf's ``serverUrl``, then ``url`` (Claude Code, Cursor, Gemini CLI). Each is read
#: as ``url`` is (docs/reference.md §29.8, §29.9). Other shapes have ``url`` only.
URL_KEYS = ("httpUrl", "serverUrl", "url")


def url_key(raw: Mapping[str, Any], kind: str) -> str:
    """The key of the server entry ``raw`` that holds its URL: the first of :data:`URL_KEYS` that is
    set (not ``null``) in a ``mcpServers`` entry, else ``"url"`` (every other shape, and an entry
    without a URL)."""
    if kind == "mcpServers":
        for key in URL_KEYS:
            if raw.get(key) is not None:
                return key
    return "url"


def _url_keys_warning(raw: Mapping[str, Any], kind: str, where: str) -> str | None:
    """A note when a ``mcpServers`` entry sets more than one of :data:`URL_KEYS` (naming the one
    read), else ``None``. Names keys only, never their values."""
    if kind != "mcpServers":
        return None
    keys = [key for key in URL_KEYS if raw.get(key) is not None]
    if len(keys) < 2:
        return None
    return f"{where}: has {' and '.join(keys)}; {keys[0]} is read, the others are ignored"


#: Keys of a ``mcpServers`` entry that only Gemini CLI writes: a file with one of them is read as a
#: Gemini CLI settings file (:func:`gemini_settings`).
GEMINI_ENTRY_KEYS = ("httpUrl", "includeTools", "excludeTools", "authProviderType")


def gemini_settings_path(path: str | PurePath) -> bool:
    """Whether ``path`` is a Gemini CLI settings file: ``settings.json`` in a ``.gemini`` folder
    (the user's ``~/.gemini/settings.json`` or a project's). Reads nothing from disk."""
    path = PurePath(str(path).replace("\\", "/"))
    return path.name == "settings.json" and path.parent.name == ".gemini"


def gemini_settings(origin: str, data: Any) -> bool:
    """Whether the parsed config ``data`` read from ``origin`` is a Gemini CLI settings file, whose
    ``url`` without a ``type`` is an SSE endpoint (docs/reference.md §29.9): ``origin`` is
    ``.gemini/settings.json`` (:func:`gemini_settings_path`), or an entry of its ``mcpServers`` has
    a key of :data:`GEMINI_ENTRY_KEYS`. Never raises."""
    if gemini_settings_path(origin):
        return True
    block = data.get("mcpServers") if isinstance(data, Mapping) else None
    if not isinstance(block, Mapping):
        return False
    return any(isinstance(entry, Mapping) and any(entry.get(key) is not None for key in GEMINI_ENTRY_KEYS)
               for entry in block.values())


def _transport(raw: Mapping[str, Any], kind: str, where: str, warnings: list[str], url_is_sse: bool = False) -> str:
    key = url_key(raw, kind)
    has_url = raw.get(key) is not None
    has_command = raw.get("command") is not None
    if kind == "mcp_servers":
        # docs/reference.md §26.1: the presence of `url` selects HTTP (winning over `command`); only
        # `transport: sse` changes the HTTP flavour.
        if has_url:
            if has_command:
                warnings.append(f"{where}: has both url and command; url wins (HTTP)")
            transport = str(raw.get("transport") or "http").strip().lower()
            return "sse" if transport == "sse" else "http"
        return "stdio"
    declared = raw.get("type", raw.get("transport"))
    if declared is not None:
        transport = _TRANSPORT_ALIASES.get(str(declared).strip().lower().replace(" ", ""))
        if transport is None:
            raise ConfigError(f"{where}.type: expected stdio, http or sse, got {_got(declared)}")
        return transport
    if has_url:
        sse = url_is_sse and key == "url"  # Gemini CLI: `url` is SSE, `httpUrl` Streamable HTTP
        if has_command:
            warnings.append(f"{where}: has both {key} and command; {key} wins ({'SSE' if sse else 'HTTP'})")
        if sse:
            warnings.append(f"{where}.url: read as SSE, as Gemini CLI reads 'url' in its settings "
                            "(give \"type\": \"http\", or use 'httpUrl', for Streamable HTTP)")
            return "sse"
        return "http"
    return "stdio"


def parse_server(name: str, raw: Any, kind: str, where: str, *, environ: Mapping[str, str] | None = None,
                 workspace: str | Path | None = None, base_dir: str | Path | None = None,
                 warnings: list[str] | None = None, env_files: bool = True,
                 context: Mapping[str, str] | None = None, url_is_sse: bool = False) -> ServerSpec:
    """One server entry → :class:`ServerSpec`.

    Args:
        name: the entry's key.
        raw: the entry (a mapping).
        kind: the file shape (:data:`CONFIG_KINDS`), which decides transport rules and
            whether ``${VAR:-default}`` is honoured.
        where: ``file: key.name`` for messages.
        environ: variables for interpolation (default ``os.environ``).
        workspace: ``${workspaceFolder}`` (default: the working directory).
        base_dir: where a relative ``envFile`` is looked up (default: the working directory).
        warnings: collects non-fatal notes.
        env_files: read ``envFile`` files; when false an ``envFile`` is left unread with a
            warning (the app does so for a browser on another machine).
        context: :func:`context_values` of ``workspace``, when the caller has them (a file of
            many entries computes them once).
        url_is_sse: a ``url`` without a ``type`` is an SSE endpoint, as in a Gemini CLI settings
            file (:func:`gemini_settings`); else Streamable HTTP.

    Raises:
        ConfigError: the entry is not a mapping, has neither ``command`` nor ``url``, or a key
            has the wrong type; the message names the place. Messages and warnings never
            contain secret values (what ``${VAR}`` resolved to, env and header values).
    """
    warnings = warnings if warnings is not None else []
    secrets: list[str] = []
    found: list[str] = []
    try:
        return _parse_server(name, raw, kind, where, environ, workspace, base_dir, found, secrets, env_files, context,
                             url_is_sse)
    except ConfigError as exc:
        secrets.extend(_written_secrets(raw))
        error = ConfigError(scrub_text(str(exc), secret_list(secrets)))
        error.secrets = tuple(dict.fromkeys(v for v in secrets if v))  # type: ignore[attr-defined]
        raise error from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply to read") from None
    finally:
        warnings.extend(scrub_text(w, secret_list(secrets)) for w in found)


#: Per-server tool filters of other clients (Gemini CLI's ``includeTools`` / ``excludeTools``) that
#: the harness does not read: said, since the servers' tools are then counted unfiltered.
_CLIENT_TOOL_FILTERS = ("includeTools", "excludeTools")

#: Other clients' sign-in settings for a server (Claude Code's and Gemini CLI's ``oauth``, an
#: ``auth`` block, Gemini CLI's ``authProviderType``): toolsearch signs in to nothing, so a server
#: that needs it refuses the connection (HTTP 401). Said by key only: their values hold client
#: secrets.
_CLIENT_SIGN_IN_KEYS = ("oauth", "auth", "authProviderType")


#: How many arguments of one server are named for a URL whose host reads two ways; the rest counted.
MAX_URL_NOTES = 5


def _hides(written: Any, values: Iterable[str]) -> Callable[[str], bool]:
    """Whether a host read in a value would show a secret: one that ``written`` (the value as the
    file writes it) does not hold as it stands when ``written`` has a ``${VAR}`` reference (the host
    then came from a variable), or one that holds one of ``values`` (what variables resolved to,
    env values), compared casefolded as URL readers lowercase a host."""
    text = written.casefold() if isinstance(written, str) else ""
    from_variable = bool(_PLACEHOLDER.search(text))
    secrets = [value.casefold() for value in values if isinstance(value, str) and len(value) >= SECRET_MIN_CHARS]

    def hidden(host: str) -> bool:
        folded = host.casefold()
        return (from_variable and folded not in text) or any(value in folded or folded in value for value in secrets)
    return hidden


def _url_notes(parts: Iterable[tuple[str, str, Any]], values: list[str]) -> list[str]:
    """``"args[2]: the URL's host reads two ways…"`` for each ``(place, value, as written)`` of a
    stdio entry holding a URL whose host Python and Node programs read differently
    (:func:`~toolsearch.live.urlreading.host_disagreement`), at most :data:`MAX_URL_NOTES` of them
    and a line counting the rest; ``values`` are the entry's secrets (:func:`_hides`)."""
    notes: list[str] = []
    more = 0
    for place, text, written in parts:
        reading = host_disagreement(text, _hides(written, values)) if isinstance(text, str) else None
        if not reading:
            continue
        if len(notes) >= MAX_URL_NOTES:
            more += 1
            continue
        notes.append(f"{place}: {reading}; check that the host is the one you mean (a URL every program reads alike "
                     "has '/' after its host, never '\\')")
    if more:
        notes.append(f"args: {more:,} more {'argument holds' if more == 1 else 'arguments hold'} a URL whose host reads two "
                     "ways (not named)")
    return notes


def _parse_server(name: str, raw: Any, kind: str, where: str, environ: Mapping[str, str] | None,
                  workspace: str | Path | None, base_dir: str | Path | None, warnings: list[str],
                  secrets: list[str], env_files: bool = True, context: Mapping[str, str] | None = None,
                  url_is_sse: bool = False) -> ServerSpec:
    """:func:`parse_server` without the scrubbing; ``secrets`` collects the entry's secret values
    as they become known."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a mapping with 'command' or 'url', got {yaml_kind(raw)}")
    environ = os.environ if environ is None else environ
    context = context_values(workspace) if context is None else context
    key = url_key(raw, kind)  # `url`, or Windsurf's `serverUrl` / Gemini CLI's `httpUrl`: read alike
    note = _url_keys_warning(raw, kind, where)
    if note:
        warnings.append(note)
    for filter_key in _CLIENT_TOOL_FILTERS:
        if filter_key in raw:  # Gemini CLI's own filter: Hermes reads tools.include / tools.exclude instead
            warnings.append(f"{where}.{filter_key}: not applied (a Gemini CLI filter; the harness filters with "
                            "tools.include and tools.exclude): every tool the server lists is counted")
    for sign_in in _CLIENT_SIGN_IN_KEYS:
        if sign_in in raw:
            warnings.append(f"{where}.{sign_in}: not applied (toolsearch does not sign in with OAuth; give a token in "
                            "'headers', e.g. Authorization: Bearer ${TOKEN}): a server that needs a sign-in refuses "
                            "the connection (HTTP 401)")
    unresolved: list[str] = []
    resolved: list[str] = []
    entry = _interpolate_deep(dict(raw), environ, context, kind == "mcpServers", unresolved, resolved)
    secrets.extend(resolved)
    # The same entry with every variable's value as ••••: what the launch confirmation shows.
    masked = {part: _interpolate_deep(raw.get(name), environ, context, kind == "mcpServers", [], None, masked=True)
              for part, name in (("command", "command"), ("args", "args"), ("cwd", "cwd"), ("url", key))}

    enabled, known = parse_bool_like(entry.get("enabled"))
    if not known:
        warnings.append(f"{where}.enabled: expected a boolean, got {_got(entry.get('enabled'))}; treated as on")
    if "disabled" in entry:  # Cline / Roo style
        disabled, _ = parse_bool_like(entry.get("disabled"), default=False)
        enabled = enabled and not disabled

    transport = _transport(entry, kind, where, warnings, url_is_sse)
    display: dict[str, Any] = {}
    preview: dict[str, Any] = {}
    command = None
    args: list[str] = []
    env: dict[str, str] = {}
    cwd = None
    url = None
    headers: dict[str, str] = {}
    url_notes: list[str] = []  # URLs in the command line whose host Python and Node programs read differently
    if transport == "stdio":
        command = entry.get("command")
        if not isinstance(command, str) or not command.strip():
            raise ConfigError(f"{where}: expected 'command' (a non-empty string) for a stdio server, "
                              f"or 'url' for a remote one")
        args = _args(entry.get("args"), f"{where}.args")
        _launch_surrogate(_written_launch_parts(raw, where), where, written=True)
        for place, text in (("command", command), *((f"args[{i}]", a) for i, a in enumerate(args)),
                            ("cwd", entry.get("cwd") if isinstance(entry.get("cwd"), str) else "")):
            if "\x00" in text:  # no program can be started with one (the OS refuses the call)
                raise ConfigError(f"{where}.{place}: contains a NUL character (U+0000); no program can be started "
                                  "with one")
        env_file = entry.get("envFile")
        if env_file is not None:
            if not isinstance(env_file, str):
                raise ConfigError(f"{where}.envFile: expected a file path, got {yaml_kind(env_file)}")
            env_path = Path(env_file)
            if not env_path.is_absolute():
                env_path = Path(base_dir or Path.cwd()) / env_path
            if not env_files:
                warnings.append(f"{where}.envFile: not read: this browser is not on the machine that runs the app, "
                                "so no file there is opened for it; put the variables under 'env' instead")
            else:
                try:
                    read_warnings: list[str] = []
                    env.update(read_env_file(env_path, read_warnings))
                    warnings.extend(f"{where}.envFile: {warning}" for warning in read_warnings)
                except UnicodeEncodeError as exc:  # a lone surrogate no file name can hold
                    warnings.append(f"{where}.envFile: holds a lone surrogate (U+{ord(exc.object[exc.start]):04X}, half "
                                    "of a UTF-16 pair), which no file name on this system can hold; expected a file "
                                    "path without one; not read, ignored")
                except (OSError, UnicodeDecodeError, ValueError) as exc:  # ValueError: a NUL in the path
                    warnings.append(f"{where}.envFile: cannot read {mask_token_shapes(env_file)} "
                                    f"({getattr(exc, 'strerror', None) or exc}); ignored")
                except ConfigError as exc:
                    warnings.append(f"{where}.envFile: {exc}; ignored")
        env.update(_string_map(entry.get("env"), f"{where}.env"))
        secrets.extend(env.values())
        for key, value in env.items():
            if "\x00" in key or "\x00" in value or "=" in key or not key:
                raise ConfigError(f"{where}.env: the variable {shown_name(key)!r} has an empty name, a '=' in its name or a NUL "
                                  "character (U+0000); no program can be started with it")
        # with the variables filled in (what the file wrote was checked above)
        _launch_surrogate((("command", command), *((f"args[{i}]", a) for i, a in enumerate(args)),
                           ("cwd", entry.get("cwd") if isinstance(entry.get("cwd"), str) else ""),
                           *((f"env.{shown_name(mark_controls(k, one_line=True))}{part}", text)
                             for k, v in env.items() for part, text in ((" (its name)", k), ("", v)))),
                          where, written=False)
        cwd_raw = entry.get("cwd")
        if cwd_raw is not None and not isinstance(cwd_raw, str):
            raise ConfigError(f"{where}.cwd: expected a directory path, got {yaml_kind(cwd_raw)}")
        cwd = cwd_raw
        display = {"command": raw.get("command"), "args": _args(raw.get("args"), f"{where}.args")}
        preview = {"command": masked["command"], "args": _args(masked["args"], f"{where}.args")}
        # each argument beside itself as written (an args string a variable split differently: the whole string)
        as_written = display["args"] if len(display["args"]) == len(args) else [str(raw.get("args"))] * len(args)
        written = [("command", command, display["command"]),
                   *((f"args[{i}]", a, w) for i, (a, w) in enumerate(zip(args, as_written)))]
        url_notes = _url_notes(written, [*resolved, *env.values()])
        if cwd is not None:
            display["cwd"] = raw.get("cwd")
            preview["cwd"] = masked["cwd"]
    else:
        url = entry.get(key)
        if not isinstance(url, str) or not url.strip():
            raise ConfigError(f"{where}.{key}: expected the server URL as a string, got {yaml_kind(url)}")
        url = url.strip()
        surrogate = _LONE_SURROGATE.search(url)
        if surrogate:  # as written or from a variable: a URL is sent as ASCII, and no encoding holds one
            raise _surrogate_error(f"{where}.{key}", surrogate.group(), "no HTTP request can carry", "a URL")
        if not _PLACEHOLDER.search(url):
            try:
                parts = urlsplit(url)
            except ValueError as exc:  # "http://[::1": an unclosed IPv6 host
                # Python's words quote the host part whole, credentials included: said without them
                why = ("a character in its host part that NFKC normalisation turns into '/', '?', '#', '@' or ':'"
                       if "NFKC" in str(exc) else "an unclosed '[' of an IPv6 host" if "IPv6" in str(exc)
                       else "a host part Python cannot read")
                raise ConfigError(f"{where}.{key}: expected an http:// or https:// URL with a host, got "
                                  f"{redact_url(url)!r} ({why})") from None
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ConfigError(f"{where}.{key}: expected an http:// or https:// URL with a host, got {redact_url(url)!r}")
            try:
                parts.port  # noqa: B018 - read for its check ("h:99999" raised OverflowError at connect)
            except ValueError:
                raise ConfigError(f"{where}.{key}: expected a port from 0 to 65535 after the host, got "
                                  f"{redact_url(url)!r}") from None
            reading = host_disagreement(url, _hides(str(raw.get(key)), resolved))
            if reading:  # toolsearch's client would reach one host, the same config in a Node client another
                raise ConfigError(f"{where}.{key}: {reading}; not used, so nothing is sent: expected '/' after "
                                  "the host, never '\\' (in a user name, '\\' as %5C)")
        headers = _string_map(entry.get("headers"), f"{where}.headers")
        secrets.extend(headers.values())
        _check_headers(headers, f"{where}.headers")
        display = {"url": raw.get(key)}  # under `url` whatever the key: shown and masked as one
        preview = {"url": str(masked["url"]).strip()}

    warnings.extend(f"{where}.{note}" for note in url_notes)
    if isinstance(raw.get("tools"), Mapping):
        display["tools"] = dict(raw["tools"])  # as written: an include list may name a ${VAR}
    tools = entry.get("tools")
    if tools is None:
        tools = {}
    elif not isinstance(tools, Mapping):
        raise ConfigError(f"{where}.tools: expected a mapping (include, exclude, resources, prompts), "
                          f"got {yaml_kind(tools)}")
    protocol_raw = entry.get("protocol")
    protocol = "auto"
    if protocol_raw is not None:
        protocol = _PROTOCOLS.get(str(protocol_raw).strip().lower(), "")
        if not protocol:
            warnings.append(f"{where}.protocol: expected auto, legacy or stateless, got {_got(protocol_raw)}; using auto")
            protocol = "auto"
    return ServerSpec(
        name=name, transport=transport, command=command, args=tuple(args), env=env, cwd=cwd, url=url,
        headers=headers, timeout=_seconds(entry.get("timeout"), f"{where}.timeout"),
        connect_timeout=_seconds(entry.get("connect_timeout"), f"{where}.connect_timeout"),
        enabled=enabled, tools=dict(tools), protocol=protocol, origin=where,
        unresolved=tuple(dict.fromkeys(unresolved)), display=display, interpolated=tuple(dict.fromkeys(resolved)),
        preview=preview, url_notes=tuple(url_notes))


def _strings_in(value: Any, depth: int = 0) -> list[str]:
    """Every string (and number) at any depth of ``value``, keys aside."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [str(value)]
    if depth > readers.MAX_NESTING_DEPTH:
        return []
    if isinstance(value, Mapping):
        return [t for v in value.values() for t in _strings_in(v, depth + 1)]
    if isinstance(value, list):
        return [t for v in value for t in _strings_in(v, depth + 1)]
    return []


def _written_secrets(raw: Any) -> list[str]:
    """The secret values an entry that cannot be used still holds, read part by part whatever
    the parts' types (an ``env`` written as ``"NAME=value"``, a list where a string belongs): env
    and header values, secret arguments of ``args`` and ``command``, URL credentials and query
    values. A value that is only ``${VAR}`` placeholders is left out (it names no secret; what
    a reference resolved to is collected while the entry is read)."""
    if not isinstance(raw, Mapping):
        return []
    found: list[str] = []
    for key in ("env", "headers"):
        value = raw.get(key)
        texts = _strings_in(value)
        found += texts
        for text in texts if isinstance(value, str) else ():  # "NAME=value" / "Name: value" written as text
            found += [part.split("=", 1)[1] for part in text.split() if "=" in part]
            found += text.split(":", 1)[1].split() if ":" in text else []
        for text in texts if key == "headers" else ():
            found += text.split()[1:]
    command = raw.get("command")
    for key in ("args", "command"):
        value = raw.get(key)
        # an args string that does not split: read both ways, as a command line is (_command_readings)
        readings = _command_readings(value) if isinstance(value, str) else [_strings_in(value)]
        program = command if key == "args" and isinstance(command, str) else ""
        for words in readings:
            found += secret_arguments(words, program) + [v for word in words for v in free_text_secrets(word)]
    for key in URL_KEYS:  # every key a URL may be under, read or not
        for text in _strings_in(raw.get(key)):
            found += _url_secrets(text)
    return [v for v in found if v.strip() and _PLACEHOLDER.sub("", v).strip()]


def _invalid_spec(name: str, raw: Any, reason: str, origin: str,
                  secrets: tuple[str, ...] = (), kind: str = "mcpServers", counted_only: bool = False) -> ServerSpec:
    """A spec for an entry that cannot be used: connecting it fails at once with ``reason``. Its
    transport is what the entry's URL (:func:`url_key`) or ``command`` says, else ``unknown``; ``enabled`` is the
    entry's own when it is a boolean (a disabled entry is not started, a broken one never is)."""
    display: dict[str, Any] = {}
    transport = "unknown"
    enabled = True
    if isinstance(raw, Mapping):
        key = url_key(raw, kind)
        if isinstance(raw.get(key), str):
            transport, display = "http", {"url": raw[key]}
        elif isinstance(raw.get("command"), str):
            transport, display = "stdio", {"command": raw["command"]}
        if isinstance(raw.get("enabled"), bool):
            enabled = raw["enabled"]
    return ServerSpec(name=name, transport=transport, origin=origin, display=display, invalid=reason,
                      enabled=enabled, written_secrets=secrets, counted_only=counted_only)


#: What an MCP client config's problems past the named ones are, per severity
#: (:func:`~toolsearch.engine.catalog.more_problems_message`): a broken entry is skipped (never started).
CONFIG_PROBLEM_WORDS = {"error": "entries skipped", "warning": "warnings"}


class _FileProblems:
    """One config file's problems as they are found, in file order, under the rule catalog files
    follow: the first :data:`~toolsearch.engine.catalog.MAX_NAMED_PROBLEMS` named (a warning kept,
    a broken entry named on its own line), the rest counted per severity (:meth:`count_lines`)."""

    def __init__(self, origin: str, warnings: list[str]) -> None:
        self.origin = origin
        self.warnings = warnings
        self.named = 0
        self.past: dict[str, int] = {}

    def _admit(self, severity: str) -> bool:
        from ..engine.catalog import MAX_NAMED_PROBLEMS  # noqa: PLC0415

        if self.named < MAX_NAMED_PROBLEMS:
            self.named += 1
            return True
        self.past[severity] = self.past.get(severity, 0) + 1
        return False

    def warn(self, warnings: Iterable[str]) -> None:
        """Keep each of ``warnings`` while fewer than the cap are named, else count it."""
        self.warnings.extend(w for w in warnings if self._admit("warning"))

    def broken(self) -> bool:
        """A broken entry: True when it is named, False when it is only counted."""
        return self._admit("error")

    def count_lines(self) -> list[str]:
        """``file: N more entries skipped past the first 100 problems of this file (counted, not
        named)``, and the same for warnings: one line per severity with problems past the cap."""
        from ..engine.catalog import more_problems_message  # noqa: PLC0415

        return [f"{self.origin}: {more_problems_message(severity, self.past[severity], CONFIG_PROBLEM_WORDS)}"
                for severity in ("error", "warning") if self.past.get(severity)]


def parse_config_data(data: Any, origin: str, *, environ: Mapping[str, str] | None = None,
                      workspace: str | Path | None = None, base_dir: str | Path | None = None,
                      env_files: bool = True, gemini_file: bool = False) -> McpConfig:
    """Parsed YAML/JSON of an MCP client config → :class:`McpConfig`.

    A bad entry (not a mapping, neither ``command`` nor ``url``, a URL that is not http(s), a
    key of the wrong type…) does not stop the others: it becomes a spec with
    :attr:`ServerSpec.invalid` set to the reason (which names ``origin`` and the place, e.g.
    ``.mcp.json: mcpServers.github.args[1]: …``); connecting reports it as a failed server.
    ``env_files=False`` leaves every ``envFile`` unread, with a warning (see :func:`parse_server`).
    A Gemini CLI settings file (``gemini_file``, or :func:`gemini_settings` of ``origin`` and
    ``data``) reads a ``url`` without a ``type`` as SSE, as Gemini CLI does (docs/reference.md §29.9).

    A file's problems (warnings and broken entries, in file order) follow the rule of catalog
    files: the first :data:`~toolsearch.engine.catalog.MAX_NAMED_PROBLEMS` are named, the rest
    counted per severity in the last lines of :attr:`McpConfig.warnings`. A broken entry past them
    is still a spec (it fails and is counted wherever servers are), with
    :attr:`ServerSpec.counted_only` set.

    Raises:
        ConfigError: ``data`` is not one of the config shapes (no servers map at the top level).
    """
    kind = config_kind(data)
    if kind is None:
        got = f", got {yaml_kind(data)}" if not isinstance(data, Mapping) else ""
        raise ConfigError(f"{origin}: top level: expected an MCP client config with 'mcpServers', "
                          f"'servers' (a mapping) or 'mcp_servers'{got}")
    block = data["mcp"]["servers"] if kind == "mcp.servers" else data[kind]
    warnings: list[str] = []
    if block is not None and not isinstance(block, Mapping):
        raise ConfigError(f"{origin}: {kind} must map server names to entries, got {yaml_kind(block)}")
    if not block:
        warnings.append(f"{origin}: {kind}: no servers ({'null' if block is None else 'an empty map'}); "
                        "nothing to connect")
    problems = _FileProblems(origin, warnings)
    context = context_values(workspace)  # once for the file, not per entry
    url_is_sse = kind == "mcpServers" and (gemini_file or gemini_settings(origin, data))
    specs = []
    for name, raw in (block or {}).items():
        where = f"{origin}: {kind}.{name}"
        found: list[str] = []
        if not isinstance(name, str):
            found.append(f"{where}: the server name was read as {yaml_kind(name)} ({yaml_spelled(name)}) "
                         "(YAML reads on/off/yes/no as booleans); quote it to keep the name")
        try:
            spec = parse_server(str(name), raw, kind, where, environ=environ, workspace=workspace,
                                base_dir=base_dir, warnings=found, env_files=env_files, context=context,
                                url_is_sse=url_is_sse)
            problems.warn(found)
        except ConfigError as exc:
            problems.warn(found)
            spec = _invalid_spec(str(name), raw, str(exc), where, getattr(exc, "secrets", ()), kind,
                                 counted_only=not problems.broken())
        specs.append(spec)
    if kind == "mcp_servers":
        found = []
        specs = _hermes_timeouts(data, specs, origin, found)
        problems.warn(found)
    warnings.extend(problems.count_lines())
    if len(specs) > 1:  # every value from the file is a secret in every server's output
        from dataclasses import replace  # noqa: PLC0415
        # one tuple shared by every server, its own values included (they are its secrets anyway): a
        # tuple of the others' values per server grew with the square of the servers (a 2.7 MB config
        # of 200,000 entries did not finish in five minutes)
        # (and one index of their forms, built on first use: masking a server's reason against
        # a list of the file's secrets took time in the square of the servers too)
        every = SecretValues(v for spec in specs for v in spec.own_secrets())
        if every:  # none: every spec keeps the empty tuple it has
            specs = [replace(spec, peer_secrets=every) for spec in specs]
    tools = data.get("tools")
    return McpConfig(kind=kind, servers=tuple(specs), origin=origin, warnings=tuple(warnings),
                     has_tool_search=isinstance(tools, Mapping) and "tool_search" in tools)


def _hermes_timeouts(data: Mapping[str, Any], specs: list[ServerSpec], origin: str,
                     warnings: list[str]) -> list[ServerSpec]:
    """Hermes' top-level ``timeouts.mcp.tool_call`` and ``timeouts.mcp.connect`` (seconds) as the
    default ``timeout`` / ``connect_timeout`` of servers that set none (docs/reference.md §25.3)."""
    from dataclasses import replace  # noqa: PLC0415

    block = data.get("timeouts")
    block = block.get("mcp") if isinstance(block, Mapping) else None
    if not isinstance(block, Mapping):
        return specs
    defaults: dict[str, float] = {}
    for key, field_name in (("tool_call", "timeout"), ("connect", "connect_timeout"),
                            ("connect_timeout", "connect_timeout")):
        if block.get(key) is None:
            continue
        try:
            defaults[field_name] = _seconds(block[key], f"{origin}: timeouts.mcp.{key}")  # type: ignore[assignment]
        except ConfigError as exc:
            warnings.append(f"{exc}; ignored")
    return [replace(spec, **{k: v for k, v in defaults.items() if getattr(spec, k) is None}) if not spec.invalid
            else spec for spec in specs]


def parse_config_text(text: str, origin: str, **kwargs: Any) -> McpConfig:
    """Parse config text (JSON or YAML). Raises :class:`ConfigError` naming ``origin`` and the place."""
    return parse_config_data(parse_text(text, origin), origin, **kwargs)


def load_mcp_config(path: str | Path, **kwargs: Any) -> McpConfig:
    """Read an MCP client config file.

    ``envFile`` paths are relative to the file's folder; ``${workspaceFolder}`` is the working
    directory unless ``workspace`` is given.

    Raises:
        ConfigError: unreadable file, invalid JSON/YAML, or not a config (a bad entry is a spec
            with :attr:`ServerSpec.invalid` set, not an error); VS Code's shape in a file whose
            name does not end in ``.json`` / ``.jsonc`` (:func:`misplaced_vscode_config`).
    """
    path = Path(path)
    text = readers.read_text(path, ConfigError)
    kwargs.setdefault("base_dir", path.parent)
    kwargs.setdefault("gemini_file", gemini_settings_path(path.absolute()))  # `settings.json` read from in ~/.gemini
    config = parse_config_text(text, str(path), **kwargs)
    problem = misplaced_vscode_config(config.kind, path)
    if problem:
        raise ConfigError(problem)
    return config


def default_call_timeout(data: Any) -> float | None:
    """Hermes' top-level ``timeouts.mcp.tool_call`` (seconds), when a config sets it
    (:func:`parse_config_data` applies it to every ``mcp_servers`` entry without ``timeout``)."""
    try:
        value = data["timeouts"]["mcp"]["tool_call"]
    except (KeyError, TypeError):
        return None
    try:
        return float(value) if float(value) > 0 else None
    except (TypeError, ValueError):
        return None


def spec_from_fields(name: str, *, command: str | None = None, args: Iterable[str] | str = (),
                     env: Mapping[str, str] | None = None, cwd: str | None = None, url: str | None = None,
                     headers: Mapping[str, str] | None = None, transport: str | None = None,
                     timeout: float | None = None, connect_timeout: float | None = None,
                     tools: Mapping[str, Any] | None = None) -> ServerSpec:
    """A spec from form fields (the app's "add a server" form), with the same checks and
    interpolation as a config entry (``mcpServers`` rules).

    Args:
        name: the server name.
        command, args, env, cwd: a stdio server (used when ``url`` is empty).
        url, headers, transport: a remote server; ``transport`` defaults to ``http``.
        timeout: seconds for one tool call; ``None`` = the default.
        connect_timeout: seconds for connect + handshake + listing; ``None`` = the default.
        tools: the per-server ``tools`` block (``include``, ``exclude``, ``resources``,
            ``prompts``; docs/reference.md §25.1, §24.2).

    Raises:
        ConfigError: a bad field (names the server and the field).
    """
    raw: dict[str, Any] = {}
    if url:
        raw["url"] = url
        raw["type"] = transport or "http"
        if headers:
            raw["headers"] = dict(headers)
    else:
        raw["command"] = command
        raw["args"] = list(args) if not isinstance(args, str) else args
        if env:
            raw["env"] = dict(env)
        if cwd:
            raw["cwd"] = cwd
    if timeout is not None:
        raw["timeout"] = timeout
    if connect_timeout is not None:
        raw["connect_timeout"] = connect_timeout
    if tools:
        raw["tools"] = dict(tools)
    if not name or not name.strip():
        raise ConfigError("server name: expected a non-empty name")
    return parse_server(name.strip(), raw, "mcpServers", f"form: {name.strip()}")
